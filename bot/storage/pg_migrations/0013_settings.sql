-- PostgreSQL twin of migrations/0013_settings.sql: chat and user settings, a table's turn time.
ALTER TABLE chats ADD COLUMN settings TEXT NOT NULL DEFAULT '{}';
ALTER TABLE users ADD COLUMN settings TEXT NOT NULL DEFAULT '{}';
ALTER TABLE tables ADD COLUMN turn_timeout_s DOUBLE PRECISION;
