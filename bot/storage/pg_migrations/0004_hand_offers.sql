-- PostgreSQL twin of migrations/0004_hand_offers.sql.
ALTER TABLE hands ADD COLUMN offers TEXT;
