-- PostgreSQL twin of migrations/0022_pacing.sql.
ALTER TABLE notify ADD COLUMN pinged_at DOUBLE PRECISION NOT NULL DEFAULT 0;
ALTER TABLE seats ADD COLUMN cards_at DOUBLE PRECISION NOT NULL DEFAULT 0;
CREATE TABLE post_claims (
    chat_id    BIGINT NOT NULL,
    key        TEXT NOT NULL,
    claimed_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (chat_id, key)
);
