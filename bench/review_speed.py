"""How long a deal's review takes: ``engine.review.review_deal`` per game, p50 / p99 / max.

    python bench/review_speed.py [--deals 40] [--games mushka,kopilka] [--seed 1] [--all-seats]

Plays each game at its slowest table to review (:data:`SEATS`) with ``easy`` seats and reviews
every finished deal of the records (up to ``--deals`` a game) for one viewer, the seat that
played most decisions in it (``--all-seats``: for every seat at once), timing the review's
thread CPU time: the steps replayed, each decision of the seat with a real choice searched (the
review's budget, :data:`engine.players.advice.REVIEW_SHARE` of ``hard``'s), the trick family's
play solved exactly.
The issue's aim is 2 s of CPU at p99 per deal on the deployed machine (two shared
cores); the bot computes a review off the event loop, once, and keeps it.
"""

from __future__ import annotations

import argparse
import platform
import random
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from engine import GAMES, new_game  # noqa: E402
from engine.core import Line  # noqa: E402
from engine.lines import LineKind, is_kind  # noqa: E402
from engine.players import computer  # noqa: E402
from engine.review import deal_numbers, review_deal  # noqa: E402

SEATS = {"mushka": 7, "pamfil": 6, "shutikha": 6, "mistigri": 6}
SEATS |= {"kopilka": 4, "lenturlu": 8, "konchinka": 2}
"""Each game's slowest table to review: the largest (the widest trick play), but Кончинка's two
(a seat's most decisions in a deal)."""


def records(game: str, players: int, seed: int) -> list[Line]:
    """One game played to its end by ``easy`` seats: its record."""
    easy = computer(game, "easy")
    state = new_game(game, players, seed)
    rng = random.Random(seed)
    while (seat := state.to_act) is not None:
        state.apply(seat, easy(state.view(seat), rng))
    return state.record()


def viewer(record: list[Line], deal_no: int) -> int:
    """The seat with the most actions in the deal."""
    acts: Counter[int] = Counter()
    inside = False
    for line in record:
        if is_kind(line, LineKind.DEAL):
            inside = line["no"] == deal_no
        elif inside and is_kind(line, LineKind.ACT):
            acts[line["seat"]] += 1
    return acts.most_common(1)[0][0] if acts else 0


def measure(game: str, players: int, deals: int, seed: int, every: bool) -> list[float]:
    """CPU seconds of ``deals`` reviews (fewer if 100 games run out)."""
    cpus: list[float] = []
    for k in range(100):
        record = records(game, players, seed + k)
        for no in deal_numbers(record):
            if len(cpus) >= deals:
                return cpus
            seats = None if every else (viewer(record, no),)
            cpu = time.thread_time()
            review_deal(record, no, seed + len(cpus), seats=seats)
            cpus.append(time.thread_time() - cpu)
    return cpus


def _q(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--games", default=",".join(SEATS))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--all-seats", action="store_true")
    args = parser.parse_args()
    print(f"python {platform.python_version()} on {platform.machine()}, seed {args.seed}")
    print(f"{'game':<10} {'n':>2} {'deals':>5}  cpu ms p50 / p99 / max")
    for game in args.games.split(","):
        assert game in GAMES, game
        cpus = measure(game, SEATS[game], args.deals, args.seed, args.all_seats)
        cpu = " / ".join(f"{1000 * _q(cpus, q):.0f}" for q in (0.5, 0.99, 1.0))
        print(f"{game:<10} {SEATS[game]:>2} {len(cpus):>5}  {cpu:>22}", flush=True)


if __name__ == "__main__":
    main()
