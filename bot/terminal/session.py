"""One game at one terminal: the screens as text, the person's turns read from typed lines.

A turn shows the group's table and the person's hand (the Telegram screens' own texts, their
tap-and-press instructions said for a keyboard, :mod:`bot.terminal.hints`). A single legal
action is played at once and said; a short choice is listed by number, in the hand's order; a
long one (an exchange, a run) is named by its cards, together or one by one, then Enter. What a
line means is :mod:`bot.render.moves`'s; this module only talks.
"""

from __future__ import annotations

import random
import textwrap
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, TextIO

from bot.callbacks import PressCodec
from bot.computer_names import computer_name
from bot.i18n import Translator
from bot.markup import unmarked as plain
from bot.presses.meaning import HandUI
from bot.refused import Refused
from bot.render.action_words import Verb, action_parts, narrated, words_of
from bot.render.cards import card_name
from bot.render.games import game_ui
from bot.render.games.game_ui import GameUI
from bot.render.how_to_play import rules_text
from bot.render.refusals import refusal_html
from bot.render.table_context import TableContext
from bot.rendered import Rendered
from bot.runtime.deals import crypto_chance
from bot.runtime.outcome import events_of
from bot.runtime.scoreboard import Standings
from bot.terminal.hints import terminal_words
from bot.terminal.narration import deal_headers, seating, told, tricks_taken
from bot.terminal.typed_moves import (
    SHORT,
    Ask,
    Marked,
    Named,
    NoMove,
    Resolution,
    Which,
    WhichCards,
    card_order,
    in_hand_order,
    resolve,
)
from bot.terminal.typed_words import TypedLine, Vocabulary, normal, read
from engine.cards import Card
from engine.chance import Chance
from engine.core import Line, State
from engine.errors import IllegalAction, InvalidNotation
from engine.lines import LineKind, has, last
from engine.players import Policy, computer

RULE: Final = "─" * 40
LIST: Final = frozenset({"?", "help", "list", "moves", "помощь", "список", "ходы"})
RULES: Final = frozenset({"rules", "правила"})
WIDTH: Final = 78  # the rules' paragraphs wrapped for an 80-column terminal


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
    explain: bool = False  # refusals name the engine's code too
    seeded: bool = True  # --seed: reproducible deals; without it they are cryptographic
    name: str | None = None  # --name; None: «Игрок» / Player

    def chance(self) -> Chance | None:
        """The deals' source (None: the engine's ``random.Random(seed)``)."""
        return None if self.seeded else crypto_chance()


def computers(setup: Setup) -> dict[int, tuple[Policy, random.Random]]:
    """Every other seat's computer player with its own generator (never the game's)."""
    policy = computer(setup.game, setup.level)
    return {
        seat: (policy, random.Random(setup.seed * 31 + seat))
        for seat in range(setup.players)
        if seat != setup.seat
    }


