"""What the trick family allows now, and why anything else is refused (RULES.md §1.3, §1.4).

:class:`TrickLegality` is the rules half of :class:`~engine.trick.state.TrickState`: the legal
actions of the seat to act (cached per version), the membership test ``apply`` uses, and the
refusal that names the most specific reason. It reads the state's fields and changes none but
its cache.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from engine.cards import SUIT_ORDER, Card, Rank, Suit
from engine.core import Seat, StateBase
from engine.errors import IllegalAction, Refusal

from .actions import (
    PLAY_CARD,
    Announce,
    Discard,
    Exchange,
    Pass,
    PlayCard,
    Retrump,
    TrickAction,
)
from .options import MushkaOptions
from .variant import Variant

_ANNOUNCE = Announce()
_PASS = Pass()


class TrickLegality(StateBase):
    """Legality of one pulka's decisions; :class:`TrickState` derives from it."""

    __slots__ = ("_legal", "_legal_version")
    _legal: tuple[TrickAction, ...]  # legal_actions of the seat to act at _legal_version
    _legal_version: int

    # the state's fields read here (their slots are declared by TrickState)
    variant: Variant
    options: MushkaOptions
    _phase: str
    _hands: list[list[Card]]
    _dealer: Seat
    _declared: list[str | None]
    _jc_dealt: Seat | None
    _announced: Seat | None
    _stock: list[Card]
    _turn_up: Card | None
    _received: list[int]
    _trick: list[tuple[Seat, Card]]
    _trump: Suit
    _pamfil: bool

    def legal_actions(self, seat: Seat) -> tuple[TrickAction, ...]:
        if seat != self._to_act:
            return ()
        if self._legal_version != self._version:
            self._legal = self._compute_legal(seat)
            self._legal_version = self._version
        return self._legal

    def _is_legal(self, seat: Seat, action: TrickAction) -> bool:
        """Whether ``action`` is among ``legal_actions(seat)``, without listing the exchanges."""
        if isinstance(action, Exchange):
            return self._phase == "declare" and self._exchange_ok(seat, action)
        if isinstance(action, Discard):
            return (
                self._phase == "discard"
                and len(action.cards) == self._received[seat]
                and self._cards_refusal(self._hands[seat], action.cards) is None
            )
        return action in self.legal_actions(seat)

    def _exchange_ok(self, seat: Seat, action: Exchange) -> bool:
        """§1.3.4: the checks of one exchange (the same rules ``_compute_legal`` lists)."""
        cards = action.cards
        if len(cards) > 5 or self._cards_refusal(self._hands[seat], cards) is not None:
            return False
        if action.up:
            return (
                seat == self._dealer
                and self._turn_up is not None
                and 1 <= len(cards) <= len(self._stock) + 1
            )
        return len(cards) <= len(self._stock)

    def _compute_legal(self, seat: Seat) -> tuple[TrickAction, ...]:
        hand = self._hands[seat]
        priv = self.variant.privileged
        if self._phase == "play":
            return tuple(PLAY_CARD[c] for c in self._playable(seat))
        if self._phase == "declare":
            acts: list[TrickAction] = []
            if seat == self._jc_dealt and self._announced is None:
                acts.append(_ANNOUNCE)
            if priv not in hand and not (seat == self._dealer and self._plays_declared() == 1):
                acts.append(_PASS)
            free = [c for c in hand if c != priv]
            stock = len(self._stock)
            can_up = seat == self._dealer and self._turn_up is not None
            for n in range(len(free) + 1):
                for combo in combinations(free, n):
                    if n <= stock:
                        acts.append(Exchange(combo))
                    if can_up and 1 <= n <= stock + 1:
                        acts.append(Exchange(combo, up=True))
            return tuple(acts)
        if self._phase == "retrump":
            return tuple(Retrump(s, c) for s in SUIT_ORDER for c in hand if c != priv)
        if self._phase == "discard":
            free = [c for c in hand if c != priv]
            return tuple(Discard(combo) for combo in combinations(free, self._received[seat]))
        return ()

    def _plays_declared(self) -> int:
        return sum(1 for d in self._declared if d == "play")

    def _effective(self, card: Card) -> Suit:
        """§1.4.2: the Памфил JC belongs to the trump suit only."""
        if self._pamfil and card.rank is Rank.JACK and card.suit is Suit.CLUBS:
            return self._trump
        return card.suit

    def _playable(self, seat: Seat) -> list[Card]:
        """§1.4.3, §1.4.4: the cards ``seat`` may play to the current trick."""
        hand = self._hands[seat]
        if not self._trick:
            return list(hand)
        follow, _ = self._obligation(seat, self._effective(self._trick[0][1]))
        return list(hand) if follow is None else follow

    def _obligation(self, seat: Seat, led: Suit) -> tuple[list[Card] | None, str]:
        """The cards a non-leader must play from (None: any card) and the rule that says so."""
        priv = self.variant.privileged
        p_rank, p_suit = priv.rank, priv.suit
        pamfil = self._pamfil
        trump = self._trump
        suited: list[Card] = []
        trumps: list[Card] = []
        holds = False
        for card in self._hands[seat]:
            if card.rank is p_rank and card.suit is p_suit:
                holds = True
                if pamfil:
                    continue  # §1.4.3: in Памфил the hand is read without the JC
            if card.suit is led:
                suited.append(card)
            if card.suit is trump:
                trumps.append(card)
        if suited:
            return ([*suited, priv] if pamfil and holds else suited), "suit"
        if self.options.must_trump and trumps:
            # §1.4.4: the privileged card may be played instead (not Шутиха's QS, a mere spade)
            if holds and self.game != "shutikha" and (pamfil or p_suit is not trump):
                trumps.append(priv)
            return trumps, "trump"
        return None, ""

    def _refusal(self, seat: Seat, action: TrickAction) -> IllegalAction:
        """Say why ``action`` is not legal, the most specific reason first."""
        hand = self._hands[seat]
        priv = self.variant.privileged
        phase = self._phase
        if phase == "retrump" and not isinstance(action, Retrump):
            return IllegalAction(Refusal.RETRUMP_FIRST)
        match action:
            case PlayCard(card) if phase == "play":
                if card not in hand:
                    return IllegalAction(Refusal.NOT_IN_HAND, card=str(card))
                led = self._effective(self._trick[0][1])
                _, why = self._obligation(seat, led)
                if why == "suit":
                    return IllegalAction(Refusal.MUST_FOLLOW_SUIT, suit=led.value)
                return IllegalAction(Refusal.MUST_TRUMP, suit=self._trump.value)
            case Pass() if phase == "declare":
                if priv in hand:
                    return IllegalAction(Refusal.PRIVILEGED_MAY_NOT_PASS, card=str(priv))
                return IllegalAction(Refusal.DEALER_MUST_DEFEND)
            case Exchange(cards, up) if phase == "declare":
                refusal = self._cards_refusal(hand, cards)
                if refusal is not None:
                    return refusal
                if len(cards) > 5:
                    return IllegalAction(Refusal.WRONG_CARD_COUNT, count=len(cards))
                if up and seat != self._dealer:
                    return IllegalAction(Refusal.UP_DEALER_ONLY)
                if up and self._turn_up is None:
                    return IllegalAction(Refusal.TURN_UP_GONE)
                if up and not cards:
                    return IllegalAction(Refusal.UP_NEEDS_EXCHANGE)
                return IllegalAction(Refusal.STOCK_TOO_SMALL, stock=len(self._stock))
            case Announce() if phase == "declare":
                return IllegalAction(Refusal.ANNOUNCE_NOT_ALLOWED)
            case Retrump(_, discard) if phase == "retrump":
                refusal = self._cards_refusal(hand, (discard,))
                if refusal is not None:
                    return refusal
            case Discard(cards) if phase == "discard":
                refusal = self._cards_refusal(hand, cards)
                if refusal is not None:
                    return refusal
                return IllegalAction(
                    Refusal.WRONG_CARD_COUNT, count=len(cards), expected=self._received[seat]
                )
            case _:
                pass
        return IllegalAction(Refusal.NOT_NOW, action=str(action))

    def _cards_refusal(self, hand: Sequence[Card], cards: Sequence[Card]) -> IllegalAction | None:
        if len(set(cards)) != len(cards):
            return IllegalAction(Refusal.DUPLICATE_CARDS)
        for card in cards:
            if card not in hand:
                return IllegalAction(Refusal.NOT_IN_HAND, card=str(card))
        if self.variant.privileged in cards:
            priv = str(self.variant.privileged)
            return IllegalAction(Refusal.PRIVILEGED_NOT_DISCARDED, card=priv)
        return None
