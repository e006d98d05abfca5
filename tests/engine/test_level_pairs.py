"""bench/level_pairs.py: a cell cut into slices over processes is exactly the one duel, and runs
joined from its JSON file are the duel of all their deals."""

from __future__ import annotations

import pytest

from bench.level_pairs import Cell, cells, read, run, table, to_json
from engine.duel import duel


def test_slices_over_processes_join_into_exactly_the_one_duel() -> None:
    cell = Cell("lenturlu", 3, "normal", "easy")
    (joined,) = run([cell], deals=5, seed=7, jobs=2)  # slices of 3 and 2 deals
    whole = duel("lenturlu", 3, 15, "computer:normal", "computer:easy", 7, duplicate=True)
    assert joined.nets == whole.nets
    assert joined.wins == whole.wins
    assert len(joined.cpu_times) == len(whole.cpu_times)
    assert joined.half_width == pytest.approx(whole.half_width)


def test_runs_of_disjoint_deals_join_and_overlapping_ones_are_refused() -> None:
    cell = Cell("lenturlu", 3, "normal", "easy")
    (first,) = run([cell], deals=3, seed=20, jobs=1)
    (second,) = run([cell], deals=2, seed=23, jobs=1)
    (joined,) = read([to_json(first, 20, 3), to_json(second, 23, 2)])
    assert joined.nets == first.nets + second.nets
    assert len(joined.samples) == 5
    assert joined.wins == first.wins + second.wins
    assert len(joined.cpu_times) == len(first.cpu_times) + len(second.cpu_times)
    with pytest.raises(ValueError, match="overlap"):
        read([to_json(first, 20, 3), to_json(second, 22, 2)])
    text = table([joined])
    assert "| lenturlu | 3 | normal vs easy | 5 |" in text


def test_the_measured_cells_are_the_counts_each_family_is_judged_at() -> None:
    chosen = cells(["mushka", "kopilka", "konchinka"], "measured", [("hard", "normal")])
    assert [(c.game, c.players) for c in chosen] == [
        ("mushka", 3),
        ("mushka", 5),
        ("kopilka", 4),
        ("konchinka", 2),
        ("konchinka", 4),
    ]
    assert len(cells(["lenturlu"], "all", [("a", "b"), ("c", "d")])) == 12
