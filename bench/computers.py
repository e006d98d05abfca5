"""Computers thinking at many tables at once: does a decision keep within the pace?

    python bench/computers.py [--tables 20] [--level hard] [--seconds 120] [--pace 1,3]
                              [--seed 1] [--json FILE]

A fresh fake Telegram (``tests/fakeapi``) in this process, a group's limit at Telegram's value;
the bot as deployed in a child process (``python -m bot``, its computers at their deployed pace,
``BOT_COMPUTER_DELAY_S`` 1.5 s, the outbox at Telegram's limits, a fresh SQLite file). Each of
``--tables`` groups opens a table of one person and computers of ``--level`` through the lobby's
own buttons (🤖, the level, ↩️, ▶️), the games in turn over all seven at their biggest
thinking tables (the trick family and Копилка, Лентюрлю, Кончинка at 5, 4, 4, 4 seats); for
``--seconds`` the person presses a legal button after a pause drawn from ``--pace`` whenever it
is his turn, and a table that ends is opened again in a new group.

Measured under the load: every computer decision the bot logged (``bot.runtime.thinking``: the
wait for a thread, the search's wall time and its thread's CPU time) — p50, p99 and the maximum
of the wait plus the search against the computer's pace; the people's press → answer p99 (do the
computers delay the other tables?); the bot's CPU use. Passed: the decisions' p99 (wait and
search) under the pace, the answers' p99 under 500 ms, nothing lost.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import html
import json
import random
import re
import statistics
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.capacity import GROUP_PER_MINUTE, _keep_logs, p  # noqa: E402
from bench.press_throughput import (  # noqa: E402
    TOKEN,
    heap_frozen,
    proc_cpu,
    start_child,
    stop_child,
)
from tests.bot.helpers import (  # noqa: E402
    TO_PLAY,
    choose,
    hand_message,
    lobby_message,
    result_message,
    table_message,
)
from tests.fakeapi import FakeTelegram  # noqa: E402
from tests.fakeapi.users import SimGroup, SimUser  # noqa: E402

PACE_S = 1.5  # the computers' deployed pace (bot.config: computer_delay_s)
ANSWER_P99_S = 0.5
WAIT_S = 30.0
TABLES = (  # (game, seats, options): the biggest thinking table of each game
    ("mushka", 5, "target=100"),
    ("pamfil", 5, "target=100"),
    ("shutikha", 5, "target=100"),
    ("mistigri", 5, "target=100"),
    ("kopilka", 4, ""),
    ("lenturlu", 4, ""),
    ("konchinka", 4, "target=50"),
)
LEVEL_WORD = {"easy": "Лёгкий", "normal": "Обычный", "hard": "Сильный"}
DECISION = re.compile(
    r"computer table=\d+ level=(\w+) queued_ms=([\d.]+) wall_ms=([\d.]+) cpu_ms=([\d.]+)"
)


@dataclass
class Load:
    deadline: float
    answers: list[float] = field(default_factory=list)
    opened: int = 0
    ended: int = 0
    lost: int = 0


@dataclass
class Report:
    tables: int
    level: str
    seconds: float
    decisions: int
    decisions_per_s: float
    queued_p99_ms: float
    wall_p50_ms: float
    wall_p99_ms: float
    wall_max_ms: float
    cpu_p50_ms: float
    cpu_p99_ms: float
    cpu_max_ms: float
    delay_p99_ms: float  # the wait for a thread plus the search: what a move is late by
    delay_max_ms: float
    pace_ms: float
    presses: int
    answer_p50_ms: float
    answer_p99_ms: float
    bot_cpu_use: float
    games_opened: int
    games_ended: int
    lost: int
    passed: bool


async def _open(
    fake: FakeTelegram, group: SimGroup, person: SimUser, spec: tuple[str, int, str], level: str
) -> None:
    """The person opens the table and seats the computers by the lobby's buttons, then starts."""
    game, seats, options = spec
    await person.send(group, f"/newgame {game} {options}".strip())
    await fake.wait_until(lambda: lobby_message(group) is not None, timeout=WAIT_S)
    lobby = lobby_message(group)
    assert lobby is not None
    await person.press(lobby, "🤖", timeout=WAIT_S)
    for k in range(seats - 1):
        await fake.wait_until(lambda: lobby.has_button(LEVEL_WORD[level]), timeout=WAIT_S)
        await person.press(lobby, LEVEL_WORD[level], timeout=WAIT_S)
        await fake.wait_until(lambda k=k: f"({k + 2}/" in lobby.text, timeout=WAIT_S)  # type: ignore[misc]
    await fake.wait_until(lambda: lobby.has_button("↩️"), timeout=WAIT_S)
    await person.press(lobby, "↩️", timeout=WAIT_S)
    await fake.wait_until(lambda: lobby.has_button("▶️"), timeout=WAIT_S)
    await person.press(lobby, "▶️", timeout=WAIT_S)
    await fake.wait_until(
        lambda: table_message(group) is not None and hand_message(person) is not None,
        timeout=WAIT_S,
    )


def _persons_turn(group: SimGroup, person: SimUser) -> bool:
    table = table_message(group)
    found = TO_PLAY.search(table.html) if table is not None else None
    return found is not None and html.unescape(found.group(1)) == person.first_name


