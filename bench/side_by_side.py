"""The full bot against a bare aiogram echo bot, same fake Telegram, alternating runs.

    python bench/side_by_side.py [--tables 100] [--seconds 15] [--reps 2]
                                 [--latency 1,50,200,1000] [--latency-seconds 10]
                                 [--time-scale 0] [--echo-gc default|tuned] [--json]
                                 [--against NAME=CHECKOUT,…]

Both bots run as child processes of this one (``press_throughput.start_child``: the fake on
127.0.0.1, a temporary SQLite file in WAL for the bot). ``bot`` is ``python -m bot``;
``echo`` answers the callback query and edits its message with a new text. Each table's
players press as fast as the bot answers: the bot's player to act presses a legal card or
declaration and waits until the answer came and every hand shows the move; an echo player
presses a button of his message and waits for the answer and the edit. ``--reps`` runs
bot, echo, bot, echo … with ``--tables`` tables and reports each run and the ratios of the
medians; ``--latency`` then runs bot and echo once at each number of concurrent tables.

Per run: presses handled per second, the child's CPU ms per press (``/proc/<pid>/stat``),
getUpdates calls per press, and per press the latency to its callback answer (the press's
own await) and to the last Bot API call it caused: the newest call to the table's chats (the
group and its players' private chats) between this press and that table's next press, from
the fake's own time stamps, so the driver's polling does not count. p50/p95/p99.

``--against old=/path/to/another/checkout`` runs that checkout's bot too (its ``python -m bot``,
the same driver and fake): each rep runs every bot, in an order turned by one each rep, then the
echo, and the summary gives each bot's presses/s against the echo and against this checkout's,
per rep and as medians — a change's cost measured side by side in one run, not across runs on a
shared machine whose load moves the absolute figures by half.

``--echo-gc tuned`` gives the echo bot the cycle collector ``python -m bot`` sets up
(``bot.__main__.tune_gc``; by default it runs with Python's own).

``--time-scale`` is the bot's ``BOT_OUTBOX_TIME_SCALE``: 0 (the default here) lifts Telegram's
rate limits, so both bots are bounded by their own code path; at 1 every bot is held to about
30 calls a second in all, which says nothing of its code.
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import functools
import json
import os
import random
import statistics
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.press_throughput import (  # noqa: E402
    SETTLE_TIMEOUT,
    TABLE_ERRORS,
    TOKEN,
    heap_frozen,
    proc_cpu,
    seat_tables,
    set_up,
    start_child,
    stop_child,
)
from tests.bot.helpers import (  # noqa: E402
    _key,
    choose,
    hand_message,
    moved_on,
    result_message,
    shown_move,
    to_act,
)
from tests.fakeapi import FakeTelegram  # noqa: E402
from tests.fakeapi.users import SimGroup, SimUser  # noqa: E402

WAIT_S = 10.0  # a press's screens (or the echo's edit) must show within this


@dataclass
class TableLog:
    """One table's presses: when each was made and how long its answer took."""

    chats: set[int]
    pressed: list[float] = field(default_factory=list)
    answered: list[float] = field(default_factory=list)


@dataclass
class Load:
    deadline: float
    cap: int
    interval: float  # the drivers' polling of the fake's screens
    presses: int = 0
    refused: int = 0
    errors: int = 0

    def go(self) -> bool:
        return time.monotonic() < self.deadline and self.presses < self.cap


@dataclass
class Run:
    kind: str
    tables: int
    presses: int
    seconds: float
    presses_per_s: float
    cpu_ms_per_press: float
    getupdates_per_press: float
    api_per_press: float  # every call but getUpdates, answers included
    answer_ms: tuple[float, float, float]  # p50, p95, p99
    last_ms: tuple[float, float, float]
    refused: int
    errors: int
    name: str = ""  # "bot", "echo", or the name of the checkout it ran (``--against``)


