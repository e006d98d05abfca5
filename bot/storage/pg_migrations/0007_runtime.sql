-- PostgreSQL twin of migrations/0007_runtime.sql: PostgreSQL alters the columns in place where
-- SQLite had to copy the tables.
ALTER TABLE pulkas RENAME TO matches;
ALTER TABLE seats ADD COLUMN kind TEXT NOT NULL DEFAULT 'human'
    CHECK (kind IN ('human', 'computer'));
ALTER TABLE seats ALTER COLUMN user_id DROP NOT NULL;
ALTER TABLE seats ADD CHECK ((kind = 'human') = (user_id IS NOT NULL));
CREATE INDEX seats_user ON seats(user_id);
ALTER TABLE messages ADD COLUMN keyboard BOOLEAN NOT NULL DEFAULT true;
INSERT INTO messages (chat_id, key, message_id, digest)
    SELECT chat_id, 'lobby:' || id, lobby_msg_id, '' FROM tables WHERE lobby_msg_id IS NOT NULL
    ON CONFLICT DO NOTHING;
INSERT INTO messages (chat_id, key, message_id, digest)
    SELECT chat_id, 'table:' || id, table_msg_id, '' FROM tables WHERE table_msg_id IS NOT NULL
    ON CONFLICT DO NOTHING;
INSERT INTO messages (chat_id, key, message_id, digest)
    SELECT chat_id, 'result:' || id, result_msg_id, '' FROM tables
    WHERE result_msg_id IS NOT NULL ON CONFLICT DO NOTHING;
INSERT INTO messages (chat_id, key, message_id, digest)
    SELECT chat_id, 'cancel:' || id, cancel_msg_id, '' FROM tables
    WHERE cancel_msg_id IS NOT NULL ON CONFLICT DO NOTHING;
INSERT INTO messages (chat_id, key, message_id, digest)
    SELECT chat_id, 'notice:' || id, notice_msg_id, '' FROM tables
    WHERE notice_msg_id IS NOT NULL ON CONFLICT DO NOTHING;
INSERT INTO messages (chat_id, key, message_id, digest)
    SELECT chat_id, 'hand:' || table_id || ':' || seat, message_id, '' FROM hands
    WHERE message_id IS NOT NULL ON CONFLICT DO NOTHING;
ALTER TABLE tables DROP COLUMN lobby_msg_id;
ALTER TABLE tables DROP COLUMN table_msg_id;
ALTER TABLE tables DROP COLUMN result_msg_id;
ALTER TABLE tables DROP COLUMN cancel_msg_id;
ALTER TABLE tables DROP COLUMN notice_msg_id;
DELETE FROM hands WHERE marks = '' AND mode = '';
ALTER TABLE hands DROP COLUMN chat_id;
ALTER TABLE hands DROP COLUMN message_id;
ALTER TABLE hands DROP COLUMN offers;
DROP TABLE shown;
CREATE TABLE deadlines (
    table_id BIGINT NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
    kind     TEXT NOT NULL,
    due_at   DOUBLE PRECISION NOT NULL,
    moves    INTEGER NOT NULL,
    PRIMARY KEY (table_id, kind)
);
