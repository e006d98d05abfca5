"""What Шутиха's ``hard`` reads differently (engine/players/trick_normal.py ``HARD_BY_GAME``):
the seats yet to declare play any hand far from zero (``EAGER``: every trick is written off,
RULES.md §1.5.5, and a remise costs 5, §1.5.4, so there ``normal`` plays every hand), and its
playouts keep the QS and KS apart on leads (§1.4.7). ``normal``'s own models are unchanged."""

from __future__ import annotations

import dataclasses

from engine import new_game
from engine.cards import Card, Suit
from engine.players.trick_budget import EAGER, HARD, HARD_BY_GAME, NORMAL
from engine.players.trick_declare import Round, walkover_value
from engine.players.trick_sample import CODE
from engine.players.trick_search import KnownDeal, future, lead_card, new_deal, table_for, utility
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
    eager = Round.of(far, HARD_BY_GAME["shutikha"])
    plain = Round.of(far, NORMAL)
    assert eager.chance_of(seat, _weak("shutikha"), 0) == 1.0
    assert plain.chance_of(seat, _weak("shutikha"), 0) < 1.0  # normal: the learned table


def test_1_5_5_near_zero_the_hand_decides_again() -> None:
    near = _first_view("shutikha", (EAGER, EAGER, EAGER))
    seat = next(s for s in range(3) if s != near.seat and s != near.dealer)
    assert Round.of(near, HARD_BY_GAME["shutikha"]).chance_of(seat, _weak("shutikha"), 0) < 1.0


def test_only_shutikha_hard_is_eager() -> None:
    assert NORMAL.eager is None and HARD.eager is None
    assert set(HARD_BY_GAME) == {"shutikha"}


def _shutikha_codes(cards: str) -> list[int]:
    return [CODE["shutikha"][Card.parse(c)] for c in cards.split()]


def test_1_4_7_the_guarded_playout_does_not_lead_the_qs_into_a_ks() -> None:
    hands = [_shutikha_codes("QS 9H 7D"), _shutikha_codes("KS 8H 8D"), _shutikha_codes("7S 7H 9D")]
    seats = (0, 1, 2)
    guarded = table_for("shutikha", Suit.SPADES, False, guard=True)
    plain = table_for("shutikha", Suit.SPADES, False)
    qs, nine = _shutikha_codes("QS 9H")
    assert lead_card(hands, hands[0], seats, plain) == qs  # the highest: into the KS
    assert lead_card(hands, hands[0], seats, guarded) == nine
    ks = _shutikha_codes("KS")[0]
    assert lead_card(hands, hands[1], (1, 2, 0), guarded) != ks  # the KS waits for the QS
    hands[1].remove(ks)  # the KS gone: the QS is led again
    assert lead_card(hands, hands[0], seats, guarded) == qs
    assert table_for("pamfil", Suit.SPADES, False, guard=True) is table_for(
        "pamfil", Suit.SPADES, False
    )


def _finished(points: list[int], counts: tuple[int, ...], guard: bool) -> KnownDeal:
    """A Шутиха deal of three, every trick played: each seat's trick values ``points``."""
    table = table_for("shutikha", Suit.SPADES, False, guard=guard)
    deal = new_deal(table, 3, [0, 1, 2], [[], [], []], counts, 25, None)
    deal.points = list(points)
    deal.won = [1 if p else 0 for p in points]
    deal.done = 5
    return deal


def test_1_5_8_hard_values_another_seat_reaching_zero_as_the_pulka_lost() -> None:
    counts = (20, 2, 20)
    ends = _finished([2, 2, 1], counts, guard=True)  # seat 1 reaches zero: seat 0 pays 18
    goes_on = _finished([2, 1, 2], counts, guard=True)  # seat 1 at 1: the pulka goes on
    assert future(ends, 0) == utility(ends, 0) == -18.0
    assert utility(goes_on, 0) == (1 + 18 - 2 * 18) / 3  # one time in three it collects
    assert utility(goes_on, 0) > utility(ends, 0)
    plain = _finished([2, 1, 2], counts, guard=False)  # normal: only its own count
    assert utility(plain, 0) == -18.0
    assert utility(_finished([20, 1, 2], counts, guard=True), 0) == 2 + 20  # it collects


def test_1_3_5_a_pass_that_leaves_the_dealer_a_walkover_to_zero_loses_the_pulka() -> None:
    view = _first_view("shutikha", (25, 25, 25))
    dealer = view.dealer
    assert dealer is not None and view.seat != dealer
    near = list(view.counts)
    near[dealer] = 4  # the walkover writes off five, never past zero (§1.5.6): he wins
    ctx = Round.of(dataclasses.replace(view, counts=tuple(near)), HARD_BY_GAME["shutikha"])
    assert walkover_value(ctx) == -25.0
    far = Round.of(view, HARD_BY_GAME["shutikha"])  # 25, 25, 20 after it: the pulka goes on
    assert walkover_value(far) == (25 + 20 - 2 * 25) / 3
