-- What a table is for: 'group' (a group's table, rated) or 'practice' (/practice in private:
-- one person and computers, never rated, nothing booked). Fixed when the table opens.
ALTER TABLE tables ADD COLUMN kind TEXT NOT NULL DEFAULT 'group';
