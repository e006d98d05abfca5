"""The declaration and exchange round, Памфил's re-trump and announcement (RULES.md §1.2, §1.3)."""

from __future__ import annotations

import pytest

from engine.cards import DECK_52, Card, Suit
from engine.chance import StackedChance
from engine.errors import IllegalAction, InvalidNotation, Refusal
from engine.games import new_game
from engine.trick import Announce, Exchange, Pass, Retrump, TrickState, parse_trick_action

from .helpers import act, fixed

HANDS3 = ["AS 7S 8C 10D KD", "AH KH QH JH 7C", "9S 10S 9C JC QC"]


def refused(state: TrickState, seat: int, action: object) -> IllegalAction:
    before = state.record()
    view = state.view(seat)
    with pytest.raises(IllegalAction) as info:
        state.apply(seat, action)
    assert state.record() == before  # nothing changed
    assert state.view(seat) == view
    return info.value


def test_1_3_3_a_privileged_holder_may_not_pass() -> None:
    state = fixed("mushka", 3, 2, HANDS3, "9H", "JD 7D 10H")
    assert Pass() not in state.legal_actions(0)
    assert refused(state, 0, "pass").code is Refusal.PRIVILEGED_MAY_NOT_PASS


@pytest.mark.parametrize(
    ("game", "card", "turn_up"),
    [("mushka", "AS", "9H"), ("pamfil", "JC", "9H"), ("mistigri", "KC", "9H")],
)
def test_1_3_3_a_the_as_jc_and_kc_holders_still_may_not_pass(
    game: str, card: str, turn_up: str
) -> None:
    hands = [f"{card} 7D 8D 10S KD", "AH KH QH JH 7H", "9S 8S 9C QC 8H"]
    state = fixed(game, 3, 2, hands, turn_up)
    assert Pass() not in state.legal_actions(0)
    assert refused(state, 0, "pass").code is Refusal.PRIVILEGED_MAY_NOT_PASS


def test_1_3_3_a_the_shutikha_qs_holder_may_pass() -> None:
    """The QS holder declares like anyone else; his QS leaves the deal with his hand (§1.3.2)
    and is not dealt out of the stock (§1.3.12)."""
    hands = ["QS 7D 8D 10D KD", "AH KH QH JH 7H", "9S 10S 9C QC 8H"]
    state = fixed("shutikha", 3, 2, hands, stock="7C 8C")
    assert Pass() in state.legal_actions(0)
    state.apply(0, "pass")
    act(state, (1, "play 0"))
    lines = state.apply(2, "play 0")  # the dealer defends (§1.3.3 b)
    assert not [line for line in lines if line.get("e") == "deal_out"]
    assert state.phase == "play" and state.to_act == 1
    assert Card.parse("QS") in state.places()["out"]
    while state.phase == "play":
        seat = state.to_act
        assert seat is not None
        lines = state.apply(seat, state.legal_actions(seat)[0])
    end = next(line for line in lines if line["t"] == "deal_end")
    assert [(s["status"], s["held"]) for s in end["seats"]] == [
        ("passed", False),
        ("played", False),
        ("played", False),
    ]


def test_1_3_3_a_a_shutikha_dealer_with_the_qs_passes_against_two_or_defends_one() -> None:
    """§1.3.6: in Шутиха the QS counts as "no"; the dealer's duty to defend (b) still holds."""
    hands = ["AH KH QH JH 7H", "9S 10S 9C QC 8H", "QS 7D 8D 10D KD"]
    two = fixed("shutikha", 3, 2, hands)
    act(two, (0, "play 0"), (1, "play 0"))
    assert Pass() in two.legal_actions(2)
    one = fixed("shutikha", 3, 2, hands)
    act(one, (0, "play 0"), (1, "pass"))
    assert Pass() not in one.legal_actions(2)
    assert refused(one, 2, "pass").code is Refusal.DEALER_MUST_DEFEND


def test_1_3_3_b_dealer_defends_against_a_lone_player() -> None:
    hands = ["7S 8S 8C 10D KD", "AH KH QH JH AS", "9S 10S 9C JC QC"]
    state = fixed("mushka", 3, 2, hands, "9H")
    act(state, (0, "pass"), (1, "play 0"))
    assert state.to_act == 2
    assert Pass() not in state.legal_actions(2)
    assert refused(state, 2, "pass").code is Refusal.DEALER_MUST_DEFEND
    state.apply(2, "play 0")
    assert state.phase == "play" and state.to_act == 1


def test_1_3_6_dealer_may_pass_against_two_players() -> None:
    state = fixed("mushka", 3, 2, HANDS3, "9H", "JD 7D 10H")
    act(state, (0, "play 0"), (1, "play 0"))
    assert Pass() in state.legal_actions(2)


