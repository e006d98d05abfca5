"""Random playouts of all four games × 3–7 players: conservation, legality, termination,
replay, money (RULES.md §1, RECORD.md §R10).

Note: under uniformly random play the counts drift upwards (remises outnumber written-off
points, most of all in Памфил with many players, where the JC carries no bonus), so a pulka at
a large target may not end in any reasonable time. The players here pick a kind of action first
(``by_kind``) and the targets are small.
"""

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
    n = state.players
    named = {"stock", "turn_up", "trick", "out"} | {
        f"{p}{s}" for p in ("hand", "taken") for s in range(n)
    }
    assert set(places) in ({"deck"}, named)  # core's place names (engine.core.Places)
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
        # small targets: uniform random play lets counts drift upwards (see the module note)
        opts: dict[str, object] = {"target": 5 + seed % 3, "must_trump": seed % 2 == 1}
        run(game, players, 1000 + seed, opts)


def _candidates(state: TrickState, seat: int, rng: random.Random) -> list[object]:
    from itertools import combinations

    from engine.cards import SUIT_ORDER
    from engine.trick import Announce, Discard, Exchange, Pass, PlayCard, Retrump

    hand = state.hand(seat)
    out: list[object] = [Pass(), Announce()]
    out += [PlayCard(c) for c in deck_for(state.players)]
    for n in range(min(len(hand), 5) + 1):
        for combo in combinations(hand, n):
            out += [Exchange(combo), Exchange(combo, up=True)]
    out += [Retrump(s, c) for s in SUIT_ORDER for c in hand]
    for _ in range(20):
        out.append(Discard(tuple(rng.sample(hand, rng.randint(1, len(hand))))))
    return out


@pytest.mark.parametrize("game", GAMES)
def test_r4_4_apply_accepts_exactly_the_legal_actions(game: str) -> None:
    from engine.games import new_game

    for seed in range(6):
        state = new_game(game, 3 + seed % 5, seed, {"target": 5})
        assert isinstance(state, TrickState)
        rng = random.Random(seed)
        while (seat := state.to_act) is not None:
            legal = set(state.legal_actions(seat))
            if state.phase != "play" or rng.random() < 0.2:
                for candidate in _candidates(state, seat, rng):
                    assert state._is_legal(seat, candidate) == (candidate in legal), candidate  # type: ignore[arg-type]
            state.apply(seat, by_kind(rng, state.legal_actions(seat)))


def test_view_hides_other_hands() -> None:
    from engine.games import new_game

    state = new_game("mushka", 4, 3)
    assert isinstance(state, TrickState)
    public = state.view(None)
    assert public.hand == () and public.legal == ()
    for seat in range(4):
        view = state.view(seat)
        assert view.hand == state.hand(seat)
        assert view.hand_sizes == tuple(len(state.hand(s)) for s in range(4))
        assert view.legal == state.legal_actions(seat)
