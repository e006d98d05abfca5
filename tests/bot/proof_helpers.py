"""Shared parts of the reliability proofs (issue #17, "Proof"): the seven games played by
simulated players who press only the buttons the bot sent them, the real bot as a subprocess
(``python -m bot``) that a test can ``kill -9`` and start again, the records it exports, and the
figures the proofs print at the end of the session."""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import signal
import sqlite3
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

import pytest

import bot as bot_package
from tests.bot import test_konchinka_e2e, test_kopilka_e2e, test_lenturlu_e2e
from tests.bot.helpers import choose as trick_choose
from tests.bot.helpers import hand_message, open_table, table_message, to_act
from tests.fakeapi import FakeTelegram
from tests.fakeapi.model import Button, CallbackAnswer, SentMessage
from tests.fakeapi.users import SimGroup, SimUser

Chooser = Callable[[SentMessage, random.Random], Button]
ROOT = Path(bot_package.__file__).resolve().parent.parent
NAMES = ("Anna", "Boris", "Vera", "Gleb")

# every game of RULES.md, as short as its options make it: (game, /newgame options, seats)
SEVEN: tuple[tuple[str, str, int, Chooser], ...] = (
    ("mushka", "target=5", 3, trick_choose),
    ("pamfil", "target=5", 3, trick_choose),
    ("shutikha", "target=5", 3, trick_choose),
    ("mistigri", "target=5", 3, trick_choose),
    ("kopilka", "", 4, test_kopilka_e2e.choose),
    ("lenturlu", "", 3, test_lenturlu_e2e.choose),
    ("konchinka", "target=5", 2, test_konchinka_e2e.choose),
)

FIGURES = pytest.StashKey[dict[str, int]]()


def add_figure(config: pytest.Config, name: str, value: int) -> None:
    """Add ``value`` to one of the session's proof figures (printed at the session's end)."""
    figures = config.stash.setdefault(FIGURES, {})
    figures[name] = figures.get(name, 0) + value


def figures_of(config: pytest.Config) -> dict[str, int]:
    return dict(config.stash.get(FIGURES, {}))


@dataclass
class Game:
    """One table being played: its group, its players, and how they choose a press."""

    name: str
    options: str
    group: SimGroup
    players: list[SimUser]
    chooser: Chooser
    rng: random.Random
    presses: list[tuple[str, bool]] = field(default_factory=list)  # (data, moved the game on)
    answers: list[tuple[str, asyncio.Future[CallbackAnswer]]] = field(default_factory=list)
    pressed_again: int = 0

    @property
    def over(self) -> bool:
        """The group has the match's result (its ▶️/🏁 buttons may come with a later edit)."""
        return any(m.text.startswith("🏁") for m in self.group.messages)


def seat_games(
    fake: FakeTelegram, seed: int, kinds: tuple[tuple[str, str, int, Chooser], ...] = SEVEN
) -> list[Game]:
    """A group and its own players per game (one table each, so a hand is never ambiguous)."""
    games = []
    for g, (name, options, seats, chooser) in enumerate(kinds):
        base = 1000 * (g + 1)
        players = [fake.add_user(base + i, NAMES[i], language_code="ru") for i in range(seats)]
        group = fake.add_group(
            -100 - g, f"Клуб {g}", admins=[base], members=[p.id for p in players[1:]]
        )
        games.append(Game(name, options, group, players, chooser, random.Random(f"{seed}-{name}")))
    return games


async def open_all(fake: FakeTelegram, games: list[Game]) -> None:
    for game in games:
        await open_table(fake, game.group, game.players, game=game.name, options=game.options)


def hand_key(message: SentMessage | None) -> tuple[str, str] | None:
    if message is None:
        return None
    return message.text, str([b.callback_data for b in message.all_buttons])


def move_of(message: SentMessage | None) -> str | None:
    """The move counter the message's hand buttons were drawn at (PRODUCT.md §7.1)."""
    for b in message.all_buttons if message else ():
        if (b.callback_data or "").startswith("h:"):
            return (b.callback_data or "").split(":")[3]
    return None


