"""The common conventions (RULES.md §0), clause by clause, through the public API.

Clauses without a test of their own:

§0.5.4 seats are assigned by the table (the bot's joining order): the engine is given seat
  numbers and only draws for the first dealer (§0.5.1–§0.5.3, tested), never for seats.
"""

from __future__ import annotations

import random
import re

import pytest

from engine import GAMES, InvalidRecord, StackedChance, new_game

from .clause_helpers import (
    TRICK_GAMES,
    cards,
    complete,
    events,
    kopilka_deal,
    legal,
    only,
    play,
    refused,
    start,
    trick_deal,
)

CARD = re.compile(r"^(10|[2-9JQKA])[SCDH]$")  # RECORD.md §R2.1


@pytest.mark.parametrize("game", sorted(GAMES))
def test_0_1_the_left_of_the_last_seat_is_seat_0(game: str) -> None:
    n = GAMES[game].seat_counts[0]
    dealer = n - 1
    state = start(game, n, dealer, complete(game, n, []), fallback=game == "kopilka")
    assert state.to_act == 0  # (n − 1) + 1 mod n: the dealer's left moves first
    if game in TRICK_GAMES:
        order: list[int] = []
        for _ in range(n):
            seat = state.to_act
            assert seat is not None
            order.append(seat)
            play(state, (seat, "play 0"))
        assert order == list(range(n))  # in turn from seat 0: 0, 1, …, n − 1


@pytest.mark.parametrize("game", sorted(GAMES))
def test_0_2_every_card_is_written_rank_then_suit_letter(game: str) -> None:
    state = new_game(game, GAMES[game].seat_counts[-1], 3)
    deal = only(state.record(), "deal")[0]
    assert all(CARD.match(c) for c in deal["deck"]) and len(set(deal["deck"])) == len(deal["deck"])
    for row in state.record()[1]["draw"]:
        assert all(c is None or CARD.match(c) for c in row)
    seat = state.to_act
    assert seat is not None
    # every word of an action that is not a verb, a count, a suit, "up", "=" or "+" is a card
    tokens = {t for a in legal(state, seat) for t in a.split()[1:]}
    card_like = tokens - {"up", "=", "+", "S", "C", "D", "H"} - {str(k) for k in range(6)}
    assert card_like and all(CARD.match(t) for t in card_like), sorted(card_like)


def test_0_5_1_each_seat_in_ascending_order_draws_one_card_from_the_top() -> None:
    draw = cards("KS QS 3H 9D JC")
    deal = complete("mushka", 5, [])
    state = new_game("mushka", 5, 1, chance=StackedChance.of([draw, deal]))
    seats = state.record()[1]
    assert seats["draw"] == [["KS", "QS", "3H", "9D", "JC"]]  # seat k took deck[k]
    assert seats["first_dealer"] == 2  # the 3 is lowest (§0.5.2)
    # the draw uses the game's own deck: three players play with 7–A, so no 2 can be drawn
    with pytest.raises(InvalidRecord):
        new_game("mushka", 3, 1, chance=StackedChance.of([cards("KS 2S QS")]))


def test_0_6_deck_k_goes_to_seat_dealer_plus_1_plus_k() -> None:
    # Лентюрлю, 8 players, 6 cards each, dealer 2: round r gives deck[8r … 8r+7] to seats
    # 3, 4, 5, 6, 7, 0, 1, 2 in that order; the last 4 cards are the stock
    rounds = [
        "2H 2S 2C 2D 3S 3C 3D 4S",
        "3H 4C 4D 5S 5C 5D 6S 6C",
        "4H 6D 7S 7C 7D 8S 8C 8D",
        "5H 8H 9S 9C 9D 9H 10S 10C",
        "6H 10D 10H JS JC JD JH QS",
        "7H QC QD QH KS KC KD KH",
    ]
    deal = cards(" ".join(rounds) + " AS AC AD AH")
    hands = {  # worked out by hand from the rounds above
        3: "2H 3H 4H 5H 6H 7H",
        4: "2S 4C 6D 8H 10D QC",
        5: "2C 4D 7S 9S 10H QD",
        6: "2D 5S 7C 9C JS QH",
        7: "3S 5C 7D 9D JC KS",
        0: "3C 5D 8S 9H JD KC",
        1: "3D 6S 8C 10S JH KD",
        2: "4S 6C 8D 10C QS KH",
    }
    state = start("lenturlu", 8, 2, deal)
    assert state.to_act == 3
    lines = play(state, (3, "run 2H 3H 4H 5H 6H 7H"))  # out at once: every hand is shown
    (deal_end,) = only(lines, "deal_end")
    for row in deal_end["seats"]:
        assert set(row["hand"]) == (set() if row["seat"] == 3 else set(hands[row["seat"]].split()))


