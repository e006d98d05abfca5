"""``python -m bot play <game> [--players N] [--seat K] [--option name=value …]
[--level easy|normal] [--lang ru|en] [--seed S] [--record FILE]``.

One person plays one game (a pulka, a partia, a deal …) against the computer players
(``engine.players.computer``) in a terminal. Every screen is the Telegram screen's own text
(``bot/render``'s functions, the catalogues), tags stripped; the legal actions are listed by
number with the bot's card notation. An action is typed by its number or in RECORD.md notation
(``play 2 7S 8C``, ``card QH``); an illegal one is refused with the bot's wording and the rule
(the engine's code and RULES.md clause) and changes nothing. ``q`` or the end of the input
stops the game (its record then ends ``abandoned``). ``--record FILE`` writes the game's
RECORD.md record, which ``python -m engine replay FILE`` replays unchanged.

Exit codes: 0 the game was played to its end; 1 stopped before its end; 2 bad arguments.
"""

from __future__ import annotations

import argparse
import random
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from bot.callbacks import PressCodec
from bot.i18n import Catalogues, Translator
from bot.refused import Refused
from bot.render.cards import notation_words
from bot.render.computers import computer_name
from bot.render.context import GAME_NAMES, HandUI, TableContext, game_code
from bot.render.games import game_ui
from bot.render.games.base import GameUI
from bot.render.refusals import refusal_html
from bot.runtime.deals import LABEL_BITS, crypto_chance
from bot.runtime.lobby import option_refusal
from bot.runtime.outcome import events_of
from bot.terminal.text import narrated, plain, public_cards, rule_of
from engine.chance import Chance
from engine.core import Line, State
from engine.errors import EngineError, IllegalAction, InvalidNotation, InvalidOption
from engine.games import GAMES, new_game
from engine.options import parse_assignments
from engine.players import LEVELS, Policy, computer
from engine.record import write_jsonl

LOCALES = Path(__file__).resolve().parents[2] / "locales"
STOP = frozenset({"q", "quit", "exit", "в", "выход"})
RULE = "─" * 40


@dataclass(frozen=True, slots=True)
class Setup:
    game: str
    players: int
    seat: int  # 0-based
    options: dict[str, str]
    level: str
    locale: str
    seed: int  # the record's seed: the deals' with --seed, else a label (bot.runtime.deals)
    record: Path | None
    seeded: bool = True  # --seed: reproducible deals; without it they are cryptographic

    def chance(self) -> Chance | None:
        """The deals' source (None: the engine's ``random.Random(seed)``)."""
        return None if self.seeded else crypto_chance()


