"""Шутиха's ``hard`` models the seats yet to declare as playing any hand far from zero
(engine/players/trick_normal.py ``EAGER``): every trick is written off (RULES.md §1.5.5) and a
remise costs 5 (§1.5.4), so there ``normal`` plays every hand; ``normal``'s own model (the
simple player's threshold) is unchanged."""

from __future__ import annotations

import dataclasses

from engine import new_game
from engine.cards import Card
from engine.players.trick_normal import EAGER, HARD, HARD_BY_GAME, NORMAL, _Round
from engine.players.trick_sample import CODE
from engine.trick.view import TrickView


def _first_view(game: str, counts: tuple[int, ...]) -> TrickView:
    state = new_game(game, 3, 4)
    seat = state.to_act
    assert seat is not None
    view = state.view(seat)
    assert isinstance(view, TrickView) and view.phase == "declare"
    return dataclasses.replace(view, counts=counts)


def _weak(game: str) -> list[int]:
    code = CODE[game]
    return [code[Card.parse(c)] for c in ("7H", "8H", "9D", "7C", "8D")]


def test_1_5_5_a_far_seat_is_modelled_to_play_a_weak_hand_in_shutikha_hard() -> None:
    far = _first_view("shutikha", (25, 25, 25))
    seat = next(s for s in range(3) if s != far.seat and s != far.dealer)
    eager = _Round.of(far, HARD_BY_GAME["shutikha"].eager)
    plain = _Round.of(far, NORMAL.eager)
    assert eager.plays(seat, _weak("shutikha"), 0)
    assert not plain.plays(seat, _weak("shutikha"), 0)  # normal: the simple player's rule


def test_1_5_5_near_zero_the_hand_decides_again() -> None:
    near = _first_view("shutikha", (EAGER, EAGER, EAGER))
    seat = next(s for s in range(3) if s != near.seat and s != near.dealer)
    assert not _Round.of(near, EAGER).plays(seat, _weak("shutikha"), 0)


def test_only_shutikha_hard_is_eager() -> None:
    assert NORMAL.eager is None and HARD.eager is None
    assert set(HARD_BY_GAME) == {"shutikha"}
