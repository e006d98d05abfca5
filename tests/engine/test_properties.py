"""Property tests over every game (STYLE.md §7): Hypothesis picks the game, seat count, seed
and options; a random legal playout conserves the cards at every step (``places()``), ends,
settles to zero and replays to the same record."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import GAMES, new_game, replay
from engine.players import policy_for
from engine.simulate import playout

# A few option sets per game, so the properties also hold off the defaults.
OPTION_SETS: dict[str, list[dict[str, object]]] = {
    "mushka": [{"target": 5}, {"target": 10, "must_trump": True, "pulka_fee": 3}],
    "pamfil": [{"target": 5}, {"target": 8, "pamfil_bonus": 0, "must_trump": True}],
    "shutikha": [{"target": 5}, {"target": 9, "point_value": 7}],
    "mistigri": [{"target": 5}, {"target": 7, "flush_bonus": 11, "must_trump": True}],
    "kopilka": [{}, {"hold_pass": True, "ante": 0, "point_rate": 3}],
    "lenturlu": [{}, {"manner": "out", "payment": "cards", "refill_units": 0}],
    "konchinka": [{"target": 5}, {"target": 5, "court_values": True, "payment": "pot"}],
}


@settings(max_examples=60, deadline=None)
@given(game=st.sampled_from(sorted(GAMES)), seed=st.integers(0, 2**32 - 1), data=st.data())
def test_random_playout_settles_and_replays(game: str, seed: int, data: st.DataObject) -> None:
    players = data.draw(st.sampled_from(GAMES[game].seat_counts), label="players")
    options = data.draw(st.sampled_from(OPTION_SETS[game]), label="options")
    state = playout(new_game(game, players, seed, options), random.Random(seed))
    record = state.record()
    assert state.is_over and record[-1]["t"] == "end"
    assert sum(record[-1]["net"]) == 0
    assert record[-1].get("bank", 0) == 0
    assert record[0]["options"] == {**record[0]["options"], **options}
    assert replay(record).record() == record


@settings(max_examples=40, deadline=None)
@given(game=st.sampled_from(sorted(GAMES)), seed=st.integers(0, 2**32 - 1), data=st.data())
def test_every_card_is_in_exactly_one_place_after_every_action(
    game: str, seed: int, data: st.DataObject
) -> None:
    players = data.draw(st.sampled_from(GAMES[game].seat_counts), label="players")
    options = data.draw(st.sampled_from(OPTION_SETS[game]), label="options")
    state = new_game(game, players, seed, options)
    policy = policy_for(GAMES[game].family)
    pick = random.Random(seed)
    deck = Counter(state.deck)
    while (seat := state.to_act) is not None:
        places = state.places()
        assert Counter(c for where in places.values() for c in where) == deck
        assert len(state.hand(seat)) == len(places[f"hand{seat}"])
        state.apply(seat, policy(state.view(seat), pick))
    assert Counter(c for where in state.places().values() for c in where) == deck
