-- PostgreSQL twin of migrations/0011_notify.sql.
CREATE TABLE notify (
    chat_id BIGINT NOT NULL,
    user_id BIGINT NOT NULL,
    PRIMARY KEY (chat_id, user_id)
);
