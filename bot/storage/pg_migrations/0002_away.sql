-- PostgreSQL twin of migrations/0002_away.sql.
ALTER TABLE seats ADD COLUMN away BOOLEAN NOT NULL DEFAULT false;
