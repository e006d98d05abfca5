-- PostgreSQL twin of migrations/0012_threads.sql: the forum topic a table lives in.
ALTER TABLE tables ADD COLUMN thread_id BIGINT;
DROP INDEX tables_open;
CREATE INDEX tables_open ON tables(chat_id, thread_id) WHERE status IN ('lobby', 'running', 'ended');
