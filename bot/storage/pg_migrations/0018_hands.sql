-- PostgreSQL twin of migrations/0018_hands.sql.
ALTER TABLE tables ADD COLUMN hands TEXT NOT NULL DEFAULT 'private';
ALTER TABLE seats ADD COLUMN private BOOLEAN NOT NULL DEFAULT false;
