"""Шутиха's deal-out and five spades; Мистигри's flushes and KC + four (RULES.md §1.3.9–§1.3.12)."""

from __future__ import annotations

import pytest

from engine.errors import IllegalAction, Refusal
from engine.trick import Discard

from .helpers import act, events, fixed


def test_1_3_12_shutikha_queen_dealt_out_of_the_stock_then_discard() -> None:
    hands = ["7S 8S 8C 10D KD", "AH KH 9H JH 7C", "9S 10S 9C JC QC"]
    state = fixed("shutikha", 3, 2, hands, stock="7H 8H QS 10H")
    act(state, (0, "play 0"), (1, "play 0"))
    lines = state.apply(2, "pass")
    outs = events(lines, "deal_out")
    assert [(e["seat"], e["card"]) for e in outs] == [(0, "7H"), (1, "8H"), (0, "QS")]
    assert state.phase == "discard" and state.to_act == 0
    legal = state.legal_actions(0)
    assert all(isinstance(a, Discard) and len(a.cards) == 2 for a in legal)
    assert len(legal) == 15  # 2 of the 6 cards other than the QS
    with pytest.raises(IllegalAction) as refused:
        state.apply(0, "discard QS 7S")
    assert refused.value.code is Refusal.PRIVILEGED_NOT_DISCARDED
    with pytest.raises(IllegalAction) as refused:
        state.apply(0, "discard 7S")
    assert refused.value.code is Refusal.WRONG_CARD_COUNT
    lines = state.apply(0, "discard 8C 7S")
    assert lines == ({"t": "act", "seat": 0, "a": "discard 8C 7S"},)
    assert state.to_act == 1
    state.apply(1, "discard 7C")
    assert state.phase == "play" and state.to_act == 0
    assert state.view(None).stock_size == 17 - 3
    assert all(len(state.hand(s)) == 5 for s in (0, 1))


def test_1_3_9_shutikha_five_spades_after_the_deal_win_the_pulka() -> None:
    hands = ["7H 8H 8C 10D KD", "QS 7S 8S 9S 10S", "AH KH 9H JH 7C"]
    state = fixed("shutikha", 3, 2, hands, options={"pulka_fee": 1})
    assert state.is_over and state.to_act is None
    record = state.record()
    assert record[-3] == {
        "t": "event",
        "e": "instant_win",
        "seat": 1,
        "kind": "five_spades",
        "cards": ["QS", "10S", "9S", "8S", "7S"],
    }
    assert record[-2]["result"] == "instant" and record[-2]["zero"] == []
    assert all(s["status"] == "passed" and not s["held"] for s in record[-2]["seats"])
    assert record[-1]["reason"] == "instant" and record[-1]["pulka"] == [-26, 52, -26]


def test_1_3_9_shutikha_five_spades_after_an_exchange() -> None:
    hands = ["QS 7S 8S 9S 8C", "7H 8H 9H 10D KD", "AH KH JH 7C 9C"]
    state = fixed("shutikha", 3, 2, hands, stock="10S")
    lines = state.apply(0, "play 1 8C")
    assert [line.get("e") for line in lines[1:3]] == ["exchange", "instant_win"]
    assert lines[-2]["seats"][0]["status"] == "played"
    assert lines[-2]["seats"][1]["status"] == "passed"
    assert lines[-1]["winner"] == 0 and state.is_over


def test_1_3_10_mistigri_flush_ranking_suit_first() -> None:
    hands = ["10S 9S 8S 7S 6S", "2D 3D 4D 5D 6D", "AH KH QH JH 7C", "8C 9C 10C JC KC",
             "2C 3C 4H 5H 6H"]  # fmt: skip
    state = fixed("mistigri", 5, 4, hands, "QD")
    flushes = events(state.record(), "flush")
    assert [(f["seat"], f["suit"], f["points"]) for f in flushes] == [
        (0, "S", 40),
        (1, "D", 20),
        (3, "C", 34),
    ]
    # seat 3's KC + four clubs is also the instant win, shown after the flushes (§1.3.11)
    record = state.record()
    kinds = [line.get("e") or line["t"] for line in record[-7:]]
    assert kinds == ["flush", "flush", "flush", "instant_win", "flush_bonus", "deal_end", "end"]
    assert events(record, "flush_bonus") == [
        {"t": "event", "e": "flush_bonus", "seat": 1, "amount": 5}
    ]
    assert record[-1]["reason"] == "instant" and record[-1]["winner"] == 3
    assert record[-1]["side"] == [-5, 20, -5, -5, -5]


def test_1_3_10_2_mistigri_same_suit_more_points_then_earlier() -> None:
    hands = ["2H 3H 4H 5H 6H", "AH JH QH KH 8H", "2S 3S 4C 5C 6D", "7C 8D 9S 10C JD",
             "7S 8S 9D 10D QD"]  # fmt: skip
    state = fixed("mistigri", 5, 4, hands, "AD")
    flushes = events(state.record(), "flush")
    assert [(f["seat"], f["points"]) for f in flushes] == [(0, 20), (1, 20)]
    for seat in range(4):
        state.apply(seat, "play 0")
    lines = state.apply(4, "pass")
    assert events(lines, "flush_bonus") == [
        {"t": "event", "e": "flush_bonus", "seat": 0, "amount": 5}
    ]
    assert state.side == (20, -5, -5, -5, -5) and state.phase == "play"


def test_1_3_10_mistigri_flush_after_exchange_and_bonus_once() -> None:
    hands = ["7H 8H 9H 10H 6C", "AS 7S 8S 9S 10S", "AD 6D 7D 8D 9D", "6S 7C 8C 9C 10C"]
    state = fixed("mistigri", 4, 3, hands, "KD", "JH")
    pre = events(state.record(), "flush")
    assert [(f["seat"], f["suit"]) for f in pre] == [(1, "S"), (2, "D")]
    lines = state.apply(0, "play 1 6C")
    (flush,) = events(lines, "flush")
    assert flush["seat"] == 0 and flush["cards"] == ["JH", "10H", "9H", "8H", "7H"]
    act(state, (1, "play 0"), (2, "play 0"))
    lines = state.apply(3, "play 0")
    assert events(lines, "flush_bonus") == [
        {"t": "event", "e": "flush_bonus", "seat": 0, "amount": 5}
    ]


def test_1_3_11_mistigri_king_of_clubs_and_four_wins_the_pulka() -> None:
    hands = ["6D 7D 8D 9D 10D", "KC 7H 8H 9H 10H", "6S 7S 8S 9S JC", "6C 7C 8C 9C 6H"]
    state = fixed("mistigri", 4, 3, hands, "AS", options={"point_value": 2})
    record = state.record()
    tail = [line.get("e") or line["t"] for line in record[-5:]]
    assert tail == ["flush", "instant_win", "flush_bonus", "deal_end", "end"]
    assert record[-4]["kind"] == "kc_four" and record[-4]["seat"] == 1
    assert record[-1]["pulka"] == [-50, 150, -50, -50]
    assert record[-1]["side"] == [15, -5, -5, -5]  # the diamond flush shown after the deal
    assert record[-1]["net"] == [-35, 145, -55, -55]
