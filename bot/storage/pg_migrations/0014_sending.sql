-- PostgreSQL twin of migrations/0014_sending.sql.
ALTER TABLE messages ADD COLUMN sending BOOLEAN NOT NULL DEFAULT FALSE;
