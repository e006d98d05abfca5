"""Inference for the trick family's ``hard`` player: deals sampled as the declarations make them
likely, not only as the plays make them possible.

The model of the other seats is the simple player (:func:`engine.players.trick.trick_policy`):
a seat plays a hand worth at least :data:`~engine.players.trick_model.PLAY_STRENGTH` plus one per
seat already in (trumps, the two top ranks, the privileged card counted twice) and else passes,
bluffing now and then; playing, it keeps its strong cards and exchanges the weak ones (§1.3.4).
So a seat that exchanged k of its five cards kept 5 − k cards a player would keep, and a seat
that played holds a hand worth playing — both read from the cards it holds at its first trick
(its hand now plus what it has played this deal; the exchange is before, so what it kept is
still there).

A deal drawn by :func:`~engine.players.trick_sample.sample_codes` is kept with the probability
of these declarations under the model (rejection sampling: the kept deals follow the model's
posterior); the model is softened (:data:`MISS`), since the real seat may be a better or a
worse player than the model, and after :data:`TRIES` draws the likeliest deal drawn is kept.
Everything is a count: the same view and generator give the same deals.

Where the tables of ``normal`` seats were measured (:mod:`.trick_kept`: Мушка and Мистигри at
three seats), ``hard`` reads a playing seat by them instead (:data:`.trick_budget.HARD`'s
``kept``): ``normal`` plays nine hands in ten there, so the threshold says little, and what its
exchange leaves it is measured, not assumed.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from engine.cards import rank_index
from engine.core import Seat
from engine.trick.variant import VARIANTS
from engine.trick.view import TrickView

from .rejection import keep_likely
from .trick_kept import EXCHANGES, feature, kept_odds, strong_table
from .trick_model import BLUFF, PLAY_STRENGTH, worth_table
from .trick_sample import CODE, TrickKnowledge, sample_codes
from .trick_tables import suit_no

MISS: Final = 0.35
"""The chance the model gives a seat's kept card not being one a player keeps: a softened
"never" (a searching player sometimes keeps a weak card, or exchanges a strong one)."""

WEAK_PLAY: Final = max(BLUFF, 0.25)
"""The chance the model gives a seat playing a hand below the simple player's threshold."""

TRIES: Final = 16
"""Deals drawn for one sample at most before the likeliest of them is kept."""

Hands = list[list[int]]
Weigh = Callable[[Hands], float]


@dataclass(frozen=True, slots=True)
class _Seat:
    """What a declared seat's cards are checked against."""

    seat: Seat
    played: tuple[int, ...]  # the codes it has played this deal
    kept: int  # cards it kept of its five (5 − exchanged), or -1 if unknown
    threshold: int  # the worth the simple player asks before playing


def weigher(view: TrickView, know: TrickKnowledge, measured: bool = False) -> Weigh | None:
    """The likelihood of the other seats' declarations given their sampled hands, or None when
    no other seat has declared to play (nothing to infer). ``measured``: by the odds measured on
    ``normal`` seats (:mod:`.trick_kept`) where the game has them, instead of the simple
    player's threshold."""
    assert view.seat is not None
    me, n = view.seat, view.players
    code = CODE[view.game]
    variant = VARIANTS[view.game]
    trump = suit_no(view.trump) if view.trump is not None else -1
    priv = code[variant.privileged]
    top = rank_index(variant.order)[variant.order[1]]  # the two highest ranks are strong
    dealer = view.dealer or 0
    order = [(dealer + 1 + i) % n for i in range(n)]
    played: dict[Seat, list[int]] = {s: [] for s in range(n)}
    for plays in [*view.tricks, view.trick]:
        for s, c in plays:
            played[s].append(code[c])
    seats: list[_Seat] = []
    before = 0
    for s in order:
        declared = view.declared[s]
        if declared == "play" and s != me and know.needs[s] > 0:
            exchanged = view.exchanged[s]
            kept = -1 if exchanged is None else max(0, 5 - exchanged)
            seats.append(_Seat(s, tuple(played[s]), kept, PLAY_STRENGTH + before))
        if declared == "play":
            before += 1
    if not seats:
        return None
    table = kept_odds(view.game, n) if measured else None
    if table is not None:
        return _kept_weigher(view, seats, table)

    worth = worth_table(priv, trump, top)

    def weigh(hands: Hands) -> float:
        w = 1.0
        for one in seats:
            cards = hands[one.seat] + list(one.played)
            values = [worth[c] for c in cards]
            if sum(values) < one.threshold and priv not in cards:
                w *= WEAK_PLAY
            if one.kept > 0:
                strong = sum(1 for v in values if v)
                if strong < one.kept:
                    w *= MISS ** (one.kept - strong)
        return w

    return weigh


def _kept_weigher(
    view: TrickView, seats: list[_Seat], table: tuple[tuple[float, ...], ...]
) -> Weigh:
    """The odds of each playing seat's hand at its first trick (:mod:`.trick_kept`), by the
    cards it exchanged (a seat whose exchange is unknown weighs nothing)."""
    strong = strong_table(view)
    rows = [(s.seat, s.played, table[EXCHANGES - 1 - s.kept]) for s in seats if s.kept >= 0]

    def weigh(hands: Hands) -> float:
        w = 1.0
        for seat, played, row in rows:
            w *= row[feature(hands[seat] + list(played), strong)]
        return w

    return weigh


def sample_likely(
    know: TrickKnowledge, weigh: Weigh | None, rng: random.Random
) -> tuple[Hands, list[int]]:
    """One deal of the unseen cards (as :func:`sample_codes`), kept with the probability
    ``weigh`` gives it; after :data:`TRIES` draws, the likeliest drawn."""
    if weigh is None:
        return sample_codes(know, rng)
    return likely(lambda: sample_codes(know, rng), weigh, rng)


def likely(
    draw: Callable[[], tuple[Hands, list[int]]], weigh: Weigh, rng: random.Random
) -> tuple[Hands, list[int]]:
    """A deal from ``draw`` kept with the probability ``weigh`` gives it; after :data:`TRIES`
    draws, the likeliest drawn (:func:`sample_likely` with another way to draw)."""
    return keep_likely(draw, lambda deal: weigh(deal[0]), rng, TRIES, roll_certain=True)


__all__ = ["MISS", "TRIES", "likely", "sample_likely", "weigher"]
