-- PostgreSQL twin of migrations/0006_messages.sql.
CREATE TABLE messages (
    chat_id    BIGINT NOT NULL,
    key        TEXT NOT NULL,
    message_id BIGINT NOT NULL,
    digest     TEXT NOT NULL,
    PRIMARY KEY (chat_id, key)
);
