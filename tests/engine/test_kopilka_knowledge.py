"""What a Копилка seat may infer of the hidden hands (engine/kopilka/knowledge.py, RULES.md §2)
and the computer's sampler that deals the unseen cards consistently with it
(:meth:`engine.players.kopilka_sim.KopilkaTable.consistent`).

Along partias of mixed random and easy play, at every action, every seat's view is checked
against the true hands: what the table infers is *true* (a known void holds no card of its
suit, a shown card is in its hand, a laid-out card not back nor played is in an opponent's
hand) — and the sampler's worlds keep to it, with every unseen card placed once."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

from engine import new_game
from engine.actions import PASS, Buy
from engine.cards import Card, Suit
from engine.kopilka import KopilkaState, KopilkaView
from engine.players.kopilka import easy
from engine.players.kopilka_infer import caps, contradictions, likely_world
from engine.players.kopilka_sim import CODE, SUIT, KopilkaTable

GAME = "kopilka"
OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"hold_pass": True},
    {"hold_pass": True, "hold_pass_fine": 0},
]


def _check_view(state: KopilkaState, view: KopilkaView, seen: Counter[str], seed: int) -> None:
    me = view.seat
    assert me is not None
    hands = state._hands
    for seat in range(4):
        for suit in view.voids[seat]:
            assert all(c.suit is not suit for c in hands[seat]), (seat, suit, hands[seat])
            seen["void"] += 1
        for card in view.shown[seat]:
            assert card in hands[seat]
            seen["shown"] += 1
    played = set(view.gone) | {c for _, c in view.trick}
    for card in view.laid:
        if card in view.hand or card in played:
            continue
        assert any(card in hands[s] for s in range(4) if s != me), card
        assert card not in state._stock
        seen["out"] += 1
    if view.to_act != me:
        return
    table = KopilkaTable(view)
    sim = table.consistent(random.Random(seed))
    dealt = [c for s in range(4) if s != me for c in sim.hands[s]] + sim.stock
    assert sorted(dealt) == sorted(table.unseen)  # every unseen card, once
    for s in range(4):
        if s == me:
            continue
        assert len(sim.hands[s]) == view.hand_sizes[s]
        held = set(sim.hands[s])
        assert {CODE[c] for c in view.shown[s]} <= held
        assert not any(c >> 3 in {SUIT[x] for x in view.voids[s]} for c in held)
    for code in table.out:
        assert code not in sim.stock
    seen["sampled"] += 1


def _play(options: dict[str, Any], seed: int, seen: Counter[str]) -> None:
    state = new_game(GAME, 4, seed, options)
    assert isinstance(state, KopilkaState)
    rng = random.Random(seed)
    while (to_act := state.to_act) is not None:
        for seat in range(4):
            view = state.view(seat)
            assert isinstance(view, KopilkaView)
            _check_view(state, view, seen, seed)
        view = state.view(to_act)
        assert isinstance(view, KopilkaView)
        action = easy(view, rng) if rng.random() < 0.5 else rng.choice(view.legal)
        state.apply(to_act, action)


@pytest.mark.parametrize("options", OPTION_SETS)
def test_2_3_2_4_what_the_table_infers_of_the_hands_is_true_and_samples_keep_to_it(
    options: dict[str, Any],
) -> None:
    seen: Counter[str] = Counter()
    for seed in range(12):
        _play(options, seed, seen)
    # not vacuous: every kind of knowledge came up and was checked
    assert seen["void"] > 50 and seen["shown"] > 5 and seen["out"] > 20, seen
    assert seen["sampled"] > 500, seen


def _follower_to_act(options: dict[str, Any], want: Any) -> tuple[KopilkaState, int, Suit]:
    """A partia played on until a follower to act may ``want`` (``want(view)`` true)."""
    for seed in range(200):
        state = new_game(GAME, 4, seed, options)
        assert isinstance(state, KopilkaState)
        rng = random.Random(seed)
        for _ in range(60):
            seat = state.to_act
            if seat is None:
                break
            view = state.view(seat)
            assert isinstance(view, KopilkaView)
            if view.phase == "follow" and view.led_suit is not None and want(view):
                return state, seat, view.led_suit
            state.apply(seat, easy(view, rng))
    raise AssertionError("no such position")


def test_2_4_3_a_pass_seen_without_a_fine_tells_a_void() -> None:
    state, seat, led = _follower_to_act(
        {}, lambda v: PASS in v.legal and not any(c.suit is v.led_suit for c in v.hand)
    )
    state.apply(seat, PASS)
    assert led in state.view((seat + 1) % 4).voids[seat]


def test_2_4_3_a_with_hold_pass_a_pass_while_holding_pays_and_tells_nothing() -> None:
    options = {"hold_pass": True}
    state, seat, led = _follower_to_act(
        options, lambda v: PASS in v.legal and any(c.suit is v.led_suit for c in v.hand)
    )
    state.apply(seat, PASS)
    assert led not in state.view((seat + 1) % 4).voids[seat]
    # and with the fine at 0 no fine is seen, so no pass may tell anything (not even a void)
    free = {"hold_pass": True, "hold_pass_fine": 0}
    state, seat, led = _follower_to_act(
        free, lambda v: PASS in v.legal and not any(c.suit is v.led_suit for c in v.hand)
    )
    state.apply(seat, PASS)
    assert led not in state.view((seat + 1) % 4).voids[seat]


def test_2_4_5_a_buy_brings_unknown_cards() -> None:
    state, seat, _ = _follower_to_act({}, lambda v: Buy(1) in v.legal)
    state._known.lacks(seat, Suit.HEARTS)  # known before, from an earlier trick
    state.apply(seat, Buy(1))
    assert state.view((seat + 1) % 4).voids[seat] == frozenset()


def _walk(seed: int) -> Iterator[tuple[KopilkaState, int, KopilkaView, random.Random]]:
    """A partia of default options: the state, the seat to act, its view and the play's
    generator at each turn; the caller applies the action."""
    state = new_game(GAME, 4, seed, {})
    assert isinstance(state, KopilkaState)
    rng = random.Random(seed)
    while (seat := state.to_act) is not None:
        view = state.view(seat)
        assert isinstance(view, KopilkaView)
        yield state, seat, view, rng


def test_2_4_7_a_card_taken_back_is_known_in_its_leaders_hand_until_played() -> None:
    for seed in range(300):
        for state, seat, view, rng in _walk(seed):
            state.apply(seat, PASS if PASS in view.legal else easy(view, rng))
            after = state.view(None)
            if after.takeback is not None and after.shown[after.takeback]:
                card: Card = after.shown[after.takeback][-1]
                assert card in state._hands[after.takeback]
                return
    raise AssertionError("no take-back seen")


def test_2_4_6_a_follow_below_the_winner_is_noted_and_true_of_one_who_takes_tricks() -> None:
    """``ducked``: under the simple player, who follows with its highest card of the suit, a
    seat noted as following below a winning card holds nothing of its suit above it until it
    receives one or draws — the model ``hard`` weighs its worlds by; and ``hard``'s worlds
    contradict it less than half as often as the plain consistent ones."""
    noted = plain_wrong = likely_wrong = 0
    for seed in range(10):
        for state, seat, view, rng in _walk(seed):
            under = caps(view)
            for other in range(4):
                for top in view.ducked[other]:
                    noted += 1
                    held = [c for c in state._hands[other] if c.suit is top.suit]
                    assert all(CODE[c] < CODE[top] for c in held), (other, top, held)
            if any(under[s] for s in range(4) if s != seat):
                table = KopilkaTable(view)
                plain_wrong += contradictions(table.consistent(random.Random(1)), under, seat)
                likely = likely_world(table, under, random.Random(1))
                likely_wrong += contradictions(likely, under, seat)
            state.apply(seat, easy(view, rng))
    assert noted > 100
    assert likely_wrong * 2 < plain_wrong, (likely_wrong, plain_wrong)