def push_press(user: SimUser, message: SentMessage, data: str) -> asyncio.Future[CallbackAnswer]:
    """A callback query as Telegram sends it when ``user`` presses ``data`` on ``message``; the
    answer's future (a bot killed before answering never resolves it)."""
    fake = user.fake
    query_id = f"{user.id}{fake.next_id()}"
    query = {
        "id": query_id,
        "from": user.as_user(),
        "chat_instance": str(abs(hash((message.chat_id, fake.bot_id)))),
        "data": data,
        "message": fake.message_dict(message),
    }
    future = fake.expect_callback_answer(query_id)
    fake.push_update("callback_query", query)
    return future


def bot_env(fake: FakeTelegram, database: Path, seed: int, **more: str) -> dict[str, str]:
    """The environment of a subprocess bot against the fake: quick, fixed deals, no timers."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("BOT_")}
    env.update(
        PYTHONPATH=str(ROOT),
        BOT_TOKEN=fake.token,
        BOT_DATABASE=str(database),
        BOT_API_BASE=fake.base_url,
        BOT_POLLING_TIMEOUT_S="1",
        BOT_COMPUTER_DELAY_S="0",
        BOT_OUTBOX_TIME_SCALE="0",
        BOT_AWAY_LEVEL="easy",
        BOT_DEFAULT_LANGUAGE="ru",
        BOT_TURN_TIMEOUT_S="3600",  # no turn timer fires: every move is a person's press
        BOT_IDLE_TIMEOUT_S="604800",
        BOT_LOBBY_TIMEOUT_S="86400",
        BOT_DRAIN_S="0",
        BOT_TEST_SEED=str(seed),
        **more,
    )
    return env


class BotProcess:
    """``python -m bot`` against the fake; ``ready`` once it polls. ``kill`` is ``kill -9``."""

    def __init__(self, fake: FakeTelegram, env: dict[str, str], workdir: Path) -> None:
        self.fake = fake
        self.env = env
        self.workdir = workdir  # no .env there: the bot reads only the environment given
        self.log_path = workdir / "bot.log"
        self.ready = asyncio.Event()
        self.kills = 0
        self.starts = 0
        self._proc: asyncio.subprocess.Process | None = None
        self._log: IO[bytes] | None = None

    async def start(self, timeout: float = 60.0) -> None:  # noqa: ASYNC109
        mark = self.fake.mark()
        self._log = self.log_path.open("ab")
        self._proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bot",
            env=self.env,
            cwd=self.workdir,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=self._log,
            stderr=asyncio.subprocess.STDOUT,
        )
        self.starts += 1
        proc = self._proc

        def polling() -> bool:
            if proc.returncode is not None:
                raise AssertionError(f"the bot exited ({proc.returncode}): {self.log_tail()}")
            return any(c.method.lower() == "getupdates" for c in self.fake.requests[mark:])

        await self.fake.wait_until(polling, timeout=timeout)
        self.ready.set()

    async def kill(self) -> None:
        """SIGKILL: no drain, no clean close of the database, whatever was in flight."""
        assert self._proc is not None
        self.ready.clear()
        self._proc.send_signal(signal.SIGKILL)
        await self._proc.wait()
        self.kills += 1
        self._close_log()

    async def stop(self) -> None:
        """SIGTERM: the bot's clean stop."""
        if self._proc is None or self._proc.returncode is not None:
            self._close_log()
            return
        self.ready.clear()
        self._proc.send_signal(signal.SIGTERM)
        try:
            await asyncio.wait_for(self._proc.wait(), 30)
        except TimeoutError:
            self._proc.kill()
            await self._proc.wait()
            raise AssertionError("the bot did not stop on SIGTERM") from None
        finally:
            self._close_log()
        assert self._proc.returncode == 0, self.log_tail()

    def _close_log(self) -> None:
        if self._log is not None:
            self._log.close()
            self._log = None

    def log_tail(self, lines: int = 30) -> str:
        text = self.log_path.read_text(errors="replace") if self.log_path.exists() else ""
        return "\n".join(text.splitlines()[-lines:])

    def tracebacks(self) -> int:
        text = self.log_path.read_text(errors="replace") if self.log_path.exists() else ""
        return text.count("Traceback (most recent call last)")


@contextlib.contextmanager
def stopping(proc: BotProcess) -> Iterator[BotProcess]:
    """Never leave a subprocess bot behind, whatever the test's outcome."""
    try:
        yield proc
    finally:
        if proc._proc is not None and proc._proc.returncode is None:
            proc._proc.kill()


ANSWER_S = 3.0  # a running bot answers in milliseconds; longer means it was killed meanwhile
EFFECT_S = 6.0


