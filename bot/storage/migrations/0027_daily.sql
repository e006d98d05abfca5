-- The day's deal: each UTC day (day: 'YYYY-MM-DD') and game one secret, drawn from the
-- cryptographic source by whoever asks first (an insert that loses the race reads the
-- winner's); the deal's cards and its computers' play derive from it, and it is never shown.
CREATE TABLE daily_deals (
    day    TEXT NOT NULL,
    game   TEXT NOT NULL,
    secret TEXT NOT NULL,
    PRIMARY KEY (day, game)
);
-- Each person's one try a day and game: his table (private, against computers), the group he
-- started it from (NULL: his private chat), the name he is shown by, and once finished his
-- score (the game's own terms, higher is better) and when. One row each: counted once.
CREATE TABLE daily_tries (
    day         TEXT NOT NULL,
    game        TEXT NOT NULL,
    user_id     INTEGER NOT NULL,
    name        TEXT NOT NULL,
    table_id    INTEGER NOT NULL,
    group_id    INTEGER,
    score       INTEGER,
    finished_at REAL,
    PRIMARY KEY (day, game, user_id)
);
CREATE INDEX daily_tries_table ON daily_tries (table_id);
CREATE INDEX daily_tries_board ON daily_tries (day, game, score);
