-- What every message the bot keeps up to date is and shows (the outbox), across restarts.
CREATE TABLE messages (
    chat_id    INTEGER NOT NULL,
    key        TEXT NOT NULL,
    message_id INTEGER NOT NULL,
    digest     TEXT NOT NULL,
    PRIMARY KEY (chat_id, key)
);
