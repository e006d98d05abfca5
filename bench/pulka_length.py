"""How long the computers' own games last: pulkas of computers only, every seat at one level
(docs/computers.md, "Pulkas end")::

    python bench/pulka_length.py --games pamfil --players 5 --levels normal --pulkas 200

For each game, level and seat count: the deals of each pulka (Копилка: a partia; Лентюрлю: one
game as the duel plays it; Кончинка: a game) — median, p90 and max — and how many pulkas passed
``--max-deals`` deals (stopped there and counted as not ended, their length as that bound), with
the CPU seconds the cell took. Pulka i deals seed ``--seed + i``; each seat draws from its own
generator (as :mod:`engine.duel` does). Prints a Markdown table.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from engine.duel import player  # noqa: E402
from engine.games import GAMES, new_game  # noqa: E402
from engine.lines import LineKind  # noqa: E402

MAX_DEALS = 200
"""A pulka still going after this many deals is stopped and counted as not ended."""


@dataclass(frozen=True, slots=True)
class Cell:
    """One game, level and seat count: the deals of each pulka, and what it cost."""

    game: str
    players: int
    level: str
    deals: tuple[int, ...]  # per pulka, ``max_deals`` for one stopped there
    stopped: int  # pulkas not ended within ``max_deals``
    cpu: float  # seconds

    def row(self) -> str:
        ordered = sorted(self.deals)
        p90 = ordered[max(0, -(-9 * len(ordered) // 10) - 1)]
        median = statistics.median(ordered)
        return (
            f"| {self.game} | {self.players} | {self.level} | {len(self.deals)} | {median:g} | "
            f"{p90} | {ordered[-1]} | {self.stopped} | {self.cpu:.0f} |"
        )


HEADER = (
    "| game | seats | level | pulkas | median deals | p90 | max | not ended | CPU s |\n"
    "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"
)


def pulka(game: str, players: int, level: str, seed: int, max_deals: int) -> int | None:
    """The deals of one pulka of ``players`` computers at ``level`` (None: not ended)."""
    policy = player(f"computer:{level}", game)
    rngs = [random.Random(f"pulka:{seed}:{s}") for s in range(players)]
    state = new_game(game, players, seed, {})
    deals = 0
    while (seat := state.to_act) is not None:
        for line in state.apply(seat, policy(state.view(seat), rngs[seat])):
            if line.get("t") == LineKind.DEAL_END:
                deals += 1
        if deals >= max_deals and state.to_act is not None:
            return None
    return deals


def cell(game: str, players: int, level: str, pulkas: int, seed: int, max_deals: int) -> Cell:
    start = time.process_time()
    deals: list[int] = []
    stopped = 0
    for i in range(pulkas):
        n = pulka(game, players, level, seed + i, max_deals)
        stopped += n is None
        deals.append(max_deals if n is None else n)
    return Cell(game, players, level, tuple(deals), stopped, time.process_time() - start)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="+", default=list(GAMES))
    parser.add_argument("--levels", nargs="+", default=["easy", "normal", "hard"])
    parser.add_argument("--players", type=int, nargs="+", help="default: every seat count")
    parser.add_argument("--pulkas", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-deals", type=int, default=MAX_DEALS)
    parser.add_argument("--list", action="store_true", help="also each pulka's deals, per cell")
    args = parser.parse_args(argv)
    print(HEADER, flush=True)
    cells: list[Cell] = []
    for game in args.games:
        counts = GAMES[game].seat_counts
        for players in [p for p in args.players or counts if p in counts]:
            for level in args.levels:
                got = cell(game, players, level, args.pulkas, args.seed, args.max_deals)
                cells.append(got)
                print(got.row(), flush=True)
    if args.list:
        for got in cells:
            print(f"{got.game} {got.players} {got.level}: {' '.join(map(str, got.deals))}")


if __name__ == "__main__":
    main()
