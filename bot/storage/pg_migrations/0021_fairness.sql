-- PostgreSQL twin of migrations/0021_fairness.sql: who decided each action at a person's seat
-- (the computer's level when it decided for him), and who agreed to close the running table.
ALTER TABLE actions ADD COLUMN stand_in TEXT NOT NULL DEFAULT '';
ALTER TABLE seats ADD COLUMN agreed BOOLEAN NOT NULL DEFAULT false;
