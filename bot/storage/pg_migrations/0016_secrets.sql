-- PostgreSQL twin of migrations/0016_secrets.sql: the bot's own secrets (the buttons' key).
CREATE TABLE secrets (
    name  TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
