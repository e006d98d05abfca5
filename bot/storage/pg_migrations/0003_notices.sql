-- PostgreSQL twin of migrations/0003_notices.sql.
ALTER TABLE tables ADD COLUMN cancel_msg_id BIGINT;
ALTER TABLE tables ADD COLUMN notice_msg_id BIGINT;
