"""The hints' advice (engine/players/advice.py): the ``hard`` level's own choice first, always
legal, ranked by value, deterministic from its seed, and reading nothing but the seat's view."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine import new_game
from engine.players import computer, trick_policy
from engine.players.advice import TOP, Fact, Unit, advise
from engine.trick.actions import Pass, PlayCard
from engine.trick.view import TrickView
from tests.engine.players_common import first_trick_view, midgame, permute_hidden

GAMES = [("mushka", 3), ("pamfil", 4), ("shutikha", 3), ("mistigri", 5)]
GAMES += [("kopilka", 4), ("lenturlu", 4), ("konchinka", 2)]
MOVES = (0, 3, 9)  # a declaration (or a first move) and two later decisions


def _views(game: str, players: int) -> list[Any]:
    warm_up = trick_policy if game in ("mushka", "pamfil", "shutikha", "mistigri") else None
    views = []
    for moves in MOVES:
        state = midgame(game, players, 30 + moves, moves, warm_up or computer(game, "easy"))
        seat = state.to_act
        assert seat is not None
        views.append((state, seat))
    return views


@pytest.mark.parametrize(("game", "players"), GAMES)
def test_advice_leads_with_the_hard_level_s_legal_choice_ranked_by_value(
    game: str, players: int
) -> None:
    hard = computer(game, "hard")
    for state, seat in _views(game, players):
        view = state.view(seat)
        for seed in (1, 2):
            advice = advise(view, seed)
            assert 1 <= len(advice.choices) <= TOP
            assert all(c.action in view.legal for c in advice.choices)
            assert len({c.action for c in advice.choices}) == len(advice.choices)
            assert advice.best.action == hard(view, random.Random(seed))
            values = [c.value for c in advice.choices]
            assert values == sorted(values, reverse=True)


@pytest.mark.parametrize(("game", "players"), GAMES)
def test_advice_reads_only_the_seat_s_view_and_is_deterministic(game: str, players: int) -> None:
    state, seat = _views(game, players)[-1]
    twin = permute_hidden(state, seat, random.Random(5))
    assert twin._hands != state._hands or twin._stock != state._stock
    view, twin_view = state.view(seat), twin.view(seat)
    assert view == twin_view
    advice = advise(view, 9)
    assert advise(twin_view, 9) == advice
    assert advise(view, 9) == advice


def test_a_trick_card_s_facts_are_true_of_the_hand() -> None:
    for seed in range(6):
        state = midgame("mushka", 3, 50 + seed, 6, trick_policy)
        seat = state.to_act
        assert seat is not None
        view = state.view(seat)
        assert isinstance(view, TrickView)
        trumps = [c for c in view.hand if c.suit is view.trump]
        for choice in advise(view, seed).choices:
            if not isinstance(choice.action, PlayCard):
                continue
            card = choice.action.card
            assert (Fact.TRUMPS in choice.facts) == (card.suit is view.trump)
            assert (Fact.NO_TRUMP_LEFT in choice.facts) == (not trumps)
            assert (Fact.FOLLOWS_SUIT in choice.facts) == (card.suit is view.led)
            if Fact.LOWEST_TRUMP in choice.facts:
                assert len(trumps) > 1 and card in trumps


def test_advising_a_seat_with_nothing_to_decide_is_refused() -> None:
    state = midgame("mushka", 3, 40, 0, trick_policy)
    seat = state.to_act
    assert seat is not None
    with pytest.raises(ValueError):
        advise(state.view((seat + 1) % 3), 1)


def _trick_views(game: str, players: int, target: int) -> list[TrickView]:
    """Views with a decision of several choices, from a few seeded deals at ``target``."""
    views = []
    for seed in range(10):
        state = new_game(game, players, seed, {"target": target})
        rng = random.Random(seed)
        for _ in range(seed % 5):
            if (seat := state.to_act) is not None:
                state.apply(seat, trick_policy(state.view(seat), rng))
        if (seat := state.to_act) is None:  # a short pulka already over
            continue
        view = state.view(seat)
        if isinstance(view, TrickView) and len(view.legal) > 1:
            views.append(view)
    return views


@pytest.mark.parametrize(("game", "players"), [("mushka", 3), ("pamfil", 4), ("mistigri", 5)])
def test_a_trick_value_is_the_points_written_off_plus_the_pulka_won_apart(
    game: str, players: int
) -> None:
    """The search counts reaching zero as the other counts won: the hint tells the points
    written off from how often zero is reached; the parts add up to the search's value."""
    reached = 0
    for target in (5, 25):
        for view in _trick_views(game, players, target):
            assert view.seat is not None
            advice = advise(view, 4)
            assert advice.unit is Unit.COUNT
            if not advice.samples:  # the rule's only choice (an announced J♣): no figures
                assert all(c.parts is None for c in advice.choices)
                continue
            others = sum(view.counts) - view.counts[view.seat]
            for choice in advice.choices:
                parts = choice.parts
                assert parts is not None and parts.worth == others and parts.lost == 0
                assert 0 <= parts.won <= 1
                worlds = parts.won * advice.samples
                assert worlds == pytest.approx(round(worlds))  # a count of worlds
                assert parts.base + parts.won * parts.worth == pytest.approx(choice.value)
                if isinstance(choice.action, Pass):  # the count stands: nothing either way
                    assert parts.won == 0 and parts.base == pytest.approx(0)
                if target == 25 and view.counts[view.seat] > 10:  # no deal writes off so much
                    assert parts.won == 0
                reached += parts.won > 0
    assert reached > 0


def test_shutikha_s_hard_hint_values_the_pulka_unsplit() -> None:
    view = first_trick_view("shutikha", 3, 2)
    advice = advise(view, 1)
    assert advice.unit is Unit.PULKA and all(c.parts is None for c in advice.choices)


def test_a_konchinka_value_is_the_deal_s_points_plus_the_game_won_or_lost_apart() -> None:
    """Кончинка's search adds ±10 when the deal ends the game: the hint tells the deal points
    over the others from how often the game is won or lost; near the target it is."""
    decided = 0
    for seed in range(12):
        state = new_game("konchinka", 2, seed, {"target": 5})
        rng = random.Random(seed)
        easy = computer("konchinka", "easy")
        for _ in range(12 + 2 * seed):
            if (seat := state.to_act) is not None:
                state.apply(seat, easy(state.view(seat), rng))
        if (seat := state.to_act) is None:
            continue
        view = state.view(seat)
        advice = advise(view, seed)
        if not advice.samples:
            continue
        assert advice.unit is Unit.POINTS
        for choice in advice.choices:
            parts = choice.parts
            assert parts is not None and parts.worth == 10
            assert 0 <= parts.won + parts.lost <= 1
            value = parts.base + (parts.won - parts.lost) * parts.worth
            assert value == pytest.approx(choice.value)
            assert -2 - 1 - 2 <= parts.base <= 2 + 1 + 2  # a deal's points: 5 at most each way
            decided += parts.won + parts.lost > 0
    assert decided > 0
