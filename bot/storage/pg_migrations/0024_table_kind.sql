-- PostgreSQL twin of migrations/0024_table_kind.sql.
ALTER TABLE tables ADD COLUMN kind TEXT NOT NULL DEFAULT 'group';
