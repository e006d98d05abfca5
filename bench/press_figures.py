"""What one button press costs, in counts (not times): SQL statements and Bot API calls.

    python bench/press_figures.py [--deals 3] [--seed 5] [--tail 5.0] [--json]
                                  [--game mushka] [--options target=15] [--players 3]
                                  [--time-scale 1]

A 3-player Мушка table (``/newgame mushka target=15``; ``--game``, ``--options``,
``--players`` for another) in one group of the fake Telegram
(``tests/fakeapi``), the bot in this process (``bot.app.running_bot`` with fixed pulka seeds),
simulated players (``tests/bot/helpers.py``) pressing legal buttons for ``--deals`` deals as
fast as the bot answers: after each press they wait until the bot is quiet. The same seeds give
the same deals and the same presses on every run, so two runs (before / after a change) are
comparable line by line.

Counted only while the players press (opening the table is not counted):

* SQL statements per press (``aiosqlite`` trace callback), by kind of press: ``p`` a card in the
  play phase, the others declarations (``y`` play, ``n`` pass), exchange marks and the exchange
  (``m``, ``x``), discards ``q``, trump ``t`` …;
* Bot API calls per press: every method but ``getUpdates``, with ``answerCallbackQuery`` in its
  own column, and how many of the calls went to the group;
* Bot API calls per deal (the presses of the deal; its last press brings the result and the next
  deal's screens), and how many of them went to the group;
* the peak of group sends+edits+deletes in any sliding 60 s window (Telegram allows about 20 a
  minute in a group), and the seconds the play took. ``--time-scale`` is the bot's
  ``outbox_time_scale``: below 1 Telegram's windows shrink alike and the window of the peak
  with them (60 s × the scale), so the peak is the one the limits give, reached sooner.

Calls the bot makes after a press was answered and went quiet for 20 ms (a deferred edit) are
counted with the next press; after the last press the script waits until nothing was called for
``--tail`` seconds and reports those calls as ``tail`` (they are in the totals).
"""

from __future__ import annotations

import argparse
import asyncio
import importlib
import json
import os
import random
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from pydantic import SecretStr  # noqa: E402

from bot.app import RunningBot, running_bot  # noqa: E402
from bot.config import Settings  # noqa: E402
from bot.storage.repository import SqlRepository  # noqa: E402
from bot.storage.sqlite import SqliteRunner  # noqa: E402
from engine import GAMES  # noqa: E402
from tests.bot.helpers import (  # noqa: E402
    choose,
    fixed_seeds,
    hand_message,
    open_table,
    press_and_wait,
)
from tests.fakeapi import FakeTelegram  # noqa: E402
from tests.fakeapi.model import ApiCall, Button, SentMessage  # noqa: E402
from tests.fakeapi.users import SimGroup, SimUser  # noqa: E402

GROUP_OPS = frozenset(
    {"sendmessage", "editmessagetext", "editmessagereplymarkup", "deletemessage", "deletemessages"}
)
ACT_NAMES = {
    "p": "card",
    "y": "play (declare)",
    "n": "pass",
    "m": "mark",
    "x": "exchange",
    "q": "discard",
    "t": "trump",
    "a": "announce",
}
TOTALS = ("card (p)", "all but cards", "all, tail included")
QUIET = 0.02  # the bot is "quiet" after this long without a Bot API call
WINDOW = 60.0


@dataclass
class Tally:
    """Sums over presses of one kind."""

    presses: int = 0
    sql: int = 0
    api: int = 0  # all but getUpdates and answerCallbackQuery
    answers: int = 0
    group: int = 0  # of ``api``: to the group chat
    verbs: Counter[str] = field(default_factory=Counter)

    def add(self, other: Tally) -> None:
        self.presses += other.presses
        self.sql += other.sql
        self.api += other.api
        self.answers += other.answers
        self.group += other.group
        self.verbs.update(other.verbs)

    def per(self) -> dict[str, float]:
        n = self.presses or 1
        return {
            "presses": self.presses,
            "sql_per_press": self.sql / n,
            "api_per_press": self.api / n,
            "answers_per_press": self.answers / n,
            "group_per_press": self.group / n,
        }


class SqlCounter:
    """The trace callback: every statement SQLite runs (called in aiosqlite's thread)."""

    def __init__(self) -> None:
        self.n = 0
        self.verbs: Counter[str] = Counter()

    def __call__(self, statement: str) -> None:
        self.n += 1
        self.verbs[(statement.split(None, 1) or ["?"])[0].upper()] += 1


def api_tally(calls: list[ApiCall], group_id: int) -> tuple[int, int, int]:
    """(calls but getUpdates/answerCallbackQuery, answerCallbackQuery, of the first: to group)."""
    api = answers = group = 0
    for call in calls:
        method = call.method.lower()
        if method == "getupdates":
            continue
        if method == "answercallbackquery":
            answers += 1
            continue
        api += 1
        if call.chat_id == group_id:
            group += 1
    return api, answers, group


