-- New-table pings (#17, PRODUCT.md "/notify"): who wants a private ping when a table opens in a
-- chat. Off by default: a row is "on".
CREATE TABLE notify (
    chat_id INTEGER NOT NULL,
    user_id INTEGER NOT NULL,
    PRIMARY KEY (chat_id, user_id)
);
