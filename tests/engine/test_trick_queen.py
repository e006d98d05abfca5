"""Шутиха's QS in the ``hard`` player's samples (engine/players/trick_queen.py): only where the
rules leave it — never discarded (RULES.md §1.3.4.1), dealt out of the stock to a seat the table
knows (§1.3.12), so never in the stock once the tricks begin."""

from __future__ import annotations

import random
from collections.abc import Callable

from engine import new_game
from engine.players import computer
from engine.players.trick_budget import HARD, NORMAL
from engine.players.trick_queen import OUT, STOCK, dealt_out, queen_places
from engine.players.trick_reading import sampler
from engine.players.trick_sample import CODE, knowledge
from engine.trick.rules import QS
from engine.trick.state import TrickState
from engine.trick.view import TrickView
from tests.engine.players_common import first_trick_view

QS_CODE = CODE["shutikha"][QS]


def _views(
    players: int, seeds: range, want: Callable[[TrickState, TrickView], bool]
) -> list[tuple[TrickState, TrickView]]:
    """Easy Шутиха play: the states (copies) and views of the seats to act where ``want``."""
    easy = computer("shutikha", "easy")
    found = []
    for seed in seeds:
        state = new_game("shutikha", players, seed)
        assert isinstance(state, TrickState)
        rng = random.Random(seed)
        while state.to_act is not None:
            view = state.view(state.to_act)
            assert isinstance(view, TrickView)
            if want(state, view):
                found.append((state.clone(), view))
            state.apply(state.to_act, easy(view, rng))
    return found


def _unseen_qs(view: TrickView) -> bool:
    played = [c for t in view.tricks for _, c in t] + [c for _, c in view.trick]
    return QS not in view.hand and QS not in played


def _holder(state: TrickState) -> int | None:
    return next((s for s in range(state.players) if QS in state._hands[s]), None)


def test_1_3_12_the_qs_dealt_out_goes_to_the_seat_of_the_last_card() -> None:
    def after_deal_out(state: TrickState, view: TrickView) -> bool:
        return view.phase in ("discard", "play") and dealt_out(view) > 0 and _unseen_qs(view)

    found = _views(3, range(60), after_deal_out)
    assert len(found) >= 5
    for state, view in found:
        holder = _holder(state)
        assert holder is not None and holder != view.seat
        draw = sampler(view, knowledge(view), HARD)
        rng = random.Random(3)
        for _ in range(10):
            hands, _rest = draw(rng)
            assert QS_CODE in hands[holder]
            assert [len(h) for h in hands] == [
                0 if s == view.seat else n for s, n in enumerate(view.hand_sizes)
            ]


def test_1_3_12_no_deal_out_before_the_round_ends() -> None:
    found = _views(3, range(10), lambda _s, v: v.phase == "declare")
    assert found
    assert all(dealt_out(view) == 0 for _, view in found)


def test_1_3_4_1_in_trick_play_the_qs_is_in_a_hand_never_the_stock_or_the_discards() -> None:
    def all_play(state: TrickState, view: TrickView) -> bool:
        return (
            view.phase == "play"
            and _unseen_qs(view)
            and all(d == "play" for d in view.declared)
            and _holder(state) is not None
        )

    found = _views(3, range(40), all_play)
    assert len(found) >= 10
    in_hand = {"normal": 0, "hard": 0}
    total = 0
    for _state, view in found[:20]:
        know = knowledge(view)
        places = queen_places(view, know)
        assert places is not None and all(p.place >= 0 for p in places)
        for level, budget in (("normal", NORMAL), ("hard", HARD)):
            draw = sampler(view, know, budget)
            rng = random.Random(5)
            for _ in range(10):
                hands, _rest = draw(rng)
                in_hand[level] += any(QS_CODE in h for h in hands)
        total += 10
    assert in_hand["hard"] == total  # everyone plays: the QS is in an opponent's hand
    assert in_hand["normal"] < total * 0.6  # a uniform deal puts it out of play too


def test_1_3_4_1_before_the_tricks_the_qs_is_in_a_hand_or_the_stock() -> None:
    def exchanged_before(state: TrickState, view: TrickView) -> bool:
        return (
            view.phase == "declare"
            and _unseen_qs(view)
            and any(x for x in view.exchanged if x)
            and "pass" not in view.declared
        )

    found = _views(3, range(30), exchanged_before)
    assert len(found) >= 5
    for _state, view in found:
        know = knowledge(view)
        places = queen_places(view, know)
        assert places is not None
        assert {p.place for p in places} >= {STOCK} and OUT not in {p.place for p in places}
        draw = sampler(view, know, HARD)
        rng = random.Random(8)
        for _ in range(20):
            hands, rest = draw(rng)
            assert any(QS_CODE in h for h in hands) or QS_CODE in rest[: view.stock_size]
            assert sorted([c for h in hands for c in h] + rest) == sorted(know.codes)


def test_other_games_have_no_queen_to_place() -> None:
    view = first_trick_view("mushka", 3, 1)
    assert queen_places(view, knowledge(view)) is None
