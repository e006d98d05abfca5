-- Fair deals (#28): a match's random outcomes are stored with what drew them — the match's start
-- (its first-dealer draw and first deal) and each action whose consequences drew (a next deal,
-- a Копилка take) — as the record's own lines (RECORD.md §R3.2), JSON; a table loaded again
-- replays them. NULL on a match: one from before, whose decks follow from its seed.
ALTER TABLE matches ADD COLUMN drawn TEXT;
ALTER TABLE actions ADD COLUMN drawn TEXT;
