"""Shared parts of the reliability proofs: the seven games played by
simulated players who press only the buttons the bot sent them, the real bot as a subprocess
(``python -m bot``) that a test can ``kill -9`` and start again, the records it exports, and the
figures the proofs print at the end of the session."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import signal
import sqlite3
import sys
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path

import bot as bot_package
from tests.bot import test_konchinka_e2e, test_kopilka_e2e, test_lenturlu_e2e
from tests.bot.helpers import (
    _key,
    hand_message,
    moved_on,
    open_table,
    shown_move,
    table_message,
    to_act,
)
from tests.bot.helpers import choose as trick_choose
from tests.bot.proof_figures import add_figure as add_figure
from tests.fakeapi import FakeTelegram
from tests.fakeapi.model import Button, CallbackAnswer, SentMessage
from tests.fakeapi.users import SimGroup, SimUser

Chooser = Callable[[SentMessage, random.Random], Button]
Kind = tuple[str, str, int, Chooser]  # game, its /newgame options, seats, how a player picks
ROOT = Path(bot_package.__file__).resolve().parent.parent
NAMES = ("Anna", "Boris", "Vera", "Gleb")

# every game of RULES.md, as short as its options make it: (game, /newgame options, seats)
SEVEN: tuple[Kind, ...] = (
    ("mushka", "target=5", 3, trick_choose),
    ("pamfil", "target=5", 3, trick_choose),
    ("shutikha", "target=5", 3, trick_choose),
    ("mistigri", "target=5", 3, trick_choose),
    ("kopilka", "", 4, test_kopilka_e2e.choose),
    ("lenturlu", "manner=out", 3, test_lenturlu_e2e.choose),  # until one sheds all his cards
    ("konchinka", "target=5", 2, test_konchinka_e2e.choose),
)


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
    pressed_again: int = 0  # presses lost with a kill, pressed again
    misread: int = 0  # presses refused because the screens were read mid-update

    @property
    def over(self) -> bool:
        """The group has the match's result (its ▶️/🏁 buttons may come with a later edit)."""
        return any(m.text.startswith("🏁") for m in self.group.messages)


def seat_games(fake: FakeTelegram, seed: int, kinds: tuple[Kind, ...] = SEVEN) -> list[Game]:
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
    env = dict(
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
        # one key for the buttons of every run: the plain and the killed run compare presses
        BOT_CALLBACK_SECRET="proof-runs-share-one-callback-key",
        **more,
    )
    return env


class ForkServer:
    """``tests/bot/proof_forkserver.py``: imports the bot once, forks a bot per ``start``."""

    def __init__(self) -> None:
        self._proc: asyncio.subprocess.Process | None = None
        self._lock = asyncio.Lock()  # one question at a time: the answers come in order

    async def open(self) -> None:
        env = {k: v for k, v in os.environ.items() if not k.startswith("BOT_")}
        env["PYTHONPATH"] = str(ROOT)
        self._proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "tests.bot.proof_forkserver",
            env=env,
            cwd=ROOT,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
        )

    async def ask(self, line: str, timeout: float = 90.0) -> int:  # noqa: ASYNC109
        proc = self._proc
        assert proc is not None and proc.stdin is not None and proc.stdout is not None
        async with self._lock:
            proc.stdin.write(line.encode() + b"\n")
            await proc.stdin.drain()
            answer = await asyncio.wait_for(proc.stdout.readline(), timeout)
        assert answer.strip().lstrip(b"-").isdigit(), (line, answer)
        return int(answer)

    async def close(self) -> None:
        proc = self._proc
        if proc is None or proc.returncode is not None:
            return
        assert proc.stdin is not None
        proc.stdin.close()
        try:
            await asyncio.wait_for(proc.wait(), 30)
        except TimeoutError:
            proc.kill()
            await proc.wait()


@contextlib.asynccontextmanager
async def fork_server() -> AsyncIterator[ForkServer]:
    server = ForkServer()
    await server.open()
    try:
        yield server
    finally:
        await server.close()


