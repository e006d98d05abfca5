"""The API contract every registered game keeps (OpenSpiel's random_sim_test, STYLE.md §7).

For every game and every allowed seat count, random legal playouts check: someone is to act until
the end and has a legal action; each action's text parses back to it; the wrong seat is refused
with ``not_your_turn`` and nothing changes; ``apply`` returns exactly the lines it appended, its
``act`` line first; views hide other hands; the record starts with ``game``/``seats`` and ends with
one ``end`` whose ``net`` sums to zero; replaying the record reproduces it; ``abandon`` settles
nothing; ``places()`` holds every card of the deck exactly once after every action.
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from engine import GAMES, IllegalAction, Refusal, new_game, replay
from engine.core import State
from engine.simulate import random_action

CASES = [(game, n) for game, spec in GAMES.items() for n in spec.seat_counts]
SEEDS_PER_CASE = 3


def _check_step(state: State, pick: random.Random, *, thorough: bool) -> None:
    seat = state.to_act
    assert seat is not None
    legal = state.legal_actions(seat)
    assert legal, f"seat {seat} is to act but has no legal action"
    action = random_action(legal, pick)
    assert state.parse_action(str(action)) == action
    version = state.version
    if thorough:  # the full record is copied here, so only every few steps
        for other in range(state.players):
            if other != seat:
                assert state.legal_actions(other) == ()
        before = state.record()
        wrong = (seat + 1) % state.players
        with pytest.raises(IllegalAction) as refused:
            state.apply(wrong, action)
        assert refused.value.code is Refusal.NOT_YOUR_TURN
        assert state.record() == before, "a refused action changed the record"
        lines = state.apply(seat, action)
        after = state.record()
        assert list(lines) == after[len(before) :]
        json.dumps(after)  # every line is plain JSON
    else:
        lines = state.apply(seat, action)
    assert lines[0] == {"t": "act", "seat": seat, "a": str(action)}
    assert state.version == version + 1


def _check_places(state: State) -> None:
    """Every card of the deck is in exactly one place, in every game (RECORD.md §R10.6)."""
    places = state.places()
    cards = [card for where in places.values() for card in where]
    assert Counter(cards) == Counter(state.deck), "a card is missing or in two places"
    assert all(isinstance(where, tuple) for where in places.values())


def _check_views(state: State) -> None:
    public = state.view(None)
    assert public.hand == () and public.seat is None and public.legal == ()
    for seat in range(state.players):
        view = state.view(seat)
        assert view.seat == seat and len(view.hand) == view.hand_sizes[seat]
        assert view.legal == state.legal_actions(seat)


@pytest.mark.parametrize(("game", "players"), CASES)
def test_random_playouts_keep_the_contract(game: str, players: int) -> None:
    for k in range(SEEDS_PER_CASE):
        seed = 1000 * players + k
        state = new_game(game, players, seed)
        pick = random.Random(f"{game}:{seed}")
        record = state.record()
        assert [line["t"] for line in record[:2]] == ["game", "seats"]
        steps = 0
        _check_places(state)
        while state.to_act is not None:
            if steps % 7 == 0:
                _check_views(state)
            _check_places(state)
            _check_step(state, pick, thorough=steps % (7 if steps < 300 else 499) == 0)
            steps += 1
            assert steps < 20_000
        assert state.is_over and state.result is not None
        _check_places(state)
        record = state.record()
        assert record[-1]["t"] == "end"
        assert [line["t"] for line in record].count("end") == 1
        assert sum(record[-1]["net"]) == 0
        assert list(state.result.net) == record[-1]["net"]
        assert replay(record).record() == record
        with pytest.raises(IllegalAction) as refused:
            state.apply(0, "pass")
        assert refused.value.code is Refusal.GAME_OVER


@pytest.mark.parametrize("game", sorted(GAMES))
def test_clone_is_independent_and_plays_on_identically(game: str) -> None:
    players = GAMES[game].seat_counts[-1]
    state = new_game(game, players, 21)
    pick = random.Random(21)
    for _ in range(6):  # no game ends this soon
        seat = state.to_act
        assert seat is not None
        state.apply(seat, random_action(state.legal_actions(seat), pick))
    twin = state.clone()
    assert twin.record() == state.record() and twin is not state
    for _ in range(40):
        seat = state.to_act
        if seat is None:
            break
        action = random_action(state.legal_actions(seat), pick)
        assert twin.to_act == seat and twin.legal_actions(seat) == state.legal_actions(seat)
        state.apply(seat, action)
        twin.apply(seat, str(action))
    assert twin.record() == state.record()
    seat = twin.to_act
    if seat is not None:
        before = state.record()
        twin.apply(seat, twin.legal_actions(seat)[0])
        assert state.record() == before, "playing the clone changed the original"


@pytest.mark.parametrize("game", sorted(GAMES))
def test_0_11_abandoned_game_settles_nothing(game: str) -> None:
    players = GAMES[game].seat_counts[0]
    state = new_game(game, players, 5)
    seat = state.to_act
    assert seat is not None
    state.apply(seat, state.legal_actions(seat)[0])  # no game ends on its first action
    state.abandon()
    assert state.to_act is None and state.is_over
    record = state.record()
    assert record[-1] == {"t": "end", "reason": "abandoned", "net": [0] * players}
    assert replay(record).record() == record


@pytest.mark.parametrize("game", sorted(GAMES))
def test_same_seed_same_game_other_seed_other_deal(game: str) -> None:
    players = GAMES[game].seat_counts[0]
    a, b, c = new_game(game, players, 11), new_game(game, players, 11), new_game(game, players, 12)
    assert a.record() == b.record()
    assert a.record()[2:] != c.record()[2:]


@pytest.mark.parametrize("game", sorted(GAMES))
def test_bad_setups_are_refused(game: str) -> None:
    from engine import InvalidOption

    spec = GAMES[game]
    with pytest.raises(InvalidOption):
        new_game(game, max(spec.seat_counts) + 1, 1)
    with pytest.raises(InvalidOption):
        new_game(game, spec.seat_counts[0], 1, {"no_such_option": "1"})
    with pytest.raises(InvalidOption):
        new_game("preferans", 3, 1)
