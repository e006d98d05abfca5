-- Forum topics: a table lives in the topic it was opened in (NULL: a plain group, or a forum's
-- General topic); two topics of one group can hold two open tables.
ALTER TABLE tables ADD COLUMN thread_id INTEGER;
DROP INDEX tables_open;
CREATE INDEX tables_open ON tables(chat_id, thread_id) WHERE status IN ('lobby', 'running', 'ended');
