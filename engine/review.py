"""A finished deal looked back at, from its record alone: every step, and the cost of each
decision (the review).

:func:`review_deal` replays one finished deal of a record (:mod:`engine.record`): the table as
dealt, then after every action (:class:`ReviewStep`, every hand known — the deal is over), and
each decision of the seats asked, with a real choice (two legal actions or more), valued by the
strongest level's search from what the seat knew then (:func:`engine.players.advice.appraise`:
its view only): what was done, what the search would have done, each one's value in the game's
unit, and what the decision cost on average (:class:`Decision`). For the trick family's play
the exact values with every hand known are added (:class:`Exact`,
:mod:`engine.players.trick_exact`).

A deal still being played (no ``deal_end`` line) has no review: :func:`deal_numbers` leaves it
out and :func:`review_deal` refuses it (:class:`NoReview`), so a running deal's hidden cards
never show through it. Pure and deterministic: the same record and seed give the same review.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any, Final

from engine.core import Line, Seat, State
from engine.errors import EngineError, InvalidRecord
from engine.lines import LineKind, is_kind
from engine.players.advice import Appraisal, Choice, Unit, appraise
from engine.players.trick_exact import exact_play
from engine.record import begin
from engine.trick.actions import PlayCard
from engine.trick.rules import TrickPhase
from engine.trick.view import TrickView

NOISE: Final = 1e-9
"""Below this a cost is none (float sums of equal values)."""


class NoReview(EngineError):
    """The record has no finished deal of that number (missing, or still being played)."""


@dataclass(frozen=True, slots=True)
class ReviewStep:
    """The deal at one step: ``index`` 0 is the deal as dealt (no ``seat``, no ``action``),
    then one step per action of the deal, ``seat`` having done ``action`` (the game's typed
    action). ``state`` is the game after the step, a copy of its own (every hand readable,
    ``state.view(None)`` the table): never play on it. ``lines``: the record lines the step
    wrote (its ``act`` line and the events it made happen; the first step's: the deal's own,
    from its ``deal`` line on)."""

    index: int
    seat: Seat | None
    action: Any
    state: State
    lines: tuple[Line, ...]


@dataclass(frozen=True, slots=True)
class Exact:
    """A trick-play decision valued with every hand known (the game's unit): the card played,
    the best card, and which card that is (the first best in the game's order of legal cards)."""

    taken: float
    best: float
    best_action: Any

    @property
    def cost(self) -> float:
        return max(0.0, self.best - self.taken)


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision of a seat with a real choice: at step ``step`` (the state before it is
    ``steps[step - 1].state``), ``taken`` and its value; ``best`` the search's first choice
    and its value (``best.value``); ``cost`` = ``best_value − taken_value`` ≥ 0, what the
    decision lost on average knowing only the seat's view then; ``exact`` for the trick
    family's play; values in ``unit``, over ``samples`` sampled worlds."""

    step: int
    seat: Seat
    taken: Any
    taken_value: float
    best: Choice
    best_value: float
    cost: float
    exact: Exact | None
    unit: Unit
    samples: int


@dataclass(frozen=True, slots=True)
class DealReview:
    """A finished deal's review: its steps, first the deal as dealt, and the decisions valued
    (in step order)."""

    game: str
    players: int
    deal_no: int
    steps: tuple[ReviewStep, ...]
    decisions: tuple[Decision, ...]

    def costliest(self, seat: Seat, n: int = 3) -> tuple[Decision, ...]:
        """The seat's ``n`` decisions that cost most (a cost above none), costliest first, ties
        in step order."""
        mine = [d for d in self.decisions if d.seat == seat and d.cost > NOISE]
        return tuple(sorted(mine, key=lambda d: (-d.cost, d.step))[:n])

    def decision_at(self, step: int) -> Decision | None:
        """The decision valued at step ``step``, if any."""
        return next((d for d in self.decisions if d.step == step), None)


def deal_numbers(record: Sequence[Line]) -> tuple[int, ...]:
    """The finished deals of a record (those with a ``deal_end`` line), in order."""
    return tuple(int(line["no"]) for line in record if is_kind(line, LineKind.DEAL_END))


def review_deal(
    record: list[Line], deal_no: int, seed: int, *, seats: Collection[Seat] | None = None
) -> DealReview:
    """Review finished deal ``deal_no`` of ``record`` (one record, its ``game`` line first):
    its steps, and the decisions of ``seats`` (None: every seat — a record does not say who
    played by computer) valued. Deterministic from ``seed``. Raises :class:`NoReview` for a
    deal not finished in the record, ``InvalidRecord`` for a record that does not replay."""
    start, end = _bounds(record, deal_no)
    cut = record[: end + 1]
    state = begin(cut)
    for line in cut[:start]:
        if is_kind(line, LineKind.ACT):
            state.apply(line["seat"], line["a"])
    opening = tuple(_deal_lines(state.record(), deal_no))
    steps = [ReviewStep(0, None, None, state.clone(), opening)]
    decisions: list[Decision] = []
    for line in cut[start:end]:
        if not is_kind(line, LineKind.ACT):
            continue
        seat: Seat = line["seat"]
        action = _legal(state, seat, line["a"])
        index = len(steps)
        if (seats is None or seat in seats) and len(state.legal_actions(seat)) >= 2:
            decision = _decide(state, seat, action, index, _seed(seed, deal_no, index))
            if decision is not None:
                decisions.append(decision)
        lines = state.apply(seat, action)
        steps.append(ReviewStep(index, seat, action, state.clone(), lines))
    return DealReview(state.game, state.players, deal_no, tuple(steps), tuple(decisions))


def _legal(state: State, seat: Seat, text: str) -> Any:
    """The record's action, typed, once the rules allow it (``InvalidRecord`` else)."""
    try:
        action = state.parse_action(text)
        if action not in state.legal_actions(seat):
            state.clone().apply(seat, action)  # the engine's own refusal
    except EngineError as exc:
        raise InvalidRecord(f"{text!r} by seat {seat}: {exc}") from exc
    return action


def _bounds(record: Sequence[Line], deal_no: int) -> tuple[int, int]:
    """Where deal ``deal_no`` starts (its ``deal`` line) and ends (its ``deal_end`` line)."""
    start = end = None
    for i, line in enumerate(record):
        if line.get("no") == deal_no:
            if is_kind(line, LineKind.DEAL):
                start = i
            elif is_kind(line, LineKind.DEAL_END):
                end = i
    if start is None or end is None or end < start:
        raise NoReview(f"deal {deal_no} is not a finished deal of the record")
    return start, end


def _deal_lines(lines: Sequence[Line], deal_no: int) -> list[Line]:
    """The record's lines from deal ``deal_no``'s ``deal`` line on."""
    for i, line in enumerate(lines):
        if is_kind(line, LineKind.DEAL) and line.get("no") == deal_no:
            return list(lines[i:])
    return []


def _seed(seed: int, deal_no: int, index: int) -> int:
    """Each decision's own search seed, from the review's."""
    return (seed * 1_000_003 + deal_no * 10_007 + index) % (1 << 63)


def _decide(state: State, seat: Seat, action: Any, index: int, seed: int) -> Decision | None:
    view = state.view(seat)
    found: Appraisal | None = appraise(view, action, seed)
    if found is None:
        return None
    exact = None
    if isinstance(view, TrickView) and view.phase == TrickPhase.PLAY:
        exact = _exact(view, state, action)
    best, taken = found.best, found.taken
    return Decision(
        step=index,
        seat=seat,
        taken=action,
        taken_value=taken.value,
        best=best,
        best_value=best.value,
        cost=max(0.0, best.value - taken.value),
        exact=exact,
        unit=found.unit,
        samples=found.samples,
    )


def _exact(view: TrickView, state: State, action: Any) -> Exact:
    assert isinstance(action, PlayCard)
    found = exact_play(view, [state.hand(s) for s in range(state.players)], action)
    return Exact(found.taken, found.best, found.best_action)


__all__ = [
    "DealReview",
    "Decision",
    "Exact",
    "NoReview",
    "ReviewStep",
    "deal_numbers",
    "review_deal",
]
