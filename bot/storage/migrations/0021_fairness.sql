-- Ratings that can't be farmed. actions.stand_in: who decided the action at a person's seat —
-- '' the seat's own player (the person himself; at a computer seat, that computer), else the
-- level of the computer that decided it for him (his turn's time ran out, or the computer played
-- his seat: ⋯ → 🤖, two expiries, a closed private chat, he left the group). A seat whose
-- decisions were mostly the computer's is rated as that computer, not as its person.
-- seats.agreed: while a question to close the running table is open (a 'close' deadline), the
-- seated people who agreed to it.
ALTER TABLE actions ADD COLUMN stand_in TEXT NOT NULL DEFAULT '';
ALTER TABLE seats ADD COLUMN agreed INTEGER NOT NULL DEFAULT 0;
