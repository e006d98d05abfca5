"""Several real worker processes against the fake Bot API (``tests/bot/test_workers.py`` and
``bench/workers.py``): ``python -m bot`` with ``BOT_WORKERS=N`` (the parent spawns N workers
on one webhook port, ``SO_REUSEPORT``), one Redis, one SQLite file in WAL mode; the fake
delivers updates by webhook over several connections at once, as Telegram does."""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import signal
import sys
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path

from tests.bot.helpers import (
    _key,
    choose,
    hand_message,
    lobby_message,
    moved_on,
    result_message,
    shown_move,
    table_message,
    to_act,
)
from tests.fakeapi import FakeTelegram
from tests.fakeapi.model import SentMessage
from tests.fakeapi.users import SimGroup, SimUser
from tests.services import free_port

ROOT = Path(__file__).resolve().parent.parent.parent
SECRET = "fleet-secret-0123456789abcdef"
START_S = 180.0  # N workers import aiogram on 2 shared cores
PROXY_VARS = ("http_proxy", "https_proxy", "all_proxy", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY")


@dataclass
class Fleet:
    parent: asyncio.subprocess.Process
    workers: int
    log: Path

    def pids(self) -> list[int]:
        """The live workers' process ids (the parent's children)."""
        path = Path(f"/proc/{self.parent.pid}/task/{self.parent.pid}/children")
        try:
            return [int(p) for p in path.read_text().split()]
        except OSError:
            return []

    def listening(self) -> int:
        return self.log.read_text(errors="replace").count("listening on")

    def tail(self, chars: int = 3000) -> str:
        return self.log.read_text(errors="replace")[-chars:]


def fleet_env(
    fake: FakeTelegram, tmp: Path, redis_url: str, workers: int, **more: str
) -> dict[str, str]:
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("BOT_") and k not in PROXY_VARS}
    env.update(
        BOT_TOKEN=fake.token,
        BOT_API_BASE=fake.base_url,
        BOT_DATABASE=str(tmp / "bot.sqlite3"),
        BOT_REDIS_URL=redis_url,
        BOT_REDIS_LEASE_S="2",
        BOT_WORKERS=str(workers),
        BOT_WEBHOOK_URL=f"http://127.0.0.1:{port}/tg",
        BOT_WEBHOOK_SECRET=SECRET,
        BOT_WEBHOOK_LISTEN=f"127.0.0.1:{port}",
        BOT_COMPUTER_DELAY_S="0",
        BOT_AWAY_LEVEL="easy",
        BOT_OUTBOX_TIME_SCALE="0",
        BOT_DRAIN_S="1",
        BOT_LOG_LEVEL="INFO",
        NO_PROXY="127.0.0.1",
        no_proxy="127.0.0.1",
        PYTHONPATH=str(ROOT),
    )
    env.update(more)
    return env


@contextlib.asynccontextmanager
async def fleet(
    fake: FakeTelegram,
    tmp: Path,
    redis_url: str,
    workers: int,
    *,
    connections: int = 8,
    **more: str,
) -> AsyncIterator[Fleet]:
    """``python -m bot`` with ``BOT_WORKERS=workers``, up once every worker listens and the
    webhook is set; stopped with SIGTERM afterwards (SIGKILL if it hangs). The fake delivers
    over ``connections`` connections at once."""
    fake.webhook_connections = connections
    log = tmp / "fleet.log"
    with log.open("wb") as out:
        parent = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bot",
            cwd=tmp,
            env=fleet_env(fake, tmp, redis_url, workers, **more),
            stdin=asyncio.subprocess.DEVNULL,
            stdout=out,
            stderr=out,
        )
    running = Fleet(parent, workers, log)
    try:
        deadline = time.monotonic() + START_S
        while fake.webhook is None or running.listening() < workers:
            if parent.returncode is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the workers did not start:\n{running.tail()}")
            await asyncio.sleep(0.05)
        yield running
    finally:
        if parent.returncode is None:
            parent.send_signal(signal.SIGTERM)
            try:
                await asyncio.wait_for(parent.wait(), 30)
            except TimeoutError:
                for pid in running.pids():
                    with contextlib.suppress(ProcessLookupError):
                        os.kill(pid, signal.SIGKILL)
                parent.kill()
                await parent.wait()


