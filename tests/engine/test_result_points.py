"""``Result.points``: the game's own points beside the money, exactly the ``end`` line's figures
(Копилка's partia points §2.6.5, Кончинка's totals §4.4.5), and None where a game has none."""

from __future__ import annotations

import random

import pytest

from engine.games import new_game
from engine.simulate import playout


@pytest.mark.parametrize(
    ("game", "players", "key"),
    [("kopilka", 4, "points"), ("konchinka", 2, "totals"), ("konchinka", 4, "totals")],
)
def test_2_6_5_and_4_4_5_result_points_are_the_end_lines(game: str, players: int, key: str) -> None:
    for seed in range(3):
        state = playout(new_game(game, players, seed), random.Random(seed))
        end = state.record()[-1]
        assert end["t"] == "end"
        assert state.result is not None
        assert state.result.points == tuple(end[key])
        assert sum(state.result.points) > 0


@pytest.mark.parametrize(("game", "players"), [("mushka", 3), ("lenturlu", 3)])
def test_result_points_none_where_only_money(game: str, players: int) -> None:
    state = playout(new_game(game, players, 1), random.Random(1))
    assert state.result is not None and state.result.points is None
