"""Records written by an independent implementation replay here and export unchanged.

``tests/golden/records`` holds copies of the shared example records (their README says how they
were made). Every ``act`` must be legal for our engine, and ``replay(record).record()`` must equal
the record line by line as JSON values (key order aside, RECORD.md §R1.7).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from engine import read_records, replay

GOLDEN = Path(__file__).parent.parent / "golden" / "records"
FILES = sorted(GOLDEN.glob("*.jsonl"))


def test_every_game_has_golden_records() -> None:
    games = {path.name.split("-")[0] for path in FILES}
    assert games == {"mushka", "pamfil", "shutikha", "mistigri", "kopilka", "lenturlu", "konchinka"}


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_golden_record_replays_unchanged(path: Path) -> None:
    records = read_records(path)
    assert records
    for record in records:
        again = replay(record).record()
        for number, (ours, theirs) in enumerate(zip(again, record, strict=False), 1):
            assert ours == theirs, f"{path.name} line {number} differs"
        assert len(again) == len(record)