def parse_args(argv: Sequence[str]) -> Setup:
    """The command line, checked; ``SystemExit(2)`` with argparse's one line when it is bad."""
    parser = argparse.ArgumentParser(
        prog="python -m bot play",
        description="Play one game in the terminal against the computer players.",
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
    except EngineError as error:
        parser.error(f"--option: {error}")
    seeded = args.seed is not None
    seed = args.seed if seeded else secrets.randbits(LABEL_BITS)
    return Setup(
        game, players, args.seat - 1, options, args.level, args.lang, seed, args.record, seeded
    )


def computers(setup: Setup) -> dict[int, tuple[Policy, random.Random]]:
    """Every other seat's computer player with its own generator (never the game's)."""
    policy = computer(setup.game, setup.level)
    return {
        seat: (policy, random.Random(setup.seed * 31 + seat))
        for seat in range(setup.players)
        if seat != setup.seat
    }


class Session:
    """One game at one terminal: the state, the computers, the screens as text."""

    def __init__(
        self,
        setup: Setup,
        state: State,
        tr: Translator,
        read: Callable[[], str | None],
        out: TextIO,
        *,
        echo: bool = False,
    ) -> None:
        self.setup = setup
        self.state = state
        self.tr = tr
        self.read = read
        self.echo = echo  # input piped in: show it after the prompt, as a person would see it
        self.out = out
        ui = game_ui(setup.game)
        assert ui is not None  # every engine game has screens
        self.ui: GameUI[Any] = ui
        self.codec = PressCodec(b"terminal")  # the screens' buttons are drawn, never pressed
        others = iter(range(setup.players))
        self.names = tuple(
            tr("You") if s == setup.seat else computer_name(setup.locale, next(others))
            for s in range(setup.players)
        )
        self.moves = 0
        self.options: dict[str, object] = dict(state.record()[0]["options"])  # all in force
        self.policies = computers(setup)

    def say(self, text: str) -> None:
        self.out.write(text.rstrip("\n") + "\n")
        self.out.flush()

    def context(self) -> TableContext:
        return TableContext(
            table_id=0,
            game=self.setup.game,
            chat_title=self.tr("terminal"),
            names=self.names,
            match_no=1,
            moves=self.moves,
            bot_username="",
            options=self.options,
        )

    def play(self) -> bool:
        """Play to the end (True) or until the person stops (False)."""
        while (seat := self.state.to_act) is not None:
            if seat == self.setup.seat:
                action = self._ask()
                if action is None:
                    return False
            else:
                policy, rng = self.policies[seat]
                action = policy(self.state.view(seat), rng)
            self._apply(seat, action)
        return True

    def _ask(self) -> object | None:
        """The person's action: the hand and the legal actions, then a line of input until it
        is one of them (None: he stopped)."""
        view = self.state.view(self.setup.seat)
        self.say(RULE)
        self.say(plain(self.ui.table(self.context(), self.state.view(None), self.tr).text))
        self.say("")
        self.say(plain(self.ui.hand(self.context(), view, HandUI(), self.tr, self.codec).text))
        legal: Sequence[object] = self.state.legal_actions(self.setup.seat)
        for number, shown in enumerate(legal, 1):
            self.say(f"  {number}. {notation_words(str(shown), self.setup.locale)}  [{shown}]")
        while True:
            self.out.write(self.tr("Your move (a number or its notation, q to stop): "))
            self.out.flush()
            line = self.read()
            if self.echo:
                self.out.write(line or "\n")
            if line is None or line.strip().lower() in STOP:
                return None
            text = line.strip()
            if not text:
                continue
            if text.isdigit():
                if 1 <= int(text) <= len(legal):
                    return legal[int(text) - 1]
                self.say(self.tr("No action {n}: type 1 to {count}.", n=text, count=len(legal)))
                continue
            try:
                action: object = self.state.parse_action(text)
            except InvalidNotation:
                self.say(self.tr("Unknown action: {text}", text=text))
                continue
            if action in legal:
                return action
            self.say(self._refusal(action))

    def _refusal(self, action: object) -> str:
        """Why ``action`` is not among the legal ones: the bot's wording and the rule."""
        try:
            self.state.clone().apply(self.setup.seat, action)
        except IllegalAction as error:
            refused = Refused("Not allowed: {reason}.", engine=error.code)
            refused.params = dict(error.params)
            return f"{plain(refusal_html(refused, self.tr))} ({rule_of(error.code)})"
        raise AssertionError(f"{action} is legal but was not listed")

    def _apply(self, seat: int, action: object) -> None:
        before = self.state.view(None)
        lines = self.state.apply(seat, action)
        self.moves += 1
        notation = str(lines[0]["a"])
        if seat == self.setup.seat:
            said = notation_words(notation, self.setup.locale)
        else:  # only what the group's screens would show
            shown = public_cards(before) | public_cards(self.state.view(None))
            said = narrated(notation, shown, self.setup.locale)
        self.say(f"{self.names[seat]}: {said}")
        events = events_of(lines)
        ctx = self.context()
        if any(ln.get("t") == "deal_end" for ln in lines):
            self.say(RULE)
            self.say(plain(self.ui.ended_table(ctx, before, events, self.tr).text))
            result = self.ui.deal_result(ctx, events, self.state.view(None), self.tr)
            if result:
                self.say("")
                self.say(plain(result))
        end = next((ln for ln in reversed(lines) if ln.get("t") == "end"), None)
        if end is not None:
            self.say(RULE)
            self.say(plain(self._match_result(end)))

    def _match_result(self, end: Line) -> str:
        """The group's result screen; no standings (a terminal has no chat to total over)."""
        result = self.state.result
        winner = result.winner if result is not None else None
        ctx = self.context()
        return self.ui.match_result(ctx, end, winner, (), 1, self.tr, self.codec).text


def play_main(argv: Sequence[str], stdin: TextIO, stdout: TextIO, stderr: TextIO) -> int:
    try:
        setup = parse_args(argv)
    except SystemExit as stop:
        return int(stop.code or 0)
    tr = Catalogues.load(LOCALES, setup.locale).tr(setup.locale)
    try:
        state = new_game(
            setup.game, setup.players, setup.seed, setup.options, chance=setup.chance()
        )
    except InvalidOption as error:  # the lobby's own words for a bad option
        stderr.write(f"play: {plain(refusal_html(option_refusal(setup.game, error), tr))}\n")
        return 2

    def read() -> str | None:
        line = stdin.readline()
        return line if line else None

    if setup.seeded:  # the same --seed plays the same deals again
        stdout.write(f"{tr('Seed')}: {setup.seed}\n")
    session = Session(setup, state, tr, read, stdout, echo=not stdin.isatty())
    finished = session.play()
    if not finished:
        state.abandon()
        session.say("")
        session.say(tr("Stopped: the game is recorded as abandoned."))
    if setup.record is not None:
        try:
            setup.record.write_text(write_jsonl(state.record()), encoding="utf-8")
        except OSError as error:
            stderr.write(f"play: {setup.record}: {error.strerror or error}\n")
            return 1
        session.say(tr("Record written: {path}", path=str(setup.record)))
    return 0 if finished else 1
