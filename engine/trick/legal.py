"""What the trick family allows, and who wins a trick (RULES.md §1.2.4, §1.3, §1.4).

Plain functions over explicit arguments: the state (:mod:`.state`) lists its legal actions with
them (the one source of legality) and explains a refusal with the same facts.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

from engine.cards import SUIT_ORDER, Card, Rank, Suit
from engine.core import Seat
from engine.errors import IllegalAction, Refusal

from .actions import ANNOUNCE, PASS, Exchange, Retrump, TrickAction, discards_of, exchanges_of
from .rules import HAND_SIZE, Plays, Privilege, Variant

SUIT: Final = "suit"
TRUMP: Final = "trump"


# --- declarations and exchanges (§1.2.4, §1.3) -------------------------------------------------


def declarations(
    hand: Sequence[Card],
    privileged: Card,
    *,
    may_announce: bool,
    may_pass: bool,
    stock: int,
    may_take_up: bool,
) -> tuple[TrickAction, ...]:
    """§1.3.6: ``announce`` (§1.3.7), ``pass`` (§1.3.2, §1.3.3), then every exchange.

    Exchanges (§1.3.4) name distinct cards of the hand other than the privileged card
    (§1.3.4.1), no more than the stock holds (§1.3.4.2); with ``up`` (§1.2.2) the dealer takes
    the turn-up for one of them, so N ≥ 1 and N − 1 ≤ stock. In the order of ``combinations``
    over the hand, each exchange followed by its ``up`` twin.
    """
    acts: list[TrickAction] = []
    if may_announce:
        acts.append(ANNOUNCE)
    if may_pass:
        acts.append(PASS)
    free = [c for c in hand if c != privileged]
    acts.extend(exchanges_of(free, stock, 1, stock + 1 if may_take_up else -1))
    return tuple(acts)


def retrumps(hand: Sequence[Card], privileged: Card) -> tuple[TrickAction, ...]:
    """§1.2.4: any suit named, any card but the JC discarded (§1.3.4.1)."""
    return tuple(Retrump(s, c) for s in SUIT_ORDER for c in hand if c != privileged)


def discards(hand: Sequence[Card], privileged: Card, count: int) -> tuple[TrickAction, ...]:
    """§1.3.12: ``count`` cards of the hand, never the privileged card (§1.3.4.1)."""
    return tuple(discards_of([c for c in hand if c != privileged], count))


def cards_refusal(
    hand: Sequence[Card], cards: Sequence[Card], privileged: Card
) -> IllegalAction | None:
    """Why these cards may not leave the hand (§1.3.4, §1.3.4.1), or None."""
    if len(set(cards)) != len(cards):
        return IllegalAction(Refusal.DUPLICATE_CARDS)
    for card in cards:
        if card not in hand:
            return IllegalAction(Refusal.NOT_IN_HAND, card=str(card))
    if privileged in cards:
        return IllegalAction(Refusal.PRIVILEGED_NOT_DISCARDED, card=str(privileged))
    return None


def may_pass(variant: Variant, hand: Sequence[Card]) -> bool:
    """§1.3.3 a: whether the privileged card lets the hand pass (Шутиха's QS does; the AS, JC
    and KC do not). The dealer's duty to defend (§1.3.3 b) is the caller's."""
    return variant.holder_may_pass or variant.privileged not in hand


def pass_refusal(hand: Sequence[Card], variant: Variant) -> IllegalAction:
    """Why ``pass`` is not legal: §1.3.3 a the privileged card, else b the defending dealer."""
    if not may_pass(variant, hand):
        return IllegalAction(Refusal.PRIVILEGED_MAY_NOT_PASS, card=str(variant.privileged))
    return IllegalAction(Refusal.DEALER_MUST_DEFEND)


def exchange_refusal(
    hand: Sequence[Card],
    action: Exchange,
    privileged: Card,
    dealer: bool,
    turn_up: bool,
    stock: int,
) -> IllegalAction:
    """Why an exchange is not legal (§1.3.4), the most specific reason first; the last one left
    is the stock running short (§1.3.4.2). ``dealer``: the seat is the dealer; ``turn_up``: the
    turn-up still lies on the table; ``stock``: the cards left in the stock."""
    cards, up = action.cards, action.up
    refusal = cards_refusal(hand, cards, privileged)
    if refusal is not None:
        return refusal
    if len(cards) > HAND_SIZE:
        return IllegalAction(Refusal.WRONG_CARD_COUNT, count=len(cards))
    if up and not dealer:
        return IllegalAction(Refusal.UP_DEALER_ONLY)
    if up and not turn_up:
        return IllegalAction(Refusal.TURN_UP_GONE)  # §1.2.2, §1.2.4
    if up and not cards:
        return IllegalAction(Refusal.UP_NEEDS_EXCHANGE)
    return IllegalAction(Refusal.STOCK_TOO_SMALL, stock=stock)


def discard_refusal(
    hand: Sequence[Card], cards: Sequence[Card], privileged: Card, expected: int
) -> IllegalAction:
    """Why a Шутиха discard is not legal (§1.3.12): the cards, else their number."""
    refusal = cards_refusal(hand, cards, privileged)
    if refusal is not None:
        return refusal
    return IllegalAction(Refusal.WRONG_CARD_COUNT, count=len(cards), expected=expected)


# --- tricks (§1.4) -----------------------------------------------------------------------------


def effective_suit(card: Card, trump: Suit, variant: Variant) -> Suit:
    """§1.4.2: every card is of its printed suit, but the Памфил JC is of the trump suit only."""
    priv = variant.privileged
    if variant.privilege is Privilege.WILD and card.rank is priv.rank and card.suit is priv.suit:
        return trump
    return card.suit


def obligation(
    hand: Sequence[Card], led: Suit, trump: Suit, variant: Variant, must_trump: bool
) -> tuple[list[Card] | None, str]:
    """The cards a non-leader must play from (None: any card, §1.4.3 c) and the rule that says
    so: :data:`SUIT` (§1.4.3 a) or :data:`TRUMP` (§1.4.3 b, option ``must_trump``)."""
    priv = variant.privileged
    p_rank: Rank = priv.rank
    p_suit: Suit = priv.suit
    wild = variant.privilege is Privilege.WILD
    suited: list[Card] = []
    trumps: list[Card] = []
    holds = False
    for card in hand:
        if card.rank is p_rank and card.suit is p_suit:
            holds = True
            if wild:
                continue  # §1.4.3: the hand is read without the Памфил JC
        if card.suit is led:
            suited.append(card)
        if card.suit is trump:
            trumps.append(card)
    if suited:
        # §1.4.4: the Памфил JC may be played instead, to any trick
        return ([*suited, priv] if wild and holds else suited), SUIT
    if must_trump and trumps:
        # §1.4.4: a privileged card may be played instead of the trump required (not Шутиха's
        # QS, a mere spade, §1.4.7; nor the AS / KC when its suit is trump: then it is one)
        if holds and variant.privilege is not Privilege.PLAIN and (wild or p_suit is not trump):
            trumps.append(priv)
        return trumps, TRUMP
    return None, ""


def playable(
    hand: Sequence[Card],
    trick: Sequence[tuple[Seat, Card]],
    trump: Suit,
    variant: Variant,
    must_trump: bool,
) -> list[Card]:
    """§1.4.3, §1.4.4: the cards the seat to play may play to the current trick; the leader
    may lead any card."""
    if not trick:
        return list(hand)
    led = effective_suit(trick[0][1], trump, variant)
    follow, _ = obligation(hand, led, trump, variant, must_trump)
    return list(hand) if follow is None else follow


def play_refusal(
    hand: Sequence[Card],
    card: Card,
    trick: Sequence[tuple[Seat, Card]],
    trump: Suit,
    variant: Variant,
    must_trump: bool,
) -> IllegalAction:
    """Why ``card`` may not be played to the trick: not held, §1.4.3 a or §1.4.3 b."""
    if card not in hand:
        return IllegalAction(Refusal.NOT_IN_HAND, card=str(card))
    led = effective_suit(trick[0][1], trump, variant)
    _, why = obligation(hand, led, trump, variant, must_trump)
    if why == SUIT:
        return IllegalAction(Refusal.MUST_FOLLOW_SUIT, suit=led.value)
    return IllegalAction(Refusal.MUST_TRUMP, suit=trump.value)


def trick_winner(plays: Plays, trump: Suit, variant: Variant, strength: Mapping[Rank, int]) -> Seat:
    """§1.4.5: the first rule that applies; "highest" by the rank order (§1.1.3)."""
    priv = variant.privileged
    rank, suit = priv.rank, priv.suit
    if variant.privilege is Privilege.WILD:  # (a) the Памфил JC wins, led or not
        for seat, card in plays:
            if card.rank is rank and card.suit is suit:
                return seat
    elif variant.privilege is Privilege.UNLED:  # (b) not when led (§1.4.6)
        for seat, card in plays[1:]:
            if card.rank is rank and card.suit is suit:
                return seat
    # Past (a) no card is wild, so every card's effective suit (§1.4.2) is its printed suit.
    trumps = [(strength[c.rank], s) for s, c in plays if c.suit is trump]
    if trumps:  # (c): any trump, even the smallest, beats a led AS / KC (§1.4.6)
        return max(trumps)[1]
    led = plays[0][1].suit  # (d)
    return max((strength[c.rank], s) for s, c in plays if c.suit is led)[1]
