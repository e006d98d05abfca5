"""``python -m engine simulate --game mushka --players 5 --games 100 --seed 7 [--option k=v]``.

Also ``python -m engine replay FILE``: replays every record of a JSON Lines file and reports
whether each one is exported again unchanged.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

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
