"""Мушка-Шутиха: the QS, spades always trump, five spades, the deal-out (RULES.md §1)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from engine.cards import K_HIGH, Card, Suit
from engine.core import Seat

from .options import ShutikhaOptions
from .rules import HAND_SIZE, KS, QS, Points, Privilege, Shown, Trick, Variant

NOTHING: Final = Shown()


def five_spades(hands: Sequence[tuple[Seat, Sequence[Card]]]) -> Shown:
    """§1.3.9: five spades with the QS win the pulka at once (the QS is unique: one at most)."""
    for seat, hand in hands:
        if len(hand) == HAND_SIZE and QS in hand and all(c.suit is Suit.SPADES for c in hand):
            return Shown(win=(seat, "five_spades"))
    return NOTHING


def deal_out_the_queen(stock: Sequence[Card], playing: Sequence[Seat]) -> list[tuple[Seat, Card]]:
    """§1.3.12: if the QS is still in the stock, the stock's cards from the top, one at a time,
    to the playing players in turn (``playing`` starts left of the dealer) until it is dealt."""
    if QS not in stock:
        return []
    dealt = []
    for k, card in enumerate(stock):
        dealt.append((playing[k % len(playing)], card))
        if card == QS:
            break
    return dealt


def score_trick_values(
    tricks: Sequence[Trick], holder: Seat | None, trump: Suit, privileged: Card, players: int
) -> Points:
    """§1.5.4 ``shutikha``, §1.5.5: trick values 8, 5 + 4, 1; no remise for the QS player."""
    won = [0] * players
    written = [0] * players
    last = [0] * players
    for trick in tricks:
        winner = trick.winner
        won[winner] += 1
        last[winner] = trick.no
        qs_seat = next((s for s, c in trick.plays if c == QS), None)
        if qs_seat is None:
            written[winner] += 1
        elif qs_seat == winner:
            written[winner] += 8  # a trick won by the QS
        else:
            # only the KS beats the QS (§1.4.7): 5 to the KS player, 4 for the QS player,
            # whose scoring trick this is too (§1.5.8)
            assert any(c == KS for s, c in trick.plays if s == winner)
            written[winner] += 5
            written[qs_seat] += 4
            last[qs_seat] = trick.no
    remise = [5 if t == 0 and seat != holder else 0 for seat, t in enumerate(won)]
    return won, written, remise, last


SHUTIKHA: Final = Variant(
    "shutikha",
    K_HIGH,  # §1.1.3
    QS,  # §1.1.4
    ShutikhaOptions,
    trump=Suit.SPADES,  # §1.2.3: nothing is turned up (§1.1.7)
    privilege=Privilege.PLAIN,  # §1.4.7
    score=score_trick_values,  # §1.5.4, §1.5.5
    check=five_spades,  # §1.3.9
    deal_out=deal_out_the_queen,  # §1.3.12
    holder_may_pass=True,  # §1.3.3 a: the QS holder declares like anyone else
)
"""Мушка-Шутиха (RULES.md §1)."""
