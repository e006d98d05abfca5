-- The runtime's schema (#13): the neutral word "match" for one game of a table; computer seats
-- (a seat kind, a seat without a Telegram user); every message id lives in the outbox's
-- `messages` table under a key; stored deadlines for scheduled work.
ALTER TABLE pulkas RENAME TO matches;
CREATE TABLE seats_new (
    table_id INTEGER NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
    seat     INTEGER NOT NULL,
    kind     TEXT NOT NULL DEFAULT 'human' CHECK (kind IN ('human', 'computer')),
    user_id  INTEGER REFERENCES users(id),
    name     TEXT NOT NULL,
    away     INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (table_id, seat),
    UNIQUE (table_id, user_id),
    CHECK ((kind = 'human') = (user_id IS NOT NULL))
);
INSERT INTO seats_new (table_id, seat, kind, user_id, name, away)
    SELECT table_id, seat, 'human', user_id, name, away FROM seats;
DROP TABLE seats;
ALTER TABLE seats_new RENAME TO seats;
CREATE INDEX seats_user ON seats(user_id);
ALTER TABLE messages ADD COLUMN keyboard INTEGER NOT NULL DEFAULT 1;
INSERT OR IGNORE INTO messages (chat_id, key, message_id, digest)
    SELECT chat_id, 'lobby:' || id, lobby_msg_id, '' FROM tables WHERE lobby_msg_id IS NOT NULL;
INSERT OR IGNORE INTO messages (chat_id, key, message_id, digest)
    SELECT chat_id, 'table:' || id, table_msg_id, '' FROM tables WHERE table_msg_id IS NOT NULL;
INSERT OR IGNORE INTO messages (chat_id, key, message_id, digest)
    SELECT chat_id, 'result:' || id, result_msg_id, '' FROM tables WHERE result_msg_id IS NOT NULL;
INSERT OR IGNORE INTO messages (chat_id, key, message_id, digest)
    SELECT chat_id, 'cancel:' || id, cancel_msg_id, '' FROM tables WHERE cancel_msg_id IS NOT NULL;
INSERT OR IGNORE INTO messages (chat_id, key, message_id, digest)
    SELECT chat_id, 'notice:' || id, notice_msg_id, '' FROM tables WHERE notice_msg_id IS NOT NULL;
INSERT OR IGNORE INTO messages (chat_id, key, message_id, digest)
    SELECT chat_id, 'hand:' || table_id || ':' || seat, message_id, '' FROM hands
    WHERE message_id IS NOT NULL;
ALTER TABLE tables DROP COLUMN lobby_msg_id;
ALTER TABLE tables DROP COLUMN table_msg_id;
ALTER TABLE tables DROP COLUMN result_msg_id;
ALTER TABLE tables DROP COLUMN cancel_msg_id;
ALTER TABLE tables DROP COLUMN notice_msg_id;
CREATE TABLE hands_new (
    table_id INTEGER NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
    seat     INTEGER NOT NULL,
    marks    TEXT NOT NULL DEFAULT '',
    mode     TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (table_id, seat)
);
INSERT INTO hands_new (table_id, seat, marks, mode)
    SELECT table_id, seat, marks, mode FROM hands WHERE marks != '' OR mode != '';
DROP TABLE hands;
ALTER TABLE hands_new RENAME TO hands;
DROP TABLE shown;
CREATE TABLE deadlines (
    table_id INTEGER NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
    kind     TEXT NOT NULL,
    due_at   REAL NOT NULL,
    moves    INTEGER NOT NULL,
    PRIMARY KEY (table_id, kind)
);
