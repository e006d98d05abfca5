"""What a Лентюрлю seat may infer of the hidden hands from the passes (RULES.md §3.3.2,
engine/lenturlu/knowledge.py), and the computer's worlds that keep to it
(engine/players/lenturlu_infer.py).

Along deals of mixed random and easy play, at every action, the certain facts are true of the
real hands (a seat known to hold a value holds one, a seat known to lack one has none); under
the simple player, who runs whenever he can, the habit is true too; and the worlds the sampler
keeps break the certain facts far less often than plain shuffles."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from engine import new_game
from engine.actions import PASS
from engine.cards import RANK_VALUE, Card
from engine.lenturlu import LenturluState, LenturluView
from engine.lenturlu.knowledge import LenturluKnowledge
from engine.players import lenturlu_sim as sim
from engine.players.lenturlu import easy
from engine.players.lenturlu_infer import broken, facts, likely_deal


def _values(hand: list[Card]) -> int:
    mask = 0
    for c in hand:
        mask |= 1 << RANK_VALUE[c.rank]
    return mask


def _deals(players: int, random_share: float, seeds: range, seen: Counter[str]) -> None:
    for seed in seeds:
        state = new_game("lenturlu", players, seed)
        assert isinstance(state, LenturluState)
        rng = random.Random(seed)
        while (seat := state.to_act) is not None:
            view = state.view(seat)
            assert isinstance(view, LenturluView)
            for other in range(players):
                held = _values(state._hands[other])
                assert view.holds[other] & ~held == 0, (other, view.holds[other], held)
                assert view.lacks[other] & held == 0, (other, view.lacks[other], held)
                if random_share == 0.0:
                    assert view.unlikely[other] & held == 0
                    assert view.stopped[other] & held == 0, (other, view.stopped[other], held)
                seen["holds"] += view.holds[other].bit_count()
                seen["lacks"] += view.lacks[other].bit_count()
                seen["unlikely"] += view.unlikely[other].bit_count()
                seen["stopped"] += view.stopped[other].bit_count()
            if any(view.holds) or any(view.lacks):
                base, unseen = sim.known(view)
                known = facts(view, habits=True)
                seen["plain"] += broken(sim.deal(base, unseen, random.Random(1)), known)[0]
                kept = likely_deal(base, unseen, known, random.Random(1))
                seen["kept"] += broken(kept, known)[0]
                seen["sampled"] += 1
            choose_random = rng.random() < random_share
            action = rng.choice(view.legal) if choose_random else easy(view, rng)
            state.apply(seat, action)


@pytest.mark.parametrize("players", [3, 4, 6])
def test_3_3_2_a_pass_tells_what_is_held_or_lacked_and_it_is_true(players: int) -> None:
    seen: Counter[str] = Counter()
    _deals(players, 0.5, range(80), seen)
    assert seen["holds"] > 20 and seen["lacks"] > 3 and seen["sampled"] > 20, seen
    assert seen["plain"] > 5 and seen["kept"] * 3 <= seen["plain"], seen


def test_3_3_2_the_simple_player_passes_after_a_buy_only_without_the_value() -> None:
    seen: Counter[str] = Counter()
    _deals(4, 0.0, range(40), seen)
    assert seen["unlikely"] > 5, seen


@pytest.mark.parametrize("players", [3, 6])
def test_the_simple_player_holds_nothing_just_outside_its_runs(players: int) -> None:
    seen: Counter[str] = Counter()
    _deals(players, 0.0, range(30), seen)
    assert seen["stopped"] > 30, seen


def test_a_run_marks_the_values_just_outside_it_and_a_draw_or_a_play_clears_them() -> None:
    known = LenturluKnowledge(3)
    known.ran(0, [4, 5, 6], lead=True)  # a lead of 4 5 6: no 3, no 7
    known.ran(1, [7, 8])  # a follow of 7 8: no 9; the 6 below was the top
    known.ran(2, [12, 13])  # a follow ending on the K: nothing above it
    assert known.stopped() == (1 << 3 | 1 << 7, 1 << 9, 0)
    known.ran(0, [1, 2, 3], lead=True)  # it held a 3 after all; an ace has nothing below
    assert known.stopped() == (1 << 4 | 1 << 7, 1 << 9, 0)
    known.drew(1)
    assert known.stopped()[1] == 0


def test_kept_worlds_hold_less_just_outside_the_runs_than_plain_ones() -> None:
    plain = kept = 0
    for seed in range(40):
        state = new_game("lenturlu", 6, seed)
        assert isinstance(state, LenturluState)
        rng = random.Random(seed)
        while (seat := state.to_act) is not None:
            view = state.view(seat)
            assert isinstance(view, LenturluView)
            if any(view.stopped):
                base, unseen = sim.known(view)
                known = facts(view, habits=True)
                plain += broken(sim.deal(base, unseen, random.Random(seed)), known)[2]
                kept += broken(likely_deal(base, unseen, known, random.Random(seed)), known)[2]
            state.apply(seat, easy(view, rng))
    assert plain > 30 and kept * 3 <= plain, (plain, kept)


def test_3_3_2_a_pass_without_a_buy_while_the_stock_lasts_shows_the_value_held() -> None:
    for seed in range(200):
        state = new_game("lenturlu", 4, seed)
        assert isinstance(state, LenturluState)
        rng = random.Random(seed)
        while (seat := state.to_act) is not None:
            view = state.view(seat)
            assert isinstance(view, LenturluView)
            if PASS in view.legal and not view.bought and view.stock and view.top is not None:
                need = RANK_VALUE[view.top.rank] + 1
                state.apply(seat, PASS)
                assert state.view(None).holds[seat] >> need & 1
                return
            state.apply(seat, easy(view, rng))
    raise AssertionError("no such pass")
