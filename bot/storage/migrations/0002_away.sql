-- A seat whose owner can't be reached (blocked the bot): the computer plays it until he is back.
ALTER TABLE seats ADD COLUMN away INTEGER NOT NULL DEFAULT 0;
