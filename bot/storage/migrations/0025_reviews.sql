-- Reviews: a finished deal's review, once computed (its search takes up to a couple of seconds
-- of CPU), kept for every later page and every worker: the texts of its messages as one
-- viewer sees them (seat: his seat at that deal, -1: he did not play it; locale: his
-- language), a JSON list — the summary of his decisions ("" if none), then each step;
-- marks: his costliest decisions as the replay page marks them, a JSON list of
-- [deal, step, text] (none for a viewer who did not play it).
CREATE TABLE reviews (
    table_id INTEGER NOT NULL,
    match_no INTEGER NOT NULL,
    deal_no  INTEGER NOT NULL,
    seat     INTEGER NOT NULL,
    locale   TEXT NOT NULL,
    body     TEXT NOT NULL,
    marks    TEXT NOT NULL DEFAULT '[]',
    PRIMARY KEY (table_id, match_no, deal_no, seat, locale)
);
