-- PostgreSQL twin of migrations/0017_sending.sql.
ALTER TABLE messages ADD COLUMN sending BOOLEAN NOT NULL DEFAULT FALSE;
