"""The fast Кончинка simulator (engine.players.konchinka_sim) against the engine (RULES.md §4).

Random mid-game positions of every seat count and both value rules; from each, one world is
built both ways from the seat's view with the same generator seed (the engine's
``konchinka.world`` and the simulator's ``Seen.world``), then both are played on with the same
choices (a random index into the legal moves, or the easy rule) to the end of the deal. At
every step: the full list of legal moves, in order (the simulator's full generator against the
engine's), the easy rule's choice, and the whole state (hands, table, stock, hauls, last
capturer, seat to act); at the end the deal points and the winner the search values.
"""

from __future__ import annotations

import functools
import random
from typing import Any

import pytest

from engine import new_game
from engine.cards import DECK_52, Card
from engine.konchinka import KonchinkaOptions, KonchinkaState, KonchinkaView, rules
from engine.konchinka.rules import Haul, KonchinkaPhase
from engine.players import random_player
from engine.players.determinized import WorldChance, deal_unseen, step
from engine.players.konchinka import easy, pick
from engine.players.konchinka_sim import (
    CODE,
    HAUL,
    KonchinkaSim,
    Memo,
    Seen,
    choice,
    deal_points,
    encode,
    rollout,
)

OPTIONS = [
    {"court_values": court, "target": target} for court in (False, True) for target in (5, 15)
]


def world(view: KonchinkaView, rng: random.Random) -> KonchinkaState:
    """The engine's state of a world of ``view``: the unseen cards dealt by ``deal_unseen`` (the
    others' hands in seat order, then the stock), no next deal (the search's reference)."""
    me = view.seat
    assert me is not None and view.to_act == me
    seen = set(view.hand) | set(view.table)
    for taken in view.taken:
        seen.update(taken)
    unseen = [c for c in DECK_52 if c not in seen]
    others = [s for s in range(view.players) if s != me]
    piles = deal_unseen(unseen, [view.hand_sizes[s] for s in others] + [view.stock], rng)
    options = KonchinkaOptions(target=view.target, court_values=view.court_values)
    state = KonchinkaState(view.game, view.players, options, 0, WorldChance(rng))
    hands: list[list[Card]] = [[] for _ in range(view.players)]
    hands[me] = list(view.hand)
    for s, pile in zip(others, piles, strict=False):
        hands[s] = pile
    state._hands = hands
    state._stock = piles[-1]
    state._table = list(view.table)
    state._captured = [list(t) for t in view.taken]
    state._last_capturer = view.last_capturer
    state._totals = list(view.totals)
    state._dealer = view.dealer if view.dealer is not None else 0
    state._deal_no = view.deal_no
    state._phase = KonchinkaPhase.PLAY
    state._to_act = me
    state._awaiting = None
    return state


def snapshot(state: KonchinkaState) -> tuple[Any, ...]:
    """The engine's deal as the simulator holds it (a stock's top is its last card there)."""
    return (
        [sorted(CODE[c] for c in h) for h in state._hands],
        [CODE[c] for c in state._table],
        [CODE[c] for c in reversed(state._stock)],
        [sum(HAUL[CODE[c]] for c in taken) for taken in state._captured],
        state._last_capturer,
        state.to_act,
    )


def sim_snapshot(sim: KonchinkaSim) -> tuple[Any, ...]:
    return (sim.hands, sim.table, sim.stock, sim.hauls, sim.last, sim.to_act)


def position(players: int, options: dict[str, Any], seed: int) -> KonchinkaState | None:
    """A game some random and easy moves in (any deal), or ``None`` if it ended."""
    rng = random.Random(seed)
    state = new_game("konchinka", players, seed, options)
    assert isinstance(state, KonchinkaState)
    for _ in range(rng.randrange(0, 120)):
        seat = state.to_act
        if seat is None:
            return None
        policy = easy if rng.random() < 0.5 else random_player
        state.apply(seat, policy(state.view(seat), rng))
    return state if state.to_act is not None else None


def play_both(state: KonchinkaState, seed: int) -> int:
    """Build one world both ways from the view of the seat to act and play both to the end of
    the deal, comparing at every step; the steps played."""
    seat = state.to_act
    assert seat is not None
    view = state.view(seat)
    assert isinstance(view, KonchinkaView)
    engine = world(view, random.Random(seed))
    sim = Seen(view).world(random.Random(seed))
    before = list(engine._totals)
    rng = random.Random(seed + 1)
    memo: Memo = {}
    steps = 0
    assert sim_snapshot(sim) == snapshot(engine)
    while engine.to_act is not None:
        assert not sim.over
        seat = engine.to_act
        legal = engine.legal_actions(seat)
        table = list(engine._table)
        coded = [encode(table, a) for a in legal]
        assert sim.legal() == coded  # §4.3.6: the same moves in the same order
        easy_move = pick(legal, table)
        assert choice(sim, memo) == encode(table, easy_move)
        move = easy_move if rng.random() < 0.5 else legal[rng.randrange(len(legal))]
        step(engine, seat, move)
        sim.play(*encode(table, move))
        steps += 1
        if engine.to_act is not None:
            assert sim_snapshot(sim) == snapshot(engine)
    assert sim.over
    gains = [t - b for t, b in zip(engine._totals, before, strict=True)]
    assert sim.points == gains  # §4.4.1, or the G bounds of an early finish (§4.4.4)
    result = engine.result
    assert sim.winner == (None if result is None else result.winner)  # §4.4.3, §4.4.4
    return steps


