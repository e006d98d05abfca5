"""What a trail tells in Кончинка (RULES.md §4.3.5, ``KonchinkaView.trailed``) and the worlds
that keep to it (engine/players/konchinka_infer.py).

Along games of mixed random and easy play, at every action: each seat's last trail onto a
non-empty table left it no card that could capture there but the cards drawn since — true of
the real hands; and the worlds the sampler keeps break it far less often than plain shuffles."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from engine import new_game
from engine.cards import Card, Rank
from engine.konchinka import KonchinkaState, KonchinkaView, rules
from engine.players import konchinka_sim as sim
from engine.players.konchinka import easy
from engine.players.konchinka_infer import broken, facts, likely_world


def _captures_on(card: Card, table: tuple[Card, ...], court: bool) -> bool:
    return (card.rank is Rank.JACK and not court) or bool(rules.captures(card, table, court))


@pytest.mark.parametrize(("players", "court"), [(2, False), (3, True), (4, False)])
def test_4_3_5_a_trail_tells_that_nothing_held_then_could_capture(
    players: int, court: bool
) -> None:
    seen: Counter[str] = Counter()
    for seed in range(8):
        state = new_game("konchinka", players, seed, {"court_values": court, "target": 5})
        assert isinstance(state, KonchinkaState)
        rng = random.Random(seed)
        while (seat := state.to_act) is not None:
            view = state.view(seat)
            assert isinstance(view, KonchinkaView)
            for other, (table, since) in enumerate(view.trailed):
                if not table:
                    continue
                able = [c for c in state._hands[other] if _captures_on(c, table, court)]
                assert len(able) <= since, (other, table, since, able)
                seen["facts"] += 1
            known = facts(view, frozenset(sim.Seen(view).unseen))
            if known:
                world = sim.Seen(view)
                seen["plain"] += broken(world.world(random.Random(1)), known)
                seen["kept"] += broken(likely_world(world, known, random.Random(1)), known)
            state.apply(seat, rng.choice(view.legal) if rng.random() < 0.3 else easy(view, rng))
    assert seen["facts"] > 50, seen
    assert seen["plain"] > 10 and seen["kept"] * 5 < seen["plain"], seen
