"""Scoring against the count and the pulka's settlement (RULES.md §1.5, §1.6).

Pure functions over one deal's facts: which seats played, who held the privileged card when the
first trick was led, and the five tricks.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.cards import Card, Suit
from engine.core import Seat

from .variant import KS, QS, Variant

Plays = tuple[tuple[Seat, Card], ...]


@dataclass(frozen=True, slots=True)
class Trick:
    """A completed trick (RECORD.md §R6.2 ``trick``)."""

    no: int
    leader: Seat
    plays: Plays
    winner: Seat


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


def trick_points(
    variant: Variant, trump: Suit, holder: Seat | None, tricks: Sequence[Trick], players: int
) -> tuple[list[int], list[int], list[int], list[int]]:
    """Per seat: tricks won t, points written off W, remise R (for t = 0) and the number of the
    last scoring trick (0: none) — §1.5.3–§1.5.5, §1.5.8. Non-playing seats get zeros here too;
    the caller applies ``remise`` only to playing seats."""
    won = [0] * players
    written = [0] * players
    last = [0] * players
    for trick in tricks:
        winner = trick.winner
        won[winner] += 1
        last[winner] = trick.no
        if variant.name != "shutikha":
            continue
        qs_seat = next((s for s, c in trick.plays if c == QS), None)
        if qs_seat is None:
            written[winner] += 1
        elif qs_seat == winner:
            written[winner] += 8  # §1.5.5: a trick won by the QS
        else:
            # only the KS beats the QS (§1.4.7): 5 to the KS player, 4 for the QS player
            assert any(c == KS for s, c in trick.plays if s == winner)
            written[winner] += 5
            written[qs_seat] += 4
            last[qs_seat] = trick.no
    remise = [0] * players
    for seat in range(players):
        t = won[seat]
        held = seat == holder
        match variant.name:
            case "mushka" | "mistigri":
                if t == 0:
                    remise[seat] = 10 if held else 5
                elif held and variant.privileged_suit is trump:
                    written[seat] = 2 * t + 8
                elif held:
                    written[seat] = t + 5
                else:
                    written[seat] = t
            case "pamfil":
                written[seat] = t
                if t == 0:
                    remise[seat] = 5
            case _:  # shutikha: W already summed from trick values
                if t == 0 and not held:  # the QS player never takes a remise
                    remise[seat] = 5
    return won, written, remise, last


def apply_count(count: int, written_off: int, remise: int, target: int) -> tuple[int, bool]:
    """The count after a deal and whether it overshot (§1.5.7)."""
    after = count - written_off + remise
    if after < 0:
        return target, True
    return after, False


def zero_order(
    reached: Sequence[Seat], last: Sequence[int], dealer: Seat, players: int
) -> list[Seat]:
    """Seats that reached zero, the winner first (§1.5.8)."""
    return sorted(reached, key=lambda s: (last[s], (s - dealer - 1) % players))


def pulka_money(counts: Sequence[int], winner: Seat, point_value: int, fee: int) -> list[int]:
    """The winner collects count × point_value + pulka_fee from each other seat (§1.6.1)."""
    money = [0] * len(counts)
    for seat, count in enumerate(counts):
        if seat != winner:
            pay = count * point_value + fee
            money[seat] -= pay
            money[winner] += pay
    return money
