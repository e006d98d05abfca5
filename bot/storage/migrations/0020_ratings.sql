-- Skill ratings (issue #35). results: each finished match's standing, written with its last
-- action — the ratings are computed from these rows, in their order (id), and can be rebuilt
-- from them (`python -m bot ratings --rebuild`). seats: JSON, per seat
-- [user_id (0: a computer seat), level ('' for a person), name, place, money, rating, change]
-- (rating: the group's rating after the game, change: by how much it moved).
-- ratings: per scope (the chat; 0: across every chat), game and player (a person, or a
-- computer level with user_id 0), OpenSkill's μ and σ, the games rated (solo: at a table of
-- one person and computers), the money and the wins they brought.
CREATE TABLE results (
    id       INTEGER PRIMARY KEY AUTOINCREMENT,
    table_id INTEGER NOT NULL,
    match_no INTEGER NOT NULL,
    chat_id  INTEGER NOT NULL,
    game     TEXT NOT NULL,
    solo     BOOLEAN NOT NULL DEFAULT FALSE,
    seats    TEXT NOT NULL,
    UNIQUE (table_id, match_no)
);
CREATE TABLE ratings (
    scope   INTEGER NOT NULL,
    game    TEXT NOT NULL,
    user_id INTEGER NOT NULL,
    level   TEXT NOT NULL DEFAULT '',
    mu      REAL NOT NULL,
    sigma   REAL NOT NULL,
    games   INTEGER NOT NULL DEFAULT 0,
    solo    INTEGER NOT NULL DEFAULT 0,
    won     INTEGER NOT NULL DEFAULT 0,
    money   INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (scope, game, user_id, level)
);