def seat_tables(fake: FakeTelegram, tables: int) -> list[tuple[SimGroup, list[SimUser]]]:
    out = []
    for t in range(tables):
        players = [
            fake.add_user(200_000 + 3 * t + i, name, language_code="ru")
            for i, name in enumerate(("Anna", "Boris", "Vera"))
        ]
        group = fake.add_group(
            -2_000_000 - t, f"Стол {t}", admins=[players[0].id], members=[p.id for p in players]
        )
        out.append((group, players))
    return out


@dataclass
class Presses:
    """What the players pressed and what came of it, over every table."""

    sent: int = 0  # presses sent
    accepted: int = 0  # answered without a refusal
    refused: int = 0
    lost: int = 0  # no answer in time
    latency: list[float] = field(default_factory=list)  # press → callback answer, seconds
    acts: dict[int, int] = field(default_factory=dict)  # table (chat) → presses that moved

    def p99(self) -> float:
        ordered = sorted(self.latency) or [0.0]
        return ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]


def moves_of(message: SentMessage | None) -> int | None:
    """The move counter a hand message's buttons carry (``h:<table>:<seat>:<moves>:…``)."""
    if message is None:
        return None
    for button in message.all_buttons:
        data = button.callback_data or ""
        if data.startswith("h:"):
            return int(data.split(":")[3], 36)
    return None


async def play_table(
    fake: FakeTelegram,
    group: SimGroup,
    players: list[SimUser],
    rng: random.Random,
    presses: Presses,
    *,
    until: float,
    step_timeout: float = 20.0,
) -> bool:
    """Press for whoever is to act until the match's result shows (True) or ``until``."""
    while time.monotonic() < until:
        if result_message(group) is not None:
            return True
        actor = to_act(group, players)
        shown_now = hand_message(actor) if actor is not None else None
        if actor is None or shown_now is None or moves_of(shown_now) is None:
            await asyncio.sleep(0.02)
            continue
        user, message = actor, shown_now
        try:
            button = choose(message, rng)
        except AssertionError:
            await asyncio.sleep(0.02)  # the screens are behind
            continue
        before, key = shown_move(players), _key(message)
        started = time.monotonic()
        presses.sent += 1
        try:
            answer = await user.press(message, data=button.callback_data, timeout=step_timeout)
        except AssertionError:
            presses.lost += 1
            continue
        presses.latency.append(time.monotonic() - started)
        if answer.text:
            presses.refused += 1
            await asyncio.sleep(0.05)
            continue
        presses.accepted += 1

        def shown(user: SimUser = user, key: tuple[str, str] = key, move: int = before) -> bool:
            return moved_on(user, key, move, players, group)

        with contextlib.suppress(TimeoutError):
            await fake.wait_until(shown, timeout=step_timeout)
        after = shown_move(players)  # the presser's own hand may be still now (STILL)
        if after > before >= 0:
            presses.acts[group.id] = presses.acts.get(group.id, 0) + (after - before)
        elif result_message(group) is not None:  # the match's last move: every hand still
            presses.acts[group.id] = presses.acts.get(group.id, 0) + 1
    return result_message(group) is not None


async def open_all(
    fake: FakeTelegram, seated: list[tuple[SimGroup, list[SimUser]]], options: str = "target=5"
) -> None:
    """Every table opened, joined and started (each press answered without a refusal)."""
    for group, players in seated:
        for user in players:
            await user.start_bot()

        def started(players: list[SimUser] = players) -> bool:  # any worker, in any order
            return all(u.visible for u in players)

        await fake.wait_until(started, timeout=30)
        await players[0].send(group, f"/newgame mushka {options}")
        await fake.wait_until(lambda: lobby_message(group) is not None, timeout=30)  # noqa: B023
        shown = lobby_message(group)
        assert shown is not None
        lobby: SentMessage = shown
        for user in players[1:]:
            answer = await user.press(lobby, "✋")
            assert "за столом" in (answer.text or ""), answer.text  # seated (ru players)

        def seated_all(players: list[SimUser] = players, lobby: SentMessage = lobby) -> bool:
            return all(u.first_name in lobby.text for u in players)

        try:
            await fake.wait_until(seated_all, timeout=30)
        except TimeoutError as error:
            raise AssertionError(f"{group.id}: the lobby shows {lobby.text!r}") from error
        answer = await players[0].press(lobby, "▶️")
        assert not answer.show_alert, answer.text
    for group, players in seated:

        def dealt(group: SimGroup = group, players: list[SimUser] = players) -> bool:
            return table_message(group) is not None and all(hand_message(u) for u in players)

        await fake.wait_until(dealt, timeout=30)
