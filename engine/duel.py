"""The duel: seat A's player against B's over K games (``python -m engine duel``).

``python -m engine duel --game mushka --players 5 --games 100 --a computer:normal --b random``

Game i uses seed ``seed + i``; seat A is seat ``i mod N`` (A rotates over the seats), every
other seat plays B. Each seat's player draws from its own ``random.Random`` derived from the
seed, never from the game's chance (STYLE.md §6), so the deals do not depend on the players.

What is measured for seat A:

* **mean** of its result per game: ``state.result.net[A]``, the money of the settlement (every
  one of the seven games pays, RULES.md §0.7: the trick family's pulka money and side ledger
  §1.6.5, Копилка's payout §2.6, Лентюрлю's payments §3.5, Кончинка's settlement §4.4.5), with
  the 95 % interval ``mean ± 1.96·s/√K``;
* **win rate**: the share of games with ``result.winner == A`` (Копилка's partia winner by
  RULES.md §2.6.7: the highest net, ties by partia points, then the last deal's winner, then
  seat order from the first dealer);
* the **median, 99th percentile and maximum time** of A's decisions: wall time
  (``time.perf_counter``) and the process's own CPU time (``time.process_time``), which a
  loaded, shared machine inflates less.

This is a tool, not part of the rules: it is the only engine module that reads a clock (around
each of A's decisions), and the players never see it.
"""

from __future__ import annotations

import math
import random
import statistics
import time
from collections.abc import Mapping
from dataclasses import dataclass

from engine.core import Result, Seat
from engine.errors import InvalidOption
from engine.games import GAMES, new_game
from engine.players import Policy, computer, random_player

MAX_ACTIONS = 200_000
"""A bound on any one game's length."""

Z95 = 1.96
"""The normal quantile of a two-sided 95 % interval."""


def player(spec: str, game: str) -> Policy:
    """``random``, ``computer:easy`` or ``computer:normal`` (raises ``InvalidOption``)."""
    if spec == "random":
        return random_player
    kind, _, level = spec.partition(":")
    if kind == "computer":
        return computer(game, level or "normal")
    raise InvalidOption("player", player=spec)


@dataclass(frozen=True, slots=True)
class DuelReport:
    """Seat A's figures over the duel."""

    game: str
    players: int
    games: int
    a: str
    b: str
    nets: tuple[int, ...]  # A's net per game
    wins: int
    decision_times: tuple[float, ...]  # seconds, every decision of A (wall time)
    cpu_times: tuple[float, ...] = ()  # the same decisions' CPU time of this process
    duplicate: bool = False  # each deal played once with A in every seat (see :func:`duel`)

    @property
    def mean(self) -> float:
        return statistics.fmean(self.nets)

    @property
    def samples(self) -> tuple[float, ...]:
        """The independent samples of A's mean: each game, or with ``duplicate`` each deal's
        mean over its ``players`` games (those share the cards, so they are not independent)."""
        if not self.duplicate:
            return tuple(float(n) for n in self.nets)
        n = self.players
        return tuple(statistics.fmean(self.nets[i : i + n]) for i in range(0, len(self.nets), n))

    @property
    def half_width(self) -> float:
        """Half the 95 % interval (0 for a single sample)."""
        samples = self.samples
        if len(samples) < 2:
            return 0.0
        return Z95 * statistics.stdev(samples) / math.sqrt(len(samples))

    @property
    def ci(self) -> tuple[float, float]:
        return self.mean - self.half_width, self.mean + self.half_width

    @property
    def win_rate(self) -> float:
        return self.wins / self.games

    @property
    def median_ms(self) -> float:
        return 1000 * statistics.median(self.decision_times) if self.decision_times else 0.0

    @property
    def p99_ms(self) -> float:
        return 1000 * p99(self.decision_times)

    @property
    def max_ms(self) -> float:
        return 1000 * max(self.decision_times, default=0.0)

    @property
    def cpu_median_ms(self) -> float:
        return 1000 * statistics.median(self.cpu_times) if self.cpu_times else 0.0

    @property
    def cpu_p99_ms(self) -> float:
        return 1000 * p99(self.cpu_times)

    @property
    def cpu_max_ms(self) -> float:
        return 1000 * max(self.cpu_times, default=0.0)

    def lines(self) -> list[str]:
        """The printed report: ``key: value`` lines."""
        low, high = self.ci
        return [
            f"game: {self.game}",
            f"players: {self.players}",
            f"games: {self.games}",
            f"a: {self.a}",
            f"b: {self.b}",
            f"mean: {self.mean:.3f}",
            f"ci95: {low:.3f} {high:.3f}",
            f"win_rate: {self.win_rate:.3f}",
            f"duplicate: {'yes' if self.duplicate else 'no'}",
            f"decisions: {len(self.decision_times)}",
            f"median_ms: {self.median_ms:.3f}",
            f"p99_ms: {self.p99_ms:.3f}",
            f"max_ms: {self.max_ms:.3f}",
            f"cpu_median_ms: {self.cpu_median_ms:.3f}",
            f"cpu_p99_ms: {self.cpu_p99_ms:.3f}",
            f"cpu_max_ms: {self.cpu_max_ms:.3f}",
        ]


