-- PostgreSQL twin of migrations/0028_daily.sql.
CREATE TABLE daily_deals (
    day    TEXT NOT NULL,
    game   TEXT NOT NULL,
    secret TEXT NOT NULL,
    PRIMARY KEY (day, game)
);
CREATE TABLE daily_tries (
    day         TEXT NOT NULL,
    game        TEXT NOT NULL,
    user_id     BIGINT NOT NULL,
    name        TEXT NOT NULL,
    table_id    BIGINT NOT NULL,
    group_id    BIGINT,
    score       INTEGER,
    finished_at DOUBLE PRECISION,
    PRIMARY KEY (day, game, user_id)
);
CREATE INDEX daily_tries_table ON daily_tries (table_id);
CREATE INDEX daily_tries_board ON daily_tries (day, game, score);
