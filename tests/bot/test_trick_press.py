"""PRODUCT.md §6.3, §7.2: a trick-family hand press means a typed engine action (never text), a
mark or mode, or a refusal; a stale press repeating the presser's last card says so."""

from __future__ import annotations

import string

from bot.callbacks import Kind, Press, PressCodec
from bot.render.context import HandUI
from bot.render.games.base import Apply, Deny, SetUI
from bot.render.games.trick import TrickUI
from engine.cards import Card, Suit
from engine.games import new_game
from engine.trick.actions import ANNOUNCE, PASS, Discard, Exchange, PlayCard, Retrump
from engine.trick.view import TrickView

UI = TrickUI()
CODEC = PressCodec.from_token("123456:TEST-token")


def declaring() -> TrickView:
    state = new_game("mushka", 3, 1, {"target": 5})
    seat = state.to_act
    assert seat is not None
    view = state.view(seat)
    assert isinstance(view, TrickView) and view.phase == "declare"
    return view


def test_6_3_presses_mean_typed_actions() -> None:
    view = declaring()
    ui = HandUI()
    assert UI.interpret(view, "n", None, ui) == Apply(PASS)
    assert UI.interpret(view, "a", None, ui) == Apply(ANNOUNCE)
    assert UI.interpret(view, "p", "QS", ui) == Apply(PlayCard(Card.parse("QS")))
    two = [str(c) for c in view.hand[:2]]
    meaning = UI.interpret(view, "x", ".".join(reversed(two)), ui)
    assert isinstance(meaning, Apply) and isinstance(meaning.action, Exchange)
    assert meaning.action in view.legal and str(meaning.action) == f"play 2 {' '.join(two)}"
    assert UI.interpret(view, "x", "", ui) == Apply(Exchange(()))
    assert UI.interpret(view, "q", "7C.8C", ui) == Apply(
        Discard(tuple(map(Card.parse, ["7C", "8C"])))
    )
    assert UI.interpret(view, "t", "H.9D", ui) == Apply(Retrump(Suit.HEARTS, Card.parse("9D")))
    assert UI.interpret(view, "y", None, ui) == SetUI(HandUI((), "x"))
    assert isinstance(UI.interpret(view, "m", two[0], ui), SetUI)


def test_6_3_unknown_letters_and_malformed_cards_are_unknown_buttons() -> None:
    view = declaring()
    unknown = Deny("Unknown button.")
    for act, arg in [("b", None), ("p", "qs"), ("p", "1S"), ("x", "ZZ"), ("t", "X.9D"), ("q", "")]:
        assert UI.interpret(view, act, arg, HandUI()) == unknown, (act, arg)


def test_7_2_every_lowercase_letter_is_a_hand_act_the_family_reads() -> None:
    for act in string.ascii_lowercase:
        press = Press(Kind.HAND, 5, 1, 12, act, "QS")
        assert CODEC.parse(CODEC.pack(press)) == press
    for act in ("A", "1", "é"):
        data = CODEC.pack(Press(Kind.HAND, 5, 1, 12, "p", "QS")).replace(":p:", f":{act}:")
        assert CODEC.parse(data) is None


def test_7_2_a_stale_press_of_the_card_just_played_says_already_played() -> None:
    queen = PlayCard(Card.parse("QS"))
    assert UI.stale(queen, "p", "QS") == Deny("Already played: {card}.", {"card": "QS"})
    assert UI.stale(queen, "p", "KS") is None
    assert UI.stale(PASS, "p", "QS") is None
    assert UI.stale(None, "p", "QS") is None
    assert UI.stale(queen, "m", "QS") is None
