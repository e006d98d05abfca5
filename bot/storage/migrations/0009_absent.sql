-- Computer players and absent players (#16): a computer seat's level; a human seat's expiries
-- in a row (two hand it to the computer); when the bot was last alive, so that the time it was
-- down is not counted against anyone's turn (PRODUCT.md §13).
ALTER TABLE seats ADD COLUMN level TEXT NOT NULL DEFAULT 'normal';
ALTER TABLE seats ADD COLUMN expiries INTEGER NOT NULL DEFAULT 0;
CREATE TABLE alive (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    at REAL NOT NULL
);
