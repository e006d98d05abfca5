"""bench/pool_duels.py: pooled duplicate runs equal one duel over all their deals."""

from __future__ import annotations

import random

import pytest

from bench.pool_duels import main, pool
from engine.duel import DuelReport


def _report(nets: list[int], players: int) -> DuelReport:
    return DuelReport("konchinka", players, len(nets), "a", "b", tuple(nets), 0, (), (), True)


def test_two_runs_pool_to_the_duel_of_all_their_deals() -> None:
    rng = random.Random(7)
    players = 4
    first = [rng.randint(-30, 40) for _ in range(players * 25)]
    second = [rng.randint(-20, 60) for _ in range(players * 17)]
    whole = _report(first + second, players)
    runs = [
        (len(r.samples), r.mean, r.half_width)
        for r in (_report(first, players), _report(second, players))
    ]
    mean, half, deals = pool(runs)
    assert deals == 42
    assert mean == pytest.approx(whole.mean)
    assert half == pytest.approx(whole.half_width)


def test_a_run_of_one_deal_is_refused() -> None:
    with pytest.raises(ValueError):
        pool([(1, 2.0, 0.0), (10, 1.0, 1.0)])


def test_the_command_prints_the_pooled_figure() -> None:
    assert main(["25,1.970,2.072", "25,1.880,2.091"]) == "pooled: +1.93 ± 1.46 over 50 deals"
