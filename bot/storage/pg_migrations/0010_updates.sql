-- PostgreSQL twin of migrations/0010_updates.sql.
CREATE TABLE updates (
    update_id BIGINT PRIMARY KEY,
    seen_at DOUBLE PRECISION NOT NULL
);
CREATE INDEX updates_seen_at ON updates(seen_at);
