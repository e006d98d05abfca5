"""Копилка, scripted deals (RULES.md §2, RECORD.md §R7): one test per clause.

Fixed deals come from a scripted chance: the given deck for deal 1 and the given random takes,
then a seeded fallback for anything later (later deals are not what these tests look at).
"""

from __future__ import annotations

import doctest
import random
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import pytest

import engine.kopilka.actions
import engine.kopilka.scoring
from engine.actions import Buy, Pass, PlayCard
from engine.cards import DECK_32, Card, parse_cards
from engine.chance import SeededChance
from engine.core import Line
from engine.errors import IllegalAction, InvalidNotation, Refusal
from engine.games import new_game
from engine.kopilka import KopilkaState, parse_action
from engine.kopilka.scoring import pay_out


@dataclass
class Scripted:
    """Given decks and picks first, then a seeded fallback."""

    decks: deque[list[Card]]
    picks: deque[Card]
    fallback: SeededChance = field(default_factory=lambda: SeededChance(random.Random(7)))

    def shuffled(self, cards: Sequence[Card]) -> list[Card]:
        return list(self.decks.popleft()) if self.decks else self.fallback.shuffled(cards)

    def ready(self) -> bool:
        return True

    def choice(self, options: Sequence[Card]) -> Card:
        if not self.picks:
            return self.fallback.choice(options)
        pick = self.picks.popleft()
        assert pick in options, f"scripted take {pick} is not lying there"
        return pick


