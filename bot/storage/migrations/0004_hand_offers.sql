-- What each hand message offers now: the callback data of its buttons, one per line (NULL:
-- unknown). A press counts only if the presser's current hand offers exactly its data (§6.4).
ALTER TABLE hands ADD COLUMN offers TEXT;
