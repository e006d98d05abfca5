"""A person at ``python -m bot play``, in-process: each turn a legal action picked by a seeded
generator and typed as a person would (card names, one by one then Enter, or the screen's
words), never a number. The lines typed are kept, to be piped into the real command."""

from __future__ import annotations

import io
import os
import random
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

from bot.i18n import Catalogues
from bot.render.action_words import action_parts, words_of
from bot.render.cards import card_name
from bot.terminal.play import LOCALES, parse_args
from bot.terminal.session import Session
from engine.core import State
from engine.games import new_game

ROOT = Path(__file__).resolve().parents[2]


@dataclass
class Played:
    finished: bool
    out: str
    lines: list[str]
    state: State
    turns: list[object] = field(default_factory=list)  # the actions the person chose
    choices: list[int] = field(default_factory=list)  # how many legal actions each turn had


def typed_line(session: Session, target: object, locale: str, rng: random.Random) -> str:
    """The next line that brings ``session`` to ``target``: its cards one at a time and Enter
    (a choice of several cards with no twin taking the turn-up), a card's name in any case, or
    the move's words on the screen."""
    f = action_parts(target)
    legal = session.state.legal_actions(session.setup.seat)
    twins = [a for a in legal if action_parts(a).card_set == f.card_set and a != target]
    if len(f.cards) > 1 and not twins and not f.up and f.verb in ("play", "discard", "run"):
        left = [c for c in f.cards if c not in session.marks]
        return card_name(left[0], locale) if left else ""
    if f.verb == "card":
        name = card_name(f.cards[0], locale)
        return name.lower() if rng.random() < 0.5 else name
    return words_of(target, session.tr)


def drive(args: list[str], *, first: tuple[str, ...] = (), most: int = 5000) -> Played:
    """The game played in-process: ``first`` typed as they are, then the chooser's lines."""
    setup = parse_args(args)
    tr = Catalogues.load(LOCALES, setup.locale).tr(setup.locale)
    state = new_game(setup.game, setup.players, setup.seed, setup.options)
    out = io.StringIO()
    lines: list[str] = []
    turns: list[object] = []
    choices: list[int] = []
    rng = random.Random(setup.seed)
    plan: dict[int, object] = {}
    holder: list[Session] = []

    before = list(first)

    def read() -> str | None:
        session = holder[0]
        if before:
            lines.append(before.pop(0))
            return lines[-1] + "\n"
        if session.moves not in plan:
            legal = list(state.legal_actions(setup.seat))
            plan[session.moves] = rng.choice(legal)
            turns.append(plan[session.moves])
            choices.append(len(legal))
        line = typed_line(session, plan[session.moves], setup.locale, rng)
        lines.append(line)
        return None if len(lines) > most else line + "\n"

    session = Session(setup, state, tr, read, out, echo=True)
    holder.append(session)
    finished = session.play()
    return Played(finished, out.getvalue(), lines, state, turns, choices)


def run_play(args: list[str], stdin: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """``python -m bot play`` as a subprocess: no token, no .env, the input piped."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("BOT_")}  # no token at all
    env["PYTHONPATH"] = str(ROOT)
    return subprocess.run(
        [sys.executable, "-m", "bot", "play", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=cwd,  # no .env here
        env=env,
        timeout=240,
        check=False,
    )