def quantiles(values: list[float]) -> tuple[float, float, float]:
    if not values:
        return (0.0, 0.0, 0.0)
    ordered = sorted(values)

    def at(q: float) -> float:
        return 1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))]

    return (1000 * statistics.median(ordered), at(0.95), at(0.99))


def _shown(
    user: SimUser, before: tuple[str, str], move: int, players: list[SimUser], group: SimGroup
) -> bool:
    """The press shows on every screen it changes (``tests.bot.helpers.moved_on``: the presser's
    hand, and the hand now to act at the new move; a still waiting hand is not edited after
    others' moves: bot.callbacks.STILL)."""
    return moved_on(user, before, move, players, group)


async def drive_bot(
    fake: FakeTelegram,
    group: SimGroup,
    players: list[SimUser],
    rng: random.Random,
    load: Load,
    log: TableLog,
) -> None:
    errors = 0
    while load.go() and errors < TABLE_ERRORS and result_message(group) is None:
        user = to_act(group, players)
        message = hand_message(user) if user is not None else None
        try:
            if user is None or message is None:
                raise AssertionError("nobody to act yet")
            button = choose(message, rng)
        except AssertionError:
            errors += 1
            load.errors += 1
            await asyncio.sleep(0.05)
            continue
        before, move = _key(message), shown_move(players)
        started = time.monotonic()
        try:
            answer = await user.press(message, data=button.callback_data)
        except AssertionError:
            errors += 1
            load.errors += 1
            continue
        load.presses += 1
        if answer.text:
            load.refused += 1
            continue
        log.pressed.append(started)
        log.answered.append(time.monotonic() - started)
        try:
            await fake.wait_until(
                functools.partial(_shown, user, before, move, players, group),
                timeout=WAIT_S,
                interval=load.interval,
            )
        except TimeoutError:
            errors += 1
            load.errors += 1
            continue
        errors = 0


def _edited(user: SimUser, before: str) -> bool:
    return user.last.text != before


async def drive_echo(
    players: list[SimUser], rng: random.Random, load: Load, log: TableLog, fake: FakeTelegram
) -> None:
    errors = 0
    turn = 0
    while load.go() and errors < TABLE_ERRORS:
        user = players[turn % len(players)]
        turn += 1
        message = user.last
        before = message.text
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
        log.pressed.append(started)
        log.answered.append(time.monotonic() - started)
        try:
            await fake.wait_until(
                functools.partial(_edited, user, before), timeout=WAIT_S, interval=load.interval
            )
        except TimeoutError:
            errors += 1
            load.errors += 1


def last_calls(fake: FakeTelegram, mark: int, logs: list[TableLog]) -> list[float]:
    """Per press, seconds from the press to the last call it caused (see the module's doc)."""
    table_of = {chat: i for i, log in enumerate(logs) for chat in log.chats}
    latest: list[list[float]] = [
        [p + a for p, a in zip(log.pressed, log.answered, strict=True)] for log in logs
    ]
    for call in fake.requests[mark:]:
        if call.method.lower() in ("getupdates", "answercallbackquery"):
            continue
        t = table_of.get(call.chat_id) if isinstance(call.chat_id, int) else None
        if t is None:
            continue
        k = bisect.bisect_right(logs[t].pressed, call.at) - 1
        if k >= 0 and call.at > latest[t][k]:
            latest[t][k] = call.at
    return [
        last - pressed
        for log, lasts in zip(logs, latest, strict=True)
        for pressed, last in zip(log.pressed, lasts, strict=True)
    ]


