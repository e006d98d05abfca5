"""``python -m bot review FILE.jsonl [--game N] [--deal D] [--seat S] [--lang ru|en] [--seed S]``:
the review of finished deals from a record file alone (:mod:`engine.review`), in this terminal.

For each deal (``--deal``: that one; else every finished deal of the record): the summary of each
seat's costliest decisions (``--seat``: that seat's alone, and only its decisions searched —
much faster), then every step with every hand shown, plain text (:mod:`bot.render.review`).
``--game`` picks the record of a file holding several (1 the first; a game still running, as
``python -m bot export`` writes it, has its finished deals reviewed); seats are numbered from 1
as the text names them. A file that cannot be read, a record that does not replay, a deal
that is not a finished one: one line on stderr, exit 2. Needs no token, no database.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from bot.markup import unmarked as plain
from bot.render.review import review_text, summary_text
from bot.terminal.play import catalogues
from engine.core import Line
from engine.errors import EngineError, InvalidRecord
from engine.lines import LineKind, is_kind
from engine.record import read_jsonl
from engine.review import deal_numbers, review_deal

BAD_USE = 2


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]  # one line, exit 2
        raise _Refused(f"review: {message}")


class _Refused(Exception):
    """What the command refuses, in one line."""


def review_main(argv: Sequence[str], stdout: TextIO, stderr: TextIO) -> int:
    try:
        _review(argv, stdout)
    except _Refused as refused:
        stderr.write(f"{refused}\n")
        return BAD_USE
    return 0


def _arguments(argv: Sequence[str]) -> argparse.Namespace:
    parser = _Parser(prog="python -m bot review", description=__doc__.splitlines()[0])
    parser.add_argument("file", type=Path)
    parser.add_argument("--game", type=int, default=1, help="which record of the file (1 first)")
    parser.add_argument("--deal", type=int, help="one deal (default: every finished deal)")
    parser.add_argument("--seat", type=int, help="one seat, from 1 (default: every seat)")
    parser.add_argument("--lang", choices=("ru", "en"), default="ru")
    parser.add_argument("--seed", type=int, default=1, help="the search's seed")
    return parser.parse_args(list(argv))


def _review(argv: Sequence[str], stdout: TextIO) -> None:
    args = _arguments(argv)
    try:
        records = _records(read_jsonl(args.file.read_text(encoding="utf-8")))
    except (OSError, UnicodeDecodeError) as error:
        raise _Refused(f"review: cannot read {args.file}: {error.__class__.__name__}") from None
    except EngineError as error:
        raise _Refused(f"review: {args.file} is not a record file: {error}") from None
    if not 1 <= args.game <= len(records):
        raise _Refused(f"review: {args.file} has {len(records)} record(s), no game {args.game}")
    record = records[args.game - 1]
    players = int(record[0]["players"])
    if args.seat is not None and not 1 <= args.seat <= players:
        raise _Refused(f"review: the game has seats 1 to {players}, no seat {args.seat}")
    finished = deal_numbers(record)
    if args.deal is not None and args.deal not in finished:
        raise _Refused(f"review: deal {args.deal} is not a finished deal of the record")
    tr = catalogues(args.lang).tr(args.lang)
    seats = range(players) if args.seat is None else (args.seat - 1,)
    for no in finished if args.deal is None else (args.deal,):
        try:
            review = review_deal(record, no, args.seed, seats=seats)
        except EngineError as error:
            raise _Refused(f"review: the record does not replay: {error}") from None
        first, *rest = seats
        texts = review_text(review, first, tr)
        texts[1:1] = [summary_text(review, seat, tr) for seat in rest]
        stdout.write("\n\n".join(plain(t) for t in texts) + "\n\n")
        stdout.flush()


def _records(lines: Sequence[Line]) -> list[list[Line]]:
    """The file's records, each from its ``game`` line; the last may be a game still running
    (an export's: no ``end`` line yet), whose finished deals are reviewed as well."""
    records: list[list[Line]] = []
    for line in lines:
        if is_kind(line, LineKind.GAME):
            records.append([])
        elif not records:
            raise InvalidRecord("a record starts with its game line")
        records[-1].append(line)
    if not records:
        raise InvalidRecord("no record in the file")
    return records


__all__ = ["review_main"]
