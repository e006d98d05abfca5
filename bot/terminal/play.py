"""``python -m bot play <game> [--players N] [--seat K] [--option name=value …]
[--level easy|normal] [--lang ru|en] [--seed S] [--record FILE] [--explain]``.

One person plays one game (a pulka, a partia, a deal …) against the computer players
(``engine.players.computer``) in a terminal. Every screen is the Telegram screen's own text
(``bot/render``'s functions, the catalogues), tags stripped, its tap instructions said for a
keyboard. A move is typed as a person says it: its cards in either alphabet (``7♣``, ``7c``,
``Тп``), the screen's words (``пас``, ``играю``, ``купить 1``), RECORD.md notation, or the
number of a short list (:mod:`bot.terminal.session`). An illegal move is refused with the bot's
wording (``--explain``: and the engine's code) and changes nothing; ``rules`` tells the game's
rules in a few lines. ``q``
(confirmed) or the end of the input stops the game; with ``--record FILE`` the game's RECORD.md
record is written (``abandoned`` if stopped), which ``python -m engine replay FILE`` replays.

Ctrl-C at the prompt stops as the end of the input does; while the computers play, it stops
at once (exit 130, nothing recorded).

Exit codes: 0 the game was played to its end; 1 stopped before its end; 2 bad arguments;
130 interrupted by Ctrl-C between two prompts.
"""

from __future__ import annotations

import argparse
import os
import secrets
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from bot.game_names import GAME_NAMES, game_code
from bot.i18n import Catalogues, bundled_locales
from bot.markup import unmarked as plain
from bot.render.refusals import refusal_html
from bot.runtime.deals import LABEL_BITS
from bot.runtime.lobby_options import option_refusal
from bot.terminal.session import Session, Setup, computers
from engine.errors import InvalidOption
from engine.games import GAMES, new_game
from engine.options import parse_assignments
from engine.players import LEVELS
from engine.record import write_jsonl

__all__ = ["Setup", "computers", "parse_args", "play_main"]

LOCALES = bundled_locales()
NAME_MAX = 64  # as long as a Telegram name
INTERRUPTED = 130  # the shell's code for a command stopped by Ctrl-C (128 + SIGINT)


def catalogues(locale: str) -> Catalogues:
    """The package's catalogues, or those where ``BOT_LOCALES`` points (as the bot reads them)."""
    root = os.environ.get("BOT_LOCALES")
    return Catalogues.load(Path(root) if root else LOCALES, locale)


def parse_args(argv: Sequence[str]) -> Setup:
    """The command line, checked; ``SystemExit(2)`` with argparse's one line when it is bad
    (a malformed ``--option`` said in the player's language)."""
    parser = argparse.ArgumentParser(
        prog="python -m bot play",
        description="Play one game in the terminal against the computer players "
        "(no token, no database, no network).",
        epilog="At your turn type a move (its cards, or the screen's words), ? for the list of "
        "moves, rules for the game's rules, q to stop.",
    )
    parser.add_argument("game", help="one of: " + " ".join(GAME_NAMES) + " (or its ru name)")
    parser.add_argument("--players", type=int, help="seats at the table (default: the fewest)")
    parser.add_argument("--seat", type=int, default=1, help="your seat, 1 to N (default 1)")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--level", choices=LEVELS, default="normal")
    parser.add_argument("--lang", choices=("ru", "en"), default="ru")
    parser.add_argument(
        "--seed", type=int, help="the deals' seed (default: cryptographic deals, no seed)"
    )
    parser.add_argument("--record", type=Path, metavar="FILE", help="write the RECORD.md record")
    parser.add_argument(
        "--explain", action="store_true", help="refusals name the engine's code too"
    )
    parser.add_argument(
        "--name", help="your name at the table (default: «Игрок» in ru, Player in en)"
    )
    args = parser.parse_args(list(argv))
    game = game_code(args.game)
    if game is None or game not in GAMES:
        parser.error(f"unknown game {args.game!r}: one of " + ", ".join(GAME_NAMES))
    counts = GAMES[game].seat_counts
    players = min(counts) if args.players is None else args.players
    if players not in counts:
        allowed = ", ".join(str(c) for c in counts)
        parser.error(f"{game} is played by {allowed} players, not {players}")
    if not 1 <= args.seat <= players:
        parser.error(f"--seat must be 1 to {players}")
    try:
        options = parse_assignments(args.option)
    except InvalidOption as error:  # «--option target»: said in the player's language
        tr = catalogues(args.lang).tr(args.lang)
        text = str(error.params.get("text", ""))
        parser.error(
            tr("--option {text}: write it as name=value (for example target=10).", text=text)
        )
    name = None if args.name is None else " ".join(args.name.split())
    if name is not None and not 1 <= len(name) <= NAME_MAX:
        parser.error(f"--name: 1 to {NAME_MAX} characters")
    seeded = args.seed is not None
    seed = args.seed if seeded else secrets.randbits(LABEL_BITS)
    return Setup(
        game,
        players,
        args.seat - 1,
        options,
        args.level,
        args.lang,
        seed,
        args.record,
        explain=args.explain,
        seeded=seeded,
        name=name,
    )


def play_main(argv: Sequence[str], stdin: TextIO, stdout: TextIO, stderr: TextIO) -> int:
    try:
        return _play(argv, stdin, stdout, stderr)
    except KeyboardInterrupt:  # Ctrl-C while the computers play: no traceback, no record
        stdout.write("\n")
        stdout.flush()
        return INTERRUPTED
    except BrokenPipeError:  # the reader went away (``| head``): stop without a word
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, stdout.fileno())  # so the interpreter's last flush is quiet too
        except (OSError, ValueError):
            pass
        return 1


def _play(argv: Sequence[str], stdin: TextIO, stdout: TextIO, stderr: TextIO) -> int:
    try:
        setup = parse_args(argv)
    except SystemExit as stop:
        return int(stop.code or 0)
    tr = catalogues(setup.locale).tr(setup.locale)
    try:
        state = new_game(
            setup.game, setup.players, setup.seed, setup.options, chance=setup.chance()
        )
    except InvalidOption as error:  # the lobby's own words for a bad option
        stderr.write(f"play: {plain(refusal_html(option_refusal(setup.game, error), tr))}\n")
        return 2

    def read() -> str | None:
        try:
            line = stdin.readline()
        except KeyboardInterrupt:  # Ctrl-C at the prompt: stopped as by Ctrl-D
            return None
        return line if line else None

    if setup.seeded:  # the same --seed plays the same deals again
        stdout.write(f"{tr('Seed')}: {setup.seed}\n")
    session = Session(setup, state, tr, read, stdout, echo=not stdin.isatty())
    finished = session.play()
    if not finished:
        state.abandon()
        session.say("")
        recorded = setup.record is not None
        session.say(
            tr("Stopped: the game is recorded as abandoned.") if recorded else tr("Stopped.")
        )
    if setup.record is not None:
        try:
            setup.record.write_text(write_jsonl(state.record()), encoding="utf-8")
        except OSError as error:
            stderr.write(f"play: {setup.record}: {error.strerror or error}\n")
            return 1
        session.say(tr("Record written: {path}", path=str(setup.record)))
    return 0 if finished else 1
