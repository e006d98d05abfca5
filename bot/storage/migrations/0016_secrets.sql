-- The bot's own secrets (issue #28): "callback", the key of the buttons' tags (PRODUCT.md §7.1),
-- made once by the first process that needs it and shared by every worker. Not derived from the
-- token, so a token revoked at @BotFather leaves every button working.
CREATE TABLE secrets (
    name  TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
