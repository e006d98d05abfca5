-- The durable outbox (issue #36): what the bot owes a chat — a deal's result, a match's result,
-- a notice — written in the unit of work of the action that caused it, and settled once it was
-- shown (or could never be). After a kill every entry still owed is shown again, in order.
-- ref: the entry's own name (deal:12:1:40, result:12:1, note:12:40:2); key: the message key
-- it shows under (NULL: a one-off notice); what: the screen as data (bot.runtime.owed); state:
-- pending → sent (the request is going out) → settled; tries: how often a send was claimed (a
-- claim names the count it read, so of workers resuming together exactly one sends).
CREATE TABLE owed (
    id      INTEGER PRIMARY KEY AUTOINCREMENT,
    ref     TEXT NOT NULL UNIQUE,
    chat_id INTEGER NOT NULL,
    key     TEXT,
    what    TEXT NOT NULL,
    state   TEXT NOT NULL DEFAULT 'pending',
    tries   INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX owed_open ON owed (state, id);
