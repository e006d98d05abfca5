"""What every family's hand says once its game is over: who won, the seat's place
and its money. Each family gives the sentence for its game's end and how seats rank."""

from __future__ import annotations

from collections.abc import Sequence

from bot.i18n import Translator
from bot.markup import esc
from bot.numbers import signed
from bot.render.table_context import TableContext
from engine.core import Result, Seat


def place_of(seat: Seat, winner: Seat, ranks: Sequence[Sequence[int]]) -> int:
    """The seat's place: the winner first, then by ``ranks`` (per seat, higher is better); seats
    that rank the same share a place."""
    if seat == winner:
        return 1
    mine = tuple(ranks[seat])
    return 1 + sum(1 for s, r in enumerate(ranks) if s == winner or (s != seat and tuple(r) > mine))


def over_lines(
    ctx: TableContext,
    seat: Seat,
    result: Result | None,
    ranks: Sequence[Sequence[int]],
    over: str,
    stopped: str,
    tr: Translator,
) -> list[str]:
    """``The partia is over. Winner: Аня.`` / ``… you won.``, then ``Your place: 2 of 4 ·
    settlement: −25``. ``over``: the family's sentence for the end ("The partia is over");
    ``stopped``: its sentence for a game stopped unsettled (RULES.md §0.11)."""
    if result is None or result.winner is None:
        return [stopped]
    winner = result.winner
    if seat == winner:
        head = tr("{over}: you won.", over=over)
    else:
        head = tr("{over}. Winner: {name}.", over=over, name=esc(ctx.names[winner]))
    money = result.net[seat] if seat < len(result.net) else 0
    place = tr(
        "Your place: {place} of {n} · settlement: {money}",
        place=place_of(seat, winner, ranks),
        n=len(ranks),
        money=signed(money),
    )
    return [head, place]