class BotProcess:
    """``python -m bot`` against the fake (forked by the fork server); ``ready`` once it polls.
    ``kill`` is ``kill -9``."""

    def __init__(
        self, server: ForkServer, fake: FakeTelegram, env: dict[str, str], workdir: Path
    ) -> None:
        self.server = server
        self.fake = fake
        self.env = env
        self.workdir = workdir  # no .env there: the bot reads only the environment given
        self.log_path = workdir / "bot.log"
        self.ready = asyncio.Event()
        self.kills = 0
        self.starts = 0
        self.pid: int | None = None

    async def start(self, timeout: float = 60.0) -> None:  # noqa: ASYNC109
        assert self.pid is None
        mark = self.fake.mark()
        spec = {"env": self.env, "cwd": str(self.workdir), "log": str(self.log_path)}
        self.pid = await self.server.ask("start " + json.dumps(spec))
        self.starts += 1

        def polling() -> bool:  # its polling's own getUpdates, not the start-up probe's
            return any(  # (timeout=0: the probe, made before the tables are resumed)
                c.method.lower() == "getupdates" and c.params.get("timeout")
                for c in self.fake.requests[mark:]
            )

        try:
            await self.fake.wait_until(polling, timeout=timeout)
        except TimeoutError:
            raise AssertionError(f"the bot did not start: {self.log_tail()}") from None
        self.ready.set()

    async def kill(self) -> None:
        """SIGKILL: no drain, no clean close of the database, whatever was in flight."""
        assert self.pid is not None
        self.ready.clear()
        pid, self.pid = self.pid, None
        code = await self.server.ask(f"kill {pid}")
        assert code == -signal.SIGKILL, (code, self.log_tail())
        self.kills += 1

    async def stop(self) -> None:
        """SIGTERM: the bot's clean stop (exit code 0)."""
        if self.pid is None:
            return
        self.ready.clear()
        pid, self.pid = self.pid, None
        code = await self.server.ask(f"term {pid}")
        assert code == 0, (code, self.log_tail())

    def log_tail(self, lines: int = 30) -> str:
        text = self.log_path.read_text(errors="replace") if self.log_path.exists() else ""
        return "\n".join(text.splitlines()[-lines:])

    def duplicates(self) -> int:
        """Updates a restarted bot got again and skipped (OnceOnly,
        ``bot/middlewares/updates.py``)."""
        text = self.log_path.read_text(errors="replace") if self.log_path.exists() else ""
        return text.count("outcome=duplicate")

    def resent(self) -> int:
        """Results (a deal's, a match's) a restart found cut short between the mark of their send
        and its settle, and sent again: the only way one may reach the group twice."""
        text = self.log_path.read_text(errors="replace") if self.log_path.exists() else ""
        return sum(
            1
            for line in text.splitlines()
            if "was being sent when the bot stopped" in line
            and ("deal:" in line or "result:" in line)
        )

    def tracebacks(self) -> int:
        text = self.log_path.read_text(errors="replace") if self.log_path.exists() else ""
        return text.count("Traceback (most recent call last)")


@contextlib.asynccontextmanager
async def alive(proc: BotProcess) -> AsyncIterator[BotProcess]:
    """The process, killed at the end of the block if it still runs (a test that failed)."""
    try:
        yield proc
    finally:
        if proc.pid is not None:
            await proc.kill()


ANSWER_S = 3.0  # a running bot answers in milliseconds; longer means it was killed meanwhile
EFFECT_S = 6.0


