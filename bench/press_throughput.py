"""Presses per second and CPU per press, from outside: the real bot against a bare aiogram bot.

    python bench/press_throughput.py [--tables 100] [--seconds 20] [--max-presses 200000]
                                     [--only bot|echo] [--seed 1] [--json]

This process hosts the fake Telegram (``tests/fakeapi``) and the simulated players; the bot
under test runs in a child process that talks to the fake over 127.0.0.1 only, so the CPU it
spends is its own (``/proc/<pid>/stat`` utime+stime, read just before the load starts and
after the bot went quiet again; its whole life, start-up included, from
``getrusage(RUSAGE_CHILDREN)`` after it exited).

* ``bot``: ``python -m bot`` with ``BOT_TOKEN``, ``BOT_API_BASE=http://127.0.0.1:PORT``,
  ``BOT_DATABASE=<temporary file>``, ``BOT_COMPUTER_DELAY_S=0`` (random pulka seeds: it is the
  bot as deployed). ``--tables`` groups of 3 players each open ``/newgame mushka target=100``
  (long enough not to end within the run; a table whose pulka ends stops pressing). Each table's
  player to act presses a legal button, waits for the answer and for every hand to show the move
  (``press_and_wait`` of ``tests/bot/helpers.py``), then the next player to act presses.
* ``echo``: this script with ``--echo-bot``, a Dispatcher with one message handler (a reply with
  three callback buttons) and one callback-query handler (answers the query, then edits its
  message),
  long polling against the same fake, same logging. The players of a table take turns pressing a
  button of their last message and wait for the answer only.

The tables' drivers run concurrently for ``--seconds`` (or until ``--max-presses``). Reported:
presses, presses/s, the bot's CPU ms per press and CPU use, the driver's own CPU use (near
100 % means the driver, not the bot, set the pace), press latency, and the bot/echo ratios.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import logging
import os
import random
import resource
import signal
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path

SCRIPT = Path(__file__).resolve()
ROOT = SCRIPT.parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.bot.helpers import (  # noqa: E402
    choose,
    hand_message,
    open_table,
    press_and_wait,
    result_message,
    to_act,
)
from tests.fakeapi import FakeTelegram  # noqa: E402
from tests.fakeapi.users import SimGroup, SimUser  # noqa: E402

TOKEN = "123456:TEST-token"
CLK_TCK = os.sysconf("SC_CLK_TCK")
START_TIMEOUT = 60.0  # the child's first getUpdates
SETUP_TIMEOUT = 1200.0  # every table open (1,000 tables on a loaded machine)
SETTLE_TIMEOUT = 60.0  # the bot quiet again after the load
TABLE_ERRORS = 100  # a table stops pressing after this many failed steps in a row
PROXY_VARS = ("http_proxy", "https_proxy", "all_proxy", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY")


@dataclass
class Load:
    """What the drivers did, shared by every table's driver."""

    deadline: float
    cap: int
    presses: int = 0
    refused: int = 0  # presses the bot answered with a text (stale or not legal)
    errors: int = 0  # steps that failed (no answer, screens not updated in time, …)
    tables_stopped: int = 0  # tables that stopped early: pulka over, or too many errors
    step_s: list[float] = field(default_factory=list)  # press → screens updated (or answer)

    def go(self) -> bool:
        return time.monotonic() < self.deadline and self.presses < self.cap


@dataclass
class Figures:
    kind: str
    tables: int
    presses: int
    seconds: float
    presses_per_s: float
    cpu_s: float
    cpu_ms_per_press: float
    cpu_use: float  # bot CPU seconds per wall second during the load
    driver_cpu_use: float
    lifetime_cpu_s: float
    api_calls_per_press: float  # every method but getUpdates, answers included
    step_ms_p50: float
    step_ms_p95: float
    refused: int
    errors: int
    tables_stopped: int


# ---------------------------------------------------------------------------- the echo bot


