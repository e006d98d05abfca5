-- PostgreSQL twin of migrations/0008_ledger_points.sql.
ALTER TABLE ledger ADD COLUMN points BIGINT NOT NULL DEFAULT 0;
