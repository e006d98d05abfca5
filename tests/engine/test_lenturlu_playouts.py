"""Лентюрлю random playouts and golden records (RULES.md §3, RECORD.md §R8, §R10).

Every player count 3–8, every manner and payment: each card of the deck in exactly one place at
every step, the layout money accounted for, the legal actions those of an independent reading of
§3.2–§3.3 and every other one refused with a reason, termination, nets summing to zero, and the
record replaying identically.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.actions import Buy, Pass
from engine.cards import DECK_52, Card, parse_cards
from engine.core import Line
from engine.errors import IllegalAction, InvalidRecord, Refusal
from engine.games import new_game
from engine.lenturlu import LenturluState, LenturluView, Run
from engine.lenturlu.rules import LENTURLU_CARDS
from engine.record import read_records, replay, write_jsonl

GOLDEN = Path(__file__).parent.parent / "golden" / "records"
SIMULATED = Path(__file__).parent.parent / "golden" / "simulated" / "lenturlu.jsonl"
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


# Rank values by RULES.md §3.1.1, written out independently of the engine.
VALUE = {"A": 1, "J": 11, "Q": 12, "K": 13} | {str(v): v for v in range(2, 11)}


def _value(card: Card) -> int:
    return VALUE[str(card)[:-1]]


def _allowed(view: LenturluView, action: object) -> bool:
    """Whether RULES.md §3.2–§3.3 allow ``action`` now, judged from the seat's view alone."""
    match action:
        case Run(cards):
            values = [_value(c) for c in cards]
            if not cards or len(set(cards)) < len(cards) or not set(cards) <= set(view.hand):
                return False
            if values != list(range(values[0], values[0] + len(values))):  # §3.2.1
                return False
            if view.leading:  # §3.2.3: any rank; an ace can only be first
                return True
            assert view.top is not None
            return values[0] == _value(view.top) + 1  # §3.2.4 (so never an ace)
        case Buy(k):  # §3.3.2: once a turn, k ≤ stock; never by the leader (§3.2.3)
            return not view.leading and not view.bought and k in (1, 2) and k <= view.stock
        case Pass():
            if view.leading:
                return False
            assert view.top is not None
            able = any(_value(c) == _value(view.top) + 1 for c in view.hand)  # §3.3.1
            return view.stock > 0 if able else view.bought or view.stock == 0  # §3.3.2
    return False


def _check_legality(state: LenturluState, seat: int) -> None:
    legal = state.legal_actions(seat)
    assert legal == state.legal_actions(seat), "legal actions are not deterministic"
    assert len(set(legal)) == len(legal)
    view = state.view(seat)
    assert view.legal == legal
    for action in legal:
        assert _allowed(view, action), f"listed but not allowed by the rules: {action}"
    version = state.version
    for candidate in _candidates(state, seat):
        allowed = _allowed(view, candidate)
        assert allowed == (candidate in legal), f"{candidate}: allowed {allowed}"
        if not allowed:
            with pytest.raises(IllegalAction) as refused:
                state.apply(seat, candidate)
            assert refused.value.code is not Refusal.NOT_NOW, f"{candidate}: no reason given"
    assert state.version == version, "a refused action changed the state"
    for other in range(state.players):
        if other != seat:
            assert state.legal_actions(other) == ()


def _check_conservation(state: LenturluState) -> None:
    places = state.places()
    hands = [f"hand{s}" for s in range(state.players)]
    assert set(places) == {*hands, "stock", "pile", "out"}
    cards = [c for where in places.values() for c in where]
    assert Counter(cards) == Counter(DECK_52), "a card is missing or in two places"
    view = state.view(None)
    assert view.hand_sizes == tuple(len(places[h]) for h in hands)
    assert view.stock == len(places["stock"]) and view.pile == places["pile"]
    assert view.set_aside == len(places["out"])


def play(players: int, seed: int, options: dict[str, object]) -> LenturluState:
    """A random legal playout with every check at every step; returns the finished state."""
    state = new_game("lenturlu", players, seed, options)
    assert isinstance(state, LenturluState)
    pick = random.Random(f"lenturlu:{seed}:players")
    unit = state.options.unit
    layout = 5 * unit * players
    assert sum(state.layout().values()) == layout
    steps = runs = 0
    while (seat := state.to_act) is not None:
        _check_legality(state, seat)
        action = pick.choice(state.legal_actions(seat))
        as_lead = isinstance(action, Run) and Card.parse("AS") in action.cards
        # §3.4.6: in Manner A only the deal's first lead takes the AS stake
        as_takes = as_lead and (runs == 0 or state.options.manner == "out")
        runs += isinstance(action, Run)
        lines = state.apply(seat, action)
        stakes = [line["card"] for line in lines if line.get("e") == "stake"]
        assert ("AS" in stakes) == as_takes, (action, stakes)
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


def _simulated_pick(legal: tuple[object, ...], rng: random.Random) -> object:
    """The simulator's player (``engine.players.basic.random_action``, copied so that this file
    does not import every family's players): a verb first, then one action of that verb."""
    kinds: dict[str, list[object]] = {}
    for action in legal:
        kinds.setdefault(str(action).split(" ", 1)[0], []).append(action)
    return rng.choice(rng.choice(list(kinds.values())))


def test_frozen_simulated_records_are_played_again_move_for_move() -> None:
    """The simulator's player picks by position in ``legal``: playing the frozen records again
    (tests/golden/simulated/README.md) pins the order of the legal actions, not only the rules."""
    records = read_records(SIMULATED)
    assert len(records) == 72
    for record in records:
        head = record[0]
        state = new_game("lenturlu", head["players"], head["seed"], head["options"])
        rng = random.Random(f"{head['seed']}:frozen")
        while (seat := state.to_act) is not None:
            state.apply(seat, _simulated_pick(state.view(seat).legal, rng))
        assert write_jsonl(state.record()) == write_jsonl(record), f"seed {head['seed']}"


def test_replay_refuses_a_tampered_record() -> None:
    record = read_records(GOLDEN / "lenturlu-3p-king.jsonl")[0]
    tampered = [dict(line) for line in record]
    acts = [i for i, line in enumerate(tampered) if line["t"] == "act"]
    tampered[acts[0]]["a"] = "pass"  # the leader may not pass (§3.2.3)
    with pytest.raises(InvalidRecord):
        replay(tampered)
    with pytest.raises(IllegalAction):
        replay(record).apply(0, "pass")
