-- Who may act at a seat, and how often its owner may make the group hear of it (#28): a seat
-- whose owner left the group or was removed by /kick is barred (the computer keeps it for the
-- rest of the table); the deal whose group line about the seat was posted (at most one a deal);
-- when its owner last handed it over or took it back himself (his toggles are rate-limited).
ALTER TABLE seats ADD COLUMN barred TEXT NOT NULL DEFAULT '';
ALTER TABLE seats ADD COLUMN noticed INTEGER NOT NULL DEFAULT 0;
ALTER TABLE seats ADD COLUMN toggled_at REAL NOT NULL DEFAULT 0;
