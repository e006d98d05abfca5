"""Scoring against the count and the pulka's settlement (RULES.md §1.5, §1.6).

Pure functions over one deal's facts: which seats played, who held the privileged card when the
first trick was led, and the five tricks. What a trick is worth is the variant's
:attr:`~engine.trick.rules.Variant.score` (§1.5.3–§1.5.5); the rest is common to the family.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.cards import Suit
from engine.core import EndReason, Line, Seat

from .options import MushkaOptions
from .rules import HAND_SIZE, Plays, Points, Trick, Variant

__all__ = [
    "Figures",
    "Plays",
    "Points",
    "Trick",
    "apply_count",
    "deal_end_line",
    "end_line",
    "instant_figures",
    "played_figures",
    "pulka_money",
    "tally",
    "trick_points",
    "walkover_figures",
    "zero_order",
]


@dataclass(frozen=True, slots=True)
class Figures:
    """One seat's figures of a deal (RECORD.md §R6.3)."""

    seat: Seat
    status: str  # "played", "passed", "walkover"
    held: bool
    tricks: int
    written_off: int
    remise: int
    before: int
    after: int
    overshoot: bool

    def line(self) -> dict[str, object]:
        return {
            "seat": self.seat,
            "status": self.status,
            "held": self.held,
            "tricks": self.tricks,
            "written_off": self.written_off,
            "remise": self.remise,
            "before": self.before,
            "after": self.after,
            "overshoot": self.overshoot,
        }


def tally(tricks: Sequence[Trick], players: int) -> tuple[list[int], list[int]]:
    """Per seat: tricks won and the number of the last trick won (0: none)."""
    won = [0] * players
    last = [0] * players
    for trick in tricks:
        won[trick.winner] += 1
        last[trick.winner] = trick.no
    return won, last


def trick_points(
    variant: Variant, trump: Suit, holder: Seat | None, tricks: Sequence[Trick], players: int
) -> Points:
    """Per seat: tricks won t, points written off W, remise R (for t = 0) and the number of the
    last scoring trick (0: none) — §1.5.3–§1.5.5, §1.5.8. Non-playing seats get zeros here too;
    the caller applies ``remise`` only to playing seats."""
    return variant.score(tricks, holder, trump, variant.privileged, players)


def apply_count(count: int, written_off: int, remise: int, target: int) -> tuple[int, bool]:
    """The count after a deal and whether it overshot (§1.5.7)."""
    after = count - written_off + remise
    if after < 0:
        return target, True  # §1.5.7 b
    return after, False


def _passed(seat: Seat, count: int) -> Figures:
    """§1.5.2: a seat that passed has all figures zero."""
    return Figures(seat, "passed", False, 0, 0, 0, count, count, False)


def played_figures(
    declared: Sequence[str | None],
    counts: Sequence[int],
    points: Points,
    holder: Seat | None,
    target: int,
) -> tuple[list[Figures], list[Seat]]:
    """§1.5.2, §1.5.7: every seat's figures of a played deal, and the seats reaching zero."""
    won, written, remise, _ = points
    figures = []
    reached = []
    for seat, before in enumerate(counts):
        if declared[seat] != "play":
            figures.append(_passed(seat, before))
            continue
        w = written[seat]
        r = remise[seat] if won[seat] == 0 else 0
        after, over = apply_count(before, w, r, target)
        if after == 0:
            reached.append(seat)
        figures.append(
            Figures(seat, "played", seat == holder, won[seat], w, r, before, after, over)
        )
    return figures, reached


def walkover_figures(dealer: Seat, counts: Sequence[int]) -> tuple[list[Figures], list[Seat]]:
    """§1.3.5, §1.5.6: the lone dealer has five tricks and writes off min(5, count)."""
    figures = []
    for seat, count in enumerate(counts):
        if seat == dealer:
            w = min(HAND_SIZE, count)
            figures.append(Figures(seat, "walkover", False, 5, w, 0, count, count - w, False))
        else:
            figures.append(_passed(seat, count))
    return figures, [dealer] if counts[dealer] <= HAND_SIZE else []


def instant_figures(declared: Sequence[str | None], counts: Sequence[int]) -> list[Figures]:
    """§1.6.4, RECORD.md §R6.3: an instant win scores nothing; ``played`` if declared so."""
    return [
        Figures(
            seat, "played" if declared[seat] == "play" else "passed", False, 0, 0, 0, c, c, False
        )
        for seat, c in enumerate(counts)
    ]


def deal_end_line(
    no: int, result: str, trump: Suit, figures: Sequence[Figures], zero: list[Seat]
) -> Line:
    """RECORD.md §R6.3."""
    return {
        "t": "deal_end",
        "no": no,
        "result": result,
        "trump": trump.value,
        "seats": [f.line() for f in figures],
        "zero": zero,
    }


def end_line(
    reason: EndReason,
    winner: Seat,
    deals: int,
    counts: Sequence[int],
    side: Sequence[int],
    options: MushkaOptions,
) -> Line:
    """RECORD.md §R6.4: the pulka money (§1.6.1, §1.6.4), the side ledger (§1.6.3) and the net,
    their sum (§1.6.5)."""
    pulka = pulka_money(counts, winner, options.point_value, options.pulka_fee)
    return {
        "t": "end",
        "reason": reason.value,
        "winner": winner,
        "deals": deals,
        "counts": list(counts),
        "pulka": pulka,
        "side": list(side),
        "net": [p + s for p, s in zip(pulka, side, strict=True)],
    }


def zero_order(
    reached: Sequence[Seat], last: Sequence[int], dealer: Seat, players: int
) -> list[Seat]:
    """Seats that reached zero, the winner first (§1.5.8)."""
    return sorted(reached, key=lambda s: (last[s], (s - dealer - 1) % players))


def pulka_money(counts: Sequence[int], winner: Seat, point_value: int, fee: int) -> list[int]:
    """The winner collects count × point_value + pulka_fee from each other seat (§1.6.1, §1.6.4);
    ``pulka_fee`` is the pulka's fixed price (§1.6.2)."""
    money = [0] * len(counts)
    for seat, count in enumerate(counts):
        if seat != winner:
            pay = count * point_value + fee
            money[seat] -= pay
            money[winner] += pay
    return money