def peak_in_window(times: list[float], window: float = WINDOW) -> int:
    """The most events within any ``window`` seconds (a sliding window over sorted times)."""
    times = sorted(times)
    best = start = 0
    for end, at in enumerate(times):
        while at - times[start] >= window:
            start += 1
        best = max(best, end - start + 1)
    return best


def _chooser(family: str) -> Callable[[SentMessage, random.Random], Button]:
    """Each family's e2e tests know its legal buttons (the trick family's: the helpers')."""
    module = importlib.import_module(f"tests.bot.test_{family}_e2e")
    chooser: Callable[[SentMessage, random.Random], Button] = module.choose
    return chooser


CHOOSERS = {family: _chooser(family) for family in ("kopilka", "lenturlu", "konchinka")}


def deals_done(group: SimGroup) -> int:
    return len([m for m in group.messages if m.text.startswith("📋")])


async def play(
    fake: FakeTelegram,
    running: RunningBot,
    group: SimGroup,
    players: list[SimUser],
    deals: int,
    seed: int,
    tail: float,
    window: float = WINDOW,
    game: str = "mushka",
) -> dict[str, Any]:
    chooser = CHOOSERS.get(GAMES[game].family, choose)
    sql = SqlCounter()
    assert isinstance(running.db, SqlRepository)  # the counts are SQLite's trace callback
    assert isinstance(running.db.runner, SqliteRunner)
    conn = running.db.runner.db.conn
    await conn.set_trace_callback(sql)
    rng = random.Random(seed)
    by_act: dict[str, Tally] = {}
    per_deal: list[dict[str, int]] = []
    first_call = fake.mark()
    started = time.monotonic()
    done_before = deals_done(group)
    pulka_over = False
    runtime = running.services.runtime
    table_id = await runtime.queries.open_table_id(group.id)
    assert table_id is not None

    async def engine() -> Any:
        table = await runtime.ctx.load(table_id)
        assert table is not None and table.match is not None
        return table, table.match.state

    for _ in range(deals):
        deal_mark, deal_presses = fake.mark(), 0
        _, state = await engine()
        target = state.view(None).deal_no + 1
        for _step in range(500):  # far more presses than any deal takes
            table, state = await engine()
            if state.is_over:
                pulka_over = True
                break
            if state.view(None).deal_no >= target:
                break
            seat = state.to_act
            user = next((p for p in players if p.id == table.seats[seat].user_id), None)
            message = hand_message(user) if user is not None else None
            if user is None or message is None:
                raise RuntimeError("nobody to act, and the deal has not ended")
            button = chooser(message, rng)
            act = (button.callback_data or "").split("~")[0].split(":")[4]
            mark, sql_before, verbs_before = fake.mark(), sql.n, sql.verbs.copy()
            await press_and_wait(fake, user, message, button, players)
            await fake.settle(quiet=QUIET, timeout=120)
            api, answers, to_group = api_tally(fake.requests[mark:], group.id)
            tally = by_act.setdefault(act, Tally())
            tally.add(
                Tally(1, sql.n - sql_before, api, answers, to_group, sql.verbs - verbs_before)
            )
            deal_presses += 1
        else:
            raise RuntimeError("a deal did not end within 500 presses")
        api, answers, to_group = api_tally(fake.requests[deal_mark:], group.id)
        per_deal.append(
            {"presses": deal_presses, "api": api, "answers": answers, "group": to_group}
        )
        if pulka_over:
            break
    played = time.monotonic() - started
    tail_mark, tail_sql = fake.mark(), sql.n
    await fake.settle(quiet=tail, timeout=tail + 120)
    tail_api, tail_answers, tail_group = api_tally(fake.requests[tail_mark:], group.id)
    await conn.set_trace_callback(None)  # type: ignore[arg-type]  # sqlite3: None = off

    cards = Tally()
    others = Tally()
    for act, tally in by_act.items():
        (cards if act == "p" else others).add(tally)
    every = Tally()
    every.add(cards)
    every.add(others)
    every.sql += sql.n - tail_sql
    every.api += tail_api
    every.answers += tail_answers
    every.group += tail_group
    group_times = [
        c.at
        for c in fake.requests[first_call:]
        if c.method.lower() in GROUP_OPS and c.chat_id == group.id
    ]
    return {
        "deals": len(per_deal),
        "deals_ended": deals_done(group) - done_before,
        "pulka_over": pulka_over,
        "seconds": played,
        "kinds": {
            "card (p)": cards.per(),
            **{
                f"{ACT_NAMES.get(a, a)} ({a})": t.per()
                for a, t in sorted(by_act.items())
                if a != "p"
            },
            "all but cards": others.per(),
            "all, tail included": every.per(),
        },
        "card_press_sql_verbs": {
            verb: n / (cards.presses or 1) for verb, n in cards.verbs.most_common()
        },
        "tail": {"sql": sql.n - tail_sql, "api": tail_api, "answers": tail_answers},
        "per_deal": per_deal,
        "group_ops": len(group_times),
        "group_ops_peak_60s": peak_in_window(group_times, window),
        "group_calls": sum(d["group"] for d in per_deal) + tail_group,
        "private_calls": sum(d["api"] - d["group"] for d in per_deal) + tail_api - tail_group,
        "by_method": dict(
            Counter(
                c.method
                for c in fake.requests[first_call:]
                if c.method.lower() not in ("getupdates",)
            ).most_common()
        ),
    }


