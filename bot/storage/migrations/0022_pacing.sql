-- Pacing: what one member can make the bot send, paced.
-- notify.pinged_at: when the subscriber was last pinged about a new table of this chat
-- (wall-clock seconds; 0: never) — at most one ping per chat per BOT_NOTIFY_GAP_S.
-- seats.cards_at: when the table's 🂠 «Мои карты» last sent its owner's cards anew (its
-- throttle, as seats.toggled_at is the seat menu's).
-- post_claims: a post that goes once per chat (a game's record, /record), claimed before it is
-- queued; a repeat finds the claim (several workers, restarts). A claim whose post never
-- showed lapses (a kill, a failed send) and may be claimed again.
ALTER TABLE notify ADD COLUMN pinged_at REAL NOT NULL DEFAULT 0;
ALTER TABLE seats ADD COLUMN cards_at REAL NOT NULL DEFAULT 0;
CREATE TABLE post_claims (
    chat_id    INTEGER NOT NULL,
    key        TEXT NOT NULL,
    claimed_at REAL NOT NULL,
    PRIMARY KEY (chat_id, key)
);
