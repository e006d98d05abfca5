-- PostgreSQL twin of migrations/0019_owed.sql: the durable outbox (issue #36).
CREATE TABLE owed (
    id      BIGSERIAL PRIMARY KEY,
    ref     TEXT NOT NULL UNIQUE,
    chat_id BIGINT NOT NULL,
    key     TEXT,
    what    TEXT NOT NULL,
    state   TEXT NOT NULL DEFAULT 'pending',
    tries   INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX owed_open ON owed (state, id);
