-- When a table's seats last changed hands (issue #47): a seat handed to the computer or taken
-- back, barred (left, banned, /kick), a member unseated from the lobby — wall-clock seconds
-- (0: never since this column came). A membership answer cached before it is asked again at
-- the table's next press, so a ban the bot was not told of is found at once.
ALTER TABLE tables ADD COLUMN seats_at REAL NOT NULL DEFAULT 0;
