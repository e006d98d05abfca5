"""The outbox's statements, shared by both backends: the keyed messages it keeps up to date
(``messages``) and what it owes the chats (``owed``, the durable outbox).

Exactly once. A keyed message is *marked* before its send goes out and *settled* with its
Telegram id when the answer comes (:mod:`bot.sending.outbox`). An owed entry — written in the
unit of work of the action that caused it — is *claimed* (``sent``) in the same transaction as
its message's mark, and ``settled`` in the same transaction as its message's id: a kill can't
leave the message stored and the entry owed, so a restart shows it again only when its send was
cut short (and then a second copy only if Telegram had the first). A claim names the ``tries``
it read: of several workers about to send one entry (a restart's resume beside a live queue),
exactly one does.

An entry whose send failed past the Bot API's patience is *held* (``held``): it is sent again
while the bot runs (a stored deadline, :meth:`bot.runtime.redraw.Redraw.owed_due`). A later
entry of the same chat is not sent before it: its claim finds the earlier one held and holds it
too, behind it, so the chat sees its results in the order they were owed.
"""

from __future__ import annotations

from bot.keys import OutboxKey, outbox_key
from bot.storage.rows import Claim, OwedRef, OwedRow, OwedState, StoredMessage
from bot.storage.runner import Runner

_PUT = (
    "INSERT INTO messages (chat_id, key, message_id, digest, keyboard)"
    " VALUES (?, ?, ?, ?, ?) ON CONFLICT (chat_id, key) DO UPDATE"
    " SET message_id = excluded.message_id, digest = excluded.digest,"
    " keyboard = excluded.keyboard, sending = FALSE"
)
_INTEND = (
    "INSERT INTO messages (chat_id, key, message_id, digest, keyboard, sending)"
    " VALUES (?, ?, 0, '', FALSE, TRUE)"
    " ON CONFLICT (chat_id, key) DO UPDATE SET sending = TRUE"
)
_SETTLE = "UPDATE owed SET state = ? WHERE ref = ?"


class OutboxStatements:
    """The statements of the outbox's store (:class:`bot.storage.protocol.MessageStore`) and the
    unit of work's :meth:`owe`, run by the runner given."""

    def __init__(self, runner: Runner) -> None:
        self.runner = runner

    # --- keyed messages -----------------------------------------------------------------

    async def messages(self) -> list[StoredMessage]:
        rows = await self.runner.all(
            "SELECT chat_id, key, message_id, digest, keyboard FROM messages WHERE message_id != 0"
        )
        return [
            StoredMessage(
                r["chat_id"],
                outbox_key(r["key"]),
                r["message_id"],
                r["digest"],
                bool(r["keyboard"]),
            )
            for r in rows
        ]

    async def intend_message(
        self, chat_id: int, key: OutboxKey, owed: OwedRef | None = None
    ) -> Claim:
        if owed is None:
            await self.runner.write(_INTEND, (chat_id, str(key)))
            return Claim.MINE
        async with self.runner.unit() as tx:
            claim = await _claim(tx, owed)
            if claim is Claim.MINE:
                await tx.run(_INTEND, (chat_id, str(key)))
        return claim

    async def claim_owed(self, owed: OwedRef) -> Claim:
        async with self.runner.unit() as tx:
            return await _claim(tx, owed)

    async def hold_owed(self, owed: OwedRef) -> bool:
        """The entry this sender claimed (``owed``: as the claim left it) could not be sent for
        now: held, to be sent again while the bot runs (False: another sender has it since)."""
        row = await self.runner.write_one(
            "UPDATE owed SET state = ? WHERE ref = ? AND tries = ? AND state = ? RETURNING tries",
            (OwedState.HELD, owed.ref, owed.tries, OwedState.SENT),
        )
        return row is not None

    async def intents(self) -> list[tuple[int, OutboxKey]]:
        rows = await self.runner.all("SELECT chat_id, key FROM messages WHERE sending")
        return [(int(r["chat_id"]), outbox_key(str(r["key"]))) for r in rows]

    async def put_message(self, message: StoredMessage, owed: OwedRef | None = None) -> None:
        m = message
        params = (m.chat_id, str(m.key), m.message_id, m.digest, m.keyboard)
        if owed is None:
            await self.runner.write(_PUT, params)
            return
        async with self.runner.unit() as tx:
            await tx.run(_PUT, params)
            await tx.run(_SETTLE, (OwedState.SETTLED, owed.ref))

    async def drop_message(self, chat_id: int, key: OutboxKey) -> None:
        sql = "DELETE FROM messages WHERE chat_id = ? AND key = ?"
        await self.runner.write(sql, (chat_id, str(key)))

    # --- what the chats are owed (the durable outbox) -----------------------------------

    async def owe(self, ref: str, chat_id: int, key: OutboxKey | None, what: str) -> None:
        await self.runner.run(
            "INSERT INTO owed (ref, chat_id, key, what, state) VALUES (?, ?, ?, ?, ?)"
            " ON CONFLICT (ref) DO NOTHING",
            (ref, chat_id, None if key is None else str(key), what, OwedState.PENDING),
        )

    async def owed(self) -> list[OwedRow]:
        rows = await self.runner.all(
            "SELECT ref, chat_id, key, what, state, tries FROM owed WHERE state != ? ORDER BY id",
            (OwedState.SETTLED,),
        )
        return [
            OwedRow(
                OwedRef(str(r["ref"]), int(r["tries"])),
                int(r["chat_id"]),
                None if r["key"] is None else outbox_key(str(r["key"])),
                str(r["what"]),
                OwedState(r["state"]),
            )
            for r in rows
        ]

    async def settle_owed(self, owed: OwedRef) -> None:
        await self.runner.write(_SETTLE, (OwedState.SETTLED, owed.ref))

    async def prune_owed(self) -> None:
        await self.runner.write("DELETE FROM owed WHERE state = ?", (OwedState.SETTLED,))


async def _claim(tx: Runner, owed: OwedRef) -> Claim:
    """In the unit ``tx``: mark an owed entry ``sent`` if it is still as it was read (its
    ``tries``) and not settled — of the workers that would send it, exactly one may — unless an
    earlier entry of its chat is held: then it is held too, behind it."""
    behind = await tx.one(
        "SELECT e.id FROM owed AS o JOIN owed AS e ON e.chat_id = o.chat_id AND e.id < o.id"
        " WHERE o.ref = ? AND e.state = ? LIMIT 1",
        (owed.ref, OwedState.HELD),
    )
    state = OwedState.HELD if behind is not None else OwedState.SENT
    row = await tx.one(
        "UPDATE owed SET state = ?, tries = tries + ?"
        " WHERE ref = ? AND tries = ? AND state != ? RETURNING tries",
        (state, int(behind is None), owed.ref, owed.tries, OwedState.SETTLED),
    )
    if row is None:
        return Claim.TAKEN
    return Claim.BEHIND if behind is not None else Claim.MINE
