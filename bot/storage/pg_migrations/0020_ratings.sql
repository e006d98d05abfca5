-- PostgreSQL twin of migrations/0020_ratings.sql: skill ratings (issue #35). μ and σ are
-- double precision, as SQLite's REAL: a rebuild gives both backends the same figures.
CREATE TABLE results (
    id       BIGSERIAL PRIMARY KEY,
    table_id BIGINT NOT NULL,
    match_no INTEGER NOT NULL,
    chat_id  BIGINT NOT NULL,
    game     TEXT NOT NULL,
    solo     BOOLEAN NOT NULL DEFAULT FALSE,
    seats    TEXT NOT NULL,
    UNIQUE (table_id, match_no)
);
CREATE TABLE ratings (
    scope   BIGINT NOT NULL,
    game    TEXT NOT NULL,
    user_id BIGINT NOT NULL,
    level   TEXT NOT NULL DEFAULT '',
    mu      DOUBLE PRECISION NOT NULL,
    sigma   DOUBLE PRECISION NOT NULL,
    games   INTEGER NOT NULL DEFAULT 0,
    solo    INTEGER NOT NULL DEFAULT 0,
    won     INTEGER NOT NULL DEFAULT 0,
    money   BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (scope, game, user_id, level)
);
