"""How many tables one bot carries at Telegram's real limits.

    python bench/capacity.py [--sizes 50,200,500,750,1000] [--seats 3] [--seconds 60]
                             [--hands private|group] [--pace 2,8] [--seed 1] [--json FILE]
                             [--workers 2 [--database postgresql://…]]

For each size N, smallest first: a fresh fake Telegram (``tests/fakeapi``) in this process, with
a group's limit on at Telegram's value (20 sends+edits a minute, a 429 past it); the bot as
deployed in a child process (``python -m bot``, the outbox at its real pace,
``BOT_OUTBOX_TIME_SCALE=1``, a fresh SQLite file, an hour's turn timer so that no table waiting
for the others to open runs out of time). N tables of ``--seats`` people are opened
(``/newgame mushka target=100``, ✋, ▶️) with new messages let out at 1,000 a second (some 18 a
table: at 30 a second the opening alone would take 0.6 s a table), and the bot is restarted on
the same database at Telegram's real limits (the restart shows nothing again: every screen's
digest matches); then for ``--seconds`` every table's player to act presses a legal button after
a pause drawn from ``--pace`` seconds (a person at a human pace).

``--workers N`` (2 or more): the bot as several webhook workers (``BOT_WORKERS=N``, one Redis
server of the run's own, ``tests/services.py``; the fake delivers over 40 connections, as Telegram
does by default) on the temporary SQLite file or, with ``--database``, on a fresh database made
in that PostgreSQL server for each size; the CPU is that of all the workers together.

``BENCH_KEEP_LOGS=1`` keeps the bot's logs of every run (a failed run's are kept anyway) in
``$TMP/capacity-logs``: one line per update, with the milliseconds the bot took over it.
``BENCH_DEBUG=1``: the Bot API calls a press, by method, and the new messages under the load,
by kind (group or private, the text's first characters), printed to stderr — what the window of
all chats carried (mostly turn pings).

Measured per size: p99 press → answer (the callback answer) and p99 press → the screens it
changes (every live hand shows the move), the 429s Telegram gave, the most sends+edits one group
got in any minute, the new messages a second under the load (on average and in the busiest
second, all chats), and the CPU use of the bot
and of this driver. A size passes when p99 answer ≤ 500 ms, p99 screens ≤ 3 s, no 429 and no
group over 20 a minute; the report gives the largest size that passed and what bound the first
that did not (the bot's CPU, this driver's CPU — on a machine of two cores the simulated players
and the fake share the second —, the global limit, a group's limit, or the latency itself: the
database and the event loop). The search stops at the first size that fails.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import json
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.press_throughput import (  # noqa: E402
    SETTLE_TIMEOUT,
    TOKEN,
    _self_cpu,
    bounded_gather,
    heap_frozen,
    proc_cpu,
    start_child,
    stop_child,
)
from tests.bot.fleet import fleet  # noqa: E402
from tests.bot.helpers import (  # noqa: E402
    _key,
    choose,
    hand_message,
    moved_on,
    open_table,
    result_message,
    shown_move,
    to_act,
)
from tests.fakeapi import FakeTelegram  # noqa: E402
from tests.fakeapi.users import SimGroup, SimUser  # noqa: E402
from tests.services import redis_server  # noqa: E402

NAMES = ("Anna", "Boris", "Vera", "Gleb", "Dasha")
ANSWER_P99_S = 0.5
SCREENS_P99_S = 3.0
GROUP_PER_MINUTE = 20
GLOBAL_PER_SECOND = 30
WRITES = frozenset({"sendMessage", "editMessageText", "editMessageReplyMarkup", "sendDocument"})
NEW = frozenset({"sendMessage", "sendDocument"})
WAIT_S = 30.0  # an answer or a screen later than this counts as lost
POLL_S = 0.02  # how often a waiting player looks at his screens
AS_DEPLOYED = {"BOT_TURN_TIMEOUT_S": "3600"}  # no timer runs out while the others open
OPENERS = 40  # tables being opened at once (each waits out its group's edit gap: 3 s a join)


@dataclass
class Load:
    deadline: float
    answers: list[float] = field(default_factory=list)
    screens: list[float] = field(default_factory=list)
    refused: int = 0  # answered with a text (a stale screen: the player pressed too early)
    lost: int = 0  # no answer, or the screens never showed the move, within WAIT_S
    behind: int = 0  # the player to act had no hand to press yet
    ended: int = 0  # tables whose pulka ended


@dataclass
class Size:
    tables: int
    seats: int
    hands: str
    deployment: str
    setup_s: float
    opening_new: float  # new messages a table's opening took (its lobby, hands, table, pings …)
    seconds: float
    presses: int
    presses_per_s: float
    answer_p50_ms: float
    answer_p99_ms: float
    screens_p50_ms: float
    screens_p99_ms: float
    answers_429: int
    group_peak_per_min: int
    new_peak_per_s: int  # under the load (the opening sends at the global limit anyway)
    new_per_s: float  # new messages a second under the load, on average
    bot_cpu_use: float  # CPU seconds per wall second during the load
    driver_cpu_use: float
    refused: int
    lost: int
    behind: int
    passed: bool
    bound: str


def seat(
    fake: FakeTelegram, tables: int, seats: int, admin: bool
) -> list[tuple[SimGroup, list[SimUser]]]:
    out = []
    for t in range(tables):
        players = [
            fake.add_user(100_000 + 10 * t + i, NAMES[i], language_code="ru") for i in range(seats)
        ]
        group = fake.add_group(
            -1_000_000 - t,
            f"Стол {t}",
            admins=[players[0].id],
            members=[p.id for p in players[1:]],
            bot_admin=admin,
        )
        out.append((group, players))
    return out


def p(values: list[float], q: float) -> float:
    ordered = sorted(values) or [0.0]
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def drive(
    fake: FakeTelegram,
    group: SimGroup,
    players: list[SimUser],
    rng: random.Random,
    pace: tuple[float, float],
    load: Load,
) -> None:
    """One table: whoever is to act presses a legal button after a human pause."""
    while time.monotonic() < load.deadline:
        await asyncio.sleep(rng.uniform(*pace))
        if result_message(group) is not None:
            load.ended += 1
            return
        user = to_act(group, players)
        message = hand_message(user) if user is not None else None
        if user is None or message is None:
            load.behind += 1
            continue
        try:
            button = choose(message, rng)
        except AssertionError:  # the hand is not the one to act yet
            load.behind += 1
            continue
        before, move = _key(message), shown_move(players)
        started = time.monotonic()
        try:
            answer = await user.press(message, data=button.callback_data, timeout=WAIT_S)
        except (AssertionError, TimeoutError):
            load.lost += 1
            continue
        load.answers.append(time.monotonic() - started)
        if answer.text:
            load.refused += 1
            continue
        try:
            shown = functools.partial(moved_on, user, before, move, players, group)
            await fake.wait_until(shown, WAIT_S, POLL_S)
        except TimeoutError:
            load.lost += 1
            continue
        load.screens.append(time.monotonic() - started)


def peaks(fake: FakeTelegram, since: int) -> tuple[int, int, int]:
    """(429s, the most sends+edits one group got in any minute, the most new messages in any
    second) among the calls since ``since``."""
    calls = fake.requests[since:]
    too_many = sum(1 for c in calls if c.error_code == 429)
    by_group: dict[int, list[float]] = {}
    seconds: Counter[int] = Counter()
    for c in calls:
        if not c.ok or c.method not in WRITES:
            continue
        chat = c.params.get("chat_id")
        if isinstance(chat, int) and chat < 0:
            by_group.setdefault(chat, []).append(c.at)
        if c.method in NEW:
            seconds[int(c.at)] += 1
    most = 0
    for times in by_group.values():
        times.sort()
        start = 0
        for end, at in enumerate(times):
            while at - times[start] >= 60.0:
                start += 1
            most = max(most, end - start + 1)
    return too_many, most, max(seconds.values(), default=0)


def bound_of(size: Size) -> str:
    if size.passed:
        return "—"
    if size.bot_cpu_use >= 0.9:
        return "the bot's CPU"
    if size.driver_cpu_use >= 0.9:
        return "this driver's CPU (the simulated players and the fake)"
    if size.answers_429 or size.group_peak_per_min > GROUP_PER_MINUTE:
        return "a group's limit"
    screens_late = size.screens_p99_ms > 1000 * SCREENS_P99_S
    if screens_late and size.new_peak_per_s >= GLOBAL_PER_SECOND - 2:
        return "the global limit"  # it paces new messages only: never the callback answers
    return "latency (the database, the event loop)"


@dataclass(frozen=True)
class Deployment:
    """How the bot runs: one process on SQLite (polling), or ``workers`` webhook workers on
    Redis and ``database`` (a PostgreSQL DSN: a fresh database is made in it for each size)."""

    workers: int = 1
    database: str | None = None

    def label(self) -> str:
        if self.workers == 1 and self.database is None:
            return "1 process, SQLite"
        store = "PostgreSQL" if self.database else "SQLite"
        return f"{self.workers} workers, {store} + Redis"


@contextlib.asynccontextmanager
async def running(
    fake: FakeTelegram, tmp: Path, how: Deployment, env: dict[str, str], redis_url: str | None
) -> AsyncIterator[Callable[[], float]]:
    """The bot up as ``how`` says; yields what its processes' CPU seconds are now."""
    if how.workers == 1 and redis_url is None:
        child = await start_child("bot", fake, tmp, env)
        try:
            yield lambda: proc_cpu(child.pid)
        finally:
            await stop_child(child)
        return
    assert redis_url is not None
    more = {**env, "BOT_OUTBOX_TIME_SCALE": "1"}  # INFO: the fleet waits for "listening on"
    async with fleet(fake, tmp, redis_url, how.workers, connections=40, **more) as up:
        pids = up.pids()
        yield lambda: sum(proc_cpu(pid) for pid in pids)


