-- PostgreSQL twin of migrations/0021_reserved.sql (a number kept; nothing changes).
SELECT 1;
