-- PostgreSQL twin of migrations/0023_reserved.sql: a number kept for another part of issue #47.
SELECT 1;
