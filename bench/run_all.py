"""Every measurement of the benchmarks in one run, printed as one markdown table.

    python bench/run_all.py [--quick]
                            [--only engine,search,e2e,latency,api,restart,storage,capacity]
                            [--tables 100] [--seconds 15] [--reps 3] [--latency 1,50,200,1000]
                            [--restart-tables 1000] [--capacity 50,200,500,750,1000] [--json FILE]

``--quick`` takes a few minutes (fewer and shorter runs, latency at 1 and 50 tables, a restart
of 100 tables); the full run takes about half an hour on two shared cores. The parts:

* engine, search: :mod:`bench.engine_cost` (µs per action against a naive 5-card playout,
  measured again right before each row);
* e2e, latency: :mod:`bench.side_by_side` (the bot against an aiogram echo bot, alternating,
  child processes on the fake Telegram, Telegram's rate limits lifted: the code path);
* api: :mod:`bench.press_figures` for every game (Bot API calls per deal, group and private,
  by method; the peak of group sends+edits in a minute with the limits on, measured at a time
  scale of 0.05 — every window of the outbox and of the peak × 0.05 — so the peak is the one
  Telegram's limits give);
* restart, storage: :mod:`bench.restart_storage`;
* capacity: :mod:`bench.capacity` (tables of 3 and of 5 at a human pace, Telegram's limits at
  their real values: the largest number of tables one process carries, and what bound it).

Absolute figures depend on the machine and what else runs on it; the ratios are measured
side by side in the same run.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime
import json
import os
import platform
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench import capacity, engine_cost, press_figures, restart_storage, side_by_side  # noqa: E402
from engine import GAMES  # noqa: E402

PARTS = ("engine", "search", "e2e", "latency", "api", "restart", "storage", "capacity")
API_GAMES = {  # game: (seats, /newgame options)
    "mushka": (3, "target=15"),
    "pamfil": (3, "target=15"),
    "shutikha": (3, "target=15"),
    "mistigri": (3, "target=15"),
    "kopilka": (4, ""),
    "lenturlu": (3, ""),
    "konchinka": (2, ""),
}
API_SCALE = 0.05
SEARCH_TARGET = 5.0
E2E_TARGET = 0.5
P99_TARGET = 2.0

Row = tuple[str, str, str, str, str]  # figure, bot (or measured), reference, ratio, target


def machine() -> str:
    model = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    return (
        f"{model}, {os.cpu_count()} cores, Python {platform.python_version()},"
        f" {datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC, load {load:.1f} at start"
    )


def met(ok: bool) -> str:
    return "✅" if ok else "❌"


def adjacent_floor(seconds: float) -> float:
    """The naive cost measured right before a row: the ratio holds while the machine's speed
    drifts (a shared machine's load changes from one minute to the next)."""
    return engine_cost.naive_us(max(seconds / 2, 0.2))


def engine_rows(seconds: float, floor: float) -> list[Row]:
    rows: list[Row] = [("naive 5-card trick playout, µs/card", f"{floor:.2f}", "", "1×", "")]
    for game in GAMES:
        for n in engine_cost.seat_counts(game):
            floor = adjacent_floor(seconds)
            r = engine_cost.engine_row(game, n, seconds)
            rows.append(
                (
                    f"engine {game} ×{n}: deals/s, µs/action",
                    f"{r.deals_per_s:.0f}, {r.us_per_action:.1f}",
                    f"{floor:.2f}",
                    f"{r.us_per_action / floor:.0f}×",
                    "",
                )
            )
    return rows


def search_rows(seconds: float, decisions: int) -> list[Row]:
    floor = adjacent_floor(seconds)
    inner = engine_cost.inner_playout_us(seconds)
    rows: list[Row] = [
        (
            "trick search inner playout (Deal), µs/card",
            f"{inner:.2f}",
            f"{floor:.2f}",
            f"{inner / floor:.1f}×",
            f"≤{SEARCH_TARGET:.0f}× {met(inner / floor <= SEARCH_TARGET)}",
        )
    ]
    for game in GAMES:
        floor = adjacent_floor(seconds)
        s = engine_cost.search_row(game, engine_cost.SEARCH_SEATS[game], decisions)
        ratio = s.us_per_action / floor
        rows.append(
            (
                f"search {game} ×{s.players}: µs/simulated action ({s.ms_per_decision:.0f} ms"
                " a decision)",
                f"{s.us_per_action:.1f}",
                f"{floor:.2f}",
                f"{ratio:.1f}×",
                f"≤{SEARCH_TARGET:.0f}× {met(ratio <= SEARCH_TARGET)}",
            )
        )
    return rows


def e2e_rows(runs: list[side_by_side.Run]) -> list[Row]:
    def med(kind: str, attr: str) -> float:
        return side_by_side.median_of(runs, kind, attr)

    tables = runs[0].tables
    reps = len(runs) // 2
    pps = med("bot", "presses_per_s") / med("echo", "presses_per_s")
    each = ", ".join(
        f"{b.presses_per_s / e.presses_per_s:.2f}"
        for b, e in zip(runs[::2], runs[1::2], strict=True)
    )
    rows: list[Row] = [
        (
            f"e2e {tables} tables × 3: presses/s (median of {reps}; each pair {each})",
            f"{med('bot', 'presses_per_s'):.0f}",
            f"{med('echo', 'presses_per_s'):.0f}",
            f"{pps:.2f}",
            f"≥{E2E_TARGET}× {met(pps >= E2E_TARGET)}",
        )
    ]
    for attr, label in (
        ("cpu_ms_per_press", "CPU ms/press"),
        ("getupdates_per_press", "getUpdates/press"),
        ("api_per_press", "API calls/press (answers included)"),
    ):
        b, e = med("bot", attr), med("echo", attr)
        rows.append((f"e2e: {label}", f"{b:.2f}", f"{e:.2f}", f"{b / e:.2f}" if e else "-", ""))
    return rows


def latency_rows(runs: list[side_by_side.Run]) -> list[Row]:
    rows: list[Row] = []
    by = {(r.kind, r.tables): r for r in runs}
    for n in sorted({r.tables for r in runs}):
        bot, echo = by[("bot", n)], by[("echo", n)]
        ratio = bot.answer_ms[2] / echo.answer_ms[2] if echo.answer_ms[2] else float("inf")
        fmt = "/".join
        rows.append(
            (
                f"latency {n} table(s): press → answer, p50/p95/p99 ms",
                fmt(f"{v:.0f}" for v in bot.answer_ms),
                fmt(f"{v:.0f}" for v in echo.answer_ms),
                f"p99 {ratio:.2f}",
                f"≤{P99_TARGET:.0f}× {met(ratio <= P99_TARGET)}",
            )
        )
        rows.append(
            (
                f"latency {n} table(s): press → last call, p50/p95/p99 ms ({bot.presses} presses)",
                fmt(f"{v:.0f}" for v in bot.last_ms),
                fmt(f"{v:.0f}" for v in echo.last_ms),
                f"p99 {bot.last_ms[2] / echo.last_ms[2]:.2f}" if echo.last_ms[2] else "-",
                "",
            )
        )
    return rows


def api_rows(deals: int) -> list[Row]:
    rows: list[Row] = []
    for game, (seats, options) in API_GAMES.items():
        f = asyncio.run(press_figures.measure(deals, 5, 0.5, game, options, seats, API_SCALE))
        n = max(f["deals"], 1)
        presses = sum(d["presses"] for d in f["per_deal"])
        methods = ", ".join(f"{m} {c / n:.0f}" for m, c in f["by_method"].items() if c / n >= 0.5)
        rows.append(
            (
                f"API {game} ×{seats}: calls/deal group + private ({presses / n:.0f} presses;"
                f" {methods})",
                f"{f['group_calls'] / n:.0f} + {f['private_calls'] / n:.0f}",
                "",
                "",
                "",
            )
        )
        rows.append(
            (
                f"API {game}: peak group sends+edits in a minute (limits on)",
                str(f["group_ops_peak_60s"]),
                "20",
                "",
                f"≤20 {met(f['group_ops_peak_60s'] <= 20)}",
            )
        )
    return rows


def restart_rows(tables: int) -> list[Row]:
    r = asyncio.run(restart_storage.restart(tables))
    return [
        (
            f"restart: getMe → polling with {tables} open tables, s (empty database)",
            f"{r.start_full_s:.2f}",
            f"{r.start_empty_s:.2f}",
            f"{r.resume_ms_per_table:.1f} ms/table",
            "",
        ),
        (
            f"restart: RSS with {tables} resumed tables, MB (no table); calls made",
            f"{r.rss_full_mb:.0f}; {r.resume_calls}",
            f"{r.rss_empty_mb:.0f}",
            f"{r.rss_kb_per_table:.0f} KB/table",
            "",
        ),
    ]


def storage_rows(actions: int) -> list[Row]:
    s = asyncio.run(restart_storage.storage(actions))
    return [
        (
            "storage: committed actions/s, repository (aiosqlite bare)",
            f"{s.repository_per_s:.0f} ({s.aiosqlite_per_s:.0f})",
            f"{s.sqlite3_per_s:.0f}",
            f"{s.repository_per_s / s.sqlite3_per_s:.2f}",
            "",
        )
    ]


def capacity_rows(sizes: list[int], seconds: float) -> list[Row]:
    """Tables of 3 and of 5 at a human pace, Telegram's limits at their real values."""
    rows: list[Row] = []
    for seats in (3, 5):
        done = asyncio.run(capacity.search(sizes, seats, seconds))
        rows.extend(
            (
                f"capacity {s.tables} tables ×{seats}: p99 answer / screens ms, 429s,"
                f" group max/min, new msgs max/s, bot CPU ({s.presses_per_s} presses/s)",
                f"{s.answer_p99_ms:.0f} / {s.screens_p99_ms:.0f}, {s.answers_429},"
                f" {s.group_peak_per_min}, {s.new_peak_per_s}, {s.bot_cpu_use:.2f}",
                "500 / 3000, 0, 20",
                "",
                "passed" if s.passed else f"failed: {s.bound}",
            )
            for s in done
        )
        best = max((s.tables for s in done if s.passed), default=0)
        last = done[-1]
        rows.append(
            (
                f"capacity: tables ×{seats} one process carries",
                str(best),
                "",
                "",
                f"≥1000 {met(best >= 1000)}"
                + ("" if last.passed else f"; {last.tables} bound by {last.bound}"),
            )
        )
    return rows


def table(head: str, rows: list[Row]) -> str:
    lines = [
        head,
        "",
        "| figure | bot / measured | reference | ratio | target |",
        "|---|---|---|---|---|",
    ]
    lines += [f"| {' | '.join(row)} |" for row in rows]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a few minutes in all")
    parser.add_argument("--only", default=",".join(PARTS), help="parts, comma-separated")
    parser.add_argument("--tables", type=int, help="e2e tables (100; quick 30)")
    parser.add_argument("--seconds", type=float, help="e2e seconds a run (15; quick 6)")
    parser.add_argument("--reps", type=int, help="e2e bot/echo pairs (3; quick 1)")
    parser.add_argument("--latency", help="table counts (1,50,200,1000; quick 1,50)")
    parser.add_argument("--restart-tables", type=int, help="open tables (1000; quick 100)")
    parser.add_argument("--capacity", help="table counts (50,200,500,750,1000; quick 20,50)")
    parser.add_argument("--json", type=Path, help="also write the rows to this file")
    args = parser.parse_args()
    quick = args.quick
    parts = {p.strip() for p in args.only.split(",")}
    unknown = parts - set(PARTS)
    if unknown:
        parser.error(f"unknown parts {sorted(unknown)}; known: {','.join(PARTS)}")
    os.environ["BENCH_TIME_SCALE"] = "0"  # side_by_side and restart: the code path
    head = f"Machine: {machine()}"
    started = time.monotonic()
    rows: list[Row] = []
    floor = engine_cost.naive_us(0.3 if quick else 2.0)
    sizes = {
        "tables": args.tables or (30 if quick else 100),
        "seconds": args.seconds or (6.0 if quick else 15.0),
        "reps": args.reps or (1 if quick else 3),
        "latency": args.latency or ("1,50" if quick else "1,50,200,1000"),
        "restart": args.restart_tables or (100 if quick else 1000),
        "capacity": args.capacity or ("20,50" if quick else "50,200,500,750,1000"),
    }
    jobs: dict[str, Callable[[], list[Row]]] = {
        "engine": lambda: engine_rows(0.3 if quick else 2.0, floor),
        "search": lambda: search_rows(0.3 if quick else 2.0, 3 if quick else 12),
        "e2e": lambda: e2e_rows(
            side_by_side.side_by_side(
                int(sizes["tables"]), float(sizes["seconds"]), int(sizes["reps"]), 1
            )
        ),
        "latency": lambda: latency_rows(
            side_by_side.latency(
                [int(n) for n in str(sizes["latency"]).split(",")], 5.0 if quick else 10.0, 1
            )
        ),
        "api": lambda: api_rows(1 if quick else 2),
        "restart": lambda: restart_rows(int(sizes["restart"])),
        "storage": lambda: storage_rows(500 if quick else 3000),
        "capacity": lambda: capacity_rows(
            [int(n) for n in str(sizes["capacity"]).split(",")], 20.0 if quick else 60.0
        ),
    }
    for part in PARTS:
        if part not in parts:
            continue
        t0 = time.monotonic()
        try:
            got = jobs[part]()
        except Exception as error:  # one part failing (a timeout under load) keeps the others
            got = [(f"{part}: failed", f"{type(error).__name__}: {error}"[:200], "", "", "")]
        rows += got
        print(f"{part}: {time.monotonic() - t0:.0f} s", file=sys.stderr, flush=True)
        for row in got:
            print(f"| {' | '.join(row)} |", file=sys.stderr, flush=True)
    took = time.monotonic() - started
    print(table(f"{head}; the run took {took / 60:.1f} min", rows))
    if args.json:
        args.json.write_text(json.dumps({"machine": head, "rows": rows}, ensure_ascii=False))


if __name__ == "__main__":
    main()