def deck_for(dealer: int, hands: Sequence[str], stock: str) -> list[Card]:
    """The deck that deals ``hands`` (seat order) by §0.6, then ``stock`` on top of the rest."""
    dealt = [parse_cards(h) for h in hands]
    assert all(len(h) == 5 for h in dealt)
    deck = [dealt[(dealer + 1 + k) % 4][k // 4] for k in range(20)]
    top = parse_cards(stock)
    deck += top + [c for c in DECK_32 if c not in deck and c not in top]
    assert sorted(map(str, deck)) == sorted(map(str, DECK_32)), "hands and stock overlap"
    return deck


def table(
    dealer: int, hands: Sequence[str], stock: str = "", picks: str = "", **options: Any
) -> KopilkaState:
    """A partia whose first deal is fixed (dealer by series, §0.8)."""
    chance = Scripted(deque([deck_for(dealer, hands, stock)]), deque(parse_cards(picks)))
    state = new_game("kopilka", 4, 1, options, chance=chance, prev_dealer=(dealer - 1) % 4)
    assert isinstance(state, KopilkaState)
    return state


def play(state: KopilkaState, *moves: tuple[int, str]) -> list[Line]:
    """Apply ``(seat, text)`` moves; all the lines they produced."""
    out: list[Line] = []
    for seat, text in moves:
        out.extend(state.apply(seat, text))
    return out


def since_deal(state: KopilkaState, no: int = 1) -> list[Line]:
    """The lines after the ``deal`` line of deal ``no``."""
    record = state.record()
    at = next(i for i, line in enumerate(record) if line["t"] == "deal" and line["no"] == no)
    return record[at + 1 :]


def ev(name: str, **keys: Any) -> Line:
    return {"t": "event", "e": name, **keys}


def act(seat: int, text: str) -> Line:
    return {"t": "act", "seat": seat, "a": text}


def take(seat: int, holder: int, card: str) -> Line:
    return ev("take", seat=seat, **{"from": holder}, card=card)


def hand(state: KopilkaState, seat: int) -> set[str]:
    return {str(c) for c in state.view(seat).hand}


def refused(state: KopilkaState, seat: int, text: str) -> IllegalAction:
    before = state.record()
    with pytest.raises(IllegalAction) as err:
        state.apply(seat, text)
    assert state.record() == before, "a refused action changed something"
    return err.value


# Four clean hands (no three of a suit): dealer 3, seat 0 leads. Every suit goes round once.
ROUNDS = ["7S 7C 7D 7H JC", "8S 8C 8D 9H 10H", "9S 9C 9D JH QH", "10S 10C 10D KH AH"]


# --- §2.1, §2.2: the bank and the deal -----------------------------------------------------


def test_2_1_3_ante_is_paid_into_the_bank_before_the_first_deal() -> None:
    state = table(3, ROUNDS, ante=30)
    record = state.record()
    assert [line["t"] for line in record[:4]] == ["game", "seats", "event", "deal"]
    assert record[2] == ev("ante", amount=30, bank=120)
    assert record[0]["options"] == {
        "ante": 30,
        "point_rate": 1,
        "no_trick_fine": 5,
        "deal_fee": 5,
        "hold_pass": False,
        "hold_pass_fine": 5,
    }
    assert state.view(None).bank == 120


def test_2_1_3_a_zero_ante_is_still_written() -> None:
    state = table(3, ROUNDS, ante=0)
    assert state.record()[2] == ev("ante", amount=0, bank=0)


def test_0_8_series_continues_from_the_previous_dealer_and_deals_rotate() -> None:
    state = table(2, ROUNDS)
    assert state.record()[1]["by"] == "series"
    assert state.record()[1]["prev_dealer"] == 1
    playout_to_end(state)
    dealers = [line["dealer"] for line in state.record() if line["t"] == "deal"]
    assert dealers == [2, 3, 0, 1]  # §2.1.2: 4 deals, the deal passes left


def test_2_2_1_five_cards_each_stock_of_twelve_dealers_left_leads() -> None:
    state = table(3, ROUNDS)
    for seat, cards in enumerate(ROUNDS):
        assert hand(state, seat) == set(cards.split())
    view = state.view(None)
    assert view.hand == ()
    assert view.hand_sizes == (5, 5, 5, 5)
    assert view.stock_size == 12
    assert view.to_act == 0
    assert view.phase == "lead"
    assert view.last_suit is None and view.forbidden_suit is None  # §2.4.2: first lead free
    assert {str(a) for a in state.legal_actions(0)} == {f"card {c}" for c in ROUNDS[0].split()}


# --- §2.3: the same-suit rule -----------------------------------------------------------------


def test_2_3_3_four_hearts_at_the_deal_three_taken_one_returned_three_drawn() -> None:
    hands = ["JS QS JD QD 8C", "AH KH 10H 8H 7C", "7S 8S 7D 8D QH", "9S 10S 9D 10D 9C"]
    state = table(0, hands, stock="KS AD 10C", picks="KH 8H AH")
    assert since_deal(state) == [
        ev("lay_out", seat=1, suit="H", cards=["AH", "KH", "10H", "8H"]),
        take(2, 1, "KH"),  # §2.3.4: in turn from the holder's left
        take(3, 1, "8H"),
        take(0, 1, "AH"),
        ev("return", seat=1, cards=["10H"]),  # §2.3.5: k − 3 = 1
        ev("draw", seat=1, cards=["KS", "AD", "10C"], why="replace"),  # §2.3.6
    ]
    assert hand(state, 1) == {"10H", "7C", "KS", "AD", "10C"}
    assert "KH" in hand(state, 2) and "8H" in hand(state, 3) and "AH" in hand(state, 0)
    view = state.view(None)
    assert view.hand_sizes == (6, 5, 6, 6)
    assert view.stock_size == 9
    assert view.to_act == 1


def test_2_3_1_three_of_a_suit_is_laid_out_and_replaced() -> None:
    hands = ["JS QS JD QD 8C", "AH KH 10H 8S 7C", "7S 9S 7D 8D QH", "10S KS 9D 10D 9C"]
    state = table(0, hands, stock="AS AD 10C", picks="10H AH KH")
    assert since_deal(state) == [
        ev("lay_out", seat=1, suit="H", cards=["AH", "KH", "10H"]),
        take(2, 1, "10H"),
        take(3, 1, "AH"),
        take(0, 1, "KH"),
        ev("draw", seat=1, cards=["AS", "AD", "10C"], why="replace"),  # no return for k = 3
    ]


def test_2_3_8_lay_outs_that_empty_the_stock_and_then_the_hand_make_the_holder_out() -> None:
    # Dealer 3: seat 0 lays out clubs (the dealer takes one), then the dealer lays out five
    # times; the stock runs dry at the fourth, the fifth empties his hand (§2.3.6, §2.3.8).
    hands = ["7C 8C 9C 7S 7D", "QS KS KC 9D 10D", "AS AD AC KH AH", "7H 8H 9H JC QC"]
    stock = "8S 8D 10C 10H JH QH KD QD JD 9S 10S JS"
    picks = "8C 7C 9C  9H 8H 7H  QH JH 10H  KD QD JD  QC JC 9C  JS 10S 9S"
    state = table(3, hands, stock=stock, picks=picks)
    assert since_deal(state)[:29] == [
        ev("lay_out", seat=0, suit="C", cards=["9C", "8C", "7C"]),
        take(1, 0, "8C"),
        take(2, 0, "7C"),
        take(3, 0, "9C"),
        ev("draw", seat=0, cards=["8S", "8D", "10C"], why="replace"),
        # 3 hearts and 3 clubs: equal counts, the higher-valued suit first (§2.3.2)
        ev("lay_out", seat=3, suit="H", cards=["9H", "8H", "7H"]),
        take(0, 3, "9H"),
        take(1, 3, "8H"),
        take(2, 3, "7H"),
        ev("draw", seat=3, cards=["10H", "JH", "QH"], why="replace"),
        ev("lay_out", seat=3, suit="H", cards=["QH", "JH", "10H"]),
        take(0, 3, "QH"),
        take(1, 3, "JH"),
        take(2, 3, "10H"),
        ev("draw", seat=3, cards=["KD", "QD", "JD"], why="replace"),
        ev("lay_out", seat=3, suit="D", cards=["KD", "QD", "JD"]),
        take(0, 3, "KD"),
        take(1, 3, "QD"),
        take(2, 3, "JD"),
        ev("draw", seat=3, cards=["9S", "10S", "JS"], why="replace"),
        ev("lay_out", seat=3, suit="C", cards=["QC", "JC", "9C"]),  # C before S
        take(0, 3, "QC"),
        take(1, 3, "JC"),
        take(2, 3, "9C"),
        ev("draw", seat=3, cards=[], why="replace"),  # the stock is empty
        ev("lay_out", seat=3, suit="S", cards=["JS", "10S", "9S"]),  # re-checked anyway
        take(0, 3, "JS"),
        take(1, 3, "10S"),
        take(2, 3, "9S"),
    ]
    rest = since_deal(state)[29:]
    assert rest[:2] == [ev("draw", seat=3, cards=[], why="replace"), ev("out", seat=3)]
    # §2.6.2 then §2.6.3, in seat order: nobody won a trick, the winner pays no deal fee
    assert rest[2:9] == [
        ev("fine", seat=0, kind="no_trick", amount=5, bank=85),
        ev("fine", seat=1, kind="no_trick", amount=5, bank=90),
        ev("fine", seat=2, kind="no_trick", amount=5, bank=95),
        ev("fine", seat=3, kind="no_trick", amount=5, bank=100),
        ev("fine", seat=0, kind="deal_fee", amount=5, bank=105),
        ev("fine", seat=1, kind="deal_fee", amount=5, bank=110),
        ev("fine", seat=2, kind="deal_fee", amount=5, bank=115),
    ]
    deal_end = rest[9]
    assert deal_end["t"] == "deal_end"
    assert (deal_end["winner"], deal_end["blocked"], deal_end["bank"]) == (3, False, 115)
    sizes = [row["cards_left"] for row in deal_end["seats"]]
    assert sizes == [5 + 5, 5 + 1 + 5, 5 + 1 + 5, 0]
    assert [row["fines"] for row in deal_end["seats"]] == [10, 10, 10, 5]
    assert rest[10]["t"] == "deal" and rest[10]["no"] == 2 and rest[10]["dealer"] == 0


def test_2_3_2_after_a_buy_equal_counts_lay_out_the_higher_suit_then_recheck() -> None:
    hands = ["7S 8S 9C 7D 7H", "AH KH AD KD 7C", "9S QS 10C 8D 8H", "KS JC QC 10D JH"]
    stock = "QH QD 10S JS 8C 9H 10H 9D"
    state = table(3, hands, stock=stock, picks="AH KH QH AD KD QD")
    assert since_deal(state) == []  # clean hands at the deal
    play(state, (0, "card 7S"))
    assert [str(a) for a in state.legal_actions(1)] == ["buy 1", "buy 2", "pass"]  # §2.4.3 b
    lines = play(state, (1, "buy 2"))
    assert lines == [
        act(1, "buy 2"),
        ev("draw", seat=1, cards=["QH", "QD"], why="buy"),
        ev("lay_out", seat=1, suit="H", cards=["AH", "KH", "QH"]),
        take(2, 1, "AH"),
        take(3, 1, "KH"),
        take(0, 1, "QH"),
        ev("draw", seat=1, cards=["10S", "JS", "8C"], why="replace"),
        ev("lay_out", seat=1, suit="D", cards=["AD", "KD", "QD"]),  # re-checked (§2.3.6)
        take(2, 1, "AD"),
        take(3, 1, "KD"),
        take(0, 1, "QD"),
        ev("draw", seat=1, cards=["9H", "10H", "9D"], why="replace"),
    ]
    # §2.4.3 c: he acts again; he now holds spades, so he must follow (no buy, no pass)
    assert state.to_act == 1
    assert state.view(1).bought
    assert [str(a) for a in state.legal_actions(1)] == ["card JS", "card 10S"]
    assert refused(state, 1, "pass").code is Refusal.NO_PASS_HOLDING_SUIT
    assert refused(state, 1, "buy 1").code is Refusal.NO_BUY_HOLDING_SUIT
    assert refused(state, 1, "card 9H").code is Refusal.MUST_FOLLOW_SUIT


# --- §2.4: tricks -----------------------------------------------------------------------------


def test_2_4_4_the_ace_of_spades_overtakes_a_heart_trick_and_doubles_it() -> None:
    hands = ["7H 7S 7C 7D 8D", "9H AS 8S 8C 9D", "KH 9S 9C 10D 10C", "AH 10S JC JD JS"]
    state = table(3, hands)
    play(state, (0, "card 7H"))
    legal = [str(a) for a in state.legal_actions(1)]
    assert legal == ["card AS", "card 9H"]  # §2.4.3 a: the led suit or the AS
    lines = play(state, (1, "card AS"), (2, "card KH"), (3, "card AH"))
    assert lines[-1] == ev(
        "trick",
        no=1,
        leader=0,
        suit="H",
        plays=[[0, "7H"], [1, "AS"], [2, "KH"], [3, "AH"]],
        winner=1,
        points=8,  # §2.6.1: hearts 4, doubled by the AS
        double=True,
    )
    view = state.view(None)
    assert view.to_act == 1 and view.tricks_won == (0, 1, 0, 0) and view.deal_points[1] == 8
    # §2.4.2: the winner may not lead hearts again
    assert view.forbidden_suit is not None and view.forbidden_suit.value == "H"
    assert [str(a) for a in state.legal_actions(1)] == ["card 8S", "card 8C", "card 9D"]
    err = refused(state, 1, "card 9H")
    assert (err.code, err.params) == (Refusal.LEAD_SUIT_REPEATED, {"suit": "H"})


def test_2_4_4_a_follower_without_the_suit_may_play_the_ace_of_spades() -> None:
    hands = ["7H 7S 7C 7D 8D", "9C AS 8S 8C 9D", "KH 9S QC 10D 10C", "AH 10S JC JD JS"]
    state = table(3, hands)
    play(state, (0, "card 7H"))
    assert [str(a) for a in state.legal_actions(1)] == ["card AS", "buy 1", "buy 2", "pass"]
    err = refused(state, 1, "card 9C")
    assert (err.code, err.params) == (Refusal.OTHER_SUIT_FORBIDDEN, {"suit": "H"})


def test_2_6_1_a_led_ace_doubles_a_king_does_not() -> None:
    state = table(3, ROUNDS)
    lines = play(state, (0, "card 7S"), (1, "card 8S"), (2, "card 9S"), (3, "card 10S"))
    assert lines[-1]["winner"] == 3 and lines[-1]["points"] == 1 and not lines[-1]["double"]
    play(state, (3, "card 10C"), (0, "card 7C"), (1, "card 8C"), (2, "card 9C"))
    play(state, (3, "card 10D"), (0, "card 7D"), (1, "card 8D"), (2, "card 9D"))
    lines = play(state, (3, "card AH"), (0, "card 7H"), (1, "card 9H"), (2, "card JH"))
    assert lines[4]["winner"] == 3 and lines[4]["points"] == 8 and lines[4]["double"]
    assert state.view(None).deal_points == (0, 0, 0, 1 + 2 + 3 + 8)


def test_2_4_2_the_lead_passes_to_the_first_player_who_can_lead() -> None:
    hands = ["7S 7C 7D 7H JC", "8S 8C 8D 9H 10H", "9S 9C 9D JH QH", "10S 10C 10D KH AH"]
    state = table(3, hands)
    play(state, (0, "card 7S"), (1, "card 8S"), (2, "card 9S"), (3, "card 10S"))
    play(state, (3, "card 10C"), (0, "card 7C"), (1, "card 8C"), (2, "card 9C"))
    play(state, (3, "card 10D"), (0, "card 7D"), (1, "card 8D"), (2, "card 9D"))
    lines = play(state, (3, "card AH"), (0, "card 7H"), (1, "card 9H"), (2, "card JH"))
    # seat 3 (the winner) holds only KH: the lead passes to seat 0 with JC (one event)
    assert lines[-1] == ev("lead_passes", **{"from": 3, "to": 0})
    assert state.to_act == 0
    assert [str(a) for a in state.legal_actions(0)] == ["card JC"]


def test_2_4_7_all_pass_the_leader_takes_back_and_four_take_backs_block_the_deal() -> None:
    state = table(3, ROUNDS)
    play(state, (0, "card 7S"), (1, "card 8S"), (2, "card 9S"), (3, "card 10S"))
    play(state, (3, "card 10C"), (0, "card 7C"), (1, "card 8C"), (2, "card 9C"))
    play(state, (3, "card 10D"), (0, "card 7D"), (1, "card 8D"), (2, "card 9D"))
    play(state, (3, "card AH"), (0, "card 7H"), (1, "card 9H"), (2, "card JH"))
    # hands: 0 JC, 1 10H, 2 QH, 3 KH; the last trick was hearts
    for round_no in range(1, 5):
        assert state.to_act == 0
        lines = play(state, (0, "card JC"), (1, "pass"), (2, "pass"), (3, "pass"))
        assert lines[4] == ev("takeback", seat=0, card="JC")
        assert hand(state, 0) == {"JC"} or round_no == 4
        if round_no < 4:
            # the lead goes to seat 1, who holds only hearts: it passes on to seat 0
            assert lines[5:] == [ev("lead_passes", **{"from": 1, "to": 0})]
    # §2.5.2: the fourth take-back in a row ends the deal; everyone holds one card, the
    # first in turn from the dealer's left (seat 0) wins.
    assert lines[5] == ev("blocked", winner=0)
    assert lines[6:12] == [
        ev("fine", seat=0, kind="no_trick", amount=5, bank=85),
        ev("fine", seat=1, kind="no_trick", amount=5, bank=90),
        ev("fine", seat=2, kind="no_trick", amount=5, bank=95),
        ev("fine", seat=1, kind="deal_fee", amount=5, bank=100),
        ev("fine", seat=2, kind="deal_fee", amount=5, bank=105),
        ev("fine", seat=3, kind="deal_fee", amount=5, bank=110),
    ]
    deal_end = lines[12]
    assert (deal_end["winner"], deal_end["blocked"]) == (0, True)
    assert deal_end["seats"][3]["tricks"] == [["S", 1], ["C", 2], ["D", 3], ["H", 8]]
    assert deal_end["seats"][3]["points"] == 14


def test_2_4_2_nobody_can_lead_another_suit_the_restriction_is_lifted() -> None:
    hands = ["7S 7C 7D 7H 8H", "8S 8C 8D 9H 10H", "9S 9C 9D JH QH", "10S 10C 10D KH AH"]
    state = table(3, hands)
    play(state, (0, "card 7S"), (1, "card 8S"), (2, "card 9S"), (3, "card 10S"))
    play(state, (3, "card 10C"), (0, "card 7C"), (1, "card 8C"), (2, "card 9C"))
    play(state, (3, "card 10D"), (0, "card 7D"), (1, "card 8D"), (2, "card 9D"))
    lines = play(state, (3, "card AH"), (0, "card 7H"), (1, "card 9H"), (2, "card JH"))
    assert lines[-1] == ev("lead_free", seat=3)
    assert state.view(3).forbidden_suit is None
    assert [str(a) for a in state.legal_actions(3)] == ["card KH"]
    # §2.5.1: everyone empties in this trick; out in the order the hands became empty,
    # the leader first (he emptied at the lead); he wins the deal.
    lines = play(state, (3, "card KH"), (0, "card 8H"), (1, "card 10H"), (2, "card QH"))
    assert lines[4]["e"] == "trick" and lines[4]["winner"] == 3
    assert lines[5:9] == [ev("out", seat=s) for s in (3, 0, 1, 2)]
    fines = [(line["seat"], line["kind"]) for line in lines[9:] if line.get("e") == "fine"]
    assert fines == [(0, "no_trick"), (1, "no_trick"), (2, "no_trick")] + [
        (s, "deal_fee") for s in (0, 1, 2)
    ]


def test_2_4_3_a_buyer_who_draws_the_suit_must_follow_with_it() -> None:
    hands = ["7H 7S 7C 7D 8D", "9C AS 8S 8C 9D", "KH 9S QC 10D 10C", "AH 10S JC JD JS"]
    state = table(3, hands, stock="8H KS")
    play(state, (0, "card 7H"), (1, "buy 1"))
    assert state.to_act == 1
    assert [str(a) for a in state.legal_actions(1)] == ["card AS", "card 8H"]
    play(state, (1, "card 8H"))
    assert state.view(None).trick[-1][1] == Card.parse("8H")


def test_2_4_3_c_one_buy_per_turn_then_the_ace_of_spades_or_pass() -> None:
    hands = ["7H 7S 7C 7D 8D", "9C QS KD 8C 9D", "KH 9S QC 10D 10C", "AH 10S JC JD JS"]
    state = table(3, hands, stock="AS KS")
    play(state, (0, "card 7H"), (1, "buy 1"))
    assert [str(a) for a in state.legal_actions(1)] == ["card AS", "pass"]
    assert refused(state, 1, "buy 1").code is Refusal.ALREADY_BOUGHT
    play(state, (1, "pass"))
    assert not state.view(2).bought  # the next follower has a fresh turn


def test_2_4_3_a_hold_pass_pays_the_fine_at_once() -> None:
    hands = ["7H 7S 7C 7D 8D", "9H QS 8S 8C 9D", "KH 9S QC 10D 10C", "AH 10S JC JD JS"]
    strict = table(3, hands)
    play(strict, (0, "card 7H"))
    err = refused(strict, 1, "pass")
    assert (err.code, err.params) == (Refusal.NO_PASS_HOLDING_SUIT, {"suit": "H"})
    assert refused(strict, 1, "buy 1").code is Refusal.NO_BUY_HOLDING_SUIT

    lenient = table(3, hands, hold_pass=True, hold_pass_fine=7)
    play(lenient, (0, "card 7H"))
    assert [str(a) for a in lenient.legal_actions(1)] == ["card 9H", "pass"]
    lines = play(lenient, (1, "pass"))
    assert lines == [act(1, "pass"), ev("fine", seat=1, kind="hold_pass", amount=7, bank=87)]
    assert lenient.view(None).bank == 87
    assert lenient.view(None).fines == (20, 27, 20, 20)

    free = table(3, hands, hold_pass=True, hold_pass_fine=0)
    play(free, (0, "card 7H"))
    assert play(free, (1, "pass")) == [act(1, "pass")]  # §R7.3: a 0 fine is not written


def test_2_4_7_take_back_on_the_first_lead_keeps_the_lead_free() -> None:
    hands = ["7H 7S 7C 7D 8D", "9C QS 8S 8C 9D", "KS 9S QC 10D 10C", "AC 10S JC JD JS"]
    state = table(3, hands)
    lines = play(state, (0, "card 7H"), (1, "pass"), (2, "pass"), (3, "pass"))
    assert lines[-1] == ev("takeback", seat=0, card="7H")
    assert hand(state, 0) == set(hands[0].split())
    assert state.to_act == 1
    assert len(state.legal_actions(1)) == 5  # no completed trick yet: any card
    assert state.view(None).takebacks == 1


# --- §2.6: points, fines, payout ---------------------------------------------------------------


def test_2_6_5_a_bank_suffices_points_paid_rest_to_the_last_winner() -> None:
    result = pay_out(160, [25, 28, 7, 32], 1, 1)
    assert result.payout == (25, 28 + (160 - 92), 7, 32)
    assert not result.shortfall
    assert pay_out(100, [10, 0, 5, 5], 0, 2).payout == (0, 0, 100, 0)  # point_rate 0


def test_2_6_5_b_shortfall_shares_in_proportion_rounded_down() -> None:
    bank, points = 100, [20, 10, 7, 3]  # D = 40 × 5 = 200 > 100
    result = pay_out(bank, points, 5, 0)
    shares = [bank * p // 40 for p in points]
    assert shares == [50, 25, 17, 7]
    assert result.payout == (50 + (100 - 99), 25, 17, 7)
    assert result.shortfall
    assert sum(result.payout) == bank


@pytest.mark.parametrize(("rate", "shortfall"), [(1, False), (1000, True)])
def test_2_6_5_end_line_settles_the_bank(rate: int, shortfall: bool) -> None:
    state = table(3, ROUNDS, point_rate=rate, hold_pass=True)
    playout_to_end(state)
    record = state.record()
    end = record[-1]
    deal_ends = [line for line in record if line["t"] == "deal_end"]
    points = deal_ends[-1]["seats"]
    assert end["points"] == [row["partia_points"] for row in points]
    assert end["bank_before"] == deal_ends[-1]["bank"]
    assert end["last_winner"] == deal_ends[-1]["winner"]
    assert end["shortfall"] is shortfall
    bank, total = end["bank_before"], sum(end["points"])
    if shortfall:
        expected = [bank * p // total for p in end["points"]]
    else:
        expected = [p * rate for p in end["points"]]
    expected[end["last_winner"]] += bank - sum(expected)
    assert end["payout"] == expected
    paid_in = [20] * 4
    for line in record:
        if line.get("e") == "fine":
            paid_in[line["seat"]] += line["amount"]
    assert end["paid_in"] == paid_in
    assert end["net"] == [a - b for a, b in zip(expected, paid_in, strict=True)]
    assert sum(end["net"]) == 0 and end["bank"] == 0
    assert state.result is not None and list(state.result.net) == end["net"]


def test_2_6_2_zero_fines_are_not_written() -> None:
    state = table(3, ROUNDS, no_trick_fine=0, deal_fee=0)
    playout_to_end(state)
    assert not [line for line in state.record() if line.get("e") == "fine"]
    assert all(line["bank"] == 80 for line in state.record() if line["t"] == "deal_end")


# --- actions, refusals, views, abandonment ---------------------------------------------------


def test_doctests_of_notation_and_payout() -> None:
    assert doctest.testmod(engine.kopilka.actions).failed == 0
    assert doctest.testmod(engine.kopilka.scoring).attempted >= 2
    assert doctest.testmod(engine.kopilka.scoring).failed == 0


def test_r4_1_action_notation_round_trips() -> None:
    for action in (PlayCard(Card.parse("10H")), Buy(1), Buy(2), Pass()):
        assert parse_action(str(action)) == action
    assert str(PlayCard(Card.parse("AS"))) == "card AS"
    for bad in ("buy 3", "buy", "play 1 7H", "card", "pass 1", ""):
        with pytest.raises(InvalidNotation):
            parse_action(bad)


def test_refusals_name_the_rule_and_change_nothing() -> None:
    state = table(3, ROUNDS)
    assert refused(state, 1, "card 8S").code is Refusal.NOT_YOUR_TURN
    assert refused(state, 0, "card AS").code is Refusal.NOT_IN_HAND
    assert refused(state, 0, "buy 1").code is Refusal.LEADER_MUST_LEAD
    assert refused(state, 0, "pass").code is Refusal.LEADER_MUST_LEAD
    with pytest.raises(IllegalAction) as err:
        state.apply(0, 42)
    assert err.value.code is Refusal.WRONG_GAME
    assert state.legal_actions(1) == ()


def test_view_shows_own_hand_only() -> None:
    state = table(3, ROUNDS)
    for seat in range(4):
        view = state.view(seat)
        assert {str(c) for c in view.hand} == set(ROUNDS[seat].split())
        assert view.legal == state.legal_actions(seat)
    assert state.view(None).legal == ()


def test_0_11_abandon_settles_nothing() -> None:
    state = table(3, ROUNDS)
    play(state, (0, "card 7S"))
    lines = state.abandon()
    assert lines == ({"t": "end", "reason": "abandoned", "net": [0, 0, 0, 0]},)
    assert state.is_over and state.to_act is None
    assert state.result is not None and state.result.net == (0, 0, 0, 0)
    assert refused(state, 1, "card 8S").code is Refusal.GAME_OVER


def playout_to_end(state: KopilkaState, seed: int = 0) -> None:
    pick = random.Random(seed)
    while (seat := state.to_act) is not None:
        state.apply(seat, pick.choice(state.legal_actions(seat)))