@contextlib.asynccontextmanager
async def fresh_database(how: Deployment, tables: int) -> AsyncIterator[dict[str, str]]:
    """The bot's database for one size: SQLite in the temporary directory, or a new database
    in the PostgreSQL server ``how.database`` names (dropped afterwards)."""
    if how.database is None:
        yield {}
        return
    import asyncpg

    name = f"capacity_{tables}_{os.getpid()}"
    admin = await asyncpg.connect(how.database)
    try:
        await admin.execute(f'CREATE DATABASE "{name}"')
        base, _, _ = how.database.rpartition("/")
        yield {"BOT_DATABASE": f"{base}/{name}"}
    finally:
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await admin.close()


def _keep_logs(tmp: Path, failed: type[BaseException] | None, *_: object) -> None:
    if failed is None and not os.environ.get("BENCH_KEEP_LOGS"):
        return
    kept = Path(tempfile.gettempdir()) / "capacity-logs"
    kept.mkdir(exist_ok=True)
    for log in tmp.glob("*.log"):
        shutil.copy(log, kept / log.name)
    print(f"the bot's logs: {kept}", file=sys.stderr)


async def measure(
    tables: int,
    seats: int,
    seconds: float,
    hands: str,
    pace: tuple[float, float],
    seed: int,
    how: Deployment = Deployment(),
) -> Size:
    fake = FakeTelegram(token=TOKEN, bot_username="mushka_test_bot")
    await fake.start()
    fake.rate_limit(GROUP_PER_MINUTE, 60.0, groups_only=True)
    scale = os.environ.get("BENCH_TIME_SCALE")
    os.environ["BENCH_TIME_SCALE"] = "1"  # Telegram's limits at their real values
    try:
        with contextlib.ExitStack() as stack:
            tmp = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="capacity-")))
            redis_url = stack.enter_context(redis_server()) if how.workers > 1 else None
            stack.push(functools.partial(_keep_logs, tmp))  # a failed run's logs outlive it
            async with fresh_database(how, tables) as db_env:
                env = {**AS_DEPLOYED, **db_env}
                seated = seat(fake, tables, seats, admin=hands == "group")
                # opened at a thousand new messages a second (a group's limits as Telegram's),
                # then restarted on the same database at Telegram's real limits for the load
                quick = {**env, "BOT_GLOBAL_PER_SECOND": "1000"}
                async with running(fake, tmp, how, quick, redis_url):
                    t_setup = time.monotonic()
                    mark = fake.mark()
                    jobs: list[Callable[[], Awaitable[None]]] = [
                        lambda g=g, ps=ps: _open(fake, g, ps, hands)  # type: ignore[misc]
                        for g, ps in seated
                    ]
                    await bounded_gather(jobs, OPENERS)
                    await fake.settle(quiet=0.5, timeout=SETTLE_TIMEOUT)
                    setup_s = time.monotonic() - t_setup
                    opening = sum(1 for c in fake.requests[mark:] if c.ok and c.method in NEW)
                restarted = fake.mark()
                async with running(fake, tmp, how, env, redis_url) as cpu:
                    await fake.settle(quiet=0.5, timeout=SETTLE_TIMEOUT)
                    again = [c for c in fake.requests[restarted:] if c.method in WRITES]
                    assert not again, f"the restart showed {len(again)} screens again"
                    stack.enter_context(heap_frozen())  # this driver's own collector, to the end
                    cpu0, self0, t0 = cpu(), _self_cpu(), time.monotonic()
                    loaded = fake.mark()  # the busiest second of new messages: the load's
                    load = Load(deadline=t0 + seconds)
                    rngs = [random.Random(seed * 1_000_003 + i) for i in range(tables)]
                    await asyncio.wait_for(
                        asyncio.gather(
                            *(
                                drive(fake, g, ps, rng, pace, load)
                                for (g, ps), rng in zip(seated, rngs, strict=True)
                            )
                        ),
                        seconds + 2 * WAIT_S,
                    )
                    t1, self1, cpu1 = time.monotonic(), _self_cpu(), cpu()
    finally:
        if scale is None:
            os.environ.pop("BENCH_TIME_SCALE", None)
        else:
            os.environ["BENCH_TIME_SCALE"] = scale
        await fake.stop()
    too_many, group_peak, _ = peaks(fake, mark)  # the opening included
    _, _, new_peak = peaks(fake, loaded)
    new_mean = sum(1 for c in fake.requests[loaded:] if c.ok and c.method in NEW)
    if os.environ.get("BENCH_DEBUG"):  # what the new messages under the load were
        kinds = Counter(
            (c.params.get("chat_id", 0) < 0, str(c.params.get("text", c.method))[:14])
            for c in fake.requests[loaded:]
            if c.ok and c.method in NEW
        )
        print(kinds.most_common(12), file=sys.stderr)
        calls = Counter(c.method for c in fake.requests[loaded:])
        per = {m: round(n / max(1, len(load.answers)), 2) for m, n in calls.most_common()}
        print(f"calls a press: {per}", file=sys.stderr)
    took = t1 - t0
    size = Size(
        tables=tables,
        seats=seats,
        hands=hands,
        deployment=how.label(),
        setup_s=round(setup_s, 1),
        opening_new=round(opening / tables, 1),
        seconds=round(took, 1),
        presses=len(load.answers),
        presses_per_s=round(len(load.answers) / took, 1),
        answer_p50_ms=round(1000 * statistics.median(load.answers or [0.0]), 1),
        answer_p99_ms=round(1000 * p(load.answers, 0.99), 1),
        screens_p50_ms=round(1000 * statistics.median(load.screens or [0.0]), 1),
        screens_p99_ms=round(1000 * p(load.screens, 0.99), 1),
        answers_429=too_many,
        group_peak_per_min=group_peak,
        new_peak_per_s=new_peak,
        new_per_s=round(new_mean / took, 1),
        bot_cpu_use=round((cpu1 - cpu0) / took, 2),
        driver_cpu_use=round((self1 - self0) / took, 2),
        refused=load.refused,
        lost=load.lost,
        behind=load.behind,
        passed=False,
        bound="",
    )
    size.passed = (
        bool(load.answers)
        and size.answer_p99_ms <= 1000 * ANSWER_P99_S
        and size.screens_p99_ms <= 1000 * SCREENS_P99_S
        and size.answers_429 == 0
        and size.group_peak_per_min <= GROUP_PER_MINUTE
        and load.lost == 0
    )
    size.bound = bound_of(size)
    return size


