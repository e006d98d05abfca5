"""Лентюрлю random playouts and golden records (RULES.md §3, RECORD.md §R8, §R10).

Every player count 3–8, every manner and payment: each card of the deck in exactly one place at
every step, the layout money accounted for, legality consistent with refusals, termination,
nets summing to zero, and the record replaying identically.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import DECK_52, parse_cards
from engine.core import Line
from engine.errors import IllegalAction, InvalidRecord
from engine.games import new_game
from engine.lenturlu import LENTURLU_CARDS, Buy, LenturluState, Pass, Run
from engine.record import read_records, replay

GOLDEN = Path(__file__).parent.parent / "golden" / "records"
PLAYERS = (3, 4, 5, 6, 7, 8)
MANNERS = ("king", "out")
PAYMENTS = ("fixed", "cards", "points")
SEEDS = 8  # per player count, manner and payment: 288 deals by default


def _candidates(state: LenturluState, seat: int) -> list[object]:
    """Legal and illegal actions to try: short runs from the hand, buys, pass."""
    hand = list(state.hand(seat))
    out: list[object] = [Buy(1), Buy(2), Pass()]
    out += [Run((c,)) for c in hand]
    out += [Run(pair) for pair in itertools.permutations(hand[:8], 2)]
    return out


def _check_legality(state: LenturluState, seat: int) -> None:
    legal = state.legal_actions(seat)
    assert legal == state.legal_actions(seat), "legal actions are not deterministic"
    assert len(set(legal)) == len(legal)
    for action in legal:
        assert state._refusal(seat, action) is None, f"listed but refused: {action}"
    for candidate in _candidates(state, seat):
        accepted = state._refusal(seat, candidate) is None
        assert accepted == (candidate in legal), f"{candidate}: accepted {accepted}"
    for other in range(state.players):
        if other != seat:
            assert state.legal_actions(other) == ()


def _check_conservation(state: LenturluState) -> None:
    places = Counter(map(str, state.places()))
    assert places == Counter(map(str, DECK_52))
    view = state.view(None)
    assert sum(view.hand_sizes) + view.stock + len(view.pile) + view.set_aside == 52


def play(players: int, seed: int, options: dict[str, object]) -> LenturluState:
    """A random legal playout with every check at every step; returns the finished state."""
    state = new_game("lenturlu", players, seed, options)
    assert isinstance(state, LenturluState)
    pick = random.Random(f"lenturlu:{seed}:players")
    unit = state.options.unit
    layout = 5 * unit * players
    assert sum(state.layout().values()) == layout
    steps = 0
    while (seat := state.to_act) is not None:
        _check_legality(state, seat)
        action = pick.choice(state.legal_actions(seat))
        lines = state.apply(seat, action)
        for line in lines:
            if line.get("e") == "stake":
                layout -= line["amount"]
            elif line.get("e") == "refill":
                layout += line["each"] * (players - 1)
        if state.to_act is not None:
            assert sum(state.layout().values()) == layout
        _check_conservation(state)
        steps += 1
        assert steps < 5000, "no end"
    _check_end(state.record(), players, layout)
    return state


def _check_end(record: list[Line], players: int, layout_left: int) -> None:
    deal_end, end = record[-2], record[-1]
    assert deal_end["t"] == "deal_end" and end["t"] == "end"
    winner = end["winner"]
    assert deal_end["winner"] == winner and deal_end["layout"] == layout_left
    assert end["layout"] == [layout_left if s == winner else 0 for s in range(players)]
    taken = [0] * players
    refills = [0] * players
    for line in record:
        if line.get("e") == "stake":
            taken[line["seat"]] += line["amount"]
            taker = line["seat"]
        elif line.get("e") == "refill":
            for s in range(players):
                refills[s] += line["each"] if s != taker else 0
    assert end["taken"] == taken and end["refills"] == refills
    assert sum(end["net"]) == 0 and end["bank"] == 0 and sum(end["payments"]) == 0
    assert end["payments"][winner] == sum(s["pays"] for s in deal_end["seats"])
    for row in deal_end["seats"]:
        assert row["cards"] == len(row["hand"])
        assert row["hand"] == [str(c) for c in parse_cards(row["hand"])]
    if deal_end["reason"] == "out":
        assert deal_end["seats"][winner]["hand"] == []
    assert replay(record).record() == record


@pytest.mark.parametrize("players", PLAYERS)
def test_3_random_playouts_every_player_count(players: int) -> None:
    combos = itertools.product(range(SEEDS), MANNERS, PAYMENTS)
    for k, (_, manner, payment) in enumerate(combos):
        seed = 7_000 * players + k
        play(players, seed, {"manner": manner, "payment": payment, "unit": 1 + k % 3})


def test_3_random_playouts_odd_options() -> None:
    for k in range(6):
        opts = {"manner": MANNERS[k % 2], "refill_units": k, "rate": 0 if k == 3 else 5}
        play(3 + k, 900 + k, opts)


@settings(max_examples=30, deadline=None)
@given(
    players=st.sampled_from(PLAYERS),
    seed=st.integers(0, 2**32 - 1),
    manner=st.sampled_from(MANNERS),
    payment=st.sampled_from(PAYMENTS),
    refill_units=st.integers(0, 3),
)
def test_3_property_random_deals_conserve_and_replay(
    players: int, seed: int, manner: str, payment: str, refill_units: int
) -> None:
    opts = {"manner": manner, "payment": payment, "refill_units": refill_units, "rate": 2}
    play(players, seed, opts)


@pytest.mark.slow
@pytest.mark.parametrize("players", PLAYERS)
def test_3_random_playouts_sweep(players: int) -> None:
    for seed in range(200):
        manner = MANNERS[seed % 2]
        payment = PAYMENTS[seed % 3]
        play(players, 100_000 + seed, {"manner": manner, "payment": payment})


def test_3_4_4_lenturlu_cards_each_taken_at_most_once_per_play() -> None:
    state = play(5, 77, {})
    stakes = [line["card"] for line in state.record() if line.get("e") == "stake"]
    assert set(stakes) <= {str(c) for c in LENTURLU_CARDS}


@pytest.mark.parametrize("name", ["lenturlu-3p-king.jsonl", "lenturlu-6p-out-cards.jsonl"])
def test_golden_lenturlu_records_replay_identically(name: str) -> None:
    records = read_records(GOLDEN / name)
    assert len(records) == 3
    for record in records:
        again = replay(record).record()
        assert again == record


def test_replay_refuses_a_tampered_record() -> None:
    record = read_records(GOLDEN / "lenturlu-3p-king.jsonl")[0]
    tampered = [dict(line) for line in record]
    acts = [i for i, line in enumerate(tampered) if line["t"] == "act"]
    tampered[acts[0]]["a"] = "pass"  # the leader may not pass (§3.2.3)
    with pytest.raises(InvalidRecord):
        replay(tampered)
    with pytest.raises(IllegalAction):
        replay(record).apply(0, "pass")