NAMES = ("Anna", "Boris", "Vera", "Gleb", "Dina", "Egor", "Zoya", "Ilya")


async def measure(
    deals: int,
    seed: int,
    tail: float,
    game: str = "mushka",
    options: str = "target=15",
    seats: int = 3,
    scale: float | None = None,
) -> dict[str, Any]:
    """``scale``: the outbox's time scale (default: ``BENCH_TIME_SCALE``, else 1)."""
    if scale is None:
        scale = float(os.environ.get("BENCH_TIME_SCALE", "1"))
    fake = FakeTelegram(token="123456:TEST-token", bot_username="mushka_test_bot")
    await fake.start()
    try:
        with tempfile.TemporaryDirectory(prefix="press-figures-") as tmp:
            settings = Settings(
                token=SecretStr(fake.token),
                database=Path(tmp) / "bot.sqlite3",
                api_base=fake.base_url,
                polling_timeout_s=1,
                computer_delay_s=0,
                default_language="ru",
                outbox_time_scale=scale,
                _env_file=None,  # type: ignore[call-arg]  # never a developer's .env
            )
            async with running_bot(settings, seeds=fixed_seeds()) as running:
                players = [
                    fake.add_user(101 + i, NAMES[i], language_code="ru" if i % 3 else "en")
                    for i in range(seats)
                ]
                group = fake.add_group(
                    -1001, "Пятница", admins=[101], members=[p.id for p in players[1:]]
                )
                await open_table(fake, group, players, game, options)
                await fake.settle(quiet=0.1)
                window = WINDOW * scale if scale > 0 else WINDOW
                figures = await play(fake, running, group, players, deals, seed, tail, window, game)
                figures["game"], figures["players"], figures["scale"] = game, seats, scale
                return figures
    finally:
        await fake.stop()


def report(figures: dict[str, Any]) -> str:
    lines = [
        f"{figures['players']}-player {figures['game']}, {figures['deals']} deal(s)"
        f" in {figures['seconds']:.1f} s" + (" (the pulka ended)" if figures["pulka_over"] else ""),
        "",
        f"{'press kind':<22} {'presses':>7} {'SQL/press':>9} {'API/press':>9}"
        f" {'answers':>7} {'group/press':>11}",
    ]
    for kind, row in figures["kinds"].items():
        label = kind if kind in TOTALS else f"  {kind}"
        lines.append(
            f"{label:<22} {row['presses']:>7} {row['sql_per_press']:>9.1f}"
            f" {row['api_per_press']:>9.2f} {row['answers_per_press']:>7.2f}"
            f" {row['group_per_press']:>11.2f}"
        )
    verbs = ", ".join(f"{v} {n:.1f}" for v, n in figures["card_press_sql_verbs"].items())
    lines += [
        "(API: Bot API calls but getUpdates and answerCallbackQuery; answers:"
        " answerCallbackQuery; group: of API, to the group)",
        "",
        f"SQL per card press, by verb: {verbs}",
        "",
    ]
    lines.append(f"{'deal':<4} {'presses':>7} {'API calls':>9} {'answers':>7} {'to group':>8}")
    for i, deal in enumerate(figures["per_deal"], 1):
        lines.append(
            f"{i:<4} {deal['presses']:>7} {deal['api']:>9} {deal['answers']:>7} {deal['group']:>8}"
        )
    tail = figures["tail"]
    lines += [
        "",
        f"tail after the last press: {tail['api']} API call(s), {tail['sql']} SQL statement(s)",
        f"group sends+edits+deletes: {figures['group_ops']} in all,"
        f" peak {figures['group_ops_peak_60s']} in any 60 s window",
    ]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--deals", type=int, default=3, help="deals to play (default 3)")
    parser.add_argument("--seed", type=int, default=5, help="the players' choices (default 5)")
    parser.add_argument(
        "--tail", type=float, default=5.0, help="quiet seconds that end the run (default 5)"
    )
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--game", default="mushka")
    parser.add_argument("--options", default="target=15", help="of /newgame (default target=15)")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--time-scale", type=float, default=None, help="the outbox's (default 1)")
    args = parser.parse_args()
    figures = asyncio.run(
        measure(
            max(args.deals, 1),
            args.seed,
            max(args.tail, QUIET),
            args.game,
            args.options,
            args.players,
            args.time_scale,
        )
    )
    print(json.dumps(figures, indent=2, ensure_ascii=False) if args.json else report(figures))


if __name__ == "__main__":
    main()
