"""The trick family's computer players (engine/players/trick*.py): legal, ending, replayable,
deterministic, and reading nothing but the seat's view."""

from __future__ import annotations

import random
from collections.abc import Mapping

import pytest

from engine import new_game, replay
from engine.cards import Card, Suit
from engine.core import State
from engine.players import computer, random_player
from engine.players.trick_sample import CODE, knowledge, sample
from engine.players.trick_search import KnownDeal, new_deal, solve, table_for, utility
from engine.trick.state import TrickState
from engine.trick.view import TrickView

TRICK_GAMES = ("mushka", "pamfil", "shutikha", "mistigri")
SHORT: Mapping[str, object] = {"target": 5}  # a short pulka for the searching player


def _play(
    game: str,
    players: int,
    seed: int,
    levels: list[str],
    options: object = None,
    deals: int | None = None,
) -> State:
    """A whole pulka: seat s plays ``levels[s]`` (for the first ``deals`` deals, then
    ``easy``); every action goes through ``apply``, which raises on an illegal one."""
    state = new_game(game, players, seed, options)  # type: ignore[arg-type]
    policies = [random_player if lv == "random" else computer(game, lv) for lv in levels]
    easy = computer(game, "easy")
    rngs = [random.Random(f"{seed}:{s}") for s in range(players)]
    for _ in range(100_000):
        seat = state.to_act
        if seat is None:
            return state
        view = state.view(seat)
        late = deals is not None and view.deal_no > deals
        action = (easy if late else policies[seat])(view, rngs[seat])
        assert action in view.legal
        state.apply(seat, action)
    raise AssertionError("no end")


@pytest.mark.parametrize("game", TRICK_GAMES)
@pytest.mark.parametrize("players", [3, 5, 7])
def test_easy_players_end_legal_and_replay(game: str, players: int) -> None:
    for seed in range(2):
        state = _play(game, players, seed, ["easy"] * players)
        result = state.result
        assert result is not None and sum(result.net) == 0
        record = state.record()
        assert replay(record).record() == record


@pytest.mark.parametrize("game", TRICK_GAMES)
@pytest.mark.parametrize("players", [3, 6])
@pytest.mark.parametrize("level", ["normal", "hard"])
def test_searching_player_plays_legal_deals_that_replay(
    game: str, players: int, level: str
) -> None:
    levels = [level, "easy", "normal", "random", "easy", "random"][:players]
    state = _play(game, players, 7, levels, SHORT, deals=2)
    assert state.result is not None
    record = state.record()
    assert replay(record).record() == record


@pytest.mark.slow
@pytest.mark.parametrize("game", TRICK_GAMES)
@pytest.mark.parametrize("players", [3, 4, 5, 6, 7])
def test_normal_players_whole_pulkas_soak(game: str, players: int) -> None:
    for seed in range(2):
        levels = ["normal", "easy", "random"] * 3
        state = _play(game, players, seed, levels[:players])
        result = state.result
        assert result is not None and sum(result.net) == 0
        record = state.record()
        assert replay(record).record() == record


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_searching_player_is_deterministic(level: str) -> None:
    one = _play("mushka", 3, 5, [level, "easy", "normal"], SHORT, deals=2).record()
    two = _play("mushka", 3, 5, [level, "easy", "normal"], SHORT, deals=2).record()
    assert one == two


def _reach(game: str, players: int, seed: int, phase: str, trick_no: int = 1) -> TrickState:
    """Easy play until a seat of ``phase`` (and trick) is to act with a real choice."""
    state = new_game(game, players, seed)
    assert isinstance(state, TrickState)
    easy = computer(game, "easy")
    rng = random.Random(seed)
    while state.to_act is not None:
        view = state.view(state.to_act)
        if view.phase == phase and len(view.legal) > 1 and view.trick_no >= trick_no:
            return state
        state.apply(state.to_act, easy(view, rng))
    raise AssertionError("phase never reached")


def _permute_hidden(state: TrickState, me: int, rng: random.Random) -> TrickState:
    """A copy whose cards unseen by ``me`` are permuted among the same holders, keeping every
    suit where it was (so the voids the plays reveal stay true): the same view of ``me``."""
    other = state.clone()
    hands = other._hands
    holders = [s for s in range(state.players) if s != me and hands[s]]
    for suit in Suit:
        slots = [(s, i) for s in holders for i, c in enumerate(hands[s]) if c.suit is suit]
        slots += [(-1, i) for i, c in enumerate(other._stock) if c.suit is suit]
        cards = [hands[s][i] if s >= 0 else other._stock[i] for s, i in slots]
        rng.shuffle(cards)
        for (s, i), card in zip(slots, cards, strict=True):
            if s >= 0:
                hands[s][i] = card
            else:
                other._stock[i] = card
    for s in holders:
        hands[s] = other._sorted(hands[s])
    return other


