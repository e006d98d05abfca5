"""A decision's kind for its one-line tip (engine.tips): every kind each game has is reached
from real engine states, and each is true to the rule it names (RULES.md §1–§4)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Final

import pytest

from engine.actions import Buy, Pass, PlayCard
from engine.cards import Card
from engine.core import State, View
from engine.games import GAMES, new_game
from engine.konchinka.actions import Capture, Sweep, Trail
from engine.lenturlu.actions import Run
from engine.players import policy_for
from engine.tips import TipKind as K
from engine.tips import tip_kind
from engine.trick import legal
from engine.trick.actions import Announce, Discard, Exchange, Retrump
from engine.trick.rules import QS
from engine.trick.variant import VARIANTS
from engine.trick.view import TrickView

TRICK_KINDS: Final = {K.DECLARE, K.MUST_DEFEND, K.LEAD, K.FOLLOW_SUIT, K.ANY_CARD, K.MUST_TRUMP}
EXPECTED: Final[dict[str, set[K]]] = {
    "mushka": TRICK_KINDS | {K.MAY_NOT_PASS},
    "mistigri": TRICK_KINDS | {K.MAY_NOT_PASS},
    "pamfil": TRICK_KINDS | {K.MAY_NOT_PASS, K.ANNOUNCE, K.RETRUMP},
    "shutikha": TRICK_KINDS | {K.MAY_PASS_SAFE, K.DISCARD},
    "kopilka": {K.LEAD, K.FOLLOW_SUIT, K.BUY_OR_PASS, K.ACE_OR_PASS},
    "lenturlu": {K.LEAD, K.CONTINUE, K.CONTINUE_OR_PASS, K.MUST_PLAY, K.MUST_BUY},
    "konchinka": {K.MUST_CAPTURE, K.SWEEP, K.TRAIL, K.EMPTY_TABLE},
}
MAX_DECISIONS: Final = 40_000  # per game: every kind is met far sooner


def _cards(view: View[Any, Any]) -> set[Card]:
    return {a.card for a in view.legal if isinstance(a, PlayCard)}


def _led_cards(view: TrickView) -> set[Card]:
    assert view.led is not None and view.trump is not None
    variant = VARIANTS[view.game]
    read = [c for c in view.hand if c != variant.privileged or view.game != "pamfil"]  # §1.4.3
    return {c for c in read if legal.effective_suit(c, view.trump, variant) is view.led}


def _check_trick(kind: K, view: TrickView) -> None:
    """What each trick-family kind claims, checked against the view."""
    variant = VARIANTS[view.game]
    passes = Pass() in view.legal
    exchanges = any(isinstance(a, Exchange) for a in view.legal)
    match kind:
        case K.RETRUMP:
            assert all(isinstance(a, Retrump) for a in view.legal)
        case K.ANNOUNCE:
            assert Announce() in view.legal and variant.privileged in view.hand and not passes
        case K.DECLARE:
            assert passes and exchanges
        case K.MAY_PASS_SAFE:  # §1.3.3 a: Шутиха's QS holder may pass
            assert view.game == "shutikha" and QS in view.hand and passes
        case K.MAY_NOT_PASS:  # §1.3.3 a
            assert not passes and exchanges and variant.privileged in view.hand
            assert not variant.holder_may_pass
        case K.MUST_DEFEND:  # §1.3.3 b: the dealer against exactly one player
            assert not passes and view.seat == view.dealer
            assert view.declared.count("play") == 1
        case K.DISCARD:
            discards = [a for a in view.legal if isinstance(a, Discard)]
            assert view.game == "shutikha" and len(discards) == len(view.legal)
            assert QS not in {c for a in discards for c in a.cards}
        case K.LEAD:
            assert not view.trick and _cards(view) == set(view.hand)
        case K.FOLLOW_SUIT:  # §1.4.3 a (Памфил's JC allowed besides, §1.4.4)
            suited = _led_cards(view)
            assert suited and _cards(view) - {variant.privileged} <= suited
        case K.MUST_TRUMP:  # §1.4.3 b
            assert view.must_trump and view.trump is not None and not _led_cards(view)
            assert all(c.suit is view.trump or c == variant.privileged for c in _cards(view))
        case K.ANY_CARD:  # §1.4.3 c
            assert view.trick and not _led_cards(view) and _cards(view) == set(view.hand)
        case _:
            raise AssertionError(f"{kind} at a trick-family table")


def _check_other(kind: K, view: Any) -> None:
    """What the other families' kinds claim (§2.4, §3.3.2, §4.3)."""
    buys = any(isinstance(a, Buy) for a in view.legal)
    passes = Pass() in view.legal
    match kind:
        case K.LEAD:
            assert not buys and not passes
        case K.FOLLOW_SUIT:  # Копилка §2.4.3 a: the suit or the AS, no buying
            assert not buys and any(c.suit is view.led_suit for c in view.hand)
            assert all(c.suit is view.led_suit or str(c) == "AS" for c in _cards(view))
        case K.BUY_OR_PASS:  # §2.4.3 b
            assert buys and passes and all(str(c) == "AS" for c in _cards(view))
        case K.ACE_OR_PASS:  # §2.4.3 b–c
            assert not buys and passes and {str(c) for c in _cards(view)} == {"AS"}
        case K.CONTINUE:  # §3.3.2 able, a stock, not bought
            assert buys and passes and any(isinstance(a, Run) for a in view.legal)
        case K.CONTINUE_OR_PASS:
            assert view.bought and passes and not buys
        case K.MUST_PLAY:
            assert view.stock == 0 and all(isinstance(a, Run) for a in view.legal)
        case K.MUST_BUY:
            assert all(isinstance(a, Buy) for a in view.legal)
        case K.MUST_CAPTURE:  # §4.3.5: a capture is a must
            assert all(isinstance(a, Capture) for a in view.legal)
        case K.SWEEP:  # §4.3.4
            assert any(isinstance(a, Sweep) for a in view.legal) and view.table
            assert not any(isinstance(a, Trail) for a in view.legal)
        case K.TRAIL:
            assert all(isinstance(a, Trail) for a in view.legal) and view.table
        case K.EMPTY_TABLE:
            assert all(isinstance(a, Trail) for a in view.legal) and not view.table
        case _:
            raise AssertionError(f"{kind} at {view.game}")


