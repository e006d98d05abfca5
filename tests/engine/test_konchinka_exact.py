"""Кончинка's last cards solved exactly (engine.players.konchinka_exact): the solver's value of
every move equals the same max^n search run on the engine itself, with its own legal moves,
deal points and early end (RULES.md §4.3.8, §4.4); ``hard`` takes a move of the best exact value
at two seats, where the view fixes the world, and plays at three and four seats as before.

The solver is generic (any seat count); ``hard`` uses it at two seats only."""

from __future__ import annotations

import random

import pytest

from engine import new_game
from engine.konchinka import KonchinkaView
from engine.konchinka.state import KonchinkaState
from engine.players.konchinka import (
    HARD_BUDGET,
    HARD_CANDIDATES,
    HARD_SAMPLES,
    WIN_BONUS,
    candidates,
    easy,
    hard,
    hard_scores,
    scores,
)
from engine.players.konchinka_exact import NodeBudget, solvable, solve
from engine.players.konchinka_sim import CODE, KonchinkaSim, Seen, encode

GAME = "konchinka"


def endgame(players: int, seed: int, left: int, target: int = 15) -> KonchinkaState:
    """A game played by ``easy`` to a move with the stock empty and ``left`` moves to go."""
    state = new_game(GAME, players, seed, {"target": target})
    assert isinstance(state, KonchinkaState)
    rng = random.Random(seed)
    while True:
        seat = state.to_act
        assert seat is not None
        view = state.view(seat)
        assert isinstance(view, KonchinkaView)
        if view.stock == 0 and sum(view.hand_sizes) == left and len(view.legal) > 1:
            return state
        state.apply(seat, easy(view, rng))
        if state.to_act is None:  # the game ended first: the next seed
            return endgame(players, seed + 100, left, target)


def engine_values(state: KonchinkaState, totals: tuple[int, ...], deal: int) -> list[float]:
    """Max^n on the engine: every seat's value of the deal's end (points over the others' mean,
    ± the win), the seat to act taking its best, the first in the legal order on a tie."""
    seat = state.to_act
    view = state.view(seat if seat is not None else 0)
    assert isinstance(view, KonchinkaView)
    if seat is None or view.deal_no != deal:  # the deal (or the game) is over
        pts = [a - b for a, b in zip(view.totals, totals, strict=True)]
        n = len(pts)
        out = [p - (sum(pts) - p) / (n - 1) for p in pts]
        winner = view.result.winner if view.result is not None else None
        if winner is not None:
            out = [v + (WIN_BONUS if s == winner else -WIN_BONUS) for s, v in enumerate(out)]
        return out
    best: list[float] | None = None
    for action in view.legal:
        child = state.clone()
        child.apply(seat, action)
        got = engine_values(child, totals, deal)
        if best is None or got[seat] > best[seat]:
            best = got
    assert best is not None
    return best


def true_world(state: KonchinkaState, view: KonchinkaView) -> KonchinkaSim:
    """The simulator on the real hands (what every world is at two seats)."""
    world = Seen(view).world(random.Random(0))
    for s in range(view.players):
        world.hands[s] = sorted(CODE[c] for c in state._hands[s])
    return world


@pytest.mark.parametrize(
    ("players", "seed", "left", "target"),
    [(2, 1, 8, 15), (2, 2, 6, 15), (4, 3, 6, 15), (3, 4, 6, 15), (2, 9, 8, 5), (4, 10, 6, 5)],
)
def test_the_solver_agrees_with_the_engine(players: int, seed: int, left: int, target: int) -> None:
    """With a target of 5 the game ends in the deal (at its end or, certain, before)."""
    state = endgame(players, seed, left, target)
    seat = state.to_act
    assert seat is not None
    view = state.view(seat)
    assert isinstance(view, KonchinkaView)
    world = true_world(state, view)
    assert solvable(world)
    ends = solve(world, tuple(encode(view.table, a) for a in view.legal), WIN_BONUS, NodeBudget())
    assert ends is not None
    for action, end in zip(view.legal, ends, strict=True):
        child = state.clone()
        child.apply(seat, action)
        expected = engine_values(child, view.totals, view.deal_no)[seat]
        assert end.value(seat, WIN_BONUS) == pytest.approx(expected)


def test_the_bound_gives_up_rather_than_guess() -> None:
    state = endgame(2, 5, 8)
    seat = state.to_act
    assert seat is not None
    view = state.view(seat)
    assert isinstance(view, KonchinkaView)
    actions = tuple(encode(view.table, a) for a in view.legal)
    assert solve(true_world(state, view), actions, WIN_BONUS, NodeBudget(3)) is None


@pytest.mark.parametrize("seed", [6, 7, 8])
def test_hard_takes_the_best_exact_move_at_two_seats(seed: int) -> None:
    state = endgame(2, seed, 8)
    seat = state.to_act
    assert seat is not None
    view = state.view(seat)
    assert isinstance(view, KonchinkaView)
    worth = {}
    for action in candidates(view, HARD_CANDIDATES):
        child = state.clone()
        child.apply(seat, action)
        worth[action] = engine_values(child, view.totals, view.deal_no)[seat]
    chosen = hard(view, random.Random(seed))
    assert worth[chosen] == pytest.approx(max(worth.values()))


@pytest.mark.parametrize(("players", "seed"), [(3, 11), (4, 12)])
def test_hard_plays_out_the_last_round_beyond_two_seats(players: int, seed: int) -> None:
    """At three and four seats the worlds are sampled and played out, as without the solver."""
    state = endgame(players, seed, 2 * players)
    seat = state.to_act
    assert seat is not None
    view = state.view(seat)
    assert isinstance(view, KonchinkaView)
    got = hard_scores(view, random.Random(seed))
    assert got == scores(
        view, random.Random(seed), HARD_BUDGET, HARD_SAMPLES, HARD_CANDIDATES, exact=False
    )
    assert got.samples > 1


def test_the_last_round_at_two_seats_is_one_world_searched() -> None:
    state = endgame(2, 13, 8)
    seat = state.to_act
    assert seat is not None
    view = state.view(seat)
    assert isinstance(view, KonchinkaView)
    assert hard_scores(view, random.Random(1)).samples == 1
    assert scores(view, random.Random(1), HARD_BUDGET, HARD_SAMPLES, HARD_CANDIDATES).samples > 1
