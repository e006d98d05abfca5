"""What the table knows of the hands it cannot see, in a Копилка deal (RULES.md §2).

Nothing here decides anything: the state tells it what happened, and the views show a seat
what it may infer (a player who watched the deal would know as much). The computer players'
samplers deal the unseen cards consistently with it (:mod:`engine.players.kopilka_sim`).

* **Voids** (public): a follower who *passes* without paying the ``hold_pass`` fine (§2.4.3 a,
  §2.6.4; with ``hold_pass`` on and its fine 0 no fine is ever seen, so a pass says nothing)
  or who *buys* (§2.4.3 b: only without the led suit) has no card of the led suit; the
  seats the lead passes over (§2.4.2) hold only the last trick's suit, and so does everyone when
  the lead is freed. A draw from the stock (a buy §2.4.5, a replacement draw §2.3.6) brings
  unknown cards and clears a seat's voids; a card taken from a lay-out (§2.3.4) clears its suit.
* **Shown** (public): a card taken back (§2.4.7) is seen going back into its leader's hand and
  is known there until he plays it.
* **Ducked** (public): a follower who played a card of the led suit below the card then winning
  the trick (no AS in it, §2.4.4, §2.4.6), keeping the trick's winner, is noted with that
  winning card, per suit (the lowest such card since the seat last received a card of the suit
  or drew). It is a fact of the play, not of the hand: a player who follows high to take the
  trick — the simple player always does — holds nothing above it; the ``hard`` player weighs its
  samples by it (:mod:`engine.players.kopilka`), nothing else reads it.
* **Laid** (private, the layer's own): every card a seat laid out this deal (§2.3.3). The layer
  knows each one: the k−3 that came back are in his hand, the others went to opponents' hands —
  a card never goes back to the stock — until they are played.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from engine.cards import A_HIGH, Card, Suit, rank_index
from engine.core import Seat

from .rules import ACE_OF_SPADES

SUITS = frozenset(Suit)
STRENGTH = rank_index(A_HIGH)  # §2.1.1: the higher number beats the lower


class KopilkaKnowledge:
    """The table's inferences about the hands, for one deal (reset at each deal)."""

    __slots__ = ("_ducked", "_laid", "_shown", "_voids")

    def __init__(self, players: int) -> None:
        self._voids: list[set[Suit]] = [set() for _ in range(players)]
        self._ducked: list[dict[Suit, Card]] = [{} for _ in range(players)]
        self._shown: list[list[Card]] = [[] for _ in range(players)]
        self._laid: list[list[Card]] = [[] for _ in range(players)]

    def lacks(self, seat: Seat, suit: Suit) -> None:
        """§2.4.3 a: a pass with no fine seen — ``seat`` has no card of ``suit`` (a buy shows
        as much, but the cards it brings make it void of nothing: :meth:`drew`)."""
        self._voids[seat].add(suit)

    def only(self, seats: Iterable[Seat], suit: Suit) -> None:
        """§2.4.2: ``seats`` could not lead another suit than ``suit``."""
        for seat in seats:
            self._voids[seat] = set(SUITS - {suit})

    def drew(self, seat: Seat) -> None:
        """§2.3.6, §2.4.5: unknown cards came to ``seat`` from the stock."""
        self._voids[seat].clear()
        self._ducked[seat].clear()

    def received(self, seat: Seat, suit: Suit) -> None:
        """§2.3.4: ``seat`` took a card of ``suit`` from a lay-out; §2.4.7: got it back."""
        self._voids[seat].discard(suit)
        self._ducked[seat].pop(suit, None)

    def followed(
        self, seat: Seat, card: Card, led: Suit | None, plays: Sequence[tuple[Seat, Card]]
    ) -> None:
        """``seat`` follows with ``card`` to the trick so far (``plays``, led ``led``): below
        the card winning it, of the led suit, with no AS in it (§2.4.4, §2.4.6), it ducked."""
        if led is None or card.suit is not led or any(c == ACE_OF_SPADES for _, c in plays):
            return
        top = max((c for _, c in plays if c.suit is led), key=lambda c: STRENGTH[c.rank])
        if STRENGTH[card.rank] < STRENGTH[top.rank]:
            self.ducked(seat, top)

    def ducked(self, seat: Seat, winning: Card) -> None:
        """``seat`` followed below ``winning``, the card winning the trick (of the led suit)."""
        known = self._ducked[seat].get(winning.suit)
        if known is None or STRENGTH[winning.rank] < STRENGTH[known.rank]:
            self._ducked[seat][winning.suit] = winning

    def laid(self, seat: Seat, cards: Iterable[Card]) -> None:
        """§2.3.3: ``seat`` laid these cards out (it alone knows which; once each, though a
        card can come back to it and be laid out again)."""
        mine = self._laid[seat]
        mine.extend(c for c in cards if c not in mine)

    def took_back(self, seat: Seat, card: Card) -> None:
        """§2.4.7: ``card`` went back into ``seat``'s hand before everyone's eyes."""
        self._shown[seat].append(card)
        self.received(seat, card.suit)

    def played(self, seat: Seat, card: Card) -> None:
        if card in self._shown[seat]:
            self._shown[seat].remove(card)

    def ducked_under(self) -> tuple[tuple[Card, ...], ...]:
        return tuple(tuple(d.values()) for d in self._ducked)

    def voids(self) -> tuple[frozenset[Suit], ...]:
        return tuple(frozenset(v) for v in self._voids)

    def shown(self) -> tuple[tuple[Card, ...], ...]:
        return tuple(tuple(s) for s in self._shown)

    def laid_by(self, seat: Seat | None) -> tuple[Card, ...]:
        return () if seat is None else tuple(self._laid[seat])