async def step(fake: FakeTelegram, proc: BotProcess | None, game: Game) -> None:
    """The player to act presses the chooser's button; wait until its effect shows, through
    kills and restarts. Whenever the press did not count — refused because the screens read
    were not all up to date, or lost with a killed bot (its update claimed, not yet committed:
    ``bot/middlewares/updates.py`` OnceOnly) — the chooser's draw is undone and the player looks
    again, as a person would: the same state gives the same press."""
    for _ in range(8):
        user = await _to_act(fake, proc, game)
        if user is None:
            return  # the game just ended: its result came after the last press's screens
        message = hand_message(user)
        assert message is not None, f"{game.name}: {user.first_name} has no hand message"
        drawn = game.rng.getstate()
        try:
            data = game.chooser(message, game.rng).callback_data
        except AssertionError:  # a hand with nothing to press: not this player's turn yet
            game.rng.setstate(drawn)
            await _quiet(fake, proc)
            continue
        assert data is not None
        before, moved_from = _key(message), shown_move(game.players)

        actor: SimUser = user

        def effect(
            actor: SimUser = actor, before: tuple[str, str] = before, move: int = moved_from
        ) -> bool:
            return moved_on(actor, before, move, game.players, game.group)

        answer = push_press(user, message, data)
        game.answers.append((data, answer))
        with contextlib.suppress(TimeoutError):
            await fake.wait_until(lambda: answer.done() or effect(), timeout=ANSWER_S)  # noqa: B023
        if answer.done() and answer.result().text:  # refused: nothing changed, look again
            game.rng.setstate(drawn)
            game.misread += 1
            await _quiet(fake, proc)
            continue
        with contextlib.suppress(TimeoutError):
            await fake.wait_until(effect, timeout=EFFECT_S)
        if not effect():
            await _quiet(fake, proc)  # killed meanwhile: once it is back and quiet, look again
        if effect():
            game.presses.append((data, shown_move(game.players) != moved_from))
            return
        game.rng.setstate(drawn)
        game.pressed_again += 1
    hands = {
        p.first_name: (move_of(h), h.message_id, h.text.splitlines()[-1])
        for p in game.players
        if (h := hand_message(p)) is not None
    }
    answered = [(d, a.result().text if a.done() else "-") for d, a in game.answers[-8:]]
    raise AssertionError(
        f"{game.name}: no press counted in 8 tries; hands (move, id, last line): {hands}; "
        f"the last presses and answers: {answered}"
    )


async def _quiet(fake: FakeTelegram, proc: BotProcess | None) -> None:
    """Until the bot runs (after a kill) and the fake has been quiet for a moment."""
    if proc is not None:
        await asyncio.wait_for(proc.ready.wait(), 90)
    await fake.settle(quiet=0.3, timeout=30)


async def _to_act(fake: FakeTelegram, proc: BotProcess | None, game: Game) -> SimUser | None:
    for _ in range(3):
        if game.over:  # its table may still show the last turn while its final edit waits
            return None
        user = to_act(game.group, game.players)
        if user is not None:
            return user
        await _quiet(fake, proc)
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


async def killer(
    proc: BotProcess,
    rng: random.Random,
    kills: int,
    gap: tuple[float, float],
    done: asyncio.Event,
) -> None:
    """``kill -9`` the bot ``kills`` times at seeded random moments, starting it again each
    time, until ``done`` (never cancelled mid-restart: the fork server's answers stay in step)."""
    while proc.kills < kills:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(done.wait(), rng.uniform(*gap))
        if done.is_set():
            return
        await proc.kill()
        await proc.start()


async def export_records(database: Path, out: Path) -> dict[str, str]:
    """``python -m bot export``: every table's RECORD.md JSON Lines, by file name (a
    subprocess the event loop waits for: the other round's fake keeps answering meanwhile)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("BOT_")}
    env["PYTHONPATH"] = str(ROOT)
    command = ("-m", "bot", "export", "--database", str(database), "--out", str(out))
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        *command,
        env=env,
        cwd=out.parent,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    _, stderr = await asyncio.wait_for(proc.communicate(), 120)
    assert proc.returncode == 0, stderr.decode(errors="replace")
    return read_records(out)


def read_records(out: Path) -> dict[str, str]:
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
