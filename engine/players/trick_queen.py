"""Where Шутиха's QS can be, for the ``hard`` player's samples (RULES.md §1.3.2, §1.3.4.1,
§1.3.12).

A uniform deal of the unseen cards (:func:`~engine.players.trick_sample.sample_codes`) puts the
QS anywhere among them — often in the discards or, in trick play, out of play — while the rules
leave it far fewer places:

* it is never discarded (§1.3.4.1), so it is never in the discard pile;
* if it is still in the stock when the declaration round ends, it is dealt out (§1.3.12): in
  trick play it is therefore never in the stock, and after a deal-out its holder is public — the
  seat that received the last card dealt (the number dealt is what the stock lost beyond the
  exchanges, the seats received them in turn from the dealer's left);
* so before the tricks it is in a hand (a playing seat's, one yet to declare, or one thrown in
  by a pass, §1.3.2) or in the stock; in trick play, in a playing seat's hand (not one void in
  spades, its suit) or in a hand thrown in.

:func:`queen_places` reads these places from the view, each with its weight (its number of card
slots: where a uniform deal restricted to them would put the QS); :func:`draw_placed` deals one
sample with the QS put in one of them first. At the first trick of a three-handed deal the QS
(when the seat has not seen it) is in a playing opponent's hand about 96% of the time; a uniform
deal gives that about 23%.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

from engine.core import Seat
from engine.trick.rules import HAND_SIZE, TrickPhase
from engine.trick.variant import VARIANTS
from engine.trick.view import TrickView

from .trick_sample import CODE, TrickKnowledge, sample_codes

STOCK = -1
"""A place: the stock (before the tricks only)."""

OUT = -2
"""A place: a hand thrown in by a pass (out of play for the deal)."""

Hands = list[list[int]]


@dataclass(frozen=True, slots=True)
class Placed:
    """One place of the QS: the seat (or :data:`STOCK`, :data:`OUT`), its weight, and the
    knowledge to deal the other unseen cards with."""

    place: int
    weight: int
    know: TrickKnowledge


def dealt_out(view: TrickView) -> int:
    """§1.3.12: how many cards the deal-out took from the stock this deal (0 before it, or when
    the QS was not in the stock): what the stock lost beyond the exchanges' draws."""
    if view.phase not in (TrickPhase.DISCARD, TrickPhase.PLAY):
        return 0
    start = view.deck_size - HAND_SIZE * view.players  # §1.1.7: Шутиха's stock
    drawn = sum(x for x in view.exchanged if x is not None)  # no turn-up in Шутиха (§1.2.3)
    return max(0, start - drawn - view.stock_size)


def _playing(view: TrickView) -> list[Seat]:
    n, dealer = view.players, view.dealer or 0
    seats = [(dealer + 1 + i) % n for i in range(n)]
    return [s for s in seats if view.declared[s] == "play"]


def queen_places(view: TrickView, know: TrickKnowledge) -> tuple[Placed, ...] | None:
    """The places the unseen QS may be in, weighted; None when there is nothing to place (not
    Шутиха, or the QS is seen: in the seat's hand, played, or pinned already)."""
    variant = VARIANTS[view.game]
    if variant.deal_out is None or view.seat is None:
        return None
    qs = CODE[view.game][variant.privileged]
    if qs not in know.codes or any(c == qs for c, _ in know.pinned_codes):
        return None
    me = view.seat
    dealt = dealt_out(view)
    places: list[tuple[int, int]] = []
    if dealt:
        playing = _playing(view)
        holder = playing[(dealt - 1) % len(playing)]  # the last card dealt was the QS
        if holder == me:
            return None  # cannot be: the seat would see it
        places.append((holder, 1))
    else:
        pinned = [s for _, s in know.pinned_codes]
        for s, need in enumerate(know.needs):
            fits = know.fits[s]
            free = need - pinned.count(s)
            if s != me and free > 0 and (fits is None or qs in fits):
                places.append((s, free))
        if view.phase == TrickPhase.DECLARE and view.stock_size:
            places.append((STOCK, view.stock_size))
        passed = sum(1 for s, d in enumerate(view.declared) if d == "pass" and s != me)
        if passed:
            places.append((OUT, HAND_SIZE * passed))
    if not places:
        return None
    without = tuple(c for c in know.codes if c != qs)
    out: list[Placed] = []
    for place, weight in places:
        if place >= 0:
            pinned_codes = (*know.pinned_codes, (qs, place))
            out.append(Placed(place, weight, replace(know, pinned_codes=pinned_codes)))
        else:
            out.append(Placed(place, weight, replace(know, codes=without)))
    return tuple(out)


def draw_placed(
    places: tuple[Placed, ...], qs: int, stock_size: int, rng: random.Random
) -> tuple[Hands, list[int]]:
    """One deal of the unseen cards (as :func:`sample_codes`: the hands, then the rest, the
    stock its first ``stock_size`` cards) with the QS in one of ``places``, drawn by weight."""
    pick = rng.randrange(sum(p.weight for p in places))
    for placed in places:
        if pick < placed.weight:
            break
        pick -= placed.weight
    hands, rest = sample_codes(placed.know, rng)
    if placed.place == STOCK:
        rest.insert(rng.randrange(stock_size), qs)
    elif placed.place == OUT:
        rest.append(qs)  # past the stock: out of play
    return hands, rest


__all__ = ["OUT", "STOCK", "Placed", "dealt_out", "draw_placed", "queen_places"]
