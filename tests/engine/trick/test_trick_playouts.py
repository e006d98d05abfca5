"""Random playouts of all four games × 3–7 players: conservation, legality, termination,
replay, money (RULES.md §1, RECORD.md §R10)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from engine.record import replay
from engine.trick import TrickState
from engine.trick.variant import deck_for

from .helpers import by_kind

GAMES = ("mushka", "pamfil", "shutikha", "mistigri")
MAX_ACTIONS = 50_000


def _assert_conserved(state: TrickState) -> None:
    places = state.places()
    seen = Counter(c for cards in places.values() for c in cards)
    deck = deck_for(state.players)
    assert set(seen) == set(deck)
    assert all(v == 1 for v in seen.values())


def run(game: str, players: int, seed: int, options: dict[str, object]) -> TrickState:
    from engine.games import new_game

    state = new_game(game, players, seed, options)
    assert isinstance(state, TrickState)
    rng = random.Random(f"{seed}:players")
    _assert_conserved(state)
    for _ in range(MAX_ACTIONS):
        seat = state.to_act
        if seat is None:
            break
        legal = state.legal_actions(seat)
        assert legal
        assert len(set(legal)) == len(legal)
        for other in range(players):
            if other != seat:
                assert state.legal_actions(other) == ()
        action = by_kind(rng, legal)
        before = state.counts
        phase = state.phase
        lines = state.apply(seat, action)
        assert lines[0] == {"t": "act", "seat": seat, "a": str(action)}
        _assert_conserved(state)
        if not any(line["t"] == "deal_end" for line in lines):
            assert state.counts == before  # counts change only at the end of a deal
        for line in lines:
            if line["t"] == "deal_end" and line["result"] == "played":
                for fig in line["seats"]:
                    raw = fig["before"] - fig["written_off"] + fig["remise"]
                    assert fig["after"] == (state.options.target if raw < 0 else raw)
                    assert fig["overshoot"] == (raw < 0)
        assert phase in ("retrump", "declare", "discard", "play")
    assert state.is_over, "the pulka must end"
    result = state.result
    assert result is not None and sum(result.net) == 0
    record = state.record()
    assert replay(record).record() == record
    return state


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7])
@pytest.mark.parametrize("game", GAMES)
def test_r10_random_playouts(game: str, players: int) -> None:
    for seed in range(12):
        opts: dict[str, object] = {"target": 5 + seed % 4, "must_trump": seed % 2 == 1}
        run(game, players, seed, opts)


@pytest.mark.slow
@pytest.mark.parametrize("players", [3, 4, 5, 6, 7])
@pytest.mark.parametrize("game", GAMES)
def test_r10_random_playouts_sweep(game: str, players: int) -> None:
    for seed in range(300):
        opts: dict[str, object] = {"target": 5 + seed % 11, "must_trump": seed % 2 == 1}
        run(game, players, 1000 + seed, opts)
