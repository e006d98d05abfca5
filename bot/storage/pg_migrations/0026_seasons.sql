-- PostgreSQL twin of migrations/0026_seasons.sql: seasons (a calendar month's boards).
ALTER TABLE results ADD COLUMN month TEXT NOT NULL DEFAULT '';
CREATE INDEX results_month ON results (month, chat_id);
CREATE TABLE seasons_told (
    chat_id BIGINT NOT NULL,
    month   TEXT NOT NULL,
    PRIMARY KEY (chat_id, month)
);
