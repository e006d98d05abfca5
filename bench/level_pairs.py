"""Every level pair at every seat count, in duplicate duels: docs/computers.md's table.

    python bench/level_pairs.py --deals 20 --jobs 2 [--games mushka,lenturlu]
        [--seats measured|all|3,5] [--pairs normal:easy,hard:normal,hard:easy]
        [--seed 100] [--json runs.jsonl]
    python bench/level_pairs.py --table runs.jsonl

Each cell (game, seat count, level pair A:B) is a duplicate duel (:func:`engine.duel.duel`,
``--duplicate``): ``--deals`` deals from ``--seed`` on, each played once with A in every seat
and B in the others. A cell's deals are cut into slices of whole deals (``duel``'s ``start``)
played by ``--jobs`` processes; joined, they are exactly the one run. ``--seats measured`` (the
default) takes the seat counts the computers are judged at: the trick family at 3 and 5,
Копилка 4, Лентюрлю 3, 4 and 6, Кончинка 2 and 4.

``--json`` appends each cell's games (A's nets, wins, the CPU time of A's decisions) as one
JSON line, so runs of disjoint deals made at different times join into one row: ``--table``
prints the Markdown table of a file's runs, each cell's runs joined (deals that overlap are
refused). The table gives A's mean money a game with its 95% interval over the deals' means
(bold when clear of zero) and A's decision CPU time in ms, p50 / p99 / max.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from engine.duel import DuelReport, duel  # noqa: E402
from engine.games import GAMES  # noqa: E402

MEASURED = {"trick": (3, 5), "kopilka": (4,), "lenturlu": (3, 4, 6), "konchinka": (2, 4)}
"""The seat counts each family's levels are judged at."""

PAIRS = (("normal", "easy"), ("hard", "normal"), ("hard", "easy"))


@dataclass(frozen=True, slots=True)
class Cell:
    game: str
    players: int
    a: str
    b: str


def cells(games: Sequence[str], seats: str, pairs: Sequence[tuple[str, str]]) -> list[Cell]:
    out: list[Cell] = []
    for game in games:
        spec = GAMES[game]
        if seats == "measured":
            counts: Sequence[int] = MEASURED[spec.family]
        elif seats == "all":
            counts = spec.seat_counts
        else:
            counts = [int(n) for n in seats.split(",") if int(n) in spec.seat_counts]
        out.extend(Cell(game, n, a, b) for n in counts for a, b in pairs)
    return out


def _slice(cell: Cell, seed: int, start: int, deals: int) -> DuelReport:
    n = cell.players
    return duel(
        cell.game,
        n,
        deals * n,
        f"computer:{cell.a}",
        f"computer:{cell.b}",
        seed,
        duplicate=True,
        start=start * n,
    )


def join(parts: Sequence[DuelReport]) -> DuelReport:
    """Slices (or runs of disjoint deals) of one cell as one report."""
    first = parts[0]
    return DuelReport(
        first.game,
        first.players,
        sum(p.games for p in parts),
        first.a,
        first.b,
        tuple(n for p in parts for n in p.nets),
        sum(p.wins for p in parts),
        tuple(t for p in parts for t in p.decision_times),
        tuple(t for p in parts for t in p.cpu_times),
        duplicate=True,
    )


def run(cell_list: Sequence[Cell], deals: int, seed: int, jobs: int) -> list[DuelReport]:
    """Every cell's duel, its deals in ``jobs`` slices at a time over ``jobs`` processes."""
    size = max(1, -(-deals // jobs))
    slices = [(c, s, min(size, deals - s)) for c in cell_list for s in range(0, deals, size)]
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        futures = [pool.submit(_slice, c, seed, s, k) for c, s, k in slices]
        reports = [f.result() for f in futures]
    done = list(zip(slices, reports, strict=True))
    return [join([r for (c, _, _), r in done if c == cell]) for cell in cell_list]


def to_json(report: DuelReport, seed: int, deals: int) -> str:
    return json.dumps(
        {
            "game": report.game,
            "players": report.players,
            "a": report.a,
            "b": report.b,
            "seed": seed,
            "deals": deals,
            "nets": report.nets,
            "wins": report.wins,
            "cpu": [round(t, 5) for t in report.cpu_times],
        }
    )


def read(lines: Iterable[str]) -> list[DuelReport]:
    """A JSON file's runs, each cell's joined in the order they were made; overlapping deals
    of one cell are refused (``ValueError``)."""
    runs: dict[tuple[str, int, str, str], list[tuple[int, int, DuelReport]]] = {}
    for line in lines:
        if not line.strip():
            continue
        row = json.loads(line)
        key = (row["game"], row["players"], row["a"], row["b"])
        seed, deals, nets = row["seed"], row["deals"], tuple(row["nets"])
        cpu = tuple(row["cpu"])
        report = DuelReport(
            key[0], key[1], len(nets), key[2], key[3], nets, row["wins"], cpu, cpu, True
        )
        for other_seed, other_deals, _ in runs.get(key, []):
            if seed < other_seed + other_deals and other_seed < seed + deals:
                raise ValueError(f"{key}: deals {seed}+{deals} overlap {other_seed}+{other_deals}")
        runs.setdefault(key, []).append((seed, deals, report))
    return [join([r for _, _, r in parts]) for parts in runs.values()]


def _name(level: str) -> str:
    return level.removeprefix("computer:")


def table(reports: Sequence[DuelReport]) -> str:
    rows = [
        "| game | seats | A vs B | deals | A's mean ± 95% | A's CPU ms p50 / p99 / max |",
        "|---|---|---|---|---|---|",
    ]
    for r in reports:
        low, high = r.ci
        figure = f"{r.mean:+.1f} ± {r.half_width:.1f}"
        if low > 0 or high < 0:
            figure = f"**{figure}**"
        times = f"{r.cpu_median_ms:.0f} / {r.cpu_p99_ms:.0f} / {r.cpu_max_ms:.0f}"
        pair = f"{_name(r.a)} vs {_name(r.b)}"
        deals = len(r.samples)
        rows.append(f"| {r.game} | {r.players} | {pair} | {deals} | {figure} | {times} |")
    return "\n".join(rows)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--seats", default="measured")
    parser.add_argument("--pairs", default=",".join(f"{a}:{b}" for a, b in PAIRS))
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--seed", type=int, default=100)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--json", type=Path)
    parser.add_argument("--table", type=Path, help="print the table of a --json file's runs")
    args = parser.parse_args(argv)
    if args.table is not None:
        print(table(read(args.table.read_text().splitlines())))
        return 0
    games = [g for g in args.games.split(",") if g]
    unknown = [g for g in games if g not in GAMES]
    if unknown or args.deals < 2 or args.jobs < 1:
        print(f"bad arguments: games {unknown}, deals {args.deals}, jobs {args.jobs}")
        return 2
    pairs = [tuple(p.split(":", 1)) for p in args.pairs.split(",")]
    chosen = cells(games, args.seats, [(a, b) for a, b in pairs])
    reports = run(chosen, args.deals, args.seed, args.jobs)
    if args.json is not None:
        with args.json.open("a") as out:
            out.writelines(to_json(r, args.seed, args.deals) + "\n" for r in reports)
    print(table(reports))
    return 0


if __name__ == "__main__":
    sys.exit(main())
