"""Мушка-Копилка (RULES.md §2), clause by clause, through the public API.

Fixed first deals (the dealer chosen by a stacked first-dealer draw) with the random takes given
in advance; later deals, where a test plays on, come from a seeded fallback. Hands hold at most
two cards of a suit unless a test wants the same-suit rule (§2.3) to fire.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from engine import InvalidOption, Line, State, new_game, read_records, replay
from engine.kopilka.scoring import partia_winner

from .clause_helpers import (
    deal_lines,
    deck_codes,
    events,
    kopilka_deal,
    legal,
    only,
    play,
    play_first_legal,
    refused,
    start,
    start_recorded,
)


def ev(name: str, **keys: object) -> Line:
    return {"t": "event", "e": name, **keys}


def take(seat: int, holder: int, card: str) -> Line:
    return ev("take", seat=seat, **{"from": holder}, card=card)


def after_deal(lines: list[Line]) -> list[Line]:
    """The lines of a deal after its ``deal`` line."""
    return lines[1:]


def leads(state: State, seat: int) -> set[str]:
    """The cards ``seat`` may lead (his whole hand when the lead is free)."""
    return {a.split()[1] for a in legal(state, seat) if a.startswith("card ")}


# Clean hands (no three of a suit), dealer 3, seat 0 leads: each suit goes round once.
ROUNDS = ["7S 7C 7D 7H JC", "8S 8C 8D 9H 10H", "9S 9C 9D JH QH", "10S 10C 10D KH AH"]
FOUR_TRICKS = [
    [(0, "card 7S"), (1, "card 8S"), (2, "card 9S"), (3, "card 10S")],
    [(3, "card 10C"), (0, "card 7C"), (1, "card 8C"), (2, "card 9C")],
    [(3, "card 10D"), (0, "card 7D"), (1, "card 8D"), (2, "card 9D")],
    [(3, "card AH"), (0, "card 7H"), (1, "card 9H"), (2, "card JH")],
]


# --- §2.1 players, deck, partia ----------------------------------------------------------------


def test_2_1_1_four_players_32_cards_a_k_q_j_10_no_trumps() -> None:
    for players in (3, 5):
        with pytest.raises(InvalidOption):
            new_game("kopilka", players, 1)
    deck = new_game("kopilka", 4, 1).record()[3]["deck"]
    assert sorted(deck) == sorted(deck_codes("7"))
    hands = ["JH 8H 8S 7C 7D", "KH 7H JS 8C 8D", "AH 9H 9S 9C 9D", "QH 10H 10S 10C 10D"]
    state = start("kopilka", 4, 3, kopilka_deal(3, hands))
    lines = play(state, (0, "card JH"), (1, "card KH"), (2, "card AH"), (3, "card QH"))
    assert events(lines, "trick")[0]["winner"] == 2  # the ace is highest
    lines = play(state, (2, "card 9S"), (3, "card 10S"), (0, "card 8S"), (1, "card JS"))
    assert events(lines, "trick")[0]["winner"] == 1  # J above 10
    # no trumps: only the led suit (or the AS, §2.4.4) may follow it
    play(state, (1, "card 8C"), (2, "card 9C"))
    assert legal(state, 3) == ["card 10C"]  # holds clubs: the suit, nothing else
    play(state, (3, "card 10C"))
    assert refused(state, 0, "card 7D").code.value == "must_follow_suit"


def test_2_1_2_a_partia_is_four_deals_the_deal_passing_left() -> None:
    state = start("kopilka", 4, 2, kopilka_deal(2, ROUNDS), fallback=True)
    play_first_legal(state, until="end")
    record = state.record()
    assert [line["dealer"] for line in only(record, "deal")] == [2, 3, 0, 1]
    assert [line["no"] for line in only(record, "deal_end")] == [1, 2, 3, 4]
    assert record[-1]["t"] == "end" and record[-1]["reason"] == "partia"
    assert record[2] == ev("ante", amount=20, bank=80)  # once, before the first deal


# --- §2.2 deal ------------------------------------------------------------------------------


def test_2_2_2_same_suit_checks_in_turn_from_the_dealers_left_then_his_left_leads() -> None:
    # dealer 1: checks in the order 2, 3, 0, 1; seats 3 and 0 hold three of a suit
    hands = ["7D 8D 9D 8S 8H", "9S 10S 9H 10H JD", "JS QS 10D JH QC", "7C 8C 9C 7S 7H"]
    state = start("kopilka", 4, 1, kopilka_deal(1, hands, "AS KD AH KS QD QH"),
                  picks="7C 8C 9C  7D 8D 9D")  # fmt: skip
    assert after_deal(deal_lines(state)) == [
        ev("lay_out", seat=3, suit="C", cards=["9C", "8C", "7C"]),
        take(0, 3, "7C"),
        take(1, 3, "8C"),
        take(2, 3, "9C"),
        ev("draw", seat=3, cards=["AS", "KD", "AH"], why="replace"),
        ev("lay_out", seat=0, suit="D", cards=["9D", "8D", "7D"]),
        take(1, 0, "7D"),
        take(2, 0, "8D"),
        take(3, 0, "9D"),
        ev("draw", seat=0, cards=["KS", "QD", "QH"], why="replace"),
    ]
    assert state.to_act == 2
    assert leads(state, 2) == {"JS", "QS", "10D", "JH", "QC", "9C", "8D"}


# --- §2.3 the same-suit rule -------------------------------------------------------------------


def test_2_3_4_takes_in_turn_from_the_holders_left_among_the_cards_still_lying() -> None:
    hands = ["JS QS JD QD 8C", "AH KH 10H 8S 7C", "7S 9S 7D 8D QC", "10S KS 9D 10D 9C"]
    state, chance = start_recorded(
        "kopilka", 4, 0, kopilka_deal(0, hands, "AS AD 10C"), picks="10H AH KH"
    )
    takes = events(deal_lines(state), "take")
    assert takes == [take(2, 1, "10H"), take(3, 1, "AH"), take(0, 1, "KH")]
    # each random pick was offered exactly the laid-out cards not yet taken
    assert [set(o) for o in chance.offered] == [{"AH", "KH", "10H"}, {"AH", "KH"}, {"KH"}]
    # a taken card is in the taker's hand: seat 0 wins a spade trick and may lead his KH
    play(state, (1, "card 8S"), (2, "card 7S"), (3, "card 10S"), (0, "card QS"))
    assert events(deal_lines(state), "trick")[0]["winner"] == 0
    assert "KH" in leads(state, 0)


def test_2_3_5_with_five_of_a_suit_two_cards_return() -> None:
    hands = ["7S 8S 7C 8C 7D", "AH KH QH JH 10H", "9S 10S 9C 10C 8D", "JS QS JC QC 9D"]
    state = start("kopilka", 4, 0, kopilka_deal(0, hands, "KS KC 10D"), picks="AH KH QH")
    assert after_deal(deal_lines(state)) == [
        ev("lay_out", seat=1, suit="H", cards=["AH", "KH", "QH", "JH", "10H"]),
        take(2, 1, "AH"),
        take(3, 1, "KH"),
        take(0, 1, "QH"),
        ev("return", seat=1, cards=["JH", "10H"]),  # k − 3 = 2
        ev("draw", seat=1, cards=["KS", "KC", "10D"], why="replace"),
    ]
    assert state.to_act == 1 and leads(state, 1) == {"JH", "10H", "KS", "KC", "10D"}


def test_2_3_6_replacement_draw_of_three_then_the_hand_is_checked_again() -> None:
    # seat 1's hearts go; his three drawn cards make four spades: a second lay-out
    hands = ["9H 9C 10C JD QD", "AH KH QH 7S 8S", "JS 10H JC QC KD", "QS JH KC AC AD"]
    stock = "9S 10S 7D 8D 7C 8C"
    state = start("kopilka", 4, 0, kopilka_deal(0, hands, stock), picks="AH KH QH 10S 9S 8S")
    assert after_deal(deal_lines(state)) == [
        ev("lay_out", seat=1, suit="H", cards=["AH", "KH", "QH"]),
        take(2, 1, "AH"),
        take(3, 1, "KH"),
        take(0, 1, "QH"),
        ev("draw", seat=1, cards=["9S", "10S", "7D"], why="replace"),  # min(3, 12) from the top
        ev("lay_out", seat=1, suit="S", cards=["10S", "9S", "8S", "7S"]),
        take(2, 1, "10S"),
        take(3, 1, "9S"),
        take(0, 1, "8S"),
        ev("return", seat=1, cards=["7S"]),
        ev("draw", seat=1, cards=["8D", "7C", "8C"], why="replace"),
    ]
    assert leads(state, 1) == {"7S", "7D", "8D", "7C", "8C"}


def test_2_3_7_a_hand_is_checked_as_it_stands_after_earlier_takes() -> None:
    # dealer 1: seat 2 lays out clubs; seat 3 takes the 7C and so holds three clubs at his
    # turn: his lay-out includes the taken card
    hands = ["9S 9H 8D 10S 10H", "JS QS 9D JH 10D", "7C 8C 9C 7S 7H", "10C JC 8S 8H 7D"]
    stock = "AS KD AH KS QD QH"
    state = start("kopilka", 4, 1, kopilka_deal(1, hands, stock), picks="7C 8C 9C JC 10C 7C")
    assert after_deal(deal_lines(state)) == [
        ev("lay_out", seat=2, suit="C", cards=["9C", "8C", "7C"]),
        take(3, 2, "7C"),
        take(0, 2, "8C"),
        take(1, 2, "9C"),
        ev("draw", seat=2, cards=["AS", "KD", "AH"], why="replace"),
        ev("lay_out", seat=3, suit="C", cards=["JC", "10C", "7C"]),
        take(0, 3, "JC"),
        take(1, 3, "10C"),
        take(2, 3, "7C"),
        ev("draw", seat=3, cards=["KS", "QD", "QH"], why="replace"),
    ]  # seat 0 (two clubs now) and seat 1 (two clubs) are not laid out


# --- §2.4 tricks --------------------------------------------------------------------------------


def test_2_4_1_the_leader_leads_any_card_and_only_a_card() -> None:
    state = start("kopilka", 4, 3, kopilka_deal(3, ROUNDS))
    assert state.to_act == 0
    assert sorted(legal(state, 0)) == sorted(f"card {c}" for c in ROUNDS[0].split())
    assert refused(state, 0, "buy 1").code.value == "leader_must_lead"
    assert refused(state, 0, "pass").code.value == "leader_must_lead"
    assert refused(state, 0, "card AS").code.value == "not_in_hand"


def test_2_4_5_buying_draws_from_the_top_of_the_stock() -> None:
    hands = ["7H 7S 7C 7D 8D", "9C QS 8S 8C 9D", "9S QC 10D 10C JD", "AH KH 10S JC JS"]
    state = start("kopilka", 4, 3, kopilka_deal(3, hands, "QD 8H 9H"))
    play(state, (0, "card 7H"))
    lines = play(state, (1, "buy 1"))
    assert lines[1:] == [ev("draw", seat=1, cards=["QD"], why="buy")]  # no lay-out: 2 D
    assert legal(state, 1) == ["pass"]  # still void, no AS, one buy per turn
    play(state, (1, "pass"))
    lines = play(state, (2, "buy 2"))
    assert lines[1:] == [ev("draw", seat=2, cards=["8H", "9H"], why="buy")]
    assert sorted(legal(state, 2)) == ["card 8H", "card 9H"]  # now holds the led suit


def test_2_4_6_one_follower_completes_the_trick_the_as_wins_it() -> None:
    hands = ["7H AS 7C 7D 8D", "9C QS 8S 8C 9D", "8H 9S QC 10D 10C", "10S JC JS KD AD"]
    state = start("kopilka", 4, 3, kopilka_deal(3, hands))
    lines = play(state, (0, "card 7H"), (1, "pass"), (2, "card 8H"), (3, "pass"))
    assert events(lines, "trick") == [
        ev("trick", no=1, leader=0, suit="H", plays=[[0, "7H"], [2, "8H"]], winner=2,
           points=4, double=False)
    ]  # fmt: skip
    assert state.to_act == 2  # the winner leads next
    lines = play(state, (2, "card 10D"), (3, "card AD"), (0, "card AS"), (1, "card 9D"))
    trick = events(lines, "trick")[0]
    assert (trick["winner"], trick["points"], trick["double"]) == (0, 3 * 2, True)


# --- §2.5 end of a deal -------------------------------------------------------------------------


def test_2_5_1_the_first_player_out_wins_the_deal_not_the_trick_winner() -> None:
    state = start("kopilka", 4, 3, kopilka_deal(3, ROUNDS, "QC"), fallback=True)
    for trick in FOUR_TRICKS:
        play(state, *trick)
    # hands: 0 JC, 1 10H, 2 QH, 3 KH; hearts was the last suit: the lead passes to seat 0
    assert state.to_act == 0
    lines = play(state, (0, "card JC"), (1, "buy 1"), (1, "card QC"), (2, "pass"), (3, "pass"))
    assert events(lines, "trick")[0]["winner"] == 1  # the bought QC beats the JC
    assert events(lines, "out") == [ev("out", seat=0)]  # seat 1 still holds the 10H
    (deal_end,) = only(lines, "deal_end")
    assert deal_end["winner"] == 0 and not deal_end["blocked"]
    assert [row["cards_left"] for row in deal_end["seats"]] == [0, 1, 1, 1]


def test_2_5_2_blocked_deal_fewest_cards_ties_from_the_dealers_left() -> None:
    # dealer 1, seat 2 leads; ROUNDS rotated so that seat 1 wins the first four tricks
    hands = [ROUNDS[2], ROUNDS[3], ROUNDS[0], ROUNDS[1]]
    state = start("kopilka", 4, 1, kopilka_deal(1, hands, "QD JD"), fallback=True)
    play(state, (2, "card 7S"), (3, "card 8S"), (0, "card 9S"), (1, "card 10S"))
    play(state, (1, "card 10C"), (2, "card 7C"), (3, "card 8C"), (0, "card 9C"))
    play(state, (1, "card 10D"), (2, "card 7D"), (3, "card 8D"), (0, "card 9D"))
    play(state, (1, "card AH"), (2, "card 7H"), (3, "card 9H"), (0, "card JH"))
    # hands: 0 QH, 1 KH, 2 JC, 3 10H; seat 3 buys two diamonds in the first round
    play(state, (2, "card JC"), (3, "buy 2"), (3, "pass"), (0, "pass"), (1, "pass"))
    play(state, (3, "card QD"), (0, "pass"), (1, "pass"), (2, "pass"))
    play(state, (2, "card JC"), (3, "pass"), (0, "pass"), (1, "pass"))
    lines = play(state, (3, "card QD"), (0, "pass"), (1, "pass"))
    assert not only(lines, "deal_end")  # three take-backs so far
    lines = play(state, (2, "pass"))
    assert len(events(deal_lines(state), "takeback")) == 4
    # one card each for seats 0, 1, 2, three for seat 3: the tie goes to seat 2, the first of
    # them in turn from the dealer's left (2, 3, 0, 1)
    assert events(lines, "blocked") == [ev("blocked", winner=2)]
    (deal_end,) = only(lines, "deal_end")
    assert deal_end["winner"] == 2 and deal_end["blocked"] is True
    assert [row["cards_left"] for row in deal_end["seats"]] == [1, 1, 1, 3]


# --- §2.6 points, fines, payout ------------------------------------------------------------------


def test_2_6_3_deal_fee_from_everyone_but_the_winner() -> None:
    # everyone empties in the fifth trick, the leader first: the others pay the fee too
    hands = ["7S 7C 7D 7H 8H", "8S 8C 8D 9H 10H", "9S 9C 9D JH QH", "10S 10C 10D KH AH"]
    options = {"deal_fee": 7, "no_trick_fine": 0}
    state = start("kopilka", 4, 3, kopilka_deal(3, hands), options, fallback=True)
    for trick in FOUR_TRICKS:
        play(state, *trick)
    lines = play(state, (3, "card KH"), (0, "card 8H"), (1, "card 10H"), (2, "card QH"))
    assert events(lines, "out") == [ev("out", seat=s) for s in (3, 0, 1, 2)]
    assert events(lines, "fine") == [
        ev("fine", seat=0, kind="deal_fee", amount=7, bank=87),
        ev("fine", seat=1, kind="deal_fee", amount=7, bank=94),
        ev("fine", seat=2, kind="deal_fee", amount=7, bank=101),
    ]
    (deal_end,) = only(lines, "deal_end")
    assert [row["fines"] for row in deal_end["seats"]] == [7, 7, 7, 0]


def test_2_6_4_hold_pass_fine_is_paid_at_the_pass() -> None:
    hands = ["7H 7S 7C 7D 8D", "9H QS 8S 8C 9D", "KH 9S QC 10D 10C", "AH 10S JC JD JS"]
    options = {"hold_pass": True, "hold_pass_fine": 9}
    state = start("kopilka", 4, 3, kopilka_deal(3, hands), options, fallback=True)
    play(state, (0, "card 7H"))
    lines = play(state, (1, "pass"))
    assert lines == [
        {"t": "act", "seat": 1, "a": "pass"},
        ev("fine", seat=1, kind="hold_pass", amount=9, bank=4 * 20 + 9),
    ]
    play_first_legal(state)
    record = deal_lines(state)
    paid = sum(e["amount"] for e in events(record, "fine") if e["seat"] == 1)
    assert only(record, "deal_end")[0]["seats"][1]["fines"] == paid >= 9


def test_2_6_6_net_is_payout_less_ante_and_fines() -> None:
    options = {"ante": 30, "hold_pass": True, "hold_pass_fine": 3}
    state = start("kopilka", 4, 3, kopilka_deal(3, ROUNDS), options, fallback=True)
    play_first_legal(state, until="end")
    record = state.record()
    paid_in = [30] * 4
    for fine in events(record, "fine"):
        paid_in[fine["seat"]] += fine["amount"]
    end = record[-1]
    assert end["paid_in"] == paid_in
    assert end["net"] == [p - q for p, q in zip(end["payout"], paid_in, strict=True)]
    assert sum(end["payout"]) == end["bank_before"] == sum(paid_in)
    assert sum(end["net"]) == 0 and end["bank"] == 0


def test_2_6_8_the_next_partia_is_a_new_record_with_a_new_ante() -> None:
    state = start("kopilka", 4, 3, kopilka_deal(3, ROUNDS), fallback=True)
    play_first_legal(state, until="end")
    last = only(state.record(), "deal")[-1]["dealer"]
    assert last == 2
    nxt = new_game("kopilka", 4, 2, {"ante": 25}, prev_dealer=last)
    record = nxt.record()
    assert record[0]["t"] == "game" and record[1]["by"] == "series"
    assert record[1]["first_dealer"] == 3
    assert record[2] == ev("ante", amount=25, bank=100)  # the old bank was paid out: 0


# --- §2.6.7 the partia's winner -----------------------------------------------------------------

SIMULATED = Path(__file__).parent.parent / "golden" / "simulated" / "kopilka.jsonl"
EXAMPLE = Path(__file__).parent.parent / "golden" / "records" / "kopilka-4p.jsonl"


def test_2_6_7_the_partia_winner_is_the_highest_net_not_the_last_deal_winner() -> None:
    record = read_records(SIMULATED)[15]
    end = record[-1]
    assert end["last_winner"] == 0 and end["net"] == [-65, 58, 25, -18]
    result = replay(record).result
    assert result is not None and result.winner == 1
    assert end == replay(record).record()[-1] and "winner" not in end  # RECORD.md unchanged


def test_2_6_7_ties_by_points_then_the_last_deal_winner_then_seat_order() -> None:
    # equal nets: the most partia points, though seat 1 won deal 4
    assert partia_winner([-19, 22, 22, -25], [21, 20, 52, 20], 1, 0) == 2
    # equal nets and points: the last deal's winner (V) when he is among them
    assert partia_winner([22, 22, -19, -25], [30, 30, 21, 20], 1, 0) == 1
    # V not among them: the first of them in seat order from the first dealer (himself first)
    assert partia_winner([22, -19, 22, -25], [30, 21, 30, 20], 3, 0) == 0
    assert partia_winner([22, -19, 22, -25], [30, 21, 30, 20], 3, 1) == 2
    assert partia_winner([22, -19, 22, -25], [30, 21, 30, 20], 3, 2) == 2
    assert partia_winner([22, -19, 22, -25], [30, 21, 30, 20], 1, 3) == 0


def test_2_6_7_every_recorded_partia_has_the_engines_winner() -> None:
    """Over the simulated and the example records: ``Result.winner`` is §2.6.7 read off the
    ``end`` line and the first ``deal`` line's dealer, and has the highest net."""
    records = [*read_records(SIMULATED), *read_records(EXAMPLE)]
    finished = 0
    for record in records:
        result = replay(record).result
        end = record[-1]
        assert result is not None
        if end["reason"] != "partia":
            assert result.winner is None
            continue
        first = next(line["dealer"] for line in record if line["t"] == "deal")
        expected = partia_winner(end["net"], end["points"], end["last_winner"], first)
        assert result.winner == expected and end["net"][expected] == max(end["net"])
        finished += 1
    assert finished >= 10