async def _open(fake: FakeTelegram, group: SimGroup, players: list[SimUser], hands: str) -> None:
    if hands == "private":
        await open_table(fake, group, players, "mushka", "target=100", timeout=WAIT_S)
        return
    from tests.bot.test_e2e_ephemeral import open_in_group  # the in-group flow's own helper

    await open_in_group(fake, group, players, "mushka", "target=100")


COLUMNS = (
    ("tables", "tables"),
    ("presses_per_s", "presses/s"),
    ("answer_p99_ms", "p99 answer ms"),
    ("screens_p99_ms", "p99 screens ms"),
    ("answers_429", "429s"),
    ("group_peak_per_min", "group max/min"),
    ("new_per_s", "new msgs/s"),
    ("new_peak_per_s", "new msgs max/s"),
    ("bot_cpu_use", "bot CPU"),
    ("driver_cpu_use", "driver CPU"),
    ("lost", "lost"),
    ("setup_s", "setup s"),
    ("passed", "passed"),
    ("bound", "bound"),
)


def table(sizes: list[Size]) -> str:
    head = "| " + " | ".join(title for _, title in COLUMNS) + " |"
    rule = "|" + "---|" * len(COLUMNS)
    rows = ["| " + " | ".join(str(getattr(s, name)) for name, _ in COLUMNS) + " |" for s in sizes]
    return "\n".join([head, rule, *rows])


