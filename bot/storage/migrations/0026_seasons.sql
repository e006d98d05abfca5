-- Seasons: a calendar month (UTC) has its own boards, from its rated matches alone.
-- results.month: the month a match finished in ('YYYY-MM', stamped with its standing, under
-- the ratings' lock; '' for the matches rated before seasons: on no season's board).
-- seasons_told: a group told its season's boards once the month was over (one row per group
-- and month, written before the message goes: told once, across restarts and workers).
ALTER TABLE results ADD COLUMN month TEXT NOT NULL DEFAULT '';
CREATE INDEX results_month ON results (month, chat_id);
CREATE TABLE seasons_told (
    chat_id INTEGER NOT NULL,
    month   TEXT NOT NULL,
    PRIMARY KEY (chat_id, month)
);
