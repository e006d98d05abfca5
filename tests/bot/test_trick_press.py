"""PRODUCT.md §6.3, §7.2: a trick-family hand press means a typed engine action (never text), a
mark or mode, or a refusal; a stale press repeating the presser's last card says so."""

from __future__ import annotations

import string
from pathlib import Path

from bot.callbacks import Kind, Press, PressCodec
from bot.i18n import Catalogues
from bot.presses.families import FAMILY_PRESSES
from bot.presses.meaning import Apply, Deny, HandUI, SetUI
from bot.refused import BotRefusal, Refused
from bot.render.cards import card_name
from bot.render.refusals import refusal_text, sentence
from engine.cards import Card, Suit
from engine.games import new_game
from engine.trick.actions import ANNOUNCE, PASS, Discard, Exchange, PlayCard, Retrump
from engine.trick.view import TrickView
from tests.engine.trick.helpers import act as moves
from tests.engine.trick.helpers import fixed

LOCALES = Path(__file__).resolve().parents[2] / "locales"

PRESSES = FAMILY_PRESSES["trick"]
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
    assert PRESSES.interpret(view, "n", None, ui) == Apply(PASS)
    assert PRESSES.interpret(view, "a", None, ui) == Apply(ANNOUNCE)
    assert PRESSES.interpret(view, "p", "QS", ui) == Apply(PlayCard(Card.parse("QS")))
    two = [str(c) for c in view.hand[:2]]
    meaning = PRESSES.interpret(view, "x", ".".join(reversed(two)), ui)
    assert isinstance(meaning, Apply) and isinstance(meaning.action, Exchange)
    assert meaning.action in view.legal and str(meaning.action) == f"play 2 {' '.join(two)}"
    assert PRESSES.interpret(view, "x", "", ui) == Apply(Exchange(()))
    assert PRESSES.interpret(view, "q", "7C.8C", ui) == Apply(
        Discard(tuple(map(Card.parse, ["7C", "8C"])))
    )
    assert PRESSES.interpret(view, "t", "H.9D", ui) == Apply(Retrump(Suit.HEARTS, Card.parse("9D")))
    assert PRESSES.interpret(view, "y", None, ui) == SetUI(HandUI((), "x"))
    assert isinstance(PRESSES.interpret(view, "m", two[0], ui), SetUI)


def test_6_3_unknown_letters_and_malformed_cards_are_unknown_buttons() -> None:
    view = declaring()
    unknown = Deny(BotRefusal.UNKNOWN_BUTTON)
    for act, arg in [("b", None), ("p", "qs"), ("p", "1S"), ("x", "ZZ"), ("t", "X.9D"), ("q", "")]:
        assert PRESSES.interpret(view, act, arg, HandUI()) == unknown, (act, arg)


def test_7_2_every_lowercase_letter_is_a_hand_act_the_family_reads() -> None:
    for act in string.ascii_lowercase:
        press = Press(Kind.HAND, 5, 1, 12, act, "QS")
        assert CODEC.parse(CODEC.pack(press)) == press
    for act in ("A", "1", "é"):
        data = CODEC.pack(Press(Kind.HAND, 5, 1, 12, "p", "QS")).replace(":p:", f":{act}:")
        assert CODEC.parse(data) is None


def test_7_2_a_stale_press_of_the_card_just_played_says_already_played() -> None:
    queen = PlayCard(Card.parse("QS"))
    assert PRESSES.stale(queen, "p", "QS") == Deny(BotRefusal.ALREADY_PLAYED, {"card": "QS"})
    assert PRESSES.stale(queen, "p", "KS") is None
    assert PRESSES.stale(PASS, "p", "QS") is None
    assert PRESSES.stale(None, "p", "QS") is None
    assert PRESSES.stale(queen, "m", "QS") is None


def test_6_4_a_second_exchange_press_says_already_done() -> None:
    kept = Exchange(())
    swapped = Exchange((Card.parse("9S"), Card.parse("7H")))
    assert PRESSES.stale(kept, "x", "") == Deny(BotRefusal.ALREADY_KEPT)
    assert PRESSES.stale(kept, "y", None) == Deny(BotRefusal.ALREADY_KEPT)
    assert PRESSES.stale(swapped, "x", "9S.7H") == Deny(BotRefusal.ALREADY_EXCHANGED)
    assert PRESSES.stale(swapped, "p", "9S") is None
    # a pass may be last deal's: a press now is only out of date
    assert PRESSES.stale(PASS, "x", "") is None and PRESSES.stale(PASS, "n", None) is None


def test_1_3_4_1_marking_the_privileged_card_names_it() -> None:
    cases = [
        ("mushka", ["AS 7S 8C 10D KD", "AH KH QH JH 7C", "9S 10S 9C JC QC"], "9H", 0, "AS"),
        ("pamfil", ["JC 7S 8C 10D KD", "AH KH QH JH 7C", "9S 10S 9C AS QC"], "9H", 0, "JC"),
        ("mistigri", ["KC 7S 8C 10D KD", "AH KH QH JH 7C", "9S 10S 9C AS QC"], "9H", 0, "KC"),
    ]
    catalogues = Catalogues.load(LOCALES)
    for game, hands, up, seat, code in cases:
        state = fixed(game, 3, 2, hands, up)
        view = state.view(seat)
        assert isinstance(view, TrickView)
        deny = PRESSES.interpret(view, "m", code, HandUI())
        assert isinstance(deny, Deny) and deny.params == {"card": code}
        assert isinstance(deny.reason, BotRefusal)
        assert sentence(deny.reason) == f"The {game} ({{card}}) can't be exchanged."
        toast = refusal_text(Refused(deny.reason, **deny.params), catalogues.tr("ru"))
        assert toast.endswith(f"({card_name(code, 'ru')}) сбрасывать нельзя."), toast
        assert "особ" not in toast and toast.count("нельзя") == 1
    assert (
        refusal_text(Refused(BotRefusal.MUSHKA_KEPT, card="AS"), catalogues.tr("en"))
        == "The mushka (A♠) can't be exchanged."
    )


def test_1_4_2_view_led_is_the_effective_suit() -> None:
    hands = ["JC 7D 8D 9S 10S", "AC QH 8C 9C 10C", "AH KH KC JH 7S"]
    state = fixed("pamfil", 3, 2, hands, "9H")
    moves(state, (0, "play 0"), (1, "play 0"), (2, "play 0"))
    assert state.view(0).led is None  # nothing led yet
    moves(state, (0, "card JC"))
    assert state.view(1).led is Suit.HEARTS  # the pamfil led is a trump, not a club
    moves(state, (1, "card QH"), (2, "card JH"), (0, "card 7D"))
    assert state.view(1).led is Suit.DIAMONDS