def test_1_3_5_walkover_writes_off_five_and_the_deal_passes_left() -> None:
    hands = ["7S 8S 8C 10D KD", "AH KH QH JH 7C", "9S 10S 9C JC QC"]
    # the next deal's deck: the game's deck in its fixed order
    state = fixed("mushka", 3, 2, hands, "AS", options={"target": 7}, more=[[]])
    act(state, (0, "pass"))
    lines = state.apply(1, "pass")
    kinds = [(line["t"], line.get("e")) for line in lines]
    assert kinds[:4] == [("act", None), ("event", "walkover"), ("deal_end", None), ("deal", None)]
    end = lines[2]
    assert end["result"] == "walkover"
    dealer = end["seats"][2]
    assert dealer["status"] == "walkover" and dealer["tricks"] == 5
    assert dealer["written_off"] == 5 and dealer["after"] == 2 and not dealer["held"]
    assert lines[3]["dealer"] == 0 and lines[3]["no"] == 2  # §1.1.5
    assert state.counts == (7, 7, 2)
    assert state.dealer == 0 and state.to_act == 1


def test_1_5_6_walkover_never_overshoots() -> None:
    hands = ["7S 8S 8C 10D KD", "AH KH QH JH 7C", "9S 10S 9C JC QC"]
    state = fixed("mushka", 3, 2, hands, "AS", options={"target": 5, "pulka_fee": 2})
    act(state, (0, "pass"), (1, "pass"))
    last = state.record()[-1]
    assert last == {
        "t": "end",
        "reason": "zero",
        "winner": 2,
        "deals": 1,
        "counts": [5, 5, 0],
        "pulka": [-7, -7, 14],
        "side": [0, 0, 0],
        "net": [-7, -7, 14],
    }
    assert state.is_over and state.to_act is None
    assert refused(state, 0, "pass").code is Refusal.GAME_OVER


def test_1_3_4_exchange_draws_from_the_top_and_up_takes_the_turn_up() -> None:
    state = fixed("mushka", 3, 2, HANDS3, "9H", "JD 7D 10H 8S")
    lines = state.apply(0, "play 2 8C 7S")  # any order of the named cards
    assert lines[0]["a"] == "play 2 8C 7S"
    assert lines[1] == {
        "t": "event",
        "e": "exchange",
        "seat": 0,
        "discarded": ["8C", "7S"],
        "drawn": ["JD", "7D"],
        "up": False,
    }
    assert set(state.hand(0)) == {Card.parse(c) for c in ["AS", "10D", "KD", "JD", "7D"]}
    assert Exchange((Card.parse("7C"),), up=True) not in state.legal_actions(1)
    assert refused(state, 1, "play 1 7C up").code is Refusal.UP_DEALER_ONLY
    act(state, (1, "play 0"))
    assert refused(state, 2, "play 0 up").code is Refusal.UP_NEEDS_EXCHANGE
    assert refused(state, 2, "play 2 9S 9S").code is Refusal.DUPLICATE_CARDS
    assert refused(state, 2, "play 1 AH").code is Refusal.NOT_IN_HAND
    lines = state.apply(2, "play 2 9S 10S up")
    assert lines[1]["drawn"] == ["10H"] and lines[1]["up"] is True
    assert Card.parse("9H") in state.hand(2)
    assert state.view(None).turn_up is None


def test_1_3_4_1_privileged_card_is_never_discarded() -> None:
    state = fixed("mushka", 3, 2, HANDS3, "9H")
    assert all(
        Card.parse("AS") not in a.cards for a in state.legal_actions(0) if isinstance(a, Exchange)
    )
    assert refused(state, 0, "play 1 AS").code is Refusal.PRIVILEGED_NOT_DISCARDED


def test_1_3_4_2_stock_running_short() -> None:
    # 7 players, 52 cards: 35 dealt, one turn-up, 16 in the stock
    deck = list(DECK_52)
    state = new_game("mushka", 7, 1, chance=StackedChance.of([deck]), prev_dealer=5)
    assert isinstance(state, TrickState) and state.dealer == 6
    assert state.view(None).stock_size == 16

    def exchange_all(seat: int) -> None:
        hand = [c for c in state.hand(seat) if c != Card.parse("AS")]
        state.apply(seat, Exchange(tuple(hand)))

    for seat in (0, 1, 2):
        exchange_all(seat)
    assert state.view(None).stock_size == 16 - 15
    sizes = {len(a.cards) for a in state.legal_actions(3) if isinstance(a, Exchange)}
    assert sizes == {0, 1}
    two = tuple(state.hand(3)[:2])
    assert refused(state, 3, Exchange(two)).code is Refusal.STOCK_TOO_SMALL
    state.apply(3, Exchange(two[:1]))
    assert state.view(None).stock_size == 0
    legal4 = state.legal_actions(4)
    assert {str(a) for a in legal4} == {"pass", "play 0"}
    act(state, (4, "play 0"), (5, "play 0"))  # seat 5 holds the AS (deck[12])
    dealer = state.legal_actions(6)
    ups = [a for a in dealer if isinstance(a, Exchange) and a.up]
    assert len(ups) == 5 and all(len(a.cards) == 1 for a in ups)
    assert Pass() in dealer and Exchange(()) in dealer and len(dealer) == 7


