"""💡 hints: the strongest computer's ranked choices for a person's own decision
(:func:`engine.players.advice.advise`), where the table allows them.

Never at a rated table of people: :func:`hints_allowed` is the one gate (the hand's 💡 is drawn
only where it holds, and a press of it is checked again). The search runs in a worker thread,
as the computers' moves do (:mod:`bot.runtime.thinking`), so the event loop answers the other
tables meanwhile; it reads only the asker's own view, never anyone else's cards.
"""

from __future__ import annotations

import asyncio

from bot.runtime.tables import Table
from bot.storage.rows import SeatKind
from engine.players.advice import Advice, advise


def hints_allowed(table: Table) -> bool:
    """Whether the table offers 💡: a practice table (one person against computers, never
    rated), or a teaching one (its creator made it so in the lobby: never rated, 💡 for every
    person at it, each for his own decision). A rated table never does — not even one person's
    against computers, whose result counts."""
    row = table.row
    if row.rated:
        return False
    if row.teaching:
        return True
    return row.practice and sum(1 for s in table.seats if s.kind is SeatKind.HUMAN) == 1


def hint_seed(table: Table) -> int:
    """The advice's seed: the same table at the same move gives the same hint."""
    return table.id * 1_000_003 + table.row.moves


async def advice_for(table: Table, seat: int) -> Advice:
    """The advice for ``seat``'s decision, searched off the event loop."""
    assert table.match is not None
    view = table.match.state.view(seat)
    return await asyncio.to_thread(advise, view, hint_seed(table))


__all__ = ["advice_for", "hint_seed", "hints_allowed"]
