-- What each message the bot sent shows now, as digests of its text and of its keyboard, so that
-- no edit identical to it is ever sent, after a restart too (PRODUCT.md §9).
CREATE TABLE shown (
    chat_id     INTEGER NOT NULL,
    message_id  INTEGER NOT NULL,
    text_hash   TEXT NOT NULL,
    markup_hash TEXT NOT NULL,
    PRIMARY KEY (chat_id, message_id)
) WITHOUT ROWID;