def test_1_2_4_pamfil_retrump() -> None:
    hands = ["7S 8S 8C 10D KD", "AH KH QH JH 7C", "9S 10S 9C 7D QC"]
    state = fixed("pamfil", 3, 2, hands, "JC", "AS")
    assert state.phase == "retrump" and state.to_act == 2
    legal = state.legal_actions(2)
    assert len(legal) == 20 and all(isinstance(a, Retrump) for a in legal)
    assert refused(state, 2, "play 0").code is Refusal.RETRUMP_FIRST
    assert refused(state, 0, "play 0").code is Refusal.NOT_YOUR_TURN
    lines = state.apply(2, "retrump H 7D")
    assert lines[1] == {"t": "event", "e": "trump", "card": "JC", "suit": "H", "retrump": True}
    view = state.view(2)
    assert view.trump is Suit.HEARTS and view.turn_up is None and view.phase == "declare"
    assert Card.parse("JC") in view.hand and Card.parse("7D") not in view.hand
    act(state, (0, "play 0"), (1, "play 0"))
    legal = state.legal_actions(2)
    assert Pass() not in legal and Announce() not in legal  # §1.3.3 a, §1.3.7
    assert not any(isinstance(a, Exchange) and a.up for a in legal)
    assert refused(state, 2, "announce").code is Refusal.ANNOUNCE_NOT_ALLOWED


def test_1_3_7_pamfil_announce() -> None:
    hands = ["7S 8S 8C 10D KD", "AH KH QH JC 7C", "9S 10S 9C 7D QC", "AS KS QS 6H 6C"]
    state = fixed("pamfil", 4, 3, hands, "9H")
    assert Announce() not in state.legal_actions(0)
    assert refused(state, 0, "announce").code is Refusal.ANNOUNCE_NOT_ALLOWED
    act(state, (0, "pass"))
    legal = state.legal_actions(1)
    assert Announce() in legal and Pass() not in legal
    lines = state.apply(1, "announce")
    assert lines[1] == {"t": "event", "e": "pamfil_bonus", "seat": 1, "amount": 5}
    assert state.side == (-5, 15, -5, -5)
    assert state.to_act == 1 and Announce() not in state.legal_actions(1)
    state.apply(1, "play 0")
    assert state.view(None).announced == 1


def test_r4_action_notation_round_trips_and_refuses_bad_text() -> None:
    for text in ("pass", "play 0", "play 2 7H 9C", "play 1 8S up", "announce", "retrump D 7H",
                 "discard 9D 7C", "card AS", "card 10H"):  # fmt: skip
        assert str(parse_trick_action(text)) == text
    for bad in ("play 2 7H", "play 02 7H 9C", "card 1H", "pass now", "retrump X 7H", "", "play"):
        with pytest.raises(InvalidNotation):
            parse_trick_action(bad)
    assert parse_trick_action("play 2 9C 7H") == parse_trick_action("play 2 7H 9C")
    assert parse_trick_action("play 1 9C up") != parse_trick_action("play 1 9C")


def test_r4_4_wrong_game_and_notation_refused() -> None:
    state = fixed("mushka", 3, 2, HANDS3, "9H")
    assert refused(state, 0, 42).code is Refusal.WRONG_GAME
    with pytest.raises(InvalidNotation):
        state.apply(0, "play 3 7S")
    assert refused(state, 1, "play 0").code is Refusal.NOT_YOUR_TURN
    assert refused(state, 0, "card AS").code is Refusal.NOT_NOW


def test_r4_4_refusal_order_is_the_skeletons() -> None:
    """engine.core: game over, then notation, wrong game, not your turn (the presser's seat),
    and only then the game's own reason."""
    state = fixed("mushka", 3, 2, HANDS3, "9H")
    with pytest.raises(InvalidNotation):
        state.apply(1, "play 3 7S")  # notation before the turn
    assert refused(state, 1, 42).code is Refusal.WRONG_GAME  # the game's actions before the turn
    wrong = refused(state, 1, "pass")
    assert wrong.code is Refusal.NOT_YOUR_TURN and wrong.params == {"seat": 1}
    assert refused(state, 0, "pass").code is Refusal.PRIVILEGED_MAY_NOT_PASS
    state.abandon()
    for seat, action in ((1, "play 3 7S"), (1, 42), (1, "pass"), (0, "pass")):
        assert refused(state, seat, action).code is Refusal.GAME_OVER
