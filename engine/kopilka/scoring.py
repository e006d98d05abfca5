"""Копилка's pure reckonings: the trick's winner and points, the partia payout and its winner
(RULES.md §2.6)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.cards import A_HIGH, Card, Rank, Suit, rank_index
from engine.core import Seat
from engine.kopilka.rules import ACE_OF_SPADES, SUIT_POINTS

_STRENGTH = rank_index(A_HIGH)


@dataclass(frozen=True, slots=True)
class TrickOutcome:
    """Who won a completed trick and what it is worth (§2.4.6, §2.6.1)."""

    winner: Seat
    points: int
    double: bool


def judge_trick(led: Suit, plays: Sequence[tuple[Seat, Card]]) -> TrickOutcome:
    """The AS wins any trick it is in, else the highest card of the led suit (§2.4.4, §2.4.6).

    Points double when the winning card is the ace of the led suit or the AS (§2.6.1).
    """
    seat, card = next(
        ((s, c) for s, c in plays if c == ACE_OF_SPADES),
        max(
            ((s, c) for s, c in plays if c.suit is led),
            key=lambda sc: _STRENGTH[sc[1].rank],
        ),
    )
    double = card == ACE_OF_SPADES or (card.rank is Rank.ACE and card.suit is led)
    points = SUIT_POINTS[led] * (2 if double else 1)
    return TrickOutcome(seat, points, double)


@dataclass(frozen=True, slots=True)
class Payout:
    """The bank paid out at the end of the partia (§2.6.5)."""

    payout: tuple[int, ...]
    shortfall: bool


def pay_out(bank: int, points: Sequence[int], point_rate: int, last_winner: Seat) -> Payout:
    """§2.6.5: pay every point at ``point_rate`` if the bank suffices, else share it in proportion
    (rounded down); the winner of the last deal takes the rest. The bank ends empty.

    >>> pay_out(160, [25, 28, 7, 32], 1, 1)
    Payout(payout=(25, 96, 7, 32), shortfall=False)
    >>> pay_out(10, [3, 3, 0, 1], 2, 2)
    Payout(payout=(4, 4, 1, 1), shortfall=True)
    """
    due = sum(points) * point_rate
    if due <= bank:
        paid = [p * point_rate for p in points]
        shortfall = False
    else:
        total = sum(points)  # > 0 because due > bank ≥ 0
        paid = [bank * p // total for p in points]
        shortfall = True
    paid[last_winner] += bank - sum(paid)
    return Payout(tuple(paid), shortfall)


def partia_winner(
    net: Sequence[int], points: Sequence[int], last_winner: Seat, first_dealer: Seat
) -> Seat:
    """§2.6.7: the highest net; among equal nets the most partia points; then the winner of the
    last deal (V) if he is among them; then the first of them in seat order from the first
    dealer (the first dealer himself first).

    >>> partia_winner([10, -4, 10, -16], [7, 0, 9, 2], 0, 0)
    2
    >>> partia_winner([5, 5, -5, -5], [3, 3, 0, 0], 1, 0)
    1
    >>> partia_winner([5, -5, 5, -5], [3, 0, 3, 0], 3, 2)
    2
    """
    order = [(first_dealer + k) % len(net) for k in range(len(net))]
    best = max(net)
    tied = [s for s in order if net[s] == best]
    most = max(points[s] for s in tied)
    tied = [s for s in tied if points[s] == most]
    return last_winner if last_winner in tied else tied[0]


def deal_rows(
    tricks: Sequence[Sequence[tuple[Suit, int]]],
    points: Sequence[int],
    partia: Sequence[int],
    cards_left: Sequence[int],
    fines: Sequence[int],
) -> list[dict[str, object]]:
    """The ``seats`` of a deal's ``deal_end`` line (RECORD.md §R7): each seat's tricks (suit,
    points), the deal's points, the partia's so far, the cards left and the deal's fines."""
    return [
        {
            "seat": seat,
            "tricks": [[suit.value, p] for suit, p in won],
            "points": points[seat],
            "partia_points": partia[seat],
            "cards_left": cards_left[seat],
            "fines": fines[seat],
        }
        for seat, won in enumerate(tricks)
    ]
