-- PostgreSQL twin of migrations/0005_shown.sql (dropped again by 0007).
CREATE TABLE shown (
    chat_id     BIGINT NOT NULL,
    message_id  BIGINT NOT NULL,
    text_hash   TEXT NOT NULL,
    markup_hash TEXT NOT NULL,
    PRIMARY KEY (chat_id, message_id)
);
