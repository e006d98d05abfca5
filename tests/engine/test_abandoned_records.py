"""Abandoned records replay and export unchanged, wherever the ``end`` line stands (§0.11, §R5.7).

RECORD.md §R5.7: an abandoned game ends with ``{"t":"end","reason":"abandoned","net":[0,…]}``
*after any line*. Another implementation may stop right after a ``deal_end`` (before it shuffles
for the next deal), right after a ``deal`` line, or in the middle of a trick; such records must
replay here and export exactly as they were (the engine used to start the next deal
before it knew whether one comes, and refused "no deck given for a shuffle").
"""

from __future__ import annotations

import random

import pytest

from engine import GAMES, read_records, replay, write_jsonl
from engine.core import Line, abandoned_line

from .test_golden_records import SIMULATED

GAMES_WITH_DEALS = sorted(GAMES)


def _records(game: str, count: int = 3) -> list[list[Line]]:
    """A few frozen simulated records of ``game``, the longest first (most deals to cut)."""
    records = read_records(SIMULATED / f"{game}.jsonl")
    return sorted(records, key=len, reverse=True)[:count]


def _cut(record: list[Line], at: int) -> list[Line]:
    """The record's first ``at`` lines, then the abandoned end line."""
    return [*record[:at], abandoned_line(record[0]["players"])]


def _assert_replays_unchanged(cut: list[Line]) -> None:
    state = replay(cut)
    assert state.is_over and state.result is not None and state.result.reason == "abandoned"
    assert write_jsonl(state.record()) == write_jsonl(cut)


def _positions(record: list[Line], kind: str) -> list[int]:
    """Indices just after each line of type ``kind``."""
    return [k + 1 for k, line in enumerate(record) if line["t"] == kind]


@pytest.mark.parametrize("game", GAMES_WITH_DEALS)
def test_0_11_abandoned_right_after_a_deal_end(game: str) -> None:
    cuts = [at for record in _records(game) for at in _positions(record, "deal_end")]
    assert cuts, "the frozen records have deals"
    for record in _records(game):
        for at in _positions(record, "deal_end"):
            _assert_replays_unchanged(_cut(record, at))


@pytest.mark.parametrize("game", GAMES_WITH_DEALS)
def test_0_11_abandoned_right_after_the_deal_line(game: str) -> None:
    for record in _records(game):
        for at in _positions(record, "deal"):
            _assert_replays_unchanged(_cut(record, at))


@pytest.mark.parametrize("game", GAMES_WITH_DEALS)
def test_0_11_abandoned_before_any_deal(game: str) -> None:
    record = _records(game, 1)[0]
    for at in (1, 2):  # after the game line; after the seats line (Копилка: and its ante)
        _assert_replays_unchanged(_cut(record, at))
    first_deal = _positions(record, "deal")[0] - 1
    _assert_replays_unchanged(_cut(record, first_deal))


@pytest.mark.parametrize("game", GAMES_WITH_DEALS)
def test_0_11_abandoned_mid_deal_before_an_action(game: str) -> None:
    pick = random.Random(game)
    for record in _records(game):
        acts = [k for k, line in enumerate(record) if line["t"] == "act"]
        for at in pick.sample(acts, min(8, len(acts))):
            _assert_replays_unchanged(_cut(record, at))


@pytest.mark.parametrize("game", GAMES_WITH_DEALS)
def test_0_11_abandoned_after_any_line_at_all(game: str) -> None:
    """Any line: even between an action's own consequences, and just before the settlement."""
    record = _records(game, 1)[0]
    pick = random.Random(f"any:{game}")
    positions = {len(record) - 1, *pick.sample(range(1, len(record)), min(25, len(record) - 1))}
    for at in sorted(positions):
        _assert_replays_unchanged(_cut(record, at))


def test_0_11_a_record_cut_without_its_next_deck_is_not_dealt_on() -> None:
    """After a cut at a deal_end nobody is to act, and no deal line was invented."""
    record = _records("mushka", 1)[0]
    at = _positions(record, "deal_end")[0]
    state = replay(_cut(record, at), through_end=False)
    assert state.to_act is None and not state.is_over
    assert state.record() == record[:at]
    state.abandon()
    assert state.record() == _cut(record, at)
