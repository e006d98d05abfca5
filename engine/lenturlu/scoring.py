"""Лентюрлю's pure reckonings: hand points and the settlement of the deal (RULES.md §3.5)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from engine.cards import RANK_VALUE, Card
from engine.core import Seat

from .rules import LENTURLU_CARDS


def card_points(card: Card) -> int:
    """Hand points of one card (§3.5.3): A 1, 2–10 face, J Q K 10; Lenturlu cards double.

    >>> [card_points(Card.parse(c)) for c in ("AH", "9C", "QD", "QS", "7D", "AS")]
    [1, 9, 10, 20, 14, 2]
    """
    points = min(RANK_VALUE[card.rank], 10)
    return 2 * points if card in LENTURLU_CARDS else points


def hand_points(cards: Iterable[Card]) -> int:
    """Points of a hand left at the end (§3.5.3)."""
    return sum(card_points(c) for c in cards)


def loser_pays(payment: str, rate: int, hand: Sequence[Card], points: int) -> int:
    """§3.5.2: what one loser pays the winner: ``rate`` per loser, per card or per point.

    Under ``cards`` every card counts 1 (§3.5.3: the doubling is for points only).

    >>> loser_pays("fixed", 3, [], 0), loser_pays("cards", 3, [Card.parse("QS")], 20)
    (3, 3)
    """
    if payment == "fixed":
        return rate
    if payment == "cards":
        return rate * len(hand)
    return rate * points


def nets(
    winner: Seat,
    remainder: int,
    pays: Sequence[int],
    taken: Sequence[int],
    staked: Sequence[int],
    refills: Sequence[int],
) -> tuple[list[int], list[int], list[int]]:
    """§3.5.1, §3.5.4: the layout taken, the payments and the net per seat (nets sum to zero).

    Net = stakes taken + (winner: layout remainder + payments received) − 5 × unit − refills
    paid − payments made.

    >>> nets(1, 7, [3, 0, 2], [0, 8, 0], [5, 5, 5], [0, 0, 0])
    ([0, 7, 0], [-3, 5, -2], [-8, 15, -7])
    """
    seats = range(len(pays))
    layout = [remainder if s == winner else 0 for s in seats]
    payments = [sum(pays) if s == winner else -pays[s] for s in seats]
    net = [taken[s] + layout[s] + payments[s] - staked[s] - refills[s] for s in seats]
    assert sum(net) == 0, net
    return layout, payments, net