def echo_bot() -> None:
    """The bare aiogram bot (``--echo-bot``): settings from the same environment variables."""
    from aiogram import Bot, Dispatcher
    from aiogram.client.session.aiohttp import AiohttpSession
    from aiogram.client.telegram import TelegramAPIServer
    from aiogram.types import CallbackQuery, InlineKeyboardButton, InlineKeyboardMarkup, Message

    logging.basicConfig(
        level=os.environ.get("BOT_LOG_LEVEL", "INFO"),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    if os.environ.get("BENCH_ECHO_GC") == "tuned":  # the collector as python -m bot sets it
        from bot.__main__ import tune_gc

        tune_gc()
    dp = Dispatcher()
    keyboard = InlineKeyboardMarkup(
        inline_keyboard=[
            [InlineKeyboardButton(text=str(i), callback_data=f"echo:{i}") for i in range(3)]
        ]
    )

    @dp.message()
    async def on_message(message: Message) -> None:
        await message.answer("echo", reply_markup=keyboard)

    edits = [0]

    @dp.callback_query()
    async def on_press(query: CallbackQuery) -> None:
        await query.answer()
        edits[0] += 1  # a new text each time: Telegram refuses an edit that changes nothing
        if isinstance(query.message, Message):
            await query.message.edit_text(f"echo {edits[0]}", reply_markup=keyboard)

    async def run() -> None:
        session = AiohttpSession(api=TelegramAPIServer.from_base(os.environ["BOT_API_BASE"]))
        bot = Bot(os.environ["BOT_TOKEN"], session=session)
        loop = asyncio.get_running_loop()
        stop = asyncio.Event()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        task = asyncio.create_task(dp.start_polling(bot, handle_signals=False, polling_timeout=10))
        waiter = asyncio.create_task(stop.wait())
        await asyncio.wait({waiter, task}, return_when=asyncio.FIRST_COMPLETED)
        waiter.cancel()
        with contextlib.suppress(RuntimeError):
            await dp.stop_polling()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        await bot.session.close()

    asyncio.run(run())


# ---------------------------------------------------------------------------- the child


@contextlib.contextmanager
def heap_frozen() -> Iterator[None]:
    """This driver's own cycle collector kept out of a load: the fake keeps every call it
    answered (a big heap), and a full collection of it stalls the simulated players and the fake
    — and with them the answers of the bot, which the fake receives — by 100–400 ms."""
    gc.collect()
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


def proc_cpu(pid: int) -> float:
    """utime+stime of a live process, in seconds."""
    stat = Path(f"/proc/{pid}/stat").read_text()
    fields = stat.rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLK_TCK


def child_env(fake: FakeTelegram, tmp: Path, time_scale: str | None = None) -> dict[str, str]:
    """The bot child's environment; ``time_scale`` its outbox's (default ``BENCH_TIME_SCALE``
    or 1)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("BOT_") and k not in PROXY_VARS}
    env.update(
        BOT_TOKEN=fake.token,
        BOT_API_BASE=fake.base_url,
        BOT_DATABASE=str(tmp / "bot.sqlite3"),
        BOT_COMPUTER_DELAY_S="0",
        BOT_OUTBOX_TIME_SCALE=time_scale or os.environ.get("BENCH_TIME_SCALE", "1"),
        BOT_LOG_LEVEL="INFO",
        NO_PROXY="127.0.0.1",
        no_proxy="127.0.0.1",
        PYTHONPATH=str(ROOT),  # this checkout's bot, never an installed one
    )
    return env


async def start_child(
    kind: str, fake: FakeTelegram, tmp: Path, extra: dict[str, str] | None = None
) -> asyncio.subprocess.Process:
    """The bot (or the echo) child, polling the fake; ``extra``: more of its environment."""
    args = ["-m", "bot"] if kind == "bot" else [str(SCRIPT), "--echo-bot"]
    profile = os.environ.get("BENCH_PROFILE")  # a file: the bot runs under cProfile
    if profile and kind == "bot":
        args = ["-m", "cProfile", "-o", profile, *args]
    mark = fake.mark()  # a restarted child's first poll is a new one
    log = (tmp / f"{kind}.log").open("wb")
    try:
        child = await asyncio.create_subprocess_exec(
            sys.executable,
            *args,
            cwd=tmp,  # no .env of anyone's
            env={**child_env(fake, tmp), **(extra or {})},
            stdin=asyncio.subprocess.DEVNULL,
            stdout=log,
            stderr=log,
        )
    finally:
        log.close()
    deadline = time.monotonic() + START_TIMEOUT
    while not any(c.method == "getUpdates" for c in fake.requests[mark:]):
        if child.returncode is not None or time.monotonic() > deadline:
            tail = (tmp / f"{kind}.log").read_text(errors="replace")[-2000:]
            raise RuntimeError(f"the {kind} child did not start polling:\n{tail}")
        await asyncio.sleep(0.05)
    return child


async def stop_child(child: asyncio.subprocess.Process) -> None:
    if child.returncode is None:
        child.send_signal(signal.SIGTERM)
        try:
            await asyncio.wait_for(child.wait(), 15)
        except TimeoutError:
            child.kill()
            await child.wait()


# ---------------------------------------------------------------------------- the players


def seat_tables(fake: FakeTelegram, tables: int) -> list[tuple[SimGroup, list[SimUser]]]:
    out = []
    for t in range(tables):
        players = [
            fake.add_user(100_000 + 3 * t + i, name, language_code="ru")
            for i, name in enumerate(("Anna", "Boris", "Vera"))
        ]
        group = fake.add_group(
            -1_000_000 - t, f"Стол {t}", admins=[players[0].id], members=[p.id for p in players]
        )
        out.append((group, players))
    return out


async def bounded_gather(jobs: list[Callable[[], Awaitable[None]]], at_once: int) -> None:
    gate = asyncio.Semaphore(at_once)

    async def one(job: Callable[[], Awaitable[None]]) -> None:
        async with gate:
            await job()

    await asyncio.wait_for(asyncio.gather(*(one(j) for j in jobs)), SETUP_TIMEOUT)


async def drive_bot_table(
    fake: FakeTelegram, group: SimGroup, players: list[SimUser], rng: random.Random, load: Load
) -> None:
    errors = 0
    while load.go():
        if result_message(group) is not None or errors >= TABLE_ERRORS:
            load.tables_stopped += 1
            return
        user = to_act(group, players)
        message = hand_message(user) if user is not None else None
        try:
            if user is None or message is None:
                raise AssertionError("nobody to act yet")
            button = choose(message, rng)  # AssertionError: the screens are behind
        except AssertionError:
            errors += 1
            load.errors += 1
            await asyncio.sleep(0.05)
            continue
        started = time.monotonic()
        try:
            await press_and_wait(fake, user, message, button, players)
        except AssertionError as error:  # refused (stale) or no answer (FakeUsageError)
            load.presses += 1
            if "pressed" in str(error):
                load.refused += 1
            else:
                errors += 1
                load.errors += 1
            continue
        except TimeoutError:  # answered, but the hands did not show the move in time
            load.presses += 1
            errors += 1
            load.errors += 1
            continue
        load.presses += 1
        load.step_s.append(time.monotonic() - started)
        errors = 0  # in a row: a deal's change of table message is a short wait, not a failure


async def drive_echo_table(players: list[SimUser], rng: random.Random, load: Load) -> None:
    errors = 0
    for turn in range(load.cap):
        if not load.go() or errors >= TABLE_ERRORS:
            break
        user = players[turn % len(players)]
        message = user.last
        started = time.monotonic()
        try:
            answer = await user.press(message, data=rng.choice(message.all_buttons).callback_data)
        except AssertionError:
            errors += 1
            load.errors += 1
            continue
        load.presses += 1
        if answer.text:
            load.refused += 1
        load.step_s.append(time.monotonic() - started)
    if errors >= TABLE_ERRORS:
        load.tables_stopped += 1


async def set_up(
    kind: str, fake: FakeTelegram, seated: list[tuple[SimGroup, list[SimUser]]]
) -> None:
    if kind == "bot":
        jobs: list[Callable[[], Awaitable[None]]] = [
            lambda g=g, ps=ps: open_table(fake, g, ps, "mushka", "target=100")  # type: ignore[misc]
            for g, ps in seated
        ]
        await bounded_gather(jobs, 10)
    else:
        users = [u for _, ps in seated for u in ps]
        for user in users:
            await user.start_bot()
        await fake.wait_until(
            lambda: all(u.visible and u.last.all_buttons for u in users), timeout=SETUP_TIMEOUT
        )
    await fake.settle(quiet=0.2, timeout=SETTLE_TIMEOUT)


async def measure(kind: str, tables: int, seconds: float, cap: int, seed: int) -> Figures:
    fake = FakeTelegram(token=TOKEN, bot_username="mushka_test_bot")
    await fake.start()
    child: asyncio.subprocess.Process | None = None
    before_children = resource.getrusage(resource.RUSAGE_CHILDREN)
    try:
        with tempfile.TemporaryDirectory(prefix=f"press-{kind}-") as tmp_name:
            tmp = Path(tmp_name)
            seated = seat_tables(fake, tables)
            child = await start_child(kind, fake, tmp)
            await set_up(kind, fake, seated)

            mark = fake.mark()
            cpu0, self0, t0 = proc_cpu(child.pid), _self_cpu(), time.monotonic()
            load = Load(deadline=t0 + seconds, cap=cap)
            rngs = [random.Random(seed * 1_000_003 + i) for i in range(tables)]
            if kind == "bot":
                drivers = [
                    drive_bot_table(fake, g, ps, rng, load)
                    for (g, ps), rng in zip(seated, rngs, strict=True)
                ]
            else:
                drivers = [
                    drive_echo_table(ps, rng, load)
                    for (_, ps), rng in zip(seated, rngs, strict=True)
                ]
            await asyncio.wait_for(asyncio.gather(*drivers), seconds + 60)
            t1, self1 = time.monotonic(), _self_cpu()
            await fake.settle(quiet=0.2, timeout=SETTLE_TIMEOUT)  # deferred edits included
            cpu1 = proc_cpu(child.pid)
            calls = fake.count(since=mark) - fake.count("getUpdates", since=mark)

            await stop_child(child)
            after_children = resource.getrusage(resource.RUSAGE_CHILDREN)
    finally:
        if child is not None:
            await stop_child(child)
        await fake.stop()
    took = t1 - t0
    presses = max(load.presses, 1)
    steps = sorted(load.step_s) or [0.0]
    return Figures(
        kind=kind,
        tables=tables,
        presses=load.presses,
        seconds=took,
        presses_per_s=load.presses / took,
        cpu_s=cpu1 - cpu0,
        cpu_ms_per_press=1000 * (cpu1 - cpu0) / presses,
        cpu_use=(cpu1 - cpu0) / took,
        driver_cpu_use=(self1 - self0) / took,
        lifetime_cpu_s=(after_children.ru_utime + after_children.ru_stime)
        - (before_children.ru_utime + before_children.ru_stime),
        api_calls_per_press=calls / presses,
        step_ms_p50=1000 * statistics.median(steps),
        step_ms_p95=1000 * steps[min(len(steps) - 1, int(0.95 * len(steps)))],
        refused=load.refused,
        errors=load.errors,
        tables_stopped=load.tables_stopped,
    )


def _self_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


# ---------------------------------------------------------------------------- report

ROWS = (
    ("presses", "presses", "{:.0f}"),
    ("seconds", "seconds", "{:.1f}"),
    ("presses_per_s", "presses/s", "{:.1f}"),
    ("cpu_ms_per_press", "bot CPU ms/press", "{:.2f}"),
    ("cpu_use", "bot CPU use", "{:.0%}"),
    ("driver_cpu_use", "driver CPU use", "{:.0%}"),
    ("lifetime_cpu_s", "bot CPU s, incl. start", "{:.2f}"),
    ("api_calls_per_press", "API calls/press", "{:.2f}"),
    ("step_ms_p50", "step ms p50", "{:.1f}"),
    ("step_ms_p95", "step ms p95", "{:.1f}"),
    ("refused", "refused presses", "{:.0f}"),
    ("errors", "failed steps", "{:.0f}"),
    ("tables_stopped", "tables stopped", "{:.0f}"),
)


def report(results: dict[str, Figures]) -> str:
    kinds = list(results)
    both = "bot" in results and "echo" in results
    head = f"{'':<22}" + "".join(f"{k:>10}" for k in kinds) + (f"{'bot/echo':>10}" if both else "")
    first = next(iter(results.values()))
    lines = [f"{first.tables} table(s) of 3 players, python {sys.version.split()[0]}", "", head]
    for attr, label, fmt in ROWS:
        values = [getattr(results[k], attr) for k in kinds]
        line = f"{label:<22}" + "".join(f"{fmt.format(v):>10}" for v in values)
        if both and attr in ("presses_per_s", "cpu_ms_per_press", "step_ms_p50"):
            echo = getattr(results["echo"], attr)
            line += f"{getattr(results['bot'], attr) / echo:>10.2f}" if echo else f"{'-':>10}"
        lines.append(line)
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--tables", type=int, default=100, help="tables of 3 (default 100)")
    parser.add_argument("--seconds", type=float, default=20.0, help="load time (default 20)")
    parser.add_argument("--max-presses", type=int, default=200_000, help="press cap")
    parser.add_argument("--only", choices=("bot", "echo"), help="measure one of the two")
    parser.add_argument("--seed", type=int, default=1, help="the players' choices")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument(
        "--time-scale",
        type=float,
        default=1.0,
        help="the bot's outbox windows × this (1: Telegram's limits; 0: none, the path's CPU)",
    )
    parser.add_argument("--echo-bot", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    os.environ["BENCH_TIME_SCALE"] = str(args.time_scale)  # read by child_env
    if args.echo_bot:
        echo_bot()
        return
    kinds = [args.only] if args.only else ["bot", "echo"]
    results = {
        kind: asyncio.run(
            measure(
                kind,
                max(args.tables, 1),
                max(args.seconds, 0.5),
                max(args.max_presses, 1),
                args.seed,
            )
        )
        for kind in kinds
    }
    if args.json:
        print(json.dumps({k: asdict(v) for k, v in results.items()}, indent=2))
    else:
        print(report(results))


if __name__ == "__main__":
    main()
