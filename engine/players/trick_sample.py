"""Determinization: the unseen cards of a trick-family deal, dealt at random consistently with
what one seat knows (its :class:`~engine.trick.view.TrickView` only).

What the seat knows: its own hand and exchange (§1.3.4), the turn-up lying or taken by the
dealer (§1.2.2, §1.2.4), the cards of this deal's tricks and of the trick in play (§1.4.8),
each seat's number of cards, who announced the JC (§1.3.7), and the voids that the plays
reveal: a seat that did not follow the led suit has none of it (§1.4.3 a), and with
``must_trump`` one that did not trump either has no trump (§1.4.3 b). Every other card of the
deck (§1.1.2) is unseen: in another seat's hand, in the stock, or out of play.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from types import MappingProxyType
from typing import Final

from engine.cards import SUIT_ORDER, Card, Suit, rank_index
from engine.core import Seat
from engine.trick import legal
from engine.trick.rules import Privilege, Variant, deck_for
from engine.trick.variant import VARIANTS
from engine.trick.view import TrickView

from .trick_tables import suit_no

CODE: Final = MappingProxyType(
    {
        name: MappingProxyType(
            {
                Card(r, s): suit_no(s) * 16 + i
                for s in SUIT_ORDER
                for r, i in rank_index(v.order).items()
            }
        )
        for name, v in VARIANTS.items()
    }
)
"""Per game: each card's code for the search (:mod:`.trick_search`): suit * 16 + strength."""

CARD: Final = MappingProxyType(
    {name: MappingProxyType({i: c for c, i in codes.items()}) for name, codes in CODE.items()}
)
"""Per game: the card of each code."""


TRIES = 20
"""Attempts at a deal that honours every void before the voids are relaxed."""


@dataclass(frozen=True, slots=True)
class TrickKnowledge:
    """What a seat knows of the unseen cards, read once per decision."""

    unseen: tuple[Card, ...]  # in the deck's order: never in the hidden order of the state
    needs: tuple[int, ...]  # per seat: how many unseen cards its hand holds (0 for the seat)
    voids: tuple[frozenset[Suit], ...]  # per seat: suits it is known to lack
    pinned: tuple[tuple[Card, Seat], ...]  # unseen cards whose holder is known
    game: str
    codes: tuple[int, ...]  # ``unseen`` as the search's codes (:mod:`.trick_search`)
    fits: tuple[frozenset[int] | None, ...]  # per seat: the codes it may hold (None: any)
    pinned_codes: tuple[tuple[int, Seat], ...]
    order: tuple[Seat, ...]  # the seats to deal to, the most constrained first


def _played(view: TrickView) -> list[tuple[Seat, Card]]:
    return [p for plays in view.tricks for p in plays] + list(view.trick)


def knowledge(view: TrickView) -> TrickKnowledge:
    """Read what ``view``'s seat knows of the cards it cannot see."""
    assert view.seat is not None
    me, n = view.seat, view.players
    variant = VARIANTS[view.game]
    trump = view.trump or Suit.SPADES
    seen: set[Card] = set(view.hand)
    played = _played(view)
    seen.update(c for _, c in played)
    if view.turn_up is not None:
        seen.add(view.turn_up)
    if view.exchange is not None:
        seen.update(view.exchange.discarded)
    voids: list[set[Suit]] = [set() for _ in range(n)]
    for plays in [*view.tricks, view.trick]:
        _read_voids(plays, trump, variant, view.must_trump, voids)
    pinned: list[tuple[Card, Seat]] = []
    holder: dict[Card, Seat] = {}
    if view.taken_up is not None and view.dealer is not None:
        holder[view.taken_up] = view.dealer
    if view.announced is not None:
        holder[variant.privileged] = view.announced
    for card, seat in holder.items():
        if card not in seen and seat != me:
            pinned.append((card, seat))
    needs = tuple(0 if s == me else view.hand_sizes[s] for s in range(n))
    unseen = tuple(c for c in deck_for(n) if c not in seen)
    code = CODE[view.game]
    codes = tuple(code[c] for c in unseen)
    fits = tuple(
        None if not v else frozenset(code[c] for c in unseen if _fits(c, v, trump, variant))
        for v in voids
    )
    frozen = tuple(frozenset(v) for v in voids)
    order = tuple(sorted(range(n), key=lambda s: (-len(voids[s]), s)))
    pinned_codes = tuple((code[c], s) for c, s in pinned)
    return TrickKnowledge(
        unseen, needs, frozen, tuple(pinned), view.game, codes, fits, pinned_codes, order
    )


def _read_voids(
    plays: tuple[tuple[Seat, Card], ...],
    trump: Suit,
    variant: Variant,
    must_trump: bool,
    voids: list[set[Suit]],
) -> None:
    if not plays:
        return
    led = legal.effective_suit(plays[0][1], trump, variant)
    priv = variant.privileged
    special = variant.privilege is not Privilege.PLAIN
    for seat, card in plays[1:]:
        if special and card == priv:
            continue  # the privileged card may be played instead (§1.4.4): it says nothing
        suit = legal.effective_suit(card, trump, variant)
        if suit is not led:
            voids[seat].add(led)
            if must_trump and suit is not trump:
                voids[seat].add(trump)


def _fits(card: Card, voids: set[Suit], trump: Suit, variant: Variant) -> bool:
    if not voids:
        return True
    if variant.privilege is Privilege.WILD and card == variant.privileged:
        return True  # read out of the hand for following (§1.4.3)
    return legal.effective_suit(card, trump, variant) not in voids


def sample_codes(know: TrickKnowledge, rng: random.Random) -> tuple[list[list[int]], list[int]]:
    """One deal of the unseen cards, as codes: every other seat's hand, and the rest in a
    random order (the stock is its first ``view.stock_size`` cards, the others are out of
    play)."""
    n = len(know.needs)
    for attempt in range(TRIES + 1):
        relax = attempt == TRIES
        pool = list(know.codes)
        rng.shuffle(pool)
        hands: list[list[int]] = [[] for _ in range(n)]
        for card, seat in know.pinned_codes:
            hands[seat].append(card)
            pool.remove(card)
        ok = True
        for seat in know.order:
            need = know.needs[seat] - len(hands[seat])
            if need <= 0:
                continue
            fits = None if relax else know.fits[seat]
            if fits is None:
                hands[seat].extend(pool[:need])
                del pool[:need]
                continue
            picked = [c for c in pool if c in fits][:need]
            if len(picked) < need:
                ok = False
                break
            hands[seat].extend(picked)
            taken = set(picked)
            pool = [c for c in pool if c not in taken]
        if ok:
            return hands, pool
    raise AssertionError("unreachable: a relaxed deal always fits")


def sample(
    know: TrickKnowledge, view: TrickView, rng: random.Random
) -> tuple[list[list[Card]], list[Card]]:
    """:func:`sample_codes` as cards (``view``: the view ``know`` was read from)."""
    hands, rest = sample_codes(know, rng)
    card = CARD[know.game]
    return [[card[c] for c in h] for h in hands], [card[c] for c in rest]


__all__ = ["CARD", "CODE", "TrickKnowledge", "knowledge", "sample", "sample_codes"]