class Stop(Exception):
    """The person stopped the game (``q`` confirmed, or the input ended)."""


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
        self.tr = terminal_words(tr)
        self.read = read
        self.echo = echo  # input piped in: show it after the prompt, as a person would see it
        self.out = out
        ui = game_ui(setup.game)
        assert ui is not None  # every engine game has screens
        self.ui: GameUI[Any] = ui
        self.codec = PressCodec(b"terminal")  # the screens' buttons are drawn, never pressed
        self.words = Vocabulary.of(self.tr, setup.locale)
        others = iter(range(setup.players))
        # the person is named like everyone at the table: a "You" put into the screens'
        # third-person sentences reads «сдаёт Вы», "You deals"
        you = setup.name or tr("Player")
        self.names = tuple(
            you if s == setup.seat else computer_name(setup.locale, next(others))
            for s in range(setup.players)
        )
        self.moves = 0
        self.options: dict[str, object] = dict(state.record()[0]["options"])  # all in force
        self.policies = computers(setup)
        self.marks: tuple[Card, ...] = ()

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
        start = self.state.record()
        for text in seating(self.names, start, self.tr):  # who deals first, and why
            self.say(text)
        self.say(self.tr("At your turn: «rules» tells the rules, ? lists your moves, q stops."))
        self._deals(start)
        self._events(start)  # the deal's own (a flush shown at the deal)
        if self.state.is_over:  # won at the first deal (§1.6.4): the deal and the game's end
            self._ended(self.state.view(None), self.state.record())
        while (seat := self.state.to_act) is not None:
            if seat == self.setup.seat:
                legal = self.state.legal_actions(seat)
                if len(legal) == 1:  # nothing to choose: played, and said so
                    self._apply(seat, legal[0], only=True)
                    continue
                try:
                    action = self._ask(legal)
                except Stop:
                    return False
            else:
                policy, rng = self.policies[seat]
                action = policy(self.state.view(seat), rng)
            self._apply(seat, action)
        return True

    # the person's turn

    def _ask(self, legal: Sequence[object]) -> object:
        """The table, the hand and the choice; then lines until one names a legal action."""
        view = self.state.view(self.setup.seat)
        self.say(RULE)
        self.say(plain(self.ui.table(self.context(), self.state.view(None), self.tr).text))
        self.say("")
        hand = self.ui.hand(self.context(), view, HandUI(), self.tr, self.codec)
        self.say(plain(hand.text))
        options = in_hand_order(legal, card_order(self._button_args(hand)))
        listed: Sequence[object] = ()
        if len(options) <= SHORT:
            listed = self._list(options)
        else:
            example = words_of(_example(options), self.tr)
            self.say(
                self.tr("Name your move (as «{example}»); ? lists every choice.", example=example)
            )
        self.marks = ()
        while True:
            line = self._line(self.tr("Your move (q to stop): "))
            text = line.strip()
            if normal(text) in LIST:
                listed = self._list(options)
                continue
            if normal(text) in RULES:  # the game's rules in a few lines, then the same turn
                paragraphs = rules_text(self.setup.game, self.tr).split("\n\n")
                self.say("\n\n".join(textwrap.fill(p, WIDTH) for p in paragraphs))
                self.say("")
                continue
            number = _list_number(text)  # «4», or «4.» as the list writes it
            card = text.isdigit() and text in self._held_ranks(legal)  # «4» with a 4 to play
            if number is not None and listed and not card:
                if 1 <= number <= len(listed):
                    return listed[number - 1]
                self.say(self.tr("No action {n}: type 1 to {count}.", n=text, count=len(listed)))
                continue
            if card and listed and 1 <= int(text) <= len(listed):  # a card or the list's? ask
                self.say(
                    self.tr(
                        "«{n}»: a card of yours or move {n} of the list? Name the card with its "
                        "suit; the list's move by its number with a dot: {n}.",
                        n=text,
                    )
                )
                continue
            if text.isdigit() and not typed_cards(text):
                self.say(self.tr("Numbers are for a list: name the move, or ? lists them."))
                continue
            if not text and not self.marks:
                continue
            typed = read(text, self.words) if text else TypedLine()
            if typed.unknown or (text and typed.empty):
                self.say(self.tr("Unknown action: {text}", text=text))
                continue
            outcome = resolve(typed, legal, self.marks, confirm=not text)
            action = self._answer(outcome, options)
            if isinstance(action, list):
                listed = action
            elif action is not None:
                return action

    def _answer(
        self, outcome: Resolution, options: Sequence[object]
    ) -> object | list[object] | None:
        """What the session says to an outcome; the action it plays, or a new numbered list."""
        tr = self.tr
        match outcome:
            case Named(action):
                return action
            case Ask(choices) if len(choices) > SHORT:
                self.say(tr("{n} moves fit: name more of the cards.", n=len(choices)))
            case Ask(choices):
                self.say(tr("Which one?"))
                return self._list([a for a in options if a in choices])
            case Marked(marks, exact):
                self.marks = marks
                named = " ".join(words_of_cards(marks, tr.locale))
                if len(exact) == 1:
                    then = tr("Enter plays: {move}.", move=words_of(exact[0], tr))
                elif exact:
                    then = tr("Enter: choose among {n}.", n=len(exact))
                else:
                    then = tr("Name more cards (a marked one again unmarks it).")
                self.say(tr("Marked: {cards}.", cards=named or "—") + " " + then)
            case WhichCards():
                self.say(tr("Which cards do you exchange? Name them, then Enter; or «keep all»."))
            case Which(cards):
                if cards:
                    names = ", ".join(words_of_cards(cards, tr.locale))
                    self.say(tr("Which card: {cards}? Name its suit too.", cards=names))
                else:
                    self.say(tr("You have no such card to play now."))
            case NoMove(cards, verbs):
                self.say(self._why_not(cards, verbs))
        return None

    def _list(self, options: Sequence[object]) -> list[object]:
        for number, action in enumerate(options, 1):
            self.say(f"  {number}. {words_of(action, self.tr)}")
        return list(options)

    def _line(self, prompt: str) -> str:
        """One typed line (``q`` confirmed or the input's end: :class:`Stop`)."""
        while True:
            self.out.write(prompt)
            self.out.flush()
            line = self.read()
            if self.echo:
                self.out.write(line or "\n")
            if line is None:
                raise Stop
            if normal(line.strip()) not in {"q", "й", "quit", "exit", "выход"}:
                return line
            answer = self._reply(self.tr("Stop the game? (y — yes): "))
            if answer is None or normal(answer.strip()) in {"y", "yes", "д", "да", "н"}:
                raise Stop

    def _reply(self, prompt: str) -> str | None:
        self.out.write(prompt)
        self.out.flush()
        line = self.read()
        if self.echo:
            self.out.write(line or "\n")
        return line

    def _held_ranks(self, legal: Sequence[object]) -> frozenset[str]:
        """The ranks, as typed digits, of the person's cards that some legal move plays."""
        held = set(self.state.hand(self.setup.seat))
        return frozenset(
            c.rank.value
            for a in legal
            for c in action_parts(a).cards
            if c in held and c.rank.value.isdigit()
        )

    def _button_args(self, hand: Rendered) -> list[str | None]:
        """The presses' arguments of the hand's buttons, in the keyboard's order."""
        args: list[str | None] = []
        markup = hand.markup
        for row in markup.inline_keyboard if markup is not None else ():
            for button in row:
                press = self.codec.parse(button.callback_data) if button.callback_data else None
                args.append(press.arg if press is not None else None)
        return args

    def _why_not(self, cards: Sequence[Card], verbs: frozenset[str]) -> str:
        """The engine's reason the named move is refused (the bot's wording; with ``--explain``
        the engine's code too), or that no move has these cards."""
        legal = self.state.legal_actions(self.setup.seat)
        for verb in sorted(verbs):
            text = _notation(verb, cards)
            if text is None:
                continue
            try:
                action = self.state.parse_action(text)
                if action in legal:  # never played here: the engine is asked only to refuse
                    continue
                # the game itself, not a clone: a refused action changes nothing (State.apply),
                # and a clone copies the deals' source, which the OS's cryptographic one
                # (no --seed) cannot be
                self.state.apply(self.setup.seat, action)
            except InvalidNotation:
                continue
            except IllegalAction as error:
                said = plain(refusal_html(Refused.illegal(error), self.tr))
                # --explain: the engine's code too (for a bug report); the rules in words are
                # the «rules» command's
                return f"{said} ({error.code.value})" if self.setup.explain else said
        if cards:
            names = " ".join(words_of_cards(cards, self.tr.locale))
            return self.tr("No move with {cards} now.", cards=names)
        return self.tr("That move is not possible now.")

    # every seat's action

    def _apply(self, seat: int, action: object, *, only: bool = False) -> None:
        before = self.state.view(None)
        lines = self.state.apply(seat, action)
        self.moves += 1
        if seat == self.setup.seat:  # told as everyone's moves are, his own cards named
            said = told(action, self.tr)
            if only:
                said = self.tr("{move} (the only move)", move=said)
        else:  # only what the group's screens would show
            said = narrated(action, self.tr)
        self.say(f"{self.names[seat]}: {said}")
        for text in tricks_taken(self.setup.game, self.names, lines, self.tr):
            self.say(text)
        self._events(lines)
        self._ended(before, lines)
        if not self.state.is_over:  # the next deal begins after the last one's result
            self._deals(lines)

    def _deals(self, lines: Sequence[Line]) -> None:
        """A header where each deal begins, so its first moves are under it."""
        for text in deal_headers(self.names, lines, self.tr):
            self.say(RULE)
            self.say(text)

    def _events(self, lines: Sequence[Line]) -> None:
        """What happened that no move line shows (the group's table says it too)."""
        if self.ui.events is not None:
            for text in self.ui.events(self.context(), events_of(lines), self.tr):
                self.say(plain(text))

    def _ended(self, before: Any, lines: Sequence[Line]) -> None:
        """The deals ``lines`` ended, each with its result in order, and the game's end."""
        events = events_of(lines)
        ctx = self.context()
        if has(lines, LineKind.DEAL_END):
            self.say(RULE)
            self.say(plain(self.ui.ended_table(ctx, before, events, self.tr).text))
            result = self.ui.deal_result(ctx, events, self.state.view(None), self.tr)
            if result:
                self.say("")
                self.say(plain(result))
        end = last(lines, LineKind.END)
        if end is not None:
            self.say(RULE)
            self.say(plain(self._match_result(end)))

    def _match_result(self, end: Line) -> str:
        """The group's result screen; no standings (a terminal has no chat to total over)."""
        result = self.state.result
        winner = result.winner if result is not None else None
        return self.ui.match_result(
            self.context(), end, winner, Standings(), 1, self.tr, self.codec
        ).text