async def _drive(
    fake: FakeTelegram,
    person: SimUser,
    index: int,
    level: str,
    pace: tuple[float, float],
    rng: random.Random,
    load: Load,
) -> None:
    """One table's person: opens, plays whenever it is his turn, opens again when it ends."""
    await person.start_bot()
    spec = TABLES[index % len(TABLES)]
    generation = 0
    while time.monotonic() < load.deadline:
        group = fake.add_group(
            -1_000_000 - 1000 * index - generation, f"Стол {index}.{generation}", admins=[person.id]
        )
        generation += 1
        await _open(fake, group, person, spec, level)
        load.opened += 1
        while time.monotonic() < load.deadline:
            await asyncio.sleep(rng.uniform(*pace))
            if result_message(group) is not None:
                load.ended += 1
                break
            message = hand_message(person)
            if message is None or not _persons_turn(group, person):
                continue
            try:
                button = choose(message, rng)
            except AssertionError:
                continue
            started = time.monotonic()
            try:
                await person.press(message, data=button.callback_data, timeout=WAIT_S)
            except (AssertionError, TimeoutError):
                load.lost += 1
                continue
            load.answers.append(time.monotonic() - started)


def _decisions(log: Path, offset: int, level: str) -> list[tuple[float, float, float]]:
    """(queued, wall, cpu) in ms of every decision at ``level`` logged after ``offset``."""
    text = log.read_bytes()[offset:].decode(errors="replace")
    return [(float(q), float(w), float(c)) for lv, q, w, c in DECISION.findall(text) if lv == level]


async def measure(
    tables: int, level: str, seconds: float, pace: tuple[float, float], seed: int
) -> Report:
    fake = FakeTelegram(token=TOKEN, bot_username="mushka_test_bot")
    await fake.start()
    fake.rate_limit(GROUP_PER_MINUTE, 60.0, groups_only=True)
    env = {"BOT_TURN_TIMEOUT_S": "3600", "BOT_COMPUTER_DELAY_S": str(PACE_S)}
    try:
        with contextlib.ExitStack() as stack:
            tmp = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="computers-")))
            stack.push(functools.partial(_keep_logs, tmp))
            child = await start_child("bot", fake, tmp, env)
            try:
                stack.enter_context(heap_frozen())
                people = [
                    fake.add_user(200_000 + i, "Anna", language_code="ru") for i in range(tables)
                ]
                log = tmp / "bot.log"
                offset = log.stat().st_size
                cpu0, t0 = proc_cpu(child.pid), time.monotonic()
                load = Load(deadline=t0 + seconds)
                rngs = [random.Random(seed * 1_000_003 + i) for i in range(tables)]
                await asyncio.wait_for(
                    asyncio.gather(
                        *(
                            _drive(fake, person, i, level, pace, rngs[i], load)
                            for i, person in enumerate(people)
                        )
                    ),
                    seconds + 4 * WAIT_S,
                )
                t1, cpu1 = time.monotonic(), proc_cpu(child.pid)
            finally:
                await stop_child(child)
            decisions = _decisions(log, offset, level)
    finally:
        await fake.stop()
    took = t1 - t0
    queued = [q for q, _, _ in decisions]
    wall = [w for _, w, _ in decisions]
    cpu = [c for _, _, c in decisions]
    delay = [q + w for q, w, _ in decisions]
    report = Report(
        tables=tables,
        level=level,
        seconds=round(took, 1),
        decisions=len(decisions),
        decisions_per_s=round(len(decisions) / took, 1),
        queued_p99_ms=round(p(queued, 0.99), 1),
        wall_p50_ms=round(statistics.median(wall or [0.0]), 1),
        wall_p99_ms=round(p(wall, 0.99), 1),
        wall_max_ms=round(max(wall, default=0.0), 1),
        cpu_p50_ms=round(statistics.median(cpu or [0.0]), 1),
        cpu_p99_ms=round(p(cpu, 0.99), 1),
        cpu_max_ms=round(max(cpu, default=0.0), 1),
        delay_p99_ms=round(p(delay, 0.99), 1),
        delay_max_ms=round(max(delay, default=0.0), 1),
        pace_ms=1000 * PACE_S,
        presses=len(load.answers),
        answer_p50_ms=round(1000 * statistics.median(load.answers or [0.0]), 1),
        answer_p99_ms=round(1000 * p(load.answers, 0.99), 1),
        bot_cpu_use=round((cpu1 - cpu0) / took, 2),
        games_opened=load.opened,
        games_ended=load.ended,
        lost=load.lost,
        passed=False,
    )
    report.passed = (
        bool(decisions)
        and bool(load.answers)
        and report.delay_p99_ms < report.pace_ms
        and report.answer_p99_ms <= 1000 * ANSWER_P99_S
        and load.lost == 0
    )
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--level", choices=tuple(LEVEL_WORD), default="hard")
    parser.add_argument("--seconds", type=float, default=120.0)
    parser.add_argument("--pace", default="1,3")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    lo, hi = (float(x) for x in args.pace.split(","))
    assert 0 < lo <= hi, "--pace takes two seconds: low,high"
    report = asyncio.run(measure(args.tables, args.level, args.seconds, (lo, hi), args.seed))
    for key, value in asdict(report).items():
        print(f"{key}: {value}")
    if args.json:
        args.json.write_text(json.dumps(asdict(report), indent=2))


if __name__ == "__main__":
    main()
