-- Chat and user settings (#17, PRODUCT.md §15): one JSON object each, '{}' = every default
-- (bot.storage.settings validates it on read). The language stays in its own column. A table
-- keeps the turn timeout it was opened with (NULL: the operator's BOT_TURN_TIMEOUT_S).
ALTER TABLE chats ADD COLUMN settings TEXT NOT NULL DEFAULT '{}';
ALTER TABLE users ADD COLUMN settings TEXT NOT NULL DEFAULT '{}';
ALTER TABLE tables ADD COLUMN turn_timeout_s REAL;
