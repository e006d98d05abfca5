"""Records written by an independent implementation replay here and export unchanged.

``tests/golden/records`` holds copies of the shared example records (their README says how they
were made). Every ``act`` must be legal for our engine, and ``replay(record).record()`` must equal
the record line by line as JSON values (key order aside, RECORD.md §R1.7).
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from engine import read_records, replay, write_jsonl

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


SIMULATED = Path(__file__).parent.parent / "golden" / "simulated"
SIMULATED_FILES = sorted(SIMULATED.glob("*.jsonl"))


def test_frozen_simulated_records_cover_every_game() -> None:
    assert {p.stem for p in SIMULATED_FILES} == {
        "mushka", "pamfil", "shutikha", "mistigri", "kopilka", "lenturlu", "konchinka"
    }  # fmt: skip
    assert sum(len(read_records(p)) for p in SIMULATED_FILES) >= 250


@pytest.mark.parametrize("path", SIMULATED_FILES, ids=[p.stem for p in SIMULATED_FILES])
def test_frozen_simulated_record_replays_unchanged(path: Path) -> None:
    """Records the engine wrote before its restructure replay to the same lines."""
    for k, record in enumerate(read_records(path), 1):
        # exported text, so the order of keys is checked too
        assert write_jsonl(replay(record).record()) == write_jsonl(record), f"{path.name} #{k}"


@pytest.mark.parametrize("path", SIMULATED_FILES, ids=[p.stem for p in SIMULATED_FILES])
def test_frozen_simulated_records_are_played_again_move_for_move(path: Path) -> None:
    """The same seed and the same players give the same game: this pins the order of the legal
    actions too (the players pick by position), which replaying alone does not see."""
    from engine.games import new_game
    from engine.simulate import playout

    for record in read_records(path)[::4]:
        head = record[0]
        seed = head["seed"]
        state = new_game(head["game"], head["players"], seed, head["options"])
        again = playout(state, random.Random(f"{seed}:frozen")).record()
        assert write_jsonl(again) == write_jsonl(record), f"{path.name} seed {seed}"