async def search(
    sizes: list[int],
    seats: int,
    seconds: float,
    hands: str = "private",
    pace: tuple[float, float] = (2.0, 8.0),
    seed: int = 1,
    how: Deployment = Deployment(),
) -> list[Size]:
    """Each size in turn, smallest first, until one fails."""
    done: list[Size] = []
    for n in sizes:
        size = await measure(n, seats, seconds, hands, pace, seed, how)
        done.append(size)
        print(table([size]).splitlines()[-1], file=sys.stderr, flush=True)
        if not size.passed:
            break
    return done


async def run(args: argparse.Namespace) -> list[Size]:
    pace = tuple(float(x) for x in args.pace.split(","))
    assert len(pace) == 2 and 0 < pace[0] <= pace[1], "--pace takes two seconds: low,high"
    sizes = [int(x) for x in args.sizes.split(",")]
    how = Deployment(args.workers, args.database)
    assert args.database is None or args.workers > 1, "--database: with --workers 2 or more"
    lo, hi = pace
    return await search(sizes, args.seats, args.seconds, args.hands, (lo, hi), args.seed, how)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="50,200,500,750,1000")
    parser.add_argument("--seats", type=int, default=3, choices=range(3, 6))
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--hands", choices=("private", "group"), default="private")
    parser.add_argument("--pace", default="2,8")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1, help="2+: webhook workers on Redis")
    parser.add_argument("--database", help="with --workers: a PostgreSQL DSN (default SQLite)")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    sizes = asyncio.run(run(args))
    passed = [s.tables for s in sizes if s.passed]
    print(table(sizes))
    last = sizes[-1]
    print(
        f"capacity: {max(passed) if passed else 0} tables of {args.seats} "
        f"({args.hands} hands; {Deployment(args.workers, args.database).label()}); "
        + (f"{last.tables} failed, bound: {last.bound}" if not last.passed else "every size passed")
    )
    if args.json:
        args.json.write_text(json.dumps([asdict(s) for s in sizes], indent=2))


if __name__ == "__main__":
    main()
