-- Updates already taken (issue #17): Telegram delivers an update again after a crash or a slow
-- answer; its id is claimed here first, so a repeated /newgame or Join acts once. Rows older than
-- a day are pruned (Telegram keeps an undelivered update for 24 hours at most).
CREATE TABLE updates (
    update_id INTEGER PRIMARY KEY,
    seen_at REAL NOT NULL
);
CREATE INDEX updates_seen_at ON updates(seen_at);
