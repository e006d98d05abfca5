"""Scoring against the count, the end of the pulka and its settlement (RULES.md §1.5, §1.6)."""

from __future__ import annotations

from engine.cards import Card, Suit
from engine.trick.scoring import Trick, apply_count, pulka_money, trick_points, zero_order
from engine.trick.variant import MISTIGRI, MUSHKA, PAMFIL, SHUTIKHA

from .helpers import act, events, fixed

# 3 players, dealer 2, hearts trump: seat 0 takes AD KD QD, loses the led AS to a trump
EIGHT = ["AS AD KD QD 7C", "7D 8D 9D 7H 8C", "7S 8S 9S 10S JS"]


def play_eight(options: dict[str, object]) -> list[dict[str, object]]:
    state = fixed("mushka", 3, 2, EIGHT, "9H", options=options)
    act(state, (0, "play 0"), (1, "play 0"), (2, "play 0"))
    act(state, (0, "card AD"), (1, "card 7D"), (2, "card JS"))
    act(state, (0, "card KD"), (1, "card 8D"), (2, "card 10S"))
    act(state, (0, "card QD"), (1, "card 9D"), (2, "card 9S"))
    act(state, (0, "card AS"), (1, "card 7H"), (2, "card 8S"))
    act(state, (1, "card 8C"), (2, "card 7S"))
    lines = state.apply(0, "card 7C")
    (deal_end,) = [line for line in lines if line["t"] == "deal_end"]
    seats = deal_end["seats"]
    assert isinstance(seats, list)
    return seats


def test_1_5_3_three_tricks_with_the_ace_of_spades_write_off_8_and_remise_5() -> None:
    s0, s1, s2 = play_eight({"target": 25})
    assert (s0["held"], s0["tricks"], s0["written_off"], s0["after"]) == (True, 3, 8, 17)
    assert (s1["held"], s1["tricks"], s1["written_off"], s1["after"]) == (False, 2, 2, 23)
    assert (s2["tricks"], s2["written_off"], s2["remise"], s2["after"]) == (0, 0, 5, 30)


def test_1_5_7_b_overshoot_sends_the_count_back_to_target() -> None:
    s0, s1, _ = play_eight({"target": 5})
    assert s0["written_off"] == 8 and s0["after"] == 5 and s0["overshoot"] is True
    assert s1["after"] == 3 and s1["overshoot"] is False


def test_1_5_3_three_tricks_with_the_ace_of_spades_trump_write_off_14() -> None:
    hands = ["AS AD KD 7C 8C", "7D 8D 9C 10C JC", "7H 8H 9H 10H JH"]
    state = fixed("mushka", 3, 2, hands, "9S", options={"target": 25})
    act(state, (0, "play 0"), (1, "play 0"), (2, "play 0"))
    act(state, (0, "card AD"), (1, "card 7D"), (2, "card 7H"))
    act(state, (0, "card KD"), (1, "card 8D"), (2, "card 8H"))
    act(state, (0, "card AS"), (1, "card JC"), (2, "card 9H"))
    act(state, (0, "card 7C"), (1, "card 9C"), (2, "card 10H"))
    lines = state.apply(1, "card 10C") + state.apply(2, "card JH") + state.apply(0, "card 8C")
    deal_end = next(line for line in lines if line["t"] == "deal_end")
    s0 = deal_end["seats"][0]
    assert (s0["tricks"], s0["written_off"], s0["after"]) == (3, 14, 11)


def test_1_5_3_remise_10_for_the_ace_of_spades_without_a_trick() -> None:
    won, written, remise, _ = trick_points(MUSHKA, Suit.HEARTS, 0, [], 3)
    assert remise[0] == 10 and remise[1] == 5 and written == [0, 0, 0] and won == [0, 0, 0]


def _t(no: int, leader: int, plays: str, winner: int) -> Trick:
    cards = [Card.parse(c) for c in plays.split()]
    return Trick(no, leader, tuple(((leader + i) % 3, c) for i, c in enumerate(cards)), winner)


