-- PostgreSQL twin of migrations/0025_reviews.sql.
CREATE TABLE reviews (
    table_id BIGINT NOT NULL,
    match_no INTEGER NOT NULL,
    deal_no  INTEGER NOT NULL,
    seat     INTEGER NOT NULL,
    locale   TEXT NOT NULL,
    body     TEXT NOT NULL,
    marks    TEXT NOT NULL DEFAULT '[]',
    PRIMARY KEY (table_id, match_no, deal_no, seat, locale)
);
