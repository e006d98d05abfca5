"""``hard``'s rollout policy for Копилка (engine.players.kopilka_rollout, RULES.md §2): it plays
only legal actions, the very ones the engine allows, to the same end as the engine; it reads
only what the seat may know; and it plays as its weights say on positions built for it."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine.cards import Card
from engine.kopilka.options import KopilkaOptions
from engine.players.determinized import Work, step
from engine.players.kopilka import money
from engine.players.kopilka_rollout import SHARE, choose, gone_of, rollout, worth
from engine.players.kopilka_sim import BUY_1, BUY_2, CODE, PASS, KopilkaSim, code
from tests.engine.test_kopilka_sim import OPTION_SETS, both, positions


def _c(text: str) -> int:
    return CODE[Card.parse(text)]


@pytest.mark.parametrize("options", OPTION_SETS[:3])
def test_the_policy_plays_the_engines_legal_actions_to_the_same_end(
    options: dict[str, Any],
) -> None:
    """From many positions, the engine's world and the sim's are played on side by side, every
    action the policy's choice in the sim: it is always among the legal actions, which agree
    with the engine's, and the deal ends alike; the sim's rollout plays the same actions."""
    checked = 0
    for seed in range(3):
        for k, view in enumerate(positions(options, seed, 4)):
            me = view.seat
            assert me is not None
            state, sim = both(view, 100 * seed + k)
            fresh = sim.copy(0)
            assert sim.rng is not None
            fresh.rng = random.Random()
            fresh.rng.setstate(sim.rng.getstate())  # the same takes as ``sim``'s (§2.3.4)
            gone = gone_of(sim)
            actions = 0
            while (seat := state.to_act) is not None:
                legal = state.legal_actions(seat)
                assert sim.legal() == [code(a) for a in legal]
                plays = sim.plays
                action = choose(sim, gone)
                assert action in sim.legal()
                step(state, seat, legal[[code(a) for a in legal].index(action)])
                sim.apply(action)
                actions += 1
                if sim.plays is not plays and len(plays) > 1:
                    gone |= sum(1 << c for c in plays)
            assert sim.to_act == -1
            for s in range(4):
                assert sim.value(s) == money(state, s)
            work = Work()
            rollout(fresh, work)
            assert work.done == actions and fresh.value(me) == sim.value(me)
            checked += 1
    assert checked > 40


def _follow(hand: list[str], trick: list[str], stock: int = 6) -> KopilkaSim:
    """A sim with seat 0 to follow, after the cards of ``trick`` (led by seat 4 − len)."""
    sim = KopilkaSim.__new__(KopilkaSim)
    leader = 4 - len(trick)
    sim.hands = [[_c(c) for c in hand], [_c("7S")], [_c("8S")], [_c("9S")]]
    sim.stock = [_c("10S")] * stock
    sim.plays = [_c(c) for c in trick]
    sim.led = sim.plays[0] >> 3
    sim.top = max((c for c in sim.plays if c >> 3 == sim.led), default=-1)
    if _c("AS") in sim.plays:
        sim.top = _c("AS")
    sim.leader, sim.turns, sim.bought, sim.to_act = leader, len(trick) - 1, False, 0
    sim.free, sim.last = True, -1
    sim.options = KopilkaOptions()
    return sim


def test_a_follower_takes_with_the_lowest_card_that_takes() -> None:
    sim = _follow(["7H", "QH", "AH", "8C"], ["10H"])
    assert choose(sim, 0) == _c("QH")


def test_a_follower_who_cannot_take_keeps_his_high_cards() -> None:
    sim = _follow(["7D", "JD", "8C"], ["AD"])
    assert choose(sim, 0) == _c("7D")


def test_the_as_is_not_spent_on_clubs_by_a_follower_who_holds_them() -> None:
    assert choose(_follow(["AS", "8C", "8D"], ["9C"]), 0) == _c("8C")
    assert choose(_follow(["AS", "8H", "8D"], ["9H"]), 0) == _c("AS")


def test_a_void_follower_with_one_card_passes_and_with_a_pair_buys() -> None:
    assert choose(_follow(["8C"], ["9H", "JH"]), 0) == PASS
    assert choose(_follow(["8C", "9C", "7D", "10D"], ["9H", "JH"]), 0) in (BUY_1, BUY_2)


def test_a_lead_avoids_a_suit_nobody_else_can_hold() -> None:
    """Every other diamond is gone: a diamond lead comes back (§2.4.7); a master club goes."""
    sim = _follow(["7D", "AC", "8C"], ["9H"])
    sim.plays, sim.led, sim.top = [], -1, -1
    gone = sum(1 << _c(c) for c in ("8D", "9D", "10D", "JD", "QD", "KD", "AD"))
    assert choose(sim, gone) == _c("AC")


def test_worth_counts_a_quarter_of_the_banks_rest_before_the_fourth_deal() -> None:
    """§2.6.5 a: another seat's fine is a quarter of it to this seat; in the fourth deal the
    worth is the money itself."""
    for view in positions({}, 1, 3):
        me = view.seat
        assert me is not None
        sim = both(view, 7)[1]
        other = (me + 1) % 4
        before = worth(sim, me)
        sim.bank += 8
        sim.paid[other] += 8
        if sim.deal_no < 4:
            assert worth(sim, me) == before + 8 * SHARE
            sim.partia = [p + (4 if s == other else 0) for s, p in enumerate(sim.partia)]
            assert worth(sim, me) == before + 4 * SHARE
        else:
            assert worth(sim, me) == sim.value(me)
