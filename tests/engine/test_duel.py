"""The duel script (engine/duel.py, ``python -m engine duel``)."""

from __future__ import annotations

import math
import random
import statistics

import pytest

from engine.__main__ import main
from engine.duel import duel, p99, play_one, player
from engine.errors import InvalidOption
from engine.games import GAMES
from engine.players import Policy, computer, random_player


@pytest.mark.parametrize("game", sorted(GAMES))
def test_duel_every_game_smallest_and_largest_table(game: str) -> None:
    for players in (min(GAMES[game].seat_counts), max(GAMES[game].seat_counts)):
        report = duel(game, players, 2, "computer:easy", "random", seed=3)
        assert len(report.nets) == 2
        low, high = report.ci
        assert low <= report.mean <= high
        assert 0.0 <= report.win_rate <= 1.0
        assert report.decision_times and report.max_ms >= report.p99_ms >= report.median_ms
        assert report.cpu_max_ms >= report.cpu_p99_ms >= report.cpu_median_ms >= 0.0


def test_duel_rotation_covers_every_seat() -> None:
    report = duel("mushka", 3, 6, "computer:easy", "computer:easy", seed=1)
    # the same player everywhere: the money A wins over one full rotation is zero-sum per game,
    # and rotating A over the seats takes each seat's result once per rotation
    assert len(report.nets) == 6
    pol = computer("mushka", "easy")
    for i in range(3):
        rngs = [random.Random(f"duel:1:{i}:{s}") for s in range(3)]
        result, _, _ = play_one("mushka", 3, 1 + i, [pol] * 3, rngs, i % 3)
        assert report.nets[i] == result.net[i % 3]


def test_duel_ci_contains_mean_and_is_deterministic() -> None:
    short = {"target": 5}  # short pulkas: the searching player is the slow one
    one = duel("pamfil", 4, 4, "computer:normal", "random", seed=11, options=short)
    two = duel("pamfil", 4, 4, "computer:normal", "random", seed=11, options=short)
    assert one.nets == two.nets and one.wins == two.wins
    low, high = one.ci
    assert low <= one.mean <= high and high - low > 0


def test_duel_cli_output_parses(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["duel", "--game", "konchinka", "--players", "2", "--games", "3", "--seed", "5"]
    assert main([*argv, "--a", "computer:easy", "--b", "random"]) == 0
    out = capsys.readouterr().out
    fields = dict(line.split(": ", 1) for line in out.strip().splitlines())
    assert fields["games"] == "3" and fields["game"] == "konchinka"
    mean = float(fields["mean"])
    low, high = map(float, fields["ci95"].split())
    assert low <= mean <= high
    assert 0.0 <= float(fields["win_rate"]) <= 1.0
    assert float(fields["max_ms"]) >= float(fields["p99_ms"]) >= float(fields["median_ms"])
    assert float(fields["cpu_max_ms"]) >= float(fields["cpu_p99_ms"])
    assert main([*argv, "--a", "computer:easy", "--b", "random"]) == 0
    again = capsys.readouterr().out

    def untimed(text: str) -> list[str]:
        return [line for line in text.splitlines() if "_ms" not in line]

    assert untimed(again) == untimed(out)  # deterministic apart from the times


def test_duel_unknown_player() -> None:
    with pytest.raises(InvalidOption):
        player("human", "mushka")
    with pytest.raises(InvalidOption):
        duel("mushka", 2, 1, "random", "random")


def test_2_6_7_the_duel_counts_the_partia_winner_of_the_engine() -> None:
    """Копилка's duel wins are the engine's partia winners (§2.6.7: the highest net first), the
    same as every other game's."""
    options = {"ante": 0, "point_rate": 3}  # a small bank: the last deal's winner often trails
    report = duel("kopilka", 4, 8, "random", "random", seed=2, options=options)
    wins = 0
    for i in range(8):
        rngs = [random.Random(f"duel:2:{i}:{s}") for s in range(4)]
        players: list[Policy] = [random_player] * 4
        result, _, _ = play_one("kopilka", 4, 2 + i, players, rngs, i % 4, options)
        assert result.winner is not None and result.net[result.winner] == max(result.net)
        wins += result.winner == i % 4
    assert report.wins == wins


def test_p99_is_the_nearest_rank() -> None:
    assert p99(()) == 0.0
    assert p99((5.0,)) == 5.0
    times = tuple(float(i) for i in range(1, 201))  # 1 … 200: the 198th is the 99th percentile
    assert p99(times[::-1]) == 198.0
    assert p99(tuple(float(i) for i in range(1, 101))) == 99.0


def test_a_duplicate_duel_plays_each_deal_with_a_in_every_seat() -> None:
    """``duplicate``: games i·N … i·N+N−1 share a deal, A in seats 0 … N−1; the interval is
    taken over the deals' means (the games of one deal share its luck)."""
    report = duel("lenturlu", 3, 9, "computer:normal", "computer:easy", seed=4, duplicate=True)
    assert report.duplicate and len(report.nets) == 9
    assert len(report.samples) == 3
    assert report.samples[1] == statistics.fmean(report.nets[3:6])
    assert abs(report.mean - statistics.fmean(report.samples)) < 1e-9
    expected = 1.96 * statistics.stdev(report.samples) / math.sqrt(3)
    assert abs(report.half_width - expected) < 1e-9
    for k in range(3):  # the first game of each deal: seat A at 0, on deal seed + k
        result, _, _ = play_one(
            "lenturlu",
            3,
            4 + k,
            [computer("lenturlu", "normal")] + [computer("lenturlu", "easy")] * 2,
            [random.Random(f"duel:4:{3 * k}:{s}") for s in range(3)],
            0,
        )
        assert result.net[0] == report.nets[3 * k]
    with pytest.raises(InvalidOption):
        duel("lenturlu", 3, 10, "computer:easy", "random", duplicate=True)
