"""The example records of the trick family replay and export identically (RECORD.md §R10)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.record import read_records, replay

GOLDEN = Path(__file__).resolve().parents[2] / "golden" / "records"
FILES = [
    "mushka-3p-record-example.jsonl",
    "mushka-3p-target5.jsonl",
    "mushka-6p-target5.jsonl",
    "pamfil-4p-target5.jsonl",
    "shutikha-5p-target5.jsonl",
    "mistigri-4p-target5.jsonl",
]


@pytest.mark.parametrize("name", FILES)
def test_r10_golden_trick_record_replays_identically(name: str) -> None:
    records = read_records(GOLDEN / name)
    assert records
    for record in records:
        again = replay(record).record()
        assert len(again) == len(record)
        for mine, theirs in zip(again, record, strict=True):
            assert json.loads(json.dumps(mine)) == theirs