def test_1_5_4_mistigri_and_pamfil_tables() -> None:
    tricks = [_t(1, 0, "KC 7C 8C", 0), _t(2, 0, "AD 7D 8D", 0), _t(3, 0, "7S 8S 9S", 2)]
    _, w, r, _ = trick_points(MISTIGRI, Suit.HEARTS, 0, tricks, 3)
    assert w[0] == 2 + 5 and w[2] == 1 and r[1] == 5
    _, w, _, _ = trick_points(MISTIGRI, Suit.CLUBS, 0, tricks, 3)
    assert w[0] == 2 * 2 + 8
    _, w, r, _ = trick_points(MISTIGRI, Suit.HEARTS, 1, tricks, 3)
    assert r[1] == 10 and w[0] == 2
    _, w, r, _ = trick_points(PAMFIL, Suit.HEARTS, 0, tricks, 3)
    assert w == [2, 0, 1] and r[1] == 5


def test_1_5_5_shutikha_8_5_4_and_no_remise_for_the_queen() -> None:
    won_by_queen = [_t(1, 0, "QS 7S 8S", 0), _t(2, 0, "7D 8D 9D", 2)]
    won, w, r, _ = trick_points(SHUTIKHA, Suit.SPADES, 0, won_by_queen, 3)
    assert w[0] == 8 and w[2] == 1 and r[1] == 5
    beaten = [_t(1, 0, "QS KS 8S", 1), _t(2, 1, "7D 8D 9D", 0)]
    won, w, r, last = trick_points(SHUTIKHA, Suit.SPADES, 0, beaten, 3)
    assert won == [1, 1, 0] and w == [1 + 4, 5, 0] and last[0] == 2 and last[1] == 1
    only_beaten = [_t(1, 0, "QS KS 8S", 1), _t(2, 1, "7D 8D 9D", 2)]
    won, w, r, _ = trick_points(SHUTIKHA, Suit.SPADES, 0, only_beaten, 3)
    assert won[0] == 0 and w[0] == 4 and r[0] == 0  # the QS player never takes a remise
    assert r[2] == 0 and w[2] == 1


def test_1_5_7_count_application() -> None:
    assert apply_count(5, 5, 0, 25) == (0, False)
    assert apply_count(5, 6, 0, 25) == (25, True)
    assert apply_count(5, 0, 10, 25) == (15, False)


def test_1_5_8_several_reach_zero_earliest_last_trick_wins() -> None:
    assert zero_order([0, 1], [4, 2, 0], 2, 3) == [1, 0]
    assert zero_order([0, 1], [3, 3, 0], 0, 3) == [1, 0]  # tie: from the dealer's left
    assert zero_order([0, 1], [3, 3, 0], 2, 3) == [0, 1]


def test_1_5_8_shutikha_queen_and_king_reach_zero_on_one_trick() -> None:
    hands = ["QS AD 7C 8C 9C", "7D KS 7H 8H 9H", "8D KH QH JH 10C"]
    state = fixed("shutikha", 3, 2, hands, options={"target": 5, "pulka_fee": 3})
    act(state, (0, "play 0"), (1, "play 0"), (2, "play 0"))
    act(state, (0, "card AD"), (1, "card 7D"), (2, "card 8D"))
    act(state, (0, "card QS"), (1, "card KS"), (2, "card 10C"))
    act(state, (1, "card 7H"), (2, "card KH"), (0, "card 7C"))
    act(state, (2, "card QH"), (0, "card 8C"), (1, "card 8H"))
    act(state, (2, "card JH"), (0, "card 9C"))
    lines = state.apply(1, "card 9H")
    assert len(events(lines, "trick")) == 1
    deal_end, end = lines[-2], lines[-1]
    assert [s["written_off"] for s in deal_end["seats"]] == [5, 5, 3]
    assert deal_end["seats"][0]["held"] is True
    assert deal_end["zero"] == [0, 1]
    assert end["winner"] == 0 and end["counts"] == [0, 0, 2]
    assert end["pulka"] == [8, -3, -5]  # the other zero pays only the fee


def test_1_6_1_settlement_of_the_seed_example() -> None:
    assert pulka_money([9, 16, 2, 0], 3, 1, 0) == [-9, -16, -2, 27]
    assert pulka_money([9, 16, 2, 0], 3, 1, 10) == [-19, -26, -12, 57]
    assert pulka_money([0, 0, 0, 0, 0, 0], 0, 1, 10)[0] == 50  # seed 000 rules 9–10