@pytest.mark.parametrize("level", ["normal", "hard"])
@pytest.mark.parametrize("phase", ["declare", "play"])
@pytest.mark.parametrize("game", TRICK_GAMES)
def test_searching_player_reads_only_its_view(game: str, phase: str, level: str) -> None:
    state = _reach(game, 4, 3, phase, trick_no=2 if phase == "play" else 0)
    me = state.to_act
    assert me is not None
    normal = computer(game, level)
    for k in range(3):
        other = _permute_hidden(state, me, random.Random(k))
        assert other.places() != state.places() or k  # the hidden deal really changed
        view = state.view(me)
        assert other.view(me) == view
        assert normal(other.view(me), random.Random(9)) == normal(view, random.Random(9))


def test_sampled_deals_honour_what_the_seat_knows() -> None:
    state = _reach("mushka", 5, 11, "play", trick_no=3)
    me = state.to_act
    assert me is not None
    view = state.view(me)
    assert isinstance(view, TrickView) and len(view.tricks) >= 2
    know = knowledge(view)
    seen = set(view.hand) | {c for t in view.tricks for _, c in t} | {c for _, c in view.trick}
    assert not seen & set(know.unseen)
    rng = random.Random(1)
    for _ in range(20):
        hands, rest = sample(know, view, rng)
        assert hands[me] == []
        for seat in range(5):
            if seat != me:
                assert len(hands[seat]) == view.hand_sizes[seat]
                assert not {c.suit for c in hands[seat]} & know.voids[seat]
        dealt = [c for h in hands for c in h] + rest
        assert sorted(dealt, key=str) == sorted(know.unseen, key=str)


def _card(text: str) -> Card:
    return Card.parse(text)


def _codes(cards: str) -> list[int]:
    return [CODE["mushka"][_card(c)] for c in cards.split()]


EARLIER = ("7D 8D 9D", "7C 8C 9C", "7S 8S 9S", "10D JD QD", "10C JC QC")
"""Tricks of seats 0, 1, 2: seat 2 wins each."""


def _deal(hands: dict[int, str], counts: tuple[int, ...], done: int, trick: str = "") -> KnownDeal:
    """A Мушка deal of three players, hearts trump, after ``done`` tricks won by seat 2; then
    ``trick`` played from seat 1 (made the leader)."""
    earlier = [dict(zip((0, 1, 2), _codes(t), strict=True)) for t in EARLIER[:done]]
    now = _codes(trick)
    cards = [_codes(hands[s]) + [t[s] for t in earlier] for s in range(3)]
    cards[1] += now[:1]
    cards[2] += now[1:]
    deal = new_deal(table_for("mushka", Suit.HEARTS, False), 3, [0, 1, 2], cards, counts, 25, None)
    for t in earlier:
        for _ in range(3):
            deal.play(deal.to_play(), t[deal.to_play()])
    if now:
        deal.leader = deal.turn = 1
        for c in now:
            deal.play(deal.to_play(), c)
    return deal


def test_1_5_7_the_search_avoids_an_overshoot_near_zero() -> None:
    # trick 4: 9H led by seat 1, 10H by seat 2; seat 0 holds KH 7H (hearts trump). KH takes
    # tricks 4 and 5; 7H loses trick 4 and the KH still takes trick 5: two tricks or one.
    def values(count: int) -> list[float]:
        deal = _deal({0: "KH 7H", 1: "8C", 2: "9C"}, (count, 20, 20), 3, "9H 10H")
        return solve(deal, 0, _codes("KH 7H"), 10_000)

    assert values(20) == [-18.0, -19.0]  # far from zero: every trick written off counts
    high, low = values(1)
    assert high == -25.0  # two tricks from 1: an overshoot, back to the target (§1.5.7 b)
    assert low == 40.0  # one trick: zero, the pulka won (the others' counts collected)


def test_1_5_3_utility_scores_with_the_engine() -> None:
    deal = _deal({0: "", 1: "", 2: ""}, (3, 25, 25), 5)  # seat 2 won all five tricks
    assert utility(deal, 2) == -20.0  # five plain tricks written off
    assert utility(deal, 0) == -8.0  # no trick: remise 5 (§1.5.3)
    deal = _deal({0: "", 1: "", 2: ""}, (3, 25, 25), 5)
    deal.won = [5, 0, 0]  # seat 0 won them instead
    assert utility(deal, 0) == -25.0  # five tricks from 3: an overshoot (§1.5.7 b)
