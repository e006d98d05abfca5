"""A match closed before its end, as it stands: each seat's money as the deals played so far
leave it — the open deal void (RULES.md §0.11) — and the places that money gives, ties shared.

Read from the match's record (RECORD.md's lines) up to its last ``deal_end``; nothing is written
to the record: a match closed early still ends with RECORD.md's abandoned line, and settles
nothing. The places are the bot's matter: the ratings (:mod:`bot.runtime.ratings`).

What "the money so far" is, per family:

- the trick family (§1.6): the pulka is settled by the counts, every point of a seat's count
  costing it ``point_value`` at the settlement (§1.6.1), beside the side ledger (§1.6.3): the
  side ledger less count × ``point_value`` after the last deal played;
- Копилка (§2.6.5): the bank paid out now by the partia's points, less everything each seat
  paid in (the ante, the fines) — the settlement as if the partia ended after its last deal
  played;
- Кончинка (§4.4.5): its points, from which its money follows (the distance to the target, or
  the pot to whoever reaches it first);
- Лентюрлю: one deal is the whole game, so no deal is ever over before its end: None.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypeVar

from engine.core import Line
from engine.events import DealEnd, RecordLine, of_type
from engine.games import GAMES
from engine.konchinka.events import KonchinkaDealEnd
from engine.kopilka.events import Ante, Fined, KopilkaDealEnd
from engine.kopilka.scoring import pay_out
from engine.lines import LineKind, is_kind
from engine.options import parse_options
from engine.trick.events import FlushBonus, PamfilBonus, TrickDealEnd

SideBonus = PamfilBonus | FlushBonus  # §1.3.7, §1.3.10.2: each other pays
D = TypeVar("D", bound=DealEnd)


def played_deals(lines: Sequence[Line]) -> Sequence[Line]:
    """The record up to its last ``deal_end`` (the deals played); empty if no deal is over."""
    for i in range(len(lines) - 1, -1, -1):
        if is_kind(lines[i], LineKind.DEAL_END):
            return lines[: i + 1]
    return ()


def _last_deal(played: Sequence[RecordLine], kind: type[D]) -> D:
    """The last line of the deals played: a ``deal_end`` of the family's ``kind``."""
    last = played[-1]
    assert isinstance(last, kind), last
    return last


def _trick(options: Any, played: Sequence[RecordLine]) -> tuple[int, ...]:
    last = _last_deal(played, TrickDealEnd)
    counts = [s.after for s in sorted(last.seats, key=lambda s: s.seat)]
    side = [0] * len(counts)
    for bonus in (ln for ln in played if isinstance(ln, SideBonus)):
        for other in range(len(side)):
            if other != bonus.seat:
                side[other] -= bonus.amount
                side[bonus.seat] += bonus.amount
    return tuple(s - c * int(options.point_value) for s, c in zip(side, counts, strict=True))


def _kopilka(options: Any, played: Sequence[RecordLine]) -> tuple[int, ...]:
    last = _last_deal(played, KopilkaDealEnd)
    points = [s.partia_points for s in sorted(last.seats, key=lambda s: s.seat)]
    paid_in = [0] * len(points)
    for ante in of_type(played, Ante):
        paid_in = [p + ante.amount for p in paid_in]
    for fine in of_type(played, Fined):
        paid_in[fine.seat] += fine.amount
    paid = pay_out(last.bank, points, int(options.point_rate), last.winner)
    return tuple(p - q for p, q in zip(paid.payout, paid_in, strict=True))


def _konchinka(options: Any, played: Sequence[RecordLine]) -> tuple[int, ...]:
    last = _last_deal(played, KonchinkaDealEnd)
    return tuple(s.total for s in sorted(last.seats, key=lambda s: s.seat))


MONEY = {"trick": _trick, "kopilka": _kopilka, "konchinka": _konchinka}
"""Each family's money so far from its deals played (a family not here: never rated early)."""


def money_so_far(
    game: str, options: Mapping[str, Any], lines: Sequence[Line]
) -> tuple[int, ...] | None:
    """Each seat's money as the match's deals played leave it (the family's measure, above);
    None if no deal is over yet, or the family has none (then a close rates nothing)."""
    spec = GAMES[game]
    money = MONEY.get(spec.family)
    played = played_deals(lines)
    if money is None or not played:
        return None
    return money(parse_options(spec.options_type, options), spec.book.read(played))


def places_by(money: Sequence[int]) -> tuple[int, ...]:
    """Places by money, 1 best; equal money shares a place, the next counts them (1, 2, 2, 4)."""
    return tuple(1 + sum(other > mine for other in money) for mine in money)
