"""Pool duplicate duels of disjoint deals into one figure (docs/computers.md, pooled rows).

A duplicate duel (``python -m engine duel --duplicate``) reports the mean of its deals' means
and the 95% half-width over them; runs of disjoint deals (``--seed S`` with ``--games K·n``,
then ``--seed S+K``) join into one sample of deal means, whose mean and half-width follow
exactly from each run's number of deals, mean and half-width (the sum of squares splits into
each run's own and the runs' means about the pooled one)::

    python bench/pool_duels.py 25,1.970,2.072 25,1.880,2.091

prints ``pooled: +1.93 ± 1.46 over 50 deals``. Each argument: deals, mean, half-width.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from engine.duel import Z95  # noqa: E402

Run = tuple[int, float, float]
"""A run's number of deals, mean and 95% half-width."""


def pool(runs: Sequence[Run]) -> tuple[float, float, int]:
    """The pooled mean, half-width and number of deals."""
    deals = sum(k for k, _, _ in runs)
    if deals < 2 or any(k < 2 for k, _, _ in runs):
        raise ValueError("every run needs two deals or more")
    mean = sum(k * m for k, m, _ in runs) / deals
    squares = 0.0
    for k, m, half in runs:
        sd = half * math.sqrt(k) / Z95
        squares += (k - 1) * sd * sd + k * (m - mean) ** 2
    return mean, Z95 * math.sqrt(squares / (deals - 1)) / math.sqrt(deals), deals


def parse(text: str) -> Run:
    deals, mean, half = text.split(",")
    return int(deals), float(mean), float(half)


def main(argv: Sequence[str]) -> str:
    mean, half, deals = pool([parse(a) for a in argv])
    return f"pooled: {mean:+.2f} ± {half:.2f} over {deals} deals"


if __name__ == "__main__":
    print(main(sys.argv[1:]))
