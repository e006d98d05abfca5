"""Копилка, many random partias and the golden record (RULES.md §2, RECORD.md §R7, §R10).

Every step: someone is to act with a legal action, every card of the deck is in exactly one
place, the bank holds exactly what was paid in, refused actions change nothing. Every partia:
4 deals, tricks judged as §2.4.6/§2.6.1 say, the payout of §2.6.5, nets summing to zero, and the
record replays to itself.
"""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from engine.actions import Buy, Pass
from engine.cards import A_HIGH, DECK_32, Card, rank_index
from engine.core import Line
from engine.errors import IllegalAction, Refusal
from engine.games import new_game
from engine.kopilka import KopilkaState
from engine.record import read_records, replay

GOLDEN = Path(__file__).parent.parent / "golden" / "records" / "kopilka-4p.jsonl"
SUIT_VALUE = {"S": 1, "C": 2, "D": 3, "H": 4}
STRENGTH = rank_index(A_HIGH)
OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"hold_pass": True},
    {"hold_pass": True, "hold_pass_fine": 0, "no_trick_fine": 0, "ante": 0},
    {"point_rate": 50, "deal_fee": 1, "ante": 3},
]


def test_golden_record_replays_identically() -> None:
    records = read_records(GOLDEN)
    assert len(records) == 2
    for record in records:
        again = replay(record).record()
        assert len(again) == len(record)
        for number, (ours, theirs) in enumerate(zip(again, record, strict=True), 1):
            assert ours == theirs, f"line {number} differs"


def _check_trick(line: Line) -> None:
    """§2.4.4, §2.4.6, §2.6.1 recomputed from the trick's plays."""
    led = line["suit"]
    plays = [(seat, Card.parse(code)) for seat, code in line["plays"]]
    assert len(plays) >= 2 and plays[0][0] == line["leader"] and plays[0][1].suit == led
    assert all(c.suit == led or str(c) == "AS" for _, c in plays)  # never another suit
    aces = [s for s, c in plays if str(c) == "AS"]
    best = max(((s, c) for s, c in plays if c.suit == led), key=lambda sc: STRENGTH[sc[1].rank])
    winner = aces[0] if aces else best[0]
    won_by = Card.parse("AS") if aces else best[1]
    double = str(won_by) in ("AS", f"A{led}")
    assert line["winner"] == winner
    assert line["double"] is double
    assert line["points"] == SUIT_VALUE[led] * (2 if double else 1)


def _check_record(record: list[Line], options: dict[str, Any]) -> Counter[str]:
    seen: Counter[str] = Counter()
    deals = [line for line in record if line["t"] == "deal"]
    assert [d["no"] for d in deals] == [1, 2, 3, 4]
    first = deals[0]["dealer"]
    assert [d["dealer"] for d in deals] == [(first + i) % 4 for i in range(4)]
    deal_ends = [line for line in record if line["t"] == "deal_end"]
    assert len(deal_ends) == 4
    fine_kinds: list[str] = []
    for line in record:
        if line["t"] == "event":
            seen[line["e"]] += 1
            if line["e"] == "trick":
                _check_trick(line)
            if line["e"] == "fine":
                fine_kinds.append(line["kind"])
                seen[f"fine:{line['kind']}"] += 1
        if line["t"] == "deal_end":
            seen["blocked_deal"] += line["blocked"]
            # §R7.3: end-of-deal fines come no_trick first, then deal_fee
            tail = [k for k in fine_kinds if k != "hold_pass"]
            assert tail == sorted(tail, key=("no_trick", "deal_fee").index)
            fine_kinds = []
            winner = line["winner"]
            if not line["blocked"]:
                assert line["seats"][winner]["cards_left"] == 0
    end = record[-1]
    assert end["t"] == "end" and end["reason"] == "partia"
    assert sum(end["net"]) == 0 and end["bank"] == 0
    assert sum(end["payout"]) == end["bank_before"]
    rate = options.get("point_rate", 1)
    seen["shortfall"] += end["shortfall"]
    assert end["shortfall"] is (sum(end["points"]) * rate > end["bank_before"])
    return seen


def _play(seed: int, options: dict[str, Any], seen: Counter[str]) -> KopilkaState:
    state = new_game("kopilka", 4, seed, options)
    assert isinstance(state, KopilkaState)
    pick = random.Random(f"{seed}:players")
    collected = state.record()
    while (seat := state.to_act) is not None:
        legal = state.legal_actions(seat)
        assert legal and all(state.legal_actions(s) == () for s in range(4) if s != seat)
        view = state.view(seat)
        # §2.4.5: at most the cards in the stock
        if view.phase == "follow" and Buy(1) in legal and view.stock_size == 1:
            seen["stock_one"] += 1
            assert Buy(2) not in legal
            with pytest.raises(IllegalAction) as err:
                state.apply(seat, "buy 2")
            assert err.value.code is Refusal.STOCK_TOO_SMALL
        if view.phase == "follow" and not view.hand:
            seen["empty_follower"] += 1
            assert legal == (Pass(),)  # §2.4.3 d
        action = pick.choice(legal)
        lines = state.apply(seat, action)
        assert lines[0] == {"t": "act", "seat": seat, "a": str(action)}
        collected.extend(lines)
        _check_places(state)
    assert collected == state.record(), "apply returned other lines than it appended"
    return state


def _check_places(state: KopilkaState) -> None:
    places = state.places()
    cards = [c for where in places.values() for c in where]
    assert Counter(cards) == Counter(DECK_32), "a card is missing or in two places"
    view = state.view(None)
    if not state.is_over:
        assert view.bank == sum(view.fines)  # the bank holds what was paid in, no more


def _sweep(seeds: range) -> Counter[str]:
    seen: Counter[str] = Counter()
    for seed in seeds:
        options = OPTION_SETS[seed % len(OPTION_SETS)]
        state = _play(seed, options, seen)
        record = state.record()
        seen += _check_record(record, options)
        assert replay(record).record() == record
        assert state.result is not None and list(state.result.net) == record[-1]["net"]
    return seen


def test_random_partias_keep_every_rule() -> None:
    seen = _sweep(range(240))
    # the sweep must have met the rare situations, or it checked nothing about them
    for what in ("lay_out", "return", "takeback", "lead_passes", "out", "blocked_deal"):
        assert seen[what] > 0, what
    for what in ("fine:hold_pass", "fine:no_trick", "fine:deal_fee", "shortfall", "stock_one"):
        assert seen[what] > 0, what
    assert seen["empty_follower"] > 0  # §2.4.3 d: emptied by a lay-out after a buy


@pytest.mark.slow
def test_random_partias_keep_every_rule_many_seeds() -> None:
    seen = _sweep(range(1000, 3000))
    assert seen["empty_follower"] > 10 and seen["blocked_deal"] > 100
