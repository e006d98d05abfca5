"""bench/pulka_length.py: a pulka's deals are counted from its record, and one past the bound
is stopped and counted as not ended."""

from __future__ import annotations

import random

import pytest

from bench.pulka_length import HEADER, cell, main, pulka
from engine.duel import player
from engine.games import new_game


def _deals_by_record(game: str, players: int, seed: int) -> int:
    policy = player("computer:easy", game)
    rngs = [random.Random(f"pulka:{seed}:{s}") for s in range(players)]
    state = new_game(game, players, seed, {})
    while (seat := state.to_act) is not None:
        state.apply(seat, policy(state.view(seat), rngs[seat]))
    return sum(1 for line in state.record() if line.get("t") == "deal_end")


def test_a_pulka_counts_the_deals_its_record_ends() -> None:
    for game, players in (("mushka", 3), ("konchinka", 2), ("kopilka", 4)):
        assert pulka(game, players, "easy", 5, 200) == _deals_by_record(game, players, 5)


def test_a_pulka_past_the_bound_is_not_ended() -> None:
    assert pulka("pamfil", 4, "easy", 1, 1) is None
    got = cell("pamfil", 4, "easy", 3, 1, 1)
    assert got.deals == (1, 1, 1) and got.stopped == 3
    assert got.row() == f"| pamfil | 4 | easy | 3 | 1 | 1 | 1 | 3 | {got.cpu:.0f} |"


def test_the_command_prints_a_markdown_row_per_cell(capsys: pytest.CaptureFixture[str]) -> None:
    main(["--games", "lenturlu", "--levels", "easy", "--players", "3", "4", "--pulkas", "2"])
    out = capsys.readouterr().out.splitlines()
    assert out[:2] == HEADER.splitlines()
    assert [line.split(" | ")[:3] for line in out[2:]] == [
        ["| lenturlu", "3", "easy"],
        ["| lenturlu", "4", "easy"],
    ]
