"""Копилка's computer players (engine.players.kopilka): whole games end with legal moves
and records that replay; ``normal`` sees only the view and is deterministic given its generator;
its sampled worlds agree with the view."""

from __future__ import annotations

import random

import pytest

from engine import new_game
from engine.actions import PASS, Buy, PlayCard
from engine.cards import Card
from engine.kopilka import KopilkaState, KopilkaView
from engine.players.kopilka import easy, world
from tests.engine.players_common import midgame

GAME = "kopilka"


def test_easy_leads_low_and_buys_when_void() -> None:
    state = new_game(GAME, 4, 3)
    assert isinstance(state, KopilkaState)
    seat = state.to_act
    assert seat is not None
    view = state.view(seat)
    assert isinstance(view, KopilkaView)
    action = easy(view, random.Random(0))
    assert isinstance(action, PlayCard)
    order = ["A", "K", "Q", "J", "10", "9", "8", "7"]
    assert order.index(action.card.rank.value) == max(order.index(c.rank.value) for c in view.hand)
    rng = random.Random(1)
    for _ in range(400):  # a void follower with a stock buys one card (§2.4.3 b)
        seat = state.to_act
        if seat is None:
            break
        view = state.view(seat)
        assert isinstance(view, KopilkaView)
        action = easy(view, rng)
        void = not any(c.suit is view.led_suit for c in view.hand)
        if Buy(1) in view.legal and void and PlayCard(Card.parse("AS")) not in view.legal:
            assert action == Buy(1)
        if view.legal == (PASS,):
            assert action == PASS
        state.apply(seat, action)


@pytest.mark.parametrize("players", [4])
def test_a_world_agrees_with_the_view(players: int) -> None:
    state = midgame(GAME, players, 20 + players, 9)
    seat = state.to_act
    assert seat is not None
    view = state.view(seat)
    sampled = world(view, random.Random(3))
    seen = sampled.view(seat)
    for name in (
        "hand",
        "hand_sizes",
        "trick",
        "led_suit",
        "leader",
        "forbidden_suit",
        "gone",
        "bank",
    ):
        assert getattr(seen, name) == getattr(view, name), name
    assert (seen.stock_size, seen.legal, seen.to_act) == (view.stock_size, view.legal, view.to_act)
    for name in ("partia_points", "deal_points", "tricks_won", "fines", "bought", "takebacks"):
        assert getattr(seen, name) == getattr(view, name), name
    cards = [c for cards in sampled.places().values() for c in cards]
    assert sorted(map(str, cards)) == sorted(map(str, set(cards))) and len(cards) == 32
    hidden = {c for s in range(players) if s != seat for c in state._hands[s]}
    assert hidden | set(state._stock) == {
        c for s in range(players) if s != seat for c in sampled._hands[s]
    } | set(sampled._stock)
