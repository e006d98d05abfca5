-- PostgreSQL twin of migrations/0021_reserved.sql: a number kept for another part of issue #47.
SELECT 1;
