"""The computer player of Лентюрлю (RULES.md §3; levels ``easy``, ``normal`` and ``hard``).

``easy`` plays its longest run (stake cards first among equals), buys one card when it must
and passes otherwise. ``normal`` is Perfect-Information Monte Carlo
(:mod:`engine.players.determinized`): the unseen cards are dealt at random to the other hands
and the stock, each of a few candidate actions — the best runs by the seed's advice (seed 002:
long runs, the stake cards 7♦ K♥ J♣ A♠ Q♠, a covering king) and the buys and the pass — is
played out to the end of the deal by the ``easy`` rule on the inner simulator
(:mod:`engine.players.lenturlu_sim`, checked against the engine), and the action with the best
mean of this seat's net (§3.5) is chosen. ``hard`` is the same search on worlds weighted by
the habits too (:mod:`engine.players.lenturlu_infer`), over twice the runs, with up to five
times the worlds, and its play-outs follow the table as ``normal`` plays it rather than
``easy`` (:mod:`engine.players.lenturlu_rollout`: buy two while short of the king, keep the
king out of leads).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from engine.actions import Buy
from engine.lenturlu.actions import LenturluAction, Run
from engine.lenturlu.rules import KING_VALUE, LENTURLU_CARDS
from engine.lenturlu.view import LenturluView
from engine.players import lenturlu_rollout as rollout
from engine.players import lenturlu_sim as sim
from engine.players.determinized import ScoredMoves, Work
from engine.players.lenturlu_infer import facts, likely_deal
from engine.players.lenturlu_rollout import HARD_STYLE, Style

MOVE_BUDGET: Final = 15000
"""Simulated actions per decision (the budget, never a clock): whole rounds of worlds are
played until it is spent."""
MIN_SAMPLES: Final = 3
MAX_SAMPLES: Final = 200
"""``normal``'s worlds at most, where the deal is nearly over and a rollout is an action or two
(``hard``: five times as many, :data:`HARD`)."""
RUN_CANDIDATES: Final = 12
"""At most this many runs (distinct by kind), the best by :func:`run_score`, are searched (plus
buys and pass): the cheap rollouts pay for more of them, which is what makes the player
stronger (more worlds hardly do)."""
STAKES: Final = frozenset(LENTURLU_CARDS)


def run_score(action: sim.Action, *, follow: bool, manner: str) -> float:
    """The seed's measure of a run (by kind): its length, its stake cards, a covering king
    (§3.4.2 a)."""
    start, length, stakes = action
    score = float(length) + 3.0 * stakes.bit_count()
    if follow and manner == "king" and start + length - 1 == KING_VALUE:
        score += 100.0  # the deal is won
    return score


def easy(view: LenturluView, rng: random.Random) -> LenturluAction:
    """The longest run (stake cards first among equals); else buy one; else pass."""
    best: Run | None = None
    best_key = (-1, -1)
    buy: LenturluAction | None = None
    for action in view.legal:
        if isinstance(action, Run):
            key = (len(action.cards), sum(1 for c in action.cards if c in STAKES))
            if key > best_key:
                best, best_key = action, key
        elif isinstance(action, Buy) and action.k == 1:
            buy = action
    if best is not None:
        return best
    return buy if buy is not None else view.legal[-1]


def candidates(g: sim.LenturluSim, manner: str, width: int = RUN_CANDIDATES) -> list[sim.Action]:
    """The best ``width`` runs by :func:`run_score`, then every buy and the pass.

    Runs are told apart by kind: two runs that differ only in the suits of plain cards are
    alike for every rule (§3.1.1), so one of them stands for both.
    """
    legal = sim.legal(g)
    follow = g.top != 0
    runs = [a for a in legal if a[0]]
    runs.sort(key=lambda r: -run_score(r, follow=follow, manner=manner))
    return [*runs[:width], *(a for a in legal if not a[0])]


def normal(view: LenturluView, rng: random.Random) -> LenturluAction:
    """PIMC at :data:`MOVE_BUDGET` on worlds that keep the certain facts."""
    return search(view, rng, NORMAL)


def hard(view: LenturluView, rng: random.Random) -> LenturluAction:
    """PIMC over more runs and worlds (:data:`HARD`), on worlds weighted by the habits too, with
    play-outs by :func:`engine.players.lenturlu_rollout.playout`."""
    return search(view, rng, HARD)


@dataclass(frozen=True, slots=True)
class Level:
    """A level's search: its budget (never a clock), its candidate runs, what it infers, its
    play-outs' rule, its most worlds."""

    budget: int
    least: int
    runs: int
    habits: bool
    style: Style | None = None  # the rollout rule: None for ``easy``'s (:func:`sim.playout`)
    most: int = MAX_SAMPLES  # worlds at most


NORMAL: Final = Level(MOVE_BUDGET, MIN_SAMPLES, RUN_CANDIDATES, habits=False)
HARD: Final = Level(
    20 * MOVE_BUDGET,
    4 * MIN_SAMPLES,
    2 * RUN_CANDIDATES,
    habits=True,
    style=HARD_STYLE,
    most=5 * MAX_SAMPLES,
)


def search(view: LenturluView, rng: random.Random, level: Level) -> LenturluAction:
    """:func:`scores`' best candidate."""
    return scores(view, rng, level).best()


def scores(
    view: LenturluView, rng: random.Random, level: Level, extra: LenturluAction | None = None
) -> ScoredMoves[LenturluAction]:
    """PIMC over the pruned candidates (and ``extra``, the review's action taken, standing for
    its kind), each played out to the end of the deal on the inner
    simulator; whole rounds of worlds (every candidate meets the same worlds, each as likely as
    the passes make it, :mod:`.lenturlu_infer`) until the level's budget of actions is
    simulated (at least its ``least`` worlds, at most its ``most``); each play-out by the
    level's rule (``easy``'s unless a :class:`~.lenturlu_rollout.Style` is given)."""
    me = view.seat
    assert me is not None
    base, unseen = sim.known(view)
    known = facts(view, habits=level.habits)
    moves = candidates(base, view.manner, level.runs)
    extra_at = -1  # the review's action taken: searched (last) if left out, named as taken
    if extra is not None:
        kind = sim.of_action(extra)
        if kind not in moves:
            moves.append(kind)
        extra_at = moves.index(kind)
    if len(moves) == 1:
        return ScoredMoves.only(extra if extra is not None else sim.to_action(moves[0], view.hand))
    work = Work()
    totals = [0.0] * len(moves)
    samples = 0
    while samples < level.least or (work.done < level.budget and samples < level.most):
        world = likely_deal(base, unseen, known, rng)
        for i, move in enumerate(moves):
            g = world.copy()
            sim.apply(g, move)
            work.done += 1
            if g.winner is None:
                if level.style is None:
                    sim.playout(g, work)
                else:
                    rollout.playout(g, work, level.style)
            totals[i] += g.net(me)
        samples += 1
    actions = tuple(
        extra if i == extra_at and extra is not None else sim.to_action(m, view.hand)
        for i, m in enumerate(moves)
    )
    return ScoredMoves(actions, tuple(totals), samples)


LEVELS: Final[Mapping[str, Any]] = {"easy": easy, "normal": normal, "hard": hard}
