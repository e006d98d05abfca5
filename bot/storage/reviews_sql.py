"""The statements of the deals' reviews, shared by both backends: a review's texts once
computed (``reviews``), read by every later page on any worker."""

from __future__ import annotations

from dataclasses import dataclass

from bot.storage.runner import Runner


@dataclass(frozen=True, slots=True)
class ReviewKey:
    """Whose review of which deal: the table's match ``match_no``, its deal ``deal_no``, as the
    viewer at ``seat`` (-1: he did not play it) reads it in ``locale``."""

    table_id: int
    match_no: int
    deal_no: int
    seat: int
    locale: str


@dataclass(frozen=True, slots=True)
class StoredMarks:
    """A stored review's replay marks: deal ``deal_no`` as the viewer at ``seat`` read it,
    ``marks`` his costliest decisions as the replay page marks them (JSON, ``[]``: none)."""

    deal_no: int
    seat: int
    marks: str


class ReviewStatements:
    """The statements of :class:`bot.storage.protocol.Repository`'s reviews."""

    def __init__(self, runner: Runner) -> None:
        self.runner = runner

    async def review(self, key: ReviewKey) -> str | None:
        row = await self.runner.one(
            "SELECT body FROM reviews WHERE table_id = ? AND match_no = ? AND deal_no = ?"
            " AND seat = ? AND locale = ?",
            (key.table_id, key.match_no, key.deal_no, key.seat, key.locale),
        )
        return None if row is None else str(row["body"])

    async def put_review(self, key: ReviewKey, body: str, marks: str = "[]") -> None:
        """Keep a computed review (two workers computing it at once: the first one's stays —
        both are the same, the search being deterministic)."""
        await self.runner.write(
            "INSERT INTO reviews(table_id, match_no, deal_no, seat, locale, body, marks)"
            " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
            (key.table_id, key.match_no, key.deal_no, key.seat, key.locale, body, marks),
        )

    async def review_marks(self, table_id: int, match_no: int, locale: str) -> list[StoredMarks]:
        """Every stored review of the table's match ``match_no`` in ``locale``: its marks."""
        rows = await self.runner.all(
            "SELECT deal_no, seat, marks FROM reviews WHERE table_id = ? AND match_no = ?"
            " AND locale = ? ORDER BY deal_no, seat",
            (table_id, match_no, locale),
        )
        return [StoredMarks(int(r["deal_no"]), int(r["seat"]), str(r["marks"])) for r in rows]