async def run(
    kind: str,
    tables: int,
    seconds: float,
    seed: int,
    cap: int = 10**6,
    checkout: Checkout | None = None,
) -> Run:
    """One run of ``kind`` ("bot" or "echo"); ``checkout``: another checkout's bot."""
    fake = FakeTelegram(token=TOKEN, bot_username="mushka_test_bot")
    await fake.start()
    child = None
    try:
        with tempfile.TemporaryDirectory(prefix=f"side-{kind}-") as tmp_name:
            seated = seat_tables(fake, tables)
            elsewhere = {"PYTHONPATH": str(checkout.path)} if checkout is not None else None
            child = await start_child(kind, fake, Path(tmp_name), elsewhere)
            await set_up(kind, fake, seated)
            logs = [TableLog({g.id, *(p.id for p in ps)}) for g, ps in seated]
            rngs = [random.Random(seed * 1_000_003 + i) for i in range(tables)]
            mark = fake.mark()
            with heap_frozen():  # this driver's own collector, for the bot and the echo alike
                cpu0, t0 = proc_cpu(child.pid), time.monotonic()
                load = Load(t0 + seconds, cap, interval=0.005 * max(1.0, tables / 20))
                if kind == "bot":
                    drivers = [
                        drive_bot(fake, g, ps, rng, load, log)
                        for (g, ps), rng, log in zip(seated, rngs, logs, strict=True)
                    ]
                else:
                    drivers = [
                        drive_echo(ps, rng, load, log, fake)
                        for (_, ps), rng, log in zip(seated, rngs, logs, strict=True)
                    ]
                await asyncio.wait_for(asyncio.gather(*drivers), seconds + 60)
                took = time.monotonic() - t0
            await fake.settle(quiet=0.2, timeout=SETTLE_TIMEOUT)
            cpu1 = proc_cpu(child.pid)
            polls = fake.count("getUpdates", since=mark)
            calls = fake.count(since=mark) - polls
            lasts = last_calls(fake, mark, logs)
            await stop_child(child)
    finally:
        if child is not None:
            await stop_child(child)
        await fake.stop()
    presses = max(load.presses, 1)
    return Run(
        kind=kind,
        tables=tables,
        presses=load.presses,
        seconds=took,
        presses_per_s=load.presses / took,
        cpu_ms_per_press=1000 * (cpu1 - cpu0) / presses,
        getupdates_per_press=polls / presses,
        api_per_press=calls / presses,
        answer_ms=quantiles([a for log in logs for a in log.answered]),
        last_ms=quantiles(lasts),
        refused=load.refused,
        errors=load.errors,
        name=checkout.name if checkout is not None else kind,
    )


def side_by_side(tables: int, seconds: float, reps: int, seed: int) -> list[Run]:
    return [
        asyncio.run(run(kind, tables, seconds, seed + rep))
        for rep in range(reps)
        for kind in ("bot", "echo")
    ]


@dataclass(frozen=True)
class Checkout:
    """Another checkout of the bot, run side by side with this one's (``--against``)."""

    name: str
    path: Path

    @classmethod
    def parse(cls, spec: str) -> Checkout:
        name, sep, path = spec.partition("=")
        if not sep or not name or name in ("bot", "echo") or not (Path(path) / "bot").is_dir():
            raise argparse.ArgumentTypeError(f"not NAME=CHECKOUT with a bot/ in it: {spec!r}")
        return cls(name, Path(path).resolve())


def against(
    tables: int, seconds: float, reps: int, seed: int, checkouts: list[Checkout]
) -> list[Run]:
    """Every rep: this checkout's bot and each of ``checkouts``' in an order turned by one each
    rep (none always first), then the echo; all on the same seed within a rep."""
    bots: list[Checkout | None] = [None, *checkouts]
    runs: list[Run] = []
    for rep in range(reps):
        turned = bots[rep % len(bots) :] + bots[: rep % len(bots)]
        runs.extend(
            asyncio.run(run("bot", tables, seconds, seed + rep, checkout=checkout))
            for checkout in turned
        )
        runs.append(asyncio.run(run("echo", tables, seconds, seed + rep)))
    return runs


