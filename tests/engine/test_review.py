"""A finished deal's review (engine/review.py): its steps replay the record exactly, each
decision is the record's legal action valued against the search's best, the trick family's
exact values agree with the engine played out by brute force, and a running deal has none."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from engine.core import Line, State
from engine.errors import InvalidRecord
from engine.lines import LineKind, is_kind
from engine.players.advice import advise, appraise
from engine.players.trick_tables import ZERO_BONUS_SHARE
from engine.record import read_records, replay
from engine.review import DealReview, NoReview, deal_numbers, review_deal
from engine.trick.actions import Exchange, PlayCard
from engine.trick.rules import TrickPhase
from engine.trick.view import TrickView

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "records"
FILES = sorted(GOLDEN.glob("*.jsonl"))
PLAIN_TRICK = ("mushka", "mistigri", "pamfil")  # their tables value a deal by the count alone


def _record(path: Path) -> list[Line]:
    return read_records(path)[0]


def _deal_end(record: list[Line], no: int) -> int:
    return next(
        i for i, line in enumerate(record) if is_kind(line, LineKind.DEAL_END) and line["no"] == no
    )


def _acts(record: list[Line], no: int) -> list[tuple[int, str]]:
    inside, out = False, []
    for line in record:
        if is_kind(line, LineKind.DEAL):
            inside = line["no"] == no
        elif inside and is_kind(line, LineKind.ACT):
            out.append((line["seat"], line["a"]))
    return out


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_a_review_replays_its_deal_and_values_each_decision_of_the_seat(path: Path) -> None:
    record = _record(path)
    no = deal_numbers(record)[0]
    review = review_deal(record, no, 7, seats=(0,))
    cut = record[: _deal_end(record, no) + 1]
    last = review.steps[-1].state.record()
    assert last == replay(cut).record() == record[: len(last)]  # an end line if the game ended
    assert last[: len(cut)] == cut
    assert [(s.seat, str(s.action)) for s in review.steps[1:]] == _acts(record, no)
    assert review.steps[0].seat is None and review.steps[0].state.view(None).deal_no == no
    for d in review.decisions:
        before = review.steps[d.step - 1].state
        assert d.seat == 0 and d.taken == review.steps[d.step].action
        assert d.taken in before.legal_actions(d.seat) and len(before.legal_actions(d.seat)) > 1
        assert d.cost == pytest.approx(max(0.0, d.best_value - d.taken_value)) and d.cost >= 0
        if d.taken == d.best.action:
            assert d.cost == 0
    costly = review.costliest(0, n=10)
    assert [d.cost for d in costly] == sorted((d.cost for d in costly), reverse=True)
    assert all(d.seat == 0 and d.cost > 0 for d in costly)


def test_the_last_deal_s_review_ends_with_the_game_s_end() -> None:
    record = _record(GOLDEN / "mushka-3p-target5.jsonl")
    last = deal_numbers(record)[-1]
    review = review_deal(record, last, 1, seats=())
    assert review.steps[-1].state.record() == record  # the deal's end line and the game's
    assert review.steps[0].state.hand(1) != review.steps[-1].state.hand(1)  # each step its own
    assert review.decisions == ()


def test_a_review_is_the_same_for_the_same_seed() -> None:
    record = _record(GOLDEN / "konchinka-2p-target5.jsonl")
    one, two = (review_deal(record, 1, 5, seats=(1,)) for _ in range(2))
    assert one.decisions == two.decisions and one.decisions


def test_a_running_deal_has_no_review() -> None:
    record = _record(GOLDEN / "mushka-3p-target5.jsonl")
    last = deal_numbers(record)[-1]
    running = record[: _deal_end(record, last)]  # the deal's acts, not its end
    assert deal_numbers(running) == deal_numbers(record)[:-1]
    with pytest.raises(NoReview):
        review_deal(running, last, 1)
    with pytest.raises(NoReview):
        review_deal(record, last + 1, 1)


def test_a_record_that_does_not_replay_is_refused() -> None:
    record = _record(GOLDEN / "mushka-3p-target5.jsonl")
    forged = [dict(line) for line in record]
    at = next(i for i, line in enumerate(forged) if is_kind(line, LineKind.ACT))
    forged[at]["a"] = "card AS"  # nobody may play a card while declaring
    with pytest.raises(InvalidRecord):
        review_deal(forged, 1, 1)


def test_an_action_outside_the_search_s_candidates_is_valued_too() -> None:
    record = _record(GOLDEN / "mushka-3p-target5.jsonl")
    state = review_deal(record, 1, 1, seats=()).steps[0].state
    seat = state.to_act
    assert seat is not None
    view = state.view(seat)
    searched = {c.action for c in advise(view, 3, top=100).choices}
    outside = next(a for a in view.legal if isinstance(a, Exchange) and a not in searched)
    found = appraise(view, outside, 3)
    assert found is not None and found.taken.action == outside
    assert found.best.value >= found.taken.value
    assert {c.action for c in found.choices} == searched | {outside}


def _written_off(state: State, me: int, counts: tuple[int, ...]) -> float:
    """The finished deal's worth to ``me`` in the review's unit, read from the engine's own
    ``deal_end`` line: the points written off, reaching zero worth the other counts."""
    end = next(line for line in reversed(state.record()) if is_kind(line, LineKind.DEAL_END))
    after = end["seats"][me]["after"]
    if after == 0:
        return counts[me] + ZERO_BONUS_SHARE * (sum(counts) - counts[me])
    return float(counts[me] - after)


def _brute(state: State, me: int, counts: tuple[int, ...], no: int) -> float:
    """The paranoid value of the rest of the deal by every line of play through the engine."""
    seat = state.to_act
    if seat is None or state.view(None).deal_no != no or state.phase != TrickPhase.PLAY:
        return _written_off(state, me, counts)
    values = []
    for action in state.legal_actions(seat):
        child = state.clone()
        child.apply(seat, action)
        values.append(_brute(child, me, counts, no))
    return max(values) if seat == me else min(values)


def _small_plays(review: DealReview) -> list[tuple[Any, State, TrickView]]:
    """Each decision's action, state and view where at most eight cards are left to play."""
    out = []
    for d in review.decisions:
        state = review.steps[d.step - 1].state
        view = state.view(d.seat)
        if isinstance(view, TrickView) and d.exact is not None and sum(view.hand_sizes) <= 8:
            out.append((d, state, view))
    return out


@pytest.mark.parametrize("game", PLAIN_TRICK)
def test_the_exact_values_agree_with_the_engine_played_out_by_brute_force(game: str) -> None:
    checked = 0
    for path in sorted(GOLDEN.glob(f"{game}-*.jsonl")):
        record = _record(path)
        players = record[0]["players"]
        for no in deal_numbers(record)[:2]:
            if checked >= 6:
                break
            review = review_deal(record, no, 1, seats=range(players))
            for d, state, view in _small_plays(review):
                assert d.exact is not None
                counts, me = view.counts, view.seat
                assert me is not None
                by_card = {}
                for action in view.legal:
                    child = state.clone()
                    child.apply(me, action)
                    by_card[action] = _brute(child, me, counts, no)
                assert isinstance(d.taken, PlayCard)
                assert d.exact.taken == pytest.approx(by_card[d.taken])
                assert d.exact.best == pytest.approx(max(by_card.values()))
                assert by_card[d.exact.best_action] == pytest.approx(max(by_card.values()))
                checked += 1
    assert checked >= 3
