"""A finished game's places (``Result.places``, for ratings): the winner alone first,
then the others by money, among equal money by the game's own points; equal places shared."""

from __future__ import annotations

import random

import pytest

from engine.core import EndReason, Result
from engine.duel import play_one
from engine.players import computer


def test_1_6_1_the_pulka_winner_is_first_the_others_by_their_money() -> None:
    # seed 000's example (counts left 9, 16, 2), a fourth seat with 2 left: −2 is second
    assert Result(EndReason.ZERO, 1, (-9, 27, -16, -2)).places() == (3, 1, 4, 2)


def test_1_6_5_losers_with_equal_money_share_a_place_and_the_next_counts_them() -> None:
    assert Result(EndReason.ZERO, 0, (20, -10, -10, 0)).places() == (1, 3, 3, 2)
    assert Result(EndReason.ZERO, 2, (-5, -5, 15, -5)).places() == (2, 2, 1, 2)


def test_2_6_7_the_partia_winner_is_first_even_on_equal_money_and_points() -> None:
    # §2.6.7 names one winner among equal nets and points: he is first, the other second
    assert Result(EndReason.PARTIA, 3, (10, -20, 0, 10), (30, 5, 12, 30)).places() == (2, 4, 3, 1)
    # equal money, more partia points: the better place
    assert Result(EndReason.PARTIA, 0, (25, -5, -5, -15), (40, 8, 11, 2)).places() == (1, 3, 2, 4)


def test_4_4_3_konchinka_equal_money_is_broken_by_the_totals() -> None:
    assert Result(EndReason.TARGET, 1, (-3, 6, -3), (9, 15, 11)).places() == (3, 1, 2)


def test_0_11_an_abandoned_game_has_no_places() -> None:
    assert Result(EndReason.ABANDONED, None, (0, 0, 0)).places() is None


@pytest.mark.parametrize(
    ("game", "players", "options"),
    [
        ("mushka", 3, {"target": 5}),
        ("kopilka", 4, {}),
        ("lenturlu", 4, {}),
        ("konchinka", 2, {"target": 5}),
    ],
)
def test_every_finished_game_has_one_first_place_the_winner(
    game: str, players: int, options: dict[str, int]
) -> None:
    for seed in range(4):
        bots = [computer(game, "easy") for _ in range(players)]
        rngs = [random.Random(seed * 10 + s) for s in range(players)]
        result, _, _ = play_one(game, players, seed, bots, rngs, -1, options)
        places = result.places()
        assert places is not None and places.count(1) == 1
        assert result.winner is None or places[result.winner] == 1
        by_money = sorted(range(players), key=lambda s: -result.net[s])
        rest = [s for s in by_money if s != result.winner]
        assert [places[s] for s in rest] == sorted(places[s] for s in rest)
