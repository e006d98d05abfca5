"""What the strongest level would do, and why: the hints' advice (:func:`advise`).

The ``hard`` computer's own search (every family's ``scores``: the same candidates, worlds and
budget as its move) ranked, each candidate with its mean value for the seat and the few facts of
the seat's view that decided it (:class:`Fact`). Pure and deterministic: the advice depends only
on the view and the seed, and the view is all it reads — never another seat's cards.

A choice's ``value`` is in the game's unit: for the trick family the points the seat is expected
to write off its count this deal (the count now less the count after, §1.5; with Шутиха's ``hard``
valuing the pulka, the pulka's worth to the seat), for Копилка, Лентюрлю and Кончинка the money
the deal is expected to bring the seat. Ranked best first, ties to the search's earlier candidate
(the choice the ``hard`` computer makes comes first).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Final

from engine.cards import rank_index
from engine.core import View
from engine.errors import InvalidOption
from engine.games import GAMES
from engine.konchinka.view import KonchinkaView
from engine.kopilka.view import KopilkaView
from engine.lenturlu.view import LenturluView
from engine.players import konchinka, kopilka, lenturlu, trick_normal
from engine.players.determinized import ScoredMoves
from engine.players.trick import _strong_cards
from engine.players.trick_budget import HARD, HARD_BY_GAME
from engine.players.trick_model import PLAY_STRENGTH
from engine.trick.actions import Exchange, Pass, PlayCard
from engine.trick.variant import VARIANTS
from engine.trick.view import TrickView

TOP: Final = 3
"""How many choices an advice names at most (the issue's «the few best»)."""


class Fact(StrEnum):
    """What a choice's hint can say decided it: facts of the seat's own view only."""

    WEAK_HAND = "weak_hand"  # fewer strong cards (trumps, the top ranks) than a hand to play
    STRONG_HAND = "strong_hand"  # enough strong cards to play
    KEEPS_PRIVILEGED = "keeps_privileged"  # the exchange keeps the privileged card (§1.5.1)
    KEEPS_TRUMPS = "keeps_trumps"  # the exchange keeps every trump of the hand
    FOLLOWS_SUIT = "follows_suit"  # the card follows the led suit (§1.4.3)
    TRUMPS = "trumps"  # the card is a trump
    LOWEST_TRUMP = "lowest_trump"  # … the lowest of the seat's trumps
    NO_TRUMP_LEFT = "no_trump_left"  # the seat holds no trump
    HIGHEST_OF_SUIT = "highest_of_suit"  # the seat's highest card of that suit
    LOWEST_OF_SUIT = "lowest_of_suit"  # the seat's lowest card of that suit


@dataclass(frozen=True, slots=True)
class Choice:
    """One candidate: the action (one of ``view.legal``), its mean value for the seat in the
    game's unit, and the facts that decided it."""

    action: Any
    value: float
    facts: tuple[Fact, ...]


@dataclass(frozen=True, slots=True)
class Advice:
    """The best choices, best first (the ``hard`` computer's own choice first), and how many
    sampled worlds they were valued on (0: one candidate, nothing weighed, its value 0)."""

    choices: tuple[Choice, ...]
    samples: int

    @property
    def best(self) -> Choice:
        return self.choices[0]


def advise(view: View[Any, Any], seed: int, *, top: int = TOP) -> Advice:
    """The strongest level's ranked choices for the seat of ``view`` (its decision to make).

    Deterministic from ``seed``; raises ``InvalidOption`` for an unknown game and
    ``ValueError`` when the seat has nothing to decide."""
    spec = GAMES.get(view.game)
    if spec is None:
        raise InvalidOption("unknown_game", game=view.game)
    if view.seat is None or not view.legal:
        raise ValueError("the view's seat has no decision to make")
    rng = random.Random(seed)
    scored = _SEARCH[spec.family](view, rng)
    means = scored.means()
    shift = _shift(view) if scored.samples else 0.0
    order = sorted(range(len(means)), key=lambda i: (-scored.totals[i], i))[:top]
    choices = tuple(
        Choice(scored.actions[i], means[i] + shift, _facts(view, scored.actions[i])) for i in order
    )
    return Advice(choices, scored.samples)


def _trick(view: View[Any, Any], rng: random.Random) -> ScoredMoves[Any]:
    assert isinstance(view, TrickView)
    return trick_normal.search_scores(view, rng, HARD_BY_GAME.get(view.game, HARD))


def _kopilka(view: View[Any, Any], rng: random.Random) -> ScoredMoves[Any]:
    assert isinstance(view, KopilkaView)
    return kopilka.hard_scores(view, rng)


def _lenturlu(view: View[Any, Any], rng: random.Random) -> ScoredMoves[Any]:
    assert isinstance(view, LenturluView)
    return lenturlu.scores(view, rng, lenturlu.HARD)


def _konchinka(view: View[Any, Any], rng: random.Random) -> ScoredMoves[Any]:
    assert isinstance(view, KonchinkaView)
    return konchinka.hard_scores(view, rng)


_SEARCH: Final[Mapping[str, Callable[[View[Any, Any], random.Random], ScoredMoves[Any]]]] = {
    "trick": _trick,
    "kopilka": _kopilka,
    "lenturlu": _lenturlu,
    "konchinka": _konchinka,
}


def _shift(view: View[Any, Any]) -> float:
    """What turns a search's value into the game's unit: the trick family values a deal as minus
    the count after it, so the count now is added (the points written off); none elsewhere."""
    if not isinstance(view, TrickView) or view.seat is None:
        return 0.0
    if view.game in HARD_BY_GAME and HARD_BY_GAME[view.game].guard:
        return 0.0  # Шутиха's ``hard`` values the pulka itself
    return float(view.counts[view.seat])


def _facts(view: View[Any, Any], action: Any) -> tuple[Fact, ...]:
    """The facts a trick-family choice rests on (the other families' hints name none yet)."""
    if not isinstance(view, TrickView):
        return ()
    trump = view.trump
    trumps = [c for c in view.hand if trump is not None and c.suit is trump]
    if isinstance(action, Pass):  # what the hand lacks or has
        strong = _strong_cards(view)
        worth = sum(2 if c == view.privileged else 1 for c in strong)
        facts = [Fact.WEAK_HAND if worth < PLAY_STRENGTH else Fact.STRONG_HAND]
        if not trumps:
            facts.append(Fact.NO_TRUMP_LEFT)
        return tuple(facts)
    if isinstance(action, Exchange):  # what the exchange keeps
        facts = []
        if view.privileged in view.hand and view.privileged not in action.cards:
            facts.append(Fact.KEEPS_PRIVILEGED)
        if trumps and not any(c in action.cards for c in trumps):
            facts.append(Fact.KEEPS_TRUMPS)
        return tuple(facts)
    if not isinstance(action, PlayCard):
        return ()
    card = action.card
    strength = rank_index(VARIANTS[view.game].order)
    facts = []
    if view.led is not None and card.suit is view.led:
        facts.append(Fact.FOLLOWS_SUIT)
    if card.suit is trump:
        facts.append(Fact.TRUMPS)
        if len(trumps) > 1 and card == min(trumps, key=lambda c: strength[c.rank]):
            facts.append(Fact.LOWEST_TRUMP)
    elif not trumps:
        facts.append(Fact.NO_TRUMP_LEFT)
    suit = [c for c in view.hand if c.suit is card.suit]
    if len(suit) > 1 and card.suit is not trump:
        ranks = [strength[c.rank] for c in suit]
        if strength[card.rank] == max(ranks):
            facts.append(Fact.HIGHEST_OF_SUIT)
        elif strength[card.rank] == min(ranks):
            facts.append(Fact.LOWEST_OF_SUIT)
    return tuple(facts)


__all__ = ["TOP", "Advice", "Choice", "Fact", "advise"]
