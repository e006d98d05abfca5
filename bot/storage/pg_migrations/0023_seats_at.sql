-- PostgreSQL twin of migrations/0023_seats_at.sql.
ALTER TABLE tables ADD COLUMN seats_at DOUBLE PRECISION NOT NULL DEFAULT 0;