async def step(fake: FakeTelegram, proc: BotProcess | None, game: Game) -> None:
    """The player to act presses the chooser's button; wait until its effect shows, through
    kills and restarts. A press lost with a killed bot (claimed, not yet committed: RULES of
    ``bot/updates.py`` OnceOnly) is pressed again, as its player would."""
    user = await _to_act(fake, proc, game)
    if user is None:
        return  # the game just ended: its result came after the last press's screens
    message = hand_message(user)
    assert message is not None, f"{game.name}: {user.first_name} has no hand message"
    data = game.chooser(message, game.rng).callback_data
    assert data is not None
    before, moved_from = hand_key(message), move_of(message)

    def effect() -> bool:
        mine = hand_message(user)
        if mine is None or hand_key(mine) == before:
            return False
        return len({move_of(hand_message(p)) for p in game.players}) == 1

    for _ in range(5):
        game.answers.append((data, push_press(user, message, data)))
        with contextlib.suppress(TimeoutError):
            await fake.wait_until(effect, timeout=EFFECT_S)
            game.presses.append((data, move_of(hand_message(user)) != moved_from))
            return
        if proc is not None:  # killed meanwhile: once it is back and quiet, look again
            await asyncio.wait_for(proc.ready.wait(), 90)
        await fake.settle(quiet=0.3, timeout=30)
        if effect():
            game.presses.append((data, move_of(hand_message(user)) != moved_from))
            return
        current = hand_message(user)
        offered = [b.callback_data for b in current.all_buttons] if current else []
        assert data in offered, f"{game.name}: the pressed button vanished with no effect"
        message = current  # type: ignore[assignment]  # the same hand, sent again maybe
        game.pressed_again += 1
    raise AssertionError(f"{game.name}: a press had no effect after 5 tries")


async def _to_act(fake: FakeTelegram, proc: BotProcess | None, game: Game) -> SimUser | None:
    for _ in range(3):
        user = to_act(game.group, game.players)
        if user is not None:
            return user
        if game.over:
            return None
        if proc is not None:
            await asyncio.wait_for(proc.ready.wait(), 90)
        await fake.settle(quiet=0.3, timeout=30)
    table = table_message(game.group)
    last = game.group.messages[-1].text if game.group.messages else None
    raise AssertionError(
        f"{game.name}: nobody to act, but no result; table: {table and table.text!r}; "
        f"last: {last!r}"
    )


async def play_all(
    fake: FakeTelegram, proc: BotProcess | None, games: list[Game], limit: int = 20000
) -> int:
    """Round-robin one press per unfinished game until every game shows its result."""
    presses = 0
    while True:
        live = [g for g in games if not g.over]
        if not live:
            return presses
        for game in live:
            await step(fake, proc, game)
            presses += 1
            assert presses < limit, "the games did not end"


async def killer(proc: BotProcess, rng: random.Random, kills: int, gap: tuple[float, float]) -> None:
    """``kill -9`` the bot ``kills`` times at seeded random moments, starting it again each time."""
    while proc.kills < kills:
        await asyncio.sleep(rng.uniform(*gap))
        await proc.kill()
        await proc.start()


def export_records(database: Path, out: Path) -> dict[str, str]:
    """``python -m bot export``: every table's RECORD.md JSON Lines, by file name."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("BOT_")}
    env["PYTHONPATH"] = str(ROOT)
    import subprocess

    done = subprocess.run(
        [sys.executable, "-m", "bot", "export", "--database", str(database), "--out", str(out)],
        env=env,
        cwd=out.parent,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return {p.name: p.read_text(encoding="utf-8") for p in sorted(out.glob("*.jsonl"))}


def integrity(database: Path) -> str:
    with sqlite3.connect(database) as conn:
        return str(conn.execute("PRAGMA integrity_check").fetchone()[0])


def action_log(database: Path) -> dict[int, list[tuple[int, int, str]]]:
    """Each table's logged actions (seq, seat, action), in order."""
    out: dict[int, list[tuple[int, int, str]]] = {}
    with sqlite3.connect(database) as conn:
        rows = conn.execute("SELECT table_id, seq, seat, action FROM actions ORDER BY 1, 2")
        for table_id, seq, seat, action in rows:
            out.setdefault(table_id, []).append((seq, seat, action))
    return out


def elapsed(since: float) -> float:
    return round(time.monotonic() - since, 1)
