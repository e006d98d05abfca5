"""The view facts the screens of Копилка, Лентюрлю and Кончинка tell — the partia's
points once over (counted once), the result, who played which run, bought or passed, which
stakes were taken, the last round's moves — and that a seat's view names only its own buys."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from engine.actions import Buy, Pass
from engine.core import Line
from engine.konchinka.actions import Capture, Sweep, Trail
from engine.konchinka.view import KonchinkaView
from engine.kopilka.view import KopilkaView
from engine.lenturlu.view import LenturluView
from engine.record import read_records
from engine.record import replay as replay_state


def replay(lines: list[Line]) -> Any:
    """The replayed state, its views typed by the caller (each test's game)."""
    return replay_state(lines)


RECORDS = Path(__file__).resolve().parents[1] / "golden" / "records"


def test_kopilka_partia_points_once_over() -> None:
    """§2.6.1: the last deal's points are counted once in the partia's, as the end line has them."""
    lines = read_records(RECORDS / "kopilka-4p.jsonl")[0]
    state = replay(lines)
    view = state.view(1)
    assert isinstance(view, KopilkaView)
    assert list(view.partia_points) == lines[-1]["points"]
    assert view.result is not None and view.result == state.result
    ends = [i for i, ln in enumerate(lines) if ln.get("t") == "deal_end"]
    at_end = replay(lines[: ends[-1] + 1]).view(None)  # a replay stopped at the last deal_end
    assert list(at_end.partia_points) == [s["partia_points"] for s in lines[ends[-1]]["seats"]]


def test_kopilka_bought_cards_only_to_the_buyer() -> None:
    lines = read_records(RECORDS / "kopilka-4p.jsonl")[0]
    for i, ln in enumerate(lines):
        if ln.get("e") == "draw" and ln.get("why") == "buy":
            state = replay(lines[: i + 1])
            buyer = ln["seat"]
            mine = state.view(buyer)
            assert [str(c) for c in mine.bought_cards][: len(ln["cards"])] == ln["cards"]
            assert all(not state.view(s).bought_cards for s in range(4) if s != buyer)
            assert not state.view(None).bought_cards
            return
    raise AssertionError("no buy in the record")


def test_lenturlu_runs_turns_takes() -> None:
    lines = read_records(RECORDS / "lenturlu-6p-out-cards.jsonl")[0]
    seen_turns = seen_runs = False
    for cut in range(2, len(lines) + 1):
        if lines[cut - 1].get("t") != "act":
            continue
        view = replay(lines[:cut]).view(None)
        assert isinstance(view, LenturluView)
        assert [c for _, cards in view.runs for c in cards] == list(view.pile)
        seen_runs |= len(view.runs) > 1
        seen_turns |= any(isinstance(a, Buy) for _, a in view.turns) and any(
            isinstance(a, Pass) for _, a in view.turns
        )
        if view.pile and view.to_act is not None:
            assert view.passes == sum(1 for _, a in view.turns if isinstance(a, Pass))
    assert seen_runs and seen_turns
    end = replay(lines).view(None)
    stakes = [ln for ln in lines if ln.get("e") == "stake"]
    assert [(s, str(c), n) for s, c, n in end.takes] == [
        (ln["seat"], ln["card"], ln["amount"]) for ln in stakes
    ]
    assert end.result is not None


def test_konchinka_last_round_of_moves() -> None:
    lines = read_records(RECORDS / "konchinka-4p-court-pot.jsonl")[0]
    acts = [i for i, ln in enumerate(lines) if ln.get("t") == "act"]
    state = replay(lines[: acts[6] + 1])
    view = state.view(None)
    assert isinstance(view, KonchinkaView)
    assert len(view.moves) == 4
    assert [s for s, _ in view.moves] == [lines[i]["seat"] for i in acts[3:7]]
    assert all(isinstance(a, Capture | Sweep | Trail) for _, a in view.moves)
    assert replay(lines).view(0).result is not None
