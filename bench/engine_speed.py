"""Random-playout speed of the engine: deals per second for each game.

    python bench/engine_speed.py [--seconds 2.0] [--games mushka,kopilka] [--players 3,7]

Plays random legal games (the simulator's playout) for about ``--seconds`` per row and prints
deals/second and actions/second. The trick family is measured at 3 and 7 players, the
others at their smallest and largest seat counts. Figures from one run on one machine are
comparable with each other; compare ratios, not absolutes, across machines.
"""

from __future__ import annotations

import argparse
import platform
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from engine import GAMES, new_game  # noqa: E402
from engine.simulate import playout  # noqa: E402


def measure(game: str, players: int, seconds: float) -> tuple[int, int, int, float]:
    """Games, deals, actions played in about ``seconds``, and the time taken."""
    games = deals = actions = 0
    start = time.perf_counter()
    seed = 0
    while time.perf_counter() - start < seconds:
        state = playout(new_game(game, players, seed), random.Random(seed))
        record = state.record()
        deals += sum(1 for line in record if line["t"] == "deal")
        actions += state.version
        games += 1
        seed += 1
    return games, deals, actions, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--players", default="", help="seat counts (default: per game)")
    args = parser.parse_args()
    print(f"python {platform.python_version()} on {platform.machine()}, {args.seconds}s per row")
    print(f"{'game':<10} {'n':>2} {'games':>7} {'deals':>8} {'deals/s':>9} {'actions/s':>10}")
    for game in args.games.split(","):
        spec = GAMES[game]
        if args.players:
            counts = [int(n) for n in args.players.split(",") if int(n) in spec.seat_counts]
        elif spec.family == "trick":
            counts = [3, 7]
        else:
            counts = sorted({min(spec.seat_counts), max(spec.seat_counts)})
        for n in counts:
            games, deals, actions, took = measure(game, n, args.seconds)
            print(
                f"{game:<10} {n:>2} {games:>7} {deals:>8} {deals / took:>9.0f}"
                f" {actions / took:>10.0f}"
            )


if __name__ == "__main__":
    main()