def _met(game: str, check: Callable[[K, Any], None]) -> set[K]:
    """The kinds met in bounded random play of ``game`` (half its tables with every option
    that makes a kind possible), each checked at once; the other seats' views name none."""
    spec = GAMES[game]
    policy = policy_for(spec.family)
    met: set[K] = set()
    decisions, seed = 0, 0
    while decisions < MAX_DECISIONS and met != EXPECTED[game]:
        options = {"must_trump": True} if spec.family == "trick" and seed % 2 else None
        players = spec.seat_counts[seed % len(spec.seat_counts)]
        state: State = new_game(game, players, seed, options)
        pick = random.Random(seed)
        seed += 1
        while state.to_act is not None and decisions < MAX_DECISIONS:
            seat = state.to_act
            view = state.view(seat)
            kind = tip_kind(view)
            if kind is not None:
                check(kind, view)
                met.add(kind)
            other = (seat + 1) % players
            assert tip_kind(state.view(other)) is None or other == seat  # only at his turn
            state.apply(seat, policy(view, pick))
            decisions += 1
    return met


@pytest.mark.parametrize("game", sorted(EXPECTED))
def test_every_decision_kind_of_each_game_is_reached_and_true_to_its_rule(game: str) -> None:
    check = _check_trick if GAMES[game].family == "trick" else _check_other
    assert _met(game, check) == EXPECTED[game]


def test_the_public_view_and_a_single_choice_name_no_tip() -> None:
    state = new_game("mushka", 4, 7)
    assert tip_kind(state.view(None)) is None
    for seat in range(4):
        view = state.view(seat)
        assert (tip_kind(view) is not None) == (seat == state.to_act and len(view.legal) > 1)