def against_report(runs: list[Run]) -> str:
    """Each bot's presses/s against the echo's and this checkout's: per rep, and the medians'."""
    names = list(dict.fromkeys(r.name for r in runs if r.name != "echo"))
    per_rep: dict[str, list[Run]] = {n: [r for r in runs if r.name == n] for n in [*names, "echo"]}
    lines = [
        "| bot | presses/s (median) | CPU ms/press | / echo | / echo each rep | / bot each rep |",
        "|---|---|---|---|---|---|",
    ]
    echo = per_rep["echo"]
    for n in names:
        mine = per_rep[n]
        each_echo = ", ".join(
            f"{r.presses_per_s / e.presses_per_s:.2f}" for r, e in zip(mine, echo, strict=True)
        )
        each_bot = ", ".join(
            f"{r.presses_per_s / b.presses_per_s:.2f}"
            for r, b in zip(mine, per_rep["bot"], strict=True)
        )
        pps = median_of(runs, n, "presses_per_s")
        lines.append(
            f"| {n} | {pps:.0f} | {median_of(runs, n, 'cpu_ms_per_press'):.2f} |"
            f" {pps / median_of(runs, 'echo', 'presses_per_s'):.2f} | {each_echo} | {each_bot} |"
        )
    return "\n".join(lines)


def latency(counts: list[int], seconds: float, seed: int) -> list[Run]:
    return [asyncio.run(run(kind, n, seconds, seed)) for n in counts for kind in ("bot", "echo")]


def median_of(runs: list[Run], kind: str, attr: str) -> float:
    """The median of ``attr`` over the runs of ``kind`` (or of the checkout by that name)."""
    return float(statistics.median(getattr(r, attr) for r in runs if (r.name or r.kind) == kind))


def report(runs: list[Run], lat: list[Run]) -> str:
    lines = [
        "| run | tables | presses | presses/s | CPU ms/press | getUpdates/press |"
        " API calls/press | answer p50/p95/p99 ms | last call p50/p95/p99 ms |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    lines.extend(
        f"| {r.name or r.kind} | {r.tables} | {r.presses} | {r.presses_per_s:.0f} |"
        f" {r.cpu_ms_per_press:.2f} | {r.getupdates_per_press:.2f} |"
        f" {r.api_per_press:.2f} | {'/'.join(f'{v:.0f}' for v in r.answer_ms)} |"
        f" {'/'.join(f'{v:.0f}' for v in r.last_ms)} |"
        for r in [*runs, *lat]
    )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--reps", type=int, default=2)
    parser.add_argument("--latency", default="1,50,200,1000", help="table counts ('' none)")
    parser.add_argument("--latency-seconds", type=float, default=10.0)
    parser.add_argument("--time-scale", type=float, default=0.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--echo-gc",
        choices=("default", "tuned"),
        default="default",
        help="the echo bot's cycle collector: Python's default, or tuned as python -m bot's",
    )
    parser.add_argument(
        "--against",
        type=lambda text: [Checkout.parse(spec) for spec in text.split(",") if spec.strip()],
        default=[],
        help="NAME=CHECKOUT,…: other checkouts' bots, run in turn with this one's (see above)",
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    os.environ["BENCH_TIME_SCALE"] = str(args.time_scale)
    os.environ["BENCH_ECHO_GC"] = args.echo_gc  # read by the echo child (press_throughput)
    if args.against:
        runs = against(
            max(args.tables, 1), args.seconds, max(args.reps, 1), args.seed, args.against
        )
    else:
        runs = side_by_side(max(args.tables, 1), args.seconds, max(args.reps, 1), args.seed)
    counts = [int(n) for n in args.latency.split(",") if n.strip()]
    lat = latency(counts, args.latency_seconds, args.seed)
    if args.json:
        print(json.dumps([asdict(r) for r in [*runs, *lat]], indent=2))
    else:
        print(report(runs, lat))
        if args.against:
            print()
            print(against_report(runs))


if __name__ == "__main__":
    main()
