-- Exactly-once sends (issue #28): a keyed message about to be sent is marked first (sending =
-- 1; message_id 0 while it has none yet) and settled with its id when Telegram answers
-- (bot.sending.outbox, "Exactly once").
ALTER TABLE messages ADD COLUMN sending INTEGER NOT NULL DEFAULT 0;
