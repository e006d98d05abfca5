"""Мушка-Лентюрлю (RULES.md §3), clause by clause, through the public API.

Deals are stacked with the dealer chosen by a stacked first-dealer draw; hands not given in full
are filled from the unused cards (see ``clause_helpers.lenturlu_deal``).
"""

from __future__ import annotations

import pytest

from engine import InvalidOption, State, new_game

from .clause_helpers import (
    deck_codes,
    events,
    legal,
    lenturlu_deal,
    only,
    play,
    refused,
    start,
)

LAYOUT_3 = {"7D": 5, "KH": 4, "JC": 3, "AS": 2, "QS": 1}  # §3.1.3 with 3 players, unit 1

# 8 players, 6 cards each, dealer 7 (seat 0 leads); the four 9s are the stock
EIGHT = [
    "2H 3S 4S 5S 6S 7S",
    "2S 5C 6C 7C 8C 10C",
    "2C 5D 6D 7D 8D 10D",
    "2D 5H 6H 7H 8H 10H",
    "3C 4C JS QS KS AS",
    "3D 4D JC QC KC AC",
    "3H 4H JD QD KD AD",
    "8S 10S JH QH KH AH",
]
EIGHT_STOCK = "9S 9C 9D 9H"


def eight() -> State:
    return start("lenturlu", 8, 7, lenturlu_deal(8, 7, EIGHT, EIGHT_STOCK)[0])


def test_3_1_1_three_to_eight_players_52_cards_ace_low_king_high_suits_free() -> None:
    for players in (2, 9):
        with pytest.raises(InvalidOption):
            new_game("lenturlu", players, 1)
    for players in range(3, 9):
        assert sorted(new_game("lenturlu", players, 1).record()[2]["deck"]) == sorted(deck_codes())
    deal, _ = lenturlu_deal(3, 2, ["AH 2D 9H 10S JC QD KS"])
    state = start("lenturlu", 3, 2, deal)
    runs = set(legal(state, 0))
    # values A 1 … 10, J 11, Q 12, K 13, any suits
    assert {"run AH 2D", "run 9H 10S JC QD KS", "run 10S JC"} <= runs
    assert not [a for a in runs if a.startswith("run KS ") or "AH" in a.split()[2:]]  # no wrap


@pytest.mark.parametrize(
    ("card", "lenturlu"),
    [("7D", True), ("7H", False), ("KH", True), ("KD", False), ("JC", True), ("JS", False),
     ("AS", True), ("AC", False), ("QS", True), ("QH", False)],
)  # fmt: skip
def test_3_1_2_the_five_lenturlu_cards(card: str, lenturlu: bool) -> None:
    deal, _ = lenturlu_deal(3, 2, [card])
    state = start("lenturlu", 3, 2, deal)
    assert state.record()[2]["layout"] == LAYOUT_3  # the five cards, nothing else
    stakes = events(play(state, (0, f"run {card}")), "stake")
    if lenturlu:
        assert stakes == [
            {"t": "event", "e": "stake", "seat": 0, "card": card, "amount": LAYOUT_3[card]}
        ]
    else:
        assert stakes == []


def test_3_2_2_the_pile_top_is_the_last_card_and_a_king_closes_it() -> None:
    deal, _ = lenturlu_deal(3, 2, ["5S QD KD", "6H 7H", "8C 9C"])
    state = start("lenturlu", 3, 2, deal)
    play(state, (0, "run 5S"), (1, "run 6H 7H"))
    runs = [a for a in legal(state, 2) if a.startswith("run ")]
    assert runs and all(a.split()[1].startswith("8") for a in runs)  # onto the 7H
    # a pile topped by a K is closed: its player leads a new pile, at any rank
    closed = start("lenturlu", 3, 2, deal)
    lines = play(closed, (0, "run QD KD"))
    assert events(lines, "close") == [{"t": "event", "e": "close", "seat": 0, "card": "KD"}]
    assert closed.to_act == 0 and "run 5S" in legal(closed, 0)


def test_3_3_1_able_means_holding_the_next_rank_in_any_suit() -> None:
    state = eight()
    play(state, (0, "run 5S"))
    assert {"run 6C", "buy 1", "buy 2", "pass"} <= set(legal(state, 1))  # 6C on a spade
    play(state, (1, "pass"), (2, "pass"), (3, "pass"))
    assert legal(state, 4) == ["buy 1", "buy 2"]  # seat 4 holds no 6: unable
    assert refused(state, 4, "pass").code.value == "must_buy"


def test_3_3_3_buying_draws_the_stocks_top_cards_into_the_hand() -> None:
    state = eight()
    play(state, (0, "run 7S"), (1, "run 8C"))
    assert legal(state, 2) == ["buy 1", "buy 2"]  # needs a 9: unable
    lines = play(state, (2, "buy 2"))
    assert events(lines, "draw") == [{"t": "event", "e": "draw", "seat": 2, "cards": ["9S", "9C"]}]
    assert {"run 9S", "run 9C", "run 9S 10D", "run 9C 10D", "pass"} <= set(legal(state, 2))
    lines = play(state, (2, "run 9C 10D"))
    assert lines[0]["a"] == "run 9C 10D"
    lines = play(state, (3, "buy 1"))  # seat 3 holds no J
    assert events(lines, "draw")[0]["cards"] == ["9D"]  # the next card of the stock


def test_3_5_1_the_winner_takes_what_is_left_on_the_layout() -> None:
    deal, _ = lenturlu_deal(3, 2, ["6D 7D", "8S 9S 10S JS QD", "KC"])
    state = start("lenturlu", 3, 2, deal)
    lines = play(state, (0, "run 6D 7D"))
    assert events(lines, "stake")[0]["amount"] == 5
    assert events(lines, "refill")[0]["amount"] == 2  # two other players, 1 unit each
    play(state, (1, "run 8S 9S 10S JS QD"))
    lines = play(state, (2, "run KC"))  # a covering king ends the deal (§3.4.2 a)
    (deal_end,) = only(lines, "deal_end")
    remainder = 15 - 5 + 2  # layout 15 units, the 7D's 5 taken, refilled with 2
    assert deal_end["winner"] == 2 and deal_end["layout"] == remainder
    end = lines[-1]
    assert end["layout"] == [0, 0, remainder]
    assert end["taken"] == [5, 0, 0] and end["refills"] == [0, 1, 1]
