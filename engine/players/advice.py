"""What the strongest level would do, and why: the hints' advice (:func:`advise`).

The ``hard`` computer's own search (every family's ``scores``: the same candidates, worlds and
budget as its move) ranked, each candidate with its mean value for the seat and the few facts of
the seat's view that decided it (:class:`Fact`). Pure and deterministic: the advice depends only
on the view and the seed, and the view is all it reads — never another seat's cards.

A choice's ``value`` is in the game's unit (:class:`Unit`): for the trick family the points the
seat is expected to write off its count this deal (the count now less the count after, §1.5; the
search's worth of reaching zero included; with Шутиха's ``hard`` valuing the pulka, the pulka's
worth to the seat); for Копилка and Лентюрлю the money (kopecks) the rest of the deal is
expected to bring the seat, from what it holds now (the money already paid or taken left out);
for Кончинка the deal points the seat is expected to make over the others' mean (a game won or
lost counting ±10). Where the search prices a win apart (the trick family's pulka, Кончинка's
game), a choice carries its value's parts (:class:`ValueParts`): the deal's own figure, and how
often it wins or loses. Ranked best first, ties to the search's earlier candidate (the choice the
``hard`` computer makes comes first).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Final

from engine.core import View
from engine.errors import InvalidOption
from engine.games import GAMES
from engine.konchinka.view import KonchinkaView
from engine.kopilka.rules import DEALS
from engine.kopilka.view import KopilkaView
from engine.lenturlu.view import LenturluView
from engine.players import konchinka, kopilka, kopilka_rollout, lenturlu, trick_normal
from engine.players.determinized import ScoredMoves
from engine.players.facts import Fact, facts
from engine.players.kopilka_rollout import SHARE
from engine.players.trick_budget import HARD, HARD_BY_GAME
from engine.trick.view import TrickView

TOP: Final = 3
"""How many choices an advice names at most (the issue's «the few best»)."""


class Unit(StrEnum):
    """What a choice's value counts (:func:`advise`'s module text)."""

    COUNT = "count"  # the trick family: points written off the count (and the pulka won)
    PULKA = "pulka"  # Шутиха's ``hard``: the pulka's worth to the seat (the counts it leaves)
    MONEY = "money"  # Копилка, Лентюрлю: kopecks won (lost, negative) from now on
    POINTS = "points"  # Кончинка: deal points over the others' mean, a game's end ±10


_UNITS: Final[Mapping[str, Unit]] = {
    "trick": Unit.COUNT,
    "kopilka": Unit.MONEY,
    "lenturlu": Unit.MONEY,
    "konchinka": Unit.POINTS,
}


@dataclass(frozen=True, slots=True)
class ValueParts:
    """A value told apart: ``value = base + (won − lost) × worth``. ``base``: the deal's own
    figure — the trick family's points written off the count, Кончинка's deal points over the
    others' mean; ``won``: how often (0–1) the choice wins the pulka (the count brought to zero)
    or the game (Кончинка); ``lost``: how often another seat wins the game (Кончинка); ``worth``:
    what the search counts a win as (the other counts,
    :func:`engine.players.trick_normal.zero_worth`; Кончинка's
    :data:`engine.players.konchinka.WIN_BONUS`)."""

    base: float
    won: float
    lost: float
    worth: float


@dataclass(frozen=True, slots=True)
class Choice:
    """One candidate: the action (one of ``view.legal``), its mean value for the seat in the
    game's unit, and the facts that decided it; for the trick family (but Шутиха's ``hard``,
    which values the pulka itself) and Кончинка the value's parts (:class:`ValueParts`)."""

    action: Any
    value: float
    facts: tuple[Fact, ...]
    parts: ValueParts | None = None


@dataclass(frozen=True, slots=True)
class Advice:
    """The best choices, best first (the ``hard`` computer's own choice first), and how many
    sampled worlds they were valued on (0: one candidate, nothing weighed, its value 0), in
    what unit the values are."""

    choices: tuple[Choice, ...]
    samples: int
    unit: Unit = Unit.COUNT

    @property
    def best(self) -> Choice:
        return self.choices[0]


def advise(view: View[Any, Any], seed: int, *, top: int = TOP) -> Advice:
    """The strongest level's ranked choices for the seat of ``view`` (its decision to make).

    Deterministic from ``seed``; raises ``InvalidOption`` for an unknown game and
    ``ValueError`` when the seat has nothing to decide."""
    family = _family(view)
    scored = _SEARCH[family](view, random.Random(seed), None)
    return Advice(_ranked(view, scored)[:top], scored.samples, _unit(view, family))


@dataclass(frozen=True, slots=True)
class Appraisal:
    """A decision looked back at (the review's): every candidate the search weighed, best
    first (as :class:`Advice`'s), and the action taken among them, valued on the same worlds."""

    choices: tuple[Choice, ...]
    taken: Choice
    samples: int
    unit: Unit

    @property
    def best(self) -> Choice:
        return self.choices[0]


def appraise(view: View[Any, Any], taken: object, seed: int) -> Appraisal | None:
    """The strongest level's search of the seat's decision, ``taken`` (one of ``view.legal``)
    searched too where its candidates leave it out: what :func:`advise` would rank, and the
    value of what was done; None where the search weighs nothing (one candidate: a forced
    action, the trick family's announcement and Памфил's re-trump, chosen by rule).
    Deterministic from ``seed``; raises as :func:`advise`, and ``ValueError`` when ``taken``
    is not legal."""
    family = _family(view)
    if taken not in view.legal:
        raise ValueError("the action taken is not one of the view's legal actions")
    scored = _REVIEW.get(family, _SEARCH[family])(view, random.Random(seed), taken)
    if not scored.samples:
        return None
    ranked = _ranked(view, scored)
    mine = next(c for c in ranked if c.action == taken)
    return Appraisal(ranked, mine, scored.samples, _unit(view, family))


def _family(view: View[Any, Any]) -> str:
    spec = GAMES.get(view.game)
    if spec is None:
        raise InvalidOption("unknown_game", game=view.game)
    if view.seat is None or not view.legal:
        raise ValueError("the view's seat has no decision to make")
    return spec.family


def _unit(view: View[Any, Any], family: str) -> Unit:
    return Unit.PULKA if family == "trick" and _guarded(view) else _UNITS[family]


def _ranked(view: View[Any, Any], scored: ScoredMoves[Any]) -> tuple[Choice, ...]:
    """Every candidate as a :class:`Choice` in the game's unit, best first (ties: earlier)."""
    means = scored.means()
    shift = _shift(view) if scored.samples else 0.0
    order = sorted(range(len(means)), key=lambda i: (-scored.totals[i], i))
    return tuple(
        Choice(
            scored.actions[i],
            means[i] + shift,
            facts(view, scored.actions[i]),
            _parts(view, means[i] + shift, scored, i) if scored.won else None,
        )
        for i in order
    )


Search = Callable[[View[Any, Any], random.Random, Any], ScoredMoves[Any]]
"""A family's ``hard`` search of a view, with an extra action to search (or None)."""


def _trick(view: View[Any, Any], rng: random.Random, extra: Any) -> ScoredMoves[Any]:
    assert isinstance(view, TrickView)
    return trick_normal.search_scores(view, rng, HARD_BY_GAME.get(view.game, HARD), extra)


def _kopilka(view: View[Any, Any], rng: random.Random, extra: Any) -> ScoredMoves[Any]:
    assert isinstance(view, KopilkaView)
    return kopilka.hard_scores(view, rng)  # every legal action is a candidate


def _lenturlu(view: View[Any, Any], rng: random.Random, extra: Any) -> ScoredMoves[Any]:
    assert isinstance(view, LenturluView)
    return lenturlu.scores(view, rng, lenturlu.HARD, extra)


def _konchinka(view: View[Any, Any], rng: random.Random, extra: Any) -> ScoredMoves[Any]:
    assert isinstance(view, KonchinkaView)
    return konchinka.hard_scores(view, rng, extra)


_SEARCH: Final[Mapping[str, Search]] = {
    "trick": _trick,
    "kopilka": _kopilka,
    "lenturlu": _lenturlu,
    "konchinka": _konchinka,
}

REVIEW_SHARE: Final = 2
"""The review's search (:func:`appraise`) of Копилка and Кончинка runs at 1/``REVIEW_SHARE`` of
``hard``'s budget and worlds: a deal's review values every decision of a seat, a dozen or more
in these games, within the review's 2 s of CPU (``bench/review_speed.py``); the trick family
and Лентюрлю search as ``hard`` does."""


def _kopilka_review(view: View[Any, Any], rng: random.Random, extra: Any) -> ScoredMoves[Any]:
    assert isinstance(view, KopilkaView)
    return kopilka.scores(
        view,
        rng,
        kopilka.HARD_BUDGET // REVIEW_SHARE,
        kopilka.HARD_SAMPLES // REVIEW_SHARE,
        infer=True,
        play=kopilka_rollout.rollout,
        value=kopilka_rollout.worth,
    )


def _konchinka_review(view: View[Any, Any], rng: random.Random, extra: Any) -> ScoredMoves[Any]:
    assert isinstance(view, KonchinkaView)
    return konchinka.scores(
        view,
        rng,
        konchinka.HARD_BUDGET // REVIEW_SHARE,
        konchinka.HARD_SAMPLES // REVIEW_SHARE,
        konchinka.HARD_CANDIDATES,
        extra,
        exact=True,
    )


_REVIEW: Final[Mapping[str, Search]] = {"kopilka": _kopilka_review, "konchinka": _konchinka_review}


def _shift(view: View[Any, Any]) -> float:
    """What turns a search's value into the game's unit: the trick family values a deal as minus
    the count after it, so the count now is added (the points written off); Копилка and
    Лентюрлю value the seat's money at the deal's end, so the money it holds now (as the search
    reckons it) is taken off; none for Кончинка (its search counts this deal's points only)."""
    me = view.seat
    if me is None:
        return 0.0
    if isinstance(view, TrickView):
        return 0.0 if _guarded(view) else float(view.counts[me])
    if isinstance(view, KopilkaView):
        return -kopilka_now(view, me)
    if isinstance(view, LenturluView):
        return -float(view.money[me])
    return 0.0


def _guarded(view: View[Any, Any]) -> bool:
    """Whether the game's ``hard`` values a deal by the pulka it leaves (Шутиха's)."""
    return view.game in HARD_BY_GAME and HARD_BY_GAME[view.game].guard


def _parts(view: View[Any, Any], value: float, scored: ScoredMoves[Any], i: int) -> ValueParts:
    """Candidate ``i``'s value told apart: how often it won (lost) over the worlds searched,
    what the search counts that as, the deal's own figure the rest."""
    won = scored.won[i] / scored.samples
    lost = scored.lost[i] / scored.samples if scored.lost else 0.0
    worth = trick_normal.zero_worth(view) if isinstance(view, TrickView) else konchinka.WIN_BONUS
    return ValueParts(value - (won - lost) * worth, won, lost, worth)


def kopilka_now(view: KopilkaView, me: int) -> float:
    """The seat's money as ``hard``'s search values a deal's end, reckoned now: its partia
    points at the rate less all it paid in, and before the last deal its share of what the bank
    holds over the points (:func:`engine.players.kopilka_rollout.worth`)."""
    rate = view.options.point_rate
    value = float(view.partia_points[me] * rate - view.fines[me])
    if view.deal_no < DEALS:
        value += SHARE * max(0, view.bank - rate * sum(view.partia_points))
    return value


__all__ = [
    "REVIEW_SHARE",
    "TOP",
    "Advice",
    "Appraisal",
    "Choice",
    "Fact",
    "Unit",
    "ValueParts",
    "advise",
    "appraise",
    "kopilka_now",
]
