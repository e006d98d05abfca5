"""The statements of pacing, shared by both backends: when a /notify subscriber was
last pinged about a new table of a chat (``notify.pinged_at``), when a seat's cards were last
sent anew by the table's 🂠 (``seats.cards_at``), and the claims of posts that go once per chat
(``post_claims``: a game's record)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.keys import OutboxKey
from bot.storage.rows import Subscriber
from bot.storage.runner import Runner

CHUNK = 500  # the ids of one ``IN (…)`` (well under either backend's parameter limit)


class PacingStatements:
    """The statements of :class:`bot.storage.protocol.Reads`', ``Writes``' and
    ``Repository``'s pacing, run by the runner given."""

    def __init__(self, runner: Runner) -> None:
        self.runner = runner

    async def subscribers(self, chat_id: int) -> list[Subscriber]:
        rows = await self.runner.all(
            "SELECT user_id, pinged_at FROM notify WHERE chat_id = ? ORDER BY user_id", (chat_id,)
        )
        return [Subscriber(int(r["user_id"]), float(r["pinged_at"])) for r in rows]

    async def set_pinged(self, chat_id: int, user_ids: Sequence[int], at: float) -> None:
        for start in range(0, len(user_ids), CHUNK):
            chunk = list(user_ids[start : start + CHUNK])
            marks = ", ".join("?" * len(chunk))
            await self.runner.run(
                f"UPDATE notify SET pinged_at = ? WHERE chat_id = ? AND user_id IN ({marks})",
                (at, chat_id, *chunk),
            )

    async def set_cards_at(self, table_id: int, seat: int, at: float) -> None:
        sql = "UPDATE seats SET cards_at = ? WHERE table_id = ? AND seat = ?"
        await self.runner.run(sql, (at, table_id, seat))

    async def claim_post(
        self, chat_id: int, key: OutboxKey, at: float, lapsed_before: float
    ) -> bool:
        """True when this caller may send post ``key`` to the chat: nobody claimed it, or the
        claim is older than ``lapsed_before`` (one statement: of callers at once, one wins)."""
        row = await self.runner.write_one(
            "INSERT INTO post_claims(chat_id, key, claimed_at) VALUES (?, ?, ?)"
            " ON CONFLICT(chat_id, key) DO UPDATE SET claimed_at = excluded.claimed_at"
            " WHERE post_claims.claimed_at < ? RETURNING chat_id",
            (chat_id, str(key), at, lapsed_before),
        )
        return row is not None
