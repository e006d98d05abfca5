-- PostgreSQL twin of migrations/0001_init.sql (same tables and columns; every Telegram id and
-- message id BIGINT, flags BOOLEAN, times DOUBLE PRECISION, JSON kept as the same text).
CREATE TABLE chats (
    id          BIGINT PRIMARY KEY,
    title       TEXT NOT NULL DEFAULT '',
    language    TEXT
);
CREATE TABLE users (
    id            BIGINT PRIMARY KEY,
    first_name    TEXT NOT NULL DEFAULT '',
    username      TEXT,
    language_code TEXT,
    language      TEXT,
    private_ok    BOOLEAN NOT NULL DEFAULT false
);
CREATE TABLE tables (
    id           BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    chat_id      BIGINT NOT NULL REFERENCES chats(id),
    game         TEXT NOT NULL,
    options      TEXT NOT NULL DEFAULT '{}',
    status       TEXT NOT NULL CHECK (status IN ('lobby', 'running', 'ended', 'closed')),
    creator_id   BIGINT NOT NULL REFERENCES users(id),
    join_code    TEXT NOT NULL,
    generation   INTEGER NOT NULL DEFAULT 0,
    moves        INTEGER NOT NULL DEFAULT 0,
    lobby_msg_id BIGINT,
    table_msg_id BIGINT,
    result_msg_id BIGINT,
    created_at   DOUBLE PRECISION NOT NULL
);
CREATE INDEX tables_open ON tables(chat_id) WHERE status IN ('lobby', 'running', 'ended');
CREATE TABLE seats (
    table_id BIGINT NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
    seat     INTEGER NOT NULL,
    user_id  BIGINT NOT NULL REFERENCES users(id),
    name     TEXT NOT NULL,
    PRIMARY KEY (table_id, seat),
    UNIQUE (table_id, user_id)
);
CREATE TABLE pulkas (
    table_id    BIGINT NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
    no          INTEGER NOT NULL,
    seed        BIGINT NOT NULL,
    prev_dealer INTEGER,
    first_seq   INTEGER NOT NULL,
    net         TEXT,
    PRIMARY KEY (table_id, no)
);
CREATE TABLE actions (
    table_id BIGINT NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
    seq      INTEGER NOT NULL,
    seat     INTEGER NOT NULL,
    action   TEXT NOT NULL,
    PRIMARY KEY (table_id, seq)
);
CREATE TABLE hands (
    table_id   BIGINT NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
    seat       INTEGER NOT NULL,
    chat_id    BIGINT NOT NULL,
    message_id BIGINT,
    marks      TEXT NOT NULL DEFAULT '',
    mode       TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (table_id, seat)
);
CREATE TABLE ledger (
    chat_id BIGINT NOT NULL,
    game    TEXT NOT NULL,
    user_id BIGINT NOT NULL REFERENCES users(id),
    balance BIGINT NOT NULL DEFAULT 0,
    played  INTEGER NOT NULL DEFAULT 0,
    won     INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (chat_id, game, user_id)
);