def words_of_cards(cards: Sequence[Card], locale: str) -> list[str]:
    return [card_name(c, locale) for c in cards]


def _notation(verb: str, cards: Sequence[Card]) -> str | None:
    """The RECORD.md text of ``verb`` with ``cards``, for the engine to say why not (None: the
    verb takes other cards than these)."""
    codes = " ".join(str(c) for c in cards)
    if verb == Verb.PLAY:
        return f"play {len(cards)} {codes}".rstrip()
    if verb in (Verb.CARD, Verb.TRAIL, Verb.SWEEP) and len(cards) == 1:
        return f"{verb} {codes}"
    if verb in (Verb.RUN, Verb.DISCARD) and cards:
        return f"{verb} {codes}"
    if verb == Verb.PASS and not cards:
        return "pass"
    return None


def _example(options: Sequence[object]) -> object:
    """A move to show how one is named: one of two cards if there is one (a typical exchange
    or run), else the last."""
    return next((a for a in options if len(action_parts(a).cards) == 2), options[-1])


def _list_number(text: str) -> int | None:
    """The number of a list's move: ``4``, or ``4.`` as the list writes it (never a card)."""
    digits = text.removesuffix(".")
    return int(digits) if digits.isdigit() else None


def typed_cards(text: str) -> bool:
    """Whether a line of digits could be a card's rank alone (``7``, ``10``: which card?)."""
    return text in {"2", "3", "4", "5", "6", "7", "8", "9", "10"}
