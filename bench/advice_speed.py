"""How long a hint's advice takes: ``engine.players.advice.advise`` per game, p50 / p99 / max.

    python bench/advice_speed.py [--decisions 200] [--games mushka,kopilka] [--seed 1]

Plays each game with ``easy`` seats and, at every decision of seat 0 up to ``--decisions`` of
them, asks for the advice the 💡 button shows (the ``hard`` level's own search, ranked), timing
its wall and its thread's CPU time. The hints' aim is 1.5 s at p99 on the deployed machine (two
shared cores); the bot runs the search in a worker thread, as it does the computers' moves.
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
from engine.players import computer  # noqa: E402
from engine.players.advice import advise  # noqa: E402

SEATS = {"mushka": 3, "pamfil": 4, "shutikha": 3, "mistigri": 5}
SEATS |= {"kopilka": 4, "lenturlu": 4, "konchinka": 2}


def measure(game: str, players: int, decisions: int, seed: int) -> tuple[list[float], list[float]]:
    """Wall and CPU seconds of ``decisions`` advices at seat 0 (fewer if the games run out)."""
    walls: list[float] = []
    cpus: list[float] = []
    easy = computer(game, "easy")
    for k in range(1000):  # games, each played to its end
        state = new_game(game, players, seed + k)
        rng = random.Random(seed + k)
        while (seat := state.to_act) is not None and len(walls) < decisions:
            view = state.view(seat)
            if seat == 0 and len(view.legal) > 1:
                started, cpu = time.perf_counter(), time.thread_time()
                advise(view, len(walls))
                walls.append(time.perf_counter() - started)
                cpus.append(time.thread_time() - cpu)
            state.apply(seat, easy(view, rng))
        if len(walls) >= decisions:
            break
    return walls, cpus


def _q(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decisions", type=int, default=200)
    parser.add_argument("--games", default=",".join(SEATS))
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"python {platform.python_version()} on {platform.machine()}, seed {args.seed}")
    print(f"{'game':<10} {'n':>2} {'advices':>7}  wall ms p50 / p99 / max   cpu ms p50 / p99 / max")
    for game in args.games.split(","):
        assert game in GAMES, game
        walls, cpus = measure(game, SEATS[game], args.decisions, args.seed)
        wall = " / ".join(f"{1000 * _q(walls, q):.0f}" for q in (0.5, 0.99, 1.0))
        cpu = " / ".join(f"{1000 * _q(cpus, q):.0f}" for q in (0.5, 0.99, 1.0))
        print(f"{game:<10} {SEATS[game]:>2} {len(walls):>7}  {wall:>24}   {cpu:>22}")


if __name__ == "__main__":
    main()