@pytest.mark.parametrize("game", sorted(GAMES))
def test_0_7_money_is_integer_and_nets_sum_to_zero(game: str) -> None:
    options: dict[str, object] = {"target": 5} if game in (*TRICK_GAMES, "konchinka") else {}
    for seed in range(3):
        players = GAMES[game].seat_counts[seed % len(GAMES[game].seat_counts)]
        state = new_game(game, players, 100 + seed, options)
        pick = random.Random(seed)
        while (seat := state.to_act) is not None:
            state.apply(seat, pick.choice(state.legal_actions(seat)))
        end = state.record()[-1]
        assert end["t"] == "end" and len(end["net"]) == players
        assert all(type(x) is int for x in end["net"]) and sum(end["net"]) == 0
        assert end.get("bank", 0) == 0  # the bank always ends empty


def test_0_9_obligations_are_enforced_not_fined() -> None:
    # cannot revoke: seat 1 holds a diamond on a diamond lead
    hands = ["KD 7C 8C 9C 10C", "AD 7D 8H 9S 10S", "AH KH QH JH 7S"]
    state = start("mushka", 3, 2, trick_deal("mushka", 3, 2, hands, "9H"))
    play(state, (0, "play 0"), (1, "play 0"), (2, "play 0"), (0, "card KD"))
    assert refused(state, 1, "card 9S").code.value == "must_follow_suit"
    assert sorted(legal(state, 1)) == ["card 7D", "card AD"]
    # cannot pass when passing is forbidden: the privileged card, the defending dealer
    state = start("mushka", 3, 2, trick_deal("mushka", 3, 2, ["AS 7C 8C 9C 10C", *hands[1:]], "9H"))
    assert refused(state, 0, "pass").code.value == "privileged_may_not_pass"
    play(state, (0, "play 0"), (1, "pass"))
    assert refused(state, 2, "pass").code.value == "dealer_must_defend"
    # cannot conceal: three cards of a suit are laid out by the table, no action asked
    kop = ["JS QS JD QD 8C", "AH KH 10H 8S 7C", "7S 9S 7D 8D QH", "10S KS 9D 10D 9C"]
    state = start("kopilka", 4, 0, kopilka_deal(0, kop, "AS AD 10C"), picks="10H AH KH")
    assert events(state.record(), "lay_out")[0]["seat"] == 1
    assert not only(state.record(), "act")
    # a breach the seeds fine is legal only by option (Копилка's hold_pass, §2.7)
    hold = ["7H 7S 7C 7D 8D", "9H QS 8S 8C 9D", "KH 9S QC 10D 10C", "AH 10S JC JD JS"]
    for allowed in (False, True):
        state = start("kopilka", 4, 3, kopilka_deal(3, hold), {"hold_pass": allowed})
        play(state, (0, "card 7H"))
        if allowed:
            assert events(play(state, (1, "pass")), "fine")[0]["kind"] == "hold_pass"
        else:
            assert refused(state, 1, "pass").code.value == "no_pass_holding_suit"


def test_0_10_a_forced_action_is_still_an_act_line() -> None:
    hands = ["KD 7C 8C 9C 10C", "AD 7H 8H 9S 10S", "AH KH QH JH 7S"]
    state = start("mushka", 3, 2, trick_deal("mushka", 3, 2, hands, "9H"))
    play(state, (0, "play 0"), (1, "play 0"), (2, "play 0"), (0, "card KD"))
    assert legal(state, 1) == ["card AD"]  # his only diamond
    before = state.record()
    assert state.to_act == 1 and state.record() == before  # the engine waits for it
    assert before[-1] == {"t": "act", "seat": 0, "a": "card KD"}
    lines = play(state, (1, "card AD"))
    assert lines[0] == {"t": "act", "seat": 1, "a": "card AD"}