def p99(times: tuple[float, ...]) -> float:
    """The 99th percentile by nearest rank (0 for none)."""
    if not times:
        return 0.0
    ordered = sorted(times)
    return ordered[max(0, math.ceil(0.99 * len(ordered)) - 1)]


def play_one(
    game: str,
    players: int,
    seed: int,
    policies: list[Policy],
    rngs: list[random.Random],
    timed: Seat,
    options: Mapping[str, object] | None = None,
) -> tuple[Result, list[float], list[float]]:
    """One game to its end; the result and the wall and CPU times of ``timed``'s decisions."""
    state = new_game(game, players, seed, options)
    times: list[float] = []
    cpu: list[float] = []
    for _ in range(MAX_ACTIONS):
        seat = state.to_act
        if seat is None:
            result = state.result
            assert result is not None
            return result, times, cpu
        view = state.view(seat)
        if seat == timed:
            start, start_cpu = time.perf_counter(), time.process_time()
            action = policies[seat](view, rngs[seat])
            times.append(time.perf_counter() - start)
            cpu.append(time.process_time() - start_cpu)
        else:
            action = policies[seat](view, rngs[seat])
        state.apply(seat, action)
    raise AssertionError(f"{game}: no end after {MAX_ACTIONS} actions")


def duel(
    game: str,
    players: int,
    games: int,
    a: str,
    b: str,
    seed: int = 0,
    options: Mapping[str, object] | None = None,
    *,
    duplicate: bool = False,
    start: int = 0,
) -> DuelReport:
    """Play the duel (see the module's docstring). ``duplicate``: game i deals seed
    ``seed + i // players`` — every deal is played ``players`` times, A in each seat once, so
    the luck of the cards is shared and the interval (over the deals' means) is narrower for
    the same skill; ``games`` must then be a multiple of ``players``. ``start``: play games
    ``start … start + games − 1`` of the run — slices of one run, played apart (in parallel,
    ``bench/level_pairs.py``), join into exactly the run (with ``duplicate``, a multiple of
    ``players``)."""
    if game not in GAMES:
        raise InvalidOption("unknown_game", game=game)
    if players not in GAMES[game].seat_counts:
        raise InvalidOption("seat_count", game=game, players=players)
    if games < 1 or start < 0 or (duplicate and (games % players or start % players)):
        raise InvalidOption("games", games=games)
    pa, pb = player(a, game), player(b, game)
    nets: list[int] = []
    wins = 0
    times: list[float] = []
    cpu: list[float] = []
    for i in range(start, start + games):
        seat_a = i % players
        policies = [pa if s == seat_a else pb for s in range(players)]
        rngs = [random.Random(f"duel:{seed}:{i}:{s}") for s in range(players)]
        deal = seed + (i // players if duplicate else i)
        result, spent, spent_cpu = play_one(game, players, deal, policies, rngs, seat_a, options)
        nets.append(result.net[seat_a])
        wins += result.winner == seat_a
        times.extend(spent)
        cpu.extend(spent_cpu)
    return DuelReport(
        game, players, games, a, b, tuple(nets), wins, tuple(times), tuple(cpu), duplicate
    )


__all__ = ["DuelReport", "duel", "play_one", "player"]
