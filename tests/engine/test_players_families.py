"""What every family's computer players must do, game by game (Копилка, Лентюрлю, Кончинка; the
trick family's own file covers its four games): ``easy`` games end with legal moves only and
records that replay unchanged; ``normal`` and ``hard`` see only their seat's view (the same view
with the hidden cards dealt anew gives the same action) and are deterministic given their
generator."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine import new_game, replay
from engine.players import computer, random_player
from tests.engine.players_common import midgame, permute_hidden, play_to_end

EASY = [("kopilka", 4, 6), ("lenturlu", 3, 3), ("lenturlu", 5, 3), ("lenturlu", 8, 3)]
EASY += [("konchinka", 2, 3), ("konchinka", 3, 3), ("konchinka", 4, 3)]
SOAK = [(game, players) for game, players, _ in EASY]
WARM_UP: dict[str, Any] = {"kopilka": random_player, "lenturlu": random_player, "konchinka": None}
VIEWS = [("kopilka", 4, 2), ("kopilka", 4, 7), ("kopilka", 4, 13)]
VIEWS += [("lenturlu", 3, 4), ("lenturlu", 5, 6), ("lenturlu", 8, 9)]
VIEWS += [("konchinka", 2, 5), ("konchinka", 3, 9), ("konchinka", 4, 14)]


def _easy_games(game: str, players: int, games: int, first: int) -> None:
    easy = computer(game, "easy")
    for seed in range(games):
        state = new_game(game, players, first + seed)
        play_to_end(state, [easy] * players, random.Random(seed))
        assert state.result is not None and sum(state.result.net) == 0
        record = state.record()
        assert replay(record).record() == record


@pytest.mark.parametrize(("game", "players", "games"), EASY)
def test_easy_games_end_legal_and_replay(game: str, players: int, games: int) -> None:
    _easy_games(game, players, games, 100)


WHOLE: list[tuple[str, int, dict[str, Any]]] = [("kopilka", 4, {}), ("lenturlu", 3, {})]
WHOLE += [("lenturlu", 8, {}), ("konchinka", 2, {"target": 5}), ("konchinka", 4, {"target": 5})]


SEARCHING = ["normal", "hard"]
"""The levels that search (``easy`` is the rule player they roll out with)."""


@pytest.mark.parametrize("level", SEARCHING)
@pytest.mark.parametrize(("game", "players", "options"), WHOLE)
def test_searching_levels_play_a_game_to_the_end(
    game: str, players: int, options: dict[str, Any], level: str
) -> None:
    state = new_game(game, players, 7, options)
    easy = computer(game, "easy")
    play_to_end(state, [computer(game, level)] + [easy] * (players - 1), random.Random(1))
    record = state.record()
    assert replay(record).record() == record


@pytest.mark.parametrize("level", SEARCHING)
@pytest.mark.parametrize(("game", "players", "moves"), VIEWS)
def test_searching_levels_see_only_the_view(
    game: str, players: int, moves: int, level: str
) -> None:
    normal = computer(game, level)
    warm_up = WARM_UP[game] or computer(game, "easy")
    state = midgame(game, players, 11 + players, moves, warm_up)
    seat = state.to_act
    assert seat is not None
    twin = permute_hidden(state, seat, random.Random(5))
    assert twin._hands != state._hands or twin._stock != state._stock
    view, twin_view = state.view(seat), twin.view(seat)
    assert view == twin_view
    action = normal(view, random.Random(9))
    assert action in view.legal
    assert normal(twin_view, random.Random(9)) == action
    assert normal(view, random.Random(9)) == action  # deterministic given the generator


@pytest.mark.slow
@pytest.mark.parametrize(("game", "players"), SOAK)
def test_soak_easy_games(game: str, players: int) -> None:
    _easy_games(game, players, 40, 1000)
