"""``python -m engine simulate --game mushka --players 5 --games 100 --seed 7 [--option k=v]``.

Also ``python -m engine duel --game G --players N --games K --a computer:normal --b random
[--seed S] [--option k=v]``: seat A's player against B's (:mod:`engine.duel`).

And ``python -m engine replay FILE``: replays every record of a JSON Lines file and reports
whether each one is exported again unchanged.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from engine.duel import duel
from engine.errors import EngineError
from engine.games import GAMES
from engine.options import parse_assignments
from engine.record import dumps, read_records, replay
from engine.simulate import simulate


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m engine", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    sim = sub.add_parser("simulate", help="play random legal games, print their records")
    sim.add_argument("--game", required=True, choices=sorted(GAMES))
    sim.add_argument("--players", type=int, required=True)
    sim.add_argument("--games", type=int, default=1)
    sim.add_argument("--seed", type=int, default=0)
    sim.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    du = sub.add_parser("duel", help="seat A's player against B's, A rotating over the seats")
    du.add_argument("--game", required=True, choices=sorted(GAMES))
    du.add_argument("--players", type=int, required=True)
    du.add_argument("--games", type=int, default=100)
    du.add_argument("--a", default="computer:normal", metavar="PLAYER")
    du.add_argument("--b", default="random", metavar="PLAYER")
    du.add_argument("--seed", type=int, default=0)
    du.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    du.add_argument(
        "--duplicate",
        action="store_true",
        help="every deal played once with A in each seat (games: a multiple of players)",
    )
    rep = sub.add_parser("replay", help="replay records and check they export unchanged")
    rep.add_argument("files", nargs="+", type=Path)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        if args.command == "simulate":
            options = parse_assignments(args.option)
            out = sys.stdout
            for record in simulate(args.game, args.players, args.games, args.seed, options):
                out.writelines(dumps(line) + "\n" for line in record)
            return 0
        if args.command == "duel":
            options = parse_assignments(args.option)
            report = duel(
                args.game,
                args.players,
                args.games,
                args.a,
                args.b,
                args.seed,
                options,
                duplicate=args.duplicate,
            )
            print("\n".join(report.lines()))
            return 0
        failures = 0
        for path in args.files:
            for k, record in enumerate(read_records(path), 1):
                again = replay(record).record()
                same = again == record
                failures += not same
                print(f"{path}#{k}: {'same' if same else 'DIFFERENT'}")
        return 1 if failures else 0
    except EngineError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
