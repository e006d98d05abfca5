"""Tricks: following, privilege and weakness of the privileged card (RULES.md §1.4)."""

from __future__ import annotations

import pytest

from engine.cards import Card
from engine.errors import IllegalAction, Refusal
from engine.trick import PlayCard

from .helpers import act, events, fixed

R11_HANDS = ["AS 7S 8C 10D KD", "AH KH QH JH 7C", "9S 10S 9C JC QC"]


def cards(text: str) -> set[Card]:
    return {Card.parse(c) for c in text.split()}


def legal_cards(state: object, seat: int) -> set[Card]:
    from engine.trick import TrickState

    assert isinstance(state, TrickState)
    out = set()
    for action in state.legal_actions(seat):
        assert isinstance(action, PlayCard)
        out.add(action.card)
    return out


def test_1_4_6_led_ace_of_spades_is_trumped() -> None:
    state = fixed("mushka", 3, 2, R11_HANDS, "9H", "JD 7D 10H", {"target": 5})
    act(state, (0, "play 2 7S 8C"), (1, "play 1 7C"), (2, "pass"))
    assert state.to_act == 0  # §1.4.1 first playing player left of the dealer
    act(state, (0, "card AS"))
    assert legal_cards(state, 1) == cards("AH KH QH JH 10H")  # void in spades: any card
    lines = state.apply(1, "card 10H")
    (trick,) = events(lines, "trick")
    assert trick["winner"] == 1
    assert trick["plays"] == [[0, "AS"], [1, "10H"]]


def test_1_4_5_privileged_card_played_while_void_wins_over_trumps() -> None:
    hands = ["KD 7C 8C 9C 10C", "AS 7H 8H 10H 8S", "AH KH QH JH 7S"]
    state = fixed("mushka", 3, 2, hands, "9H")
    act(state, (0, "play 0"), (1, "play 0"), (2, "play 0"), (0, "card KD"), (1, "card AS"))
    lines = state.apply(2, "card AH")
    (trick,) = events(lines, "trick")
    assert trick["winner"] == 1


def test_1_4_4_ace_of_spades_must_follow_spades() -> None:
    hands = ["8S 7C 8C 9C 10C", "AS 7H 8H 10H 7D", "AH KH QH JH 7S"]
    state = fixed("mushka", 3, 2, hands, "9H")
    act(state, (0, "play 0"), (1, "play 0"), (2, "play 0"), (0, "card 8S"))
    assert legal_cards(state, 1) == cards("AS")
    before = state.record()
    with pytest.raises(IllegalAction) as refused:
        state.apply(1, "card 7H")
    assert refused.value.code is Refusal.MUST_FOLLOW_SUIT
    assert refused.value.params == {"suit": "S"}
    assert state.record() == before
    lines = state.apply(1, "card AS")
    assert lines[0]["a"] == "card AS"


def test_1_4_3_must_follow_the_led_suit() -> None:
    hands = ["KD 7C 8C 9C 10C", "AD 7D 8H 9S 10S", "AH KH QH JH 7S"]
    state = fixed("mushka", 3, 2, hands, "9H")
    act(state, (0, "play 0"), (1, "play 0"), (2, "play 0"), (0, "card KD"))
    assert legal_cards(state, 1) == cards("AD 7D")
    assert legal_cards(state, 2) == set()  # not his turn


@pytest.mark.parametrize("must_trump", [False, True])
def test_1_4_3_b_must_trump_option(must_trump: bool) -> None:
    hands = ["KD 7C 8C 9C 10C", "AS 7H 8H 9S 10S", "AH KH QH JH 7S"]
    state = fixed("mushka", 3, 2, hands, "9H", options={"must_trump": must_trump})
    act(state, (0, "play 0"), (1, "play 0"), (2, "play 0"), (0, "card KD"))
    if must_trump:
        # void in diamonds: a trump, or the privileged card (§1.4.4)
        assert legal_cards(state, 1) == cards("7H 8H AS")
        with pytest.raises(IllegalAction) as refused:
            state.apply(1, "card 9S")
        assert refused.value.code is Refusal.MUST_TRUMP
    else:
        assert legal_cards(state, 1) == cards("AS 7H 8H 9S 10S")


def test_1_4_5_c_highest_trump_wins_and_winner_leads() -> None:
    hands = ["KD 7C 8C 9C 10C", "7H 8H 9S 10S JS", "AH KH QH JH 7S"]
    state = fixed("mushka", 3, 2, hands, "9H", "AS")
    act(state, (0, "play 0"), (1, "play 0"), (2, "play 0"), (0, "card KD"), (1, "card 8H"))
    lines = state.apply(2, "card JH")
    assert events(lines, "trick")[0]["winner"] == 2
    assert state.to_act == 2  # §1.4.8
    assert state.view(None).last_winner == 2


def test_1_4_4_pamfil_jack_of_clubs_any_time_never_forced() -> None:
    # hearts trump; seat 1 holds the JC and diamonds; seat 2 holds the JC-less hand
    hands = ["KD QH 8C 9C 10C", "JC 7D 8D 9S 10S", "AH KH AC JH 7S"]
    state = fixed("pamfil", 3, 2, hands, "9H")
    act(state, (0, "play 0"), (1, "play 0"), (2, "play 0"), (0, "card KD"))
    assert legal_cards(state, 1) == cards("7D 8D JC")  # may play the JC though holding D
    act(state, (1, "card JC"), (2, "card 7S"))
    assert state.view(None).last_winner == 1  # §1.4.5 a: the JC wins, not led


def test_1_4_2_pamfil_jack_is_a_trump_not_a_club() -> None:
    hands = ["AC QH 8C 9C 10C", "JC 7D 8D 9S 10S", "AH KH KC JH 7S"]
    state = fixed("pamfil", 3, 2, hands, "9H")
    act(state, (0, "play 0"), (1, "play 0"), (2, "play 0"), (0, "card AC"))
    # seat 1 holds no club (the JC is a trump): any card
    assert legal_cards(state, 1) == cards("JC 7D 8D 9S 10S")
    act(state, (1, "card 7D"), (2, "card KC"))
    assert state.view(None).last_winner == 0
    act(state, (0, "card QH"))
    # a trump led; seat 1's only trump is the JC: he is not forced to play it (§1.4.4)
    assert legal_cards(state, 1) == cards("JC 8D 9S 10S")
    act(state, (1, "card 8D"), (2, "card AH"))
    assert state.view(None).last_winner == 2


def test_1_4_7_shutikha_queen_is_beaten_only_by_the_king() -> None:
    hands = ["QS AD 7C 8C 9C", "7D KS 7H 8H 9H", "8D KH QH JH 10C"]
    state = fixed("shutikha", 3, 2, hands, stock="")
    act(state, (0, "play 0"), (1, "play 0"), (2, "play 0"))
    act(state, (0, "card AD"), (1, "card 7D"), (2, "card 8D"))
    assert state.view(None).last_winner == 0
    act(state, (0, "card QS"), (1, "card KS"), (2, "card 10C"))
    assert state.view(None).last_winner == 1