@functools.cache
def positions(count: int, first: int) -> list[tuple[KonchinkaState, int]]:
    """``count`` positions from seed ``first`` on (2, 3, 4 seats and every option set in turn);
    the tests only read them (worlds are built from their views)."""
    out: list[tuple[KonchinkaState, int]] = []
    seed = first
    while len(out) < count:
        players = 2 + seed % 3
        state = position(players, OPTIONS[seed // 3 % len(OPTIONS)], seed)
        if state is not None:
            out.append((state, seed))
        seed += 1
    return out


def test_the_simulator_plays_the_engine_s_rules() -> None:
    steps = sum(play_both(state, seed) for state, seed in positions(160, 0))
    assert steps > 1500


@pytest.mark.slow
def test_the_simulator_plays_the_engine_s_rules_long() -> None:
    for state, seed in positions(3000, 10_000):
        play_both(state, seed)


def test_4_4_4_early_finishes_and_4_4_3_wins_are_met() -> None:
    """The positions above reach the rules that end a game: certain wins and target wins."""
    early = won = 0
    for state, seed in positions(160, 0):
        seat = state.to_act
        assert seat is not None
        view = state.view(seat)
        assert isinstance(view, KonchinkaView)
        sim = Seen(view).world(random.Random(seed))
        rollout(sim, {})
        early += sim.winner is not None and bool(any(sim.hands) or sim.stock)
        won += sim.winner is not None
    assert early > 5 and won > early


def test_the_rollout_values_as_the_engine() -> None:
    """The simulator's rollout (the easy rule inlined) against the engine's playing ``pick``."""
    memo: Memo = {}
    for state, seed in positions(160, 0)[::2]:
        seat = state.to_act
        assert seat is not None
        view = state.view(seat)
        assert isinstance(view, KonchinkaView)
        engine = world(view, random.Random(seed))
        sim = Seen(view).world(random.Random(seed))
        before = list(engine._totals)
        done = 0
        while (s := engine.to_act) is not None:
            step(engine, s, pick(engine.legal_actions(s), engine._table))
            done += 1
        assert rollout(sim, memo) == done
        gains = [t - b for t, b in zip(engine._totals, before, strict=True)]
        assert sim.points == gains
        result = engine.result
        assert sim.winner == (None if result is None else result.winner)


def random_hauls(rng: random.Random, players: int) -> list[Haul]:
    """Hauls of one deal: the 52 cards (13 clubs, 2 кончинки) split at random, some left."""
    deck = list(range(52))
    rng.shuffle(deck)
    cut = sorted(rng.randrange(53) for _ in range(players))
    out = []
    for s in range(players):
        cards = deck[cut[s - 1] if s else 0 : cut[s]]
        out.append(Haul(len(cards), sum(c < 13 for c in cards), sum(c in (0, 13) for c in cards)))
    return out


def packed(hauls: list[Haul]) -> list[int]:
    return [h.cards + (h.clubs << 8) + (h.konchinki << 16) for h in hauls]


def test_4_4_1_deal_points_as_the_engine() -> None:
    rng = random.Random(7)
    for _ in range(3000):
        hauls = random_hauls(rng, rng.randrange(2, 5))
        if rng.random() < 0.3:  # ties of the most cards, of two and more
            top = max(h.cards for h in hauls)
            hauls = [Haul(top, h.clubs, h.konchinki) if rng.random() < 0.6 else h for h in hauls]
        assert deal_points(packed(hauls)) == rules.deal_points(hauls)


def test_4_4_4_certain_wins_as_the_engine() -> None:
    """The simulator's early finish on random hauls and totals against the engine's bounds."""
    rng = random.Random(8)
    ended = 0
    for _ in range(3000):
        players = rng.randrange(2, 5)
        hauls = random_hauls(rng, players)
        target = rng.randrange(5, 20)
        totals = [rng.randrange(max(0, target - 6), target) for _ in range(players)]
        sim = KonchinkaSim([[0]] * players, [], [], packed(hauls), None, totals, 0, target, False)
        sim._check_certain()
        guaranteed, possible = rules.bounds(hauls)
        winner = rules.certain_winner(totals, guaranteed, possible, target)
        assert sim.winner == winner
        if winner is not None:
            assert sim.points == guaranteed
            ended += 1
    assert ended > 100
