"""Лентюрлю, scripted deals, one test per RULES.md §3 clause (RECORD.md §R8)."""

from __future__ import annotations

import doctest
from collections.abc import Sequence

import pytest

import engine.lenturlu.actions
import engine.lenturlu.scoring
from engine.actions import Buy, Pass
from engine.cards import DECK_52, Card, parse_cards
from engine.chance import StackedChance
from engine.core import Line
from engine.errors import IllegalAction, InvalidNotation, InvalidOption, Refusal
from engine.games import new_game
from engine.lenturlu import LenturluState, Run, parse_action
from engine.lenturlu.rules import DEAL_TABLE

# --- fixed deals ----------------------------------------------------------------------------


def deck_for(
    players: int, dealer: int, hands: Sequence[str], stock: str = ""
) -> tuple[list[Card], list[list[Card]]]:
    """A deck dealing ``hands`` (short hands filled from the unused cards in deck order).

    §0.6: ``deck[k]`` goes to seat ``(dealer + 1 + k) mod n``. Returns the deck and the hands.
    """
    each = DEAL_TABLE[players]
    given = [parse_cards(h) for h in hands] + [[] for _ in range(players - len(hands))]
    top = parse_cards(stock)
    used = [c for h in given for c in h] + top
    assert len(set(used)) == len(used), "a card is given twice"
    assert all(len(h) <= each for h in given), "a hand is too large"
    rest = [c for c in DECK_52 if c not in set(used)]
    full: list[list[Card]] = []
    for h in given:
        need = each - len(h)
        full.append(h + rest[:need])
        del rest[:need]
    deck = [full[(dealer + 1 + k) % players][k // players] for k in range(players * each)]
    return deck + top + rest, full


def fixed(
    players: int, dealer: int, hands: Sequence[str], stock: str = "", **options: object
) -> LenturluState:
    """A deal with the given hands and stock top, dealt by ``dealer`` (a series, §0.8)."""
    deck, _ = deck_for(players, dealer, hands, stock)
    state = new_game(
        "lenturlu",
        players,
        1,
        dict(options),
        chance=StackedChance.of([deck]),
        prev_dealer=(dealer - 1) % players,
    )
    assert isinstance(state, LenturluState)
    return state


def run(text: str) -> Run:
    return Run(tuple(parse_cards(text)))


def events(lines: Sequence[Line]) -> list[Line]:
    return [line for line in lines if line["t"] == "event"]


def refused(state: LenturluState, seat: int, action: object) -> IllegalAction:
    """Apply an illegal action; check it changes nothing; return the refusal."""
    before = state.record()
    with pytest.raises(IllegalAction) as caught:
        state.apply(seat, action)
    assert state.record() == before
    return caught.value


# Hand points by RULES.md §3.5.3, written out independently of the engine.
FACE = {"A": 1, "J": 10, "Q": 10, "K": 10} | {str(v): v for v in range(2, 11)}
DOUBLED = {"QS": 20, "JC": 20, "KH": 20, "7D": 14, "AS": 2}


def points(cards: Sequence[str]) -> int:
    return sum(DOUBLED.get(c, FACE[c[:-1]]) for c in cards)


# An 8-player deal without the four 9s (they make the stock): seats 1–3 hold no 3.
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


# --- §3.1 players, deck, layout --------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "unit", "expected"),
    [(3, 1, [5, 4, 3, 2, 1]), (5, 1, [7, 6, 5, 4, 3]), (6, 5, [40, 35, 30, 25, 20])],
)
def test_3_1_3_layout_stakes(players: int, unit: int, expected: list[int]) -> None:
    state = new_game("lenturlu", players, 3, {"unit": unit})
    deal = state.record()[2]
    assert deal["t"] == "deal"
    assert deal["layout"] == dict(zip(["7D", "KH", "JC", "AS", "QS"], expected, strict=True))
    assert sum(deal["layout"].values()) == 5 * unit * players


@pytest.mark.parametrize(
    ("players", "each", "stock"),
    [(3, 15, 7), (4, 12, 4), (5, 9, 7), (6, 8, 4), (7, 7, 3), (8, 6, 4)],
)
def test_3_1_4_deal_table(players: int, each: int, stock: int) -> None:
    state = new_game("lenturlu", players, 40 + players)
    assert isinstance(state, LenturluState)
    deal = state.record()[2]
    dealer, deck = deal["dealer"], parse_cards(deal["deck"])
    assert sorted(map(str, deck)) == sorted(map(str, DECK_52))
    view = state.view(None)
    assert view.hand_sizes == (each,) * players and view.stock == stock
    for seat in range(players):
        dealt = {deck[k] for k in range(players * each) if (dealer + 1 + k) % players == seat}
        assert set(state.view(seat).hand) == dealt
    assert state.to_act == (dealer + 1) % players and view.phase == "lead"  # §3.2.3


def test_0_5_2_first_dealer_draw_ace_is_lowest() -> None:
    deck, _ = deck_for(3, 0, [])
    chance = StackedChance.of([parse_cards("KC AS 2H"), deck])
    state = new_game("lenturlu", 3, 9, chance=chance)
    seats = state.record()[1]
    assert seats["draw"] == [["KC", "AS", "2H"]] and seats["first_dealer"] == 1
    assert state.record()[2]["dealer"] == 1 and state.to_act == 2


def test_0_5_3_first_dealer_tie_draws_again() -> None:
    deck, _ = deck_for(3, 2, [])
    chance = StackedChance.of([parse_cards("5S KC 5H"), parse_cards("QS 3D"), deck])
    state = new_game("lenturlu", 3, 9, chance=chance)
    seats = state.record()[1]
    assert seats["draw"] == [["5S", "KC", "5H"], ["QS", None, "3D"]]
    assert seats["first_dealer"] == 2 and state.to_act == 0


def test_3_1_5_one_deal_per_record_and_options_in_game_line() -> None:
    state = new_game("lenturlu", 4, 5)
    assert state.record()[0]["options"] == {
        "manner": "king",
        "payment": "points",
        "rate": 1,
        "unit": 1,
        "refill_units": 1,
    }
    with pytest.raises(InvalidOption):
        new_game("lenturlu", 4, 5, {"manner": "queen"})
    with pytest.raises(InvalidOption):
        new_game("lenturlu", 4, 5, {"unit": 0})
    with pytest.raises(InvalidOption):
        new_game("lenturlu", 2, 5)
    with pytest.raises(InvalidOption):
        new_game("lenturlu", 9, 5)


# --- §3.2 piles and runs ----------------------------------------------------------------------


def test_r4_run_buy_pass_notation() -> None:
    assert parse_action("run 6D 7S 8H") == run("6D 7S 8H")
    assert str(run("6D 7S 8H")) == "run 6D 7S 8H"
    assert parse_action("buy 1") == Buy(1) and str(Buy(2)) == "buy 2"
    assert parse_action("pass") == Pass() and str(Pass()) == "pass"
    assert run("6D 7S") != run("7S 6D")  # ordered tuple
    for bad in ("run", "buy 3", "buy", "pass 1", "card 6D", "run 6X", ""):
        with pytest.raises(InvalidNotation):
            parse_action(bad)


def test_doctests_of_notation_and_scoring() -> None:
    assert doctest.testmod(engine.lenturlu.actions).failed == 0
    scoring = doctest.testmod(engine.lenturlu.scoring)
    assert scoring.attempted >= 3 and scoring.failed == 0


def test_3_2_1_listed_runs_equal_their_notation_read_back() -> None:
    state = fixed(3, 2, ["2S 2H 3C 3D 4S 4H 5C 6D 7S"])
    legal = state.legal_actions(0)
    assert len(legal) > 30  # long enough for the legal set (not the short scan)
    for action in legal:
        again = parse_action(str(action))
        assert again == action and hash(again) == hash(action)
    assert state.apply(0, "run 2H 3C 4S 5C 6D 7S")[0]["a"] == "run 2H 3C 4S 5C 6D 7S"


def test_3_2_1_every_run_with_every_choice_of_suits_is_listed() -> None:
    state = fixed(8, 7, ["4C", "5S 5H 6C 6D 7S"])
    assert len([c for c in state.hand(1) if c.rank.value in "5678"]) == 5
    state.apply(0, run("4C"))
    legal = state.legal_actions(1)
    runs = [str(a) for a in legal if isinstance(a, Run)]
    assert runs == [
        "run 5S",
        "run 5H",
        "run 5S 6C",
        "run 5S 6D",
        "run 5H 6C",
        "run 5H 6D",
        "run 5S 6C 7S",
        "run 5S 6D 7S",
        "run 5H 6C 7S",
        "run 5H 6D 7S",
    ]
    for action in legal:
        assert state.clone().apply(1, action)  # every listed action applies


def test_3_2_1_a_run_is_consecutive_and_ascending() -> None:
    state = fixed(3, 2, ["5S 6H 8D 7C"])
    assert refused(state, 0, run("5S 6H 8D")).code is Refusal.NOT_A_RUN
    assert refused(state, 0, run("6H 5S")).code is Refusal.NOT_A_RUN
    assert refused(state, 0, run("5S 5S")).code is Refusal.DUPLICATE_CARDS
    assert refused(state, 0, run("5S 6D")).code is Refusal.NOT_IN_HAND
    lines = state.apply(0, "run 5S 6H 7C 8D")
    assert lines[0] == {"t": "act", "seat": 0, "a": "run 5S 6H 7C 8D"}
    assert state.view(None).top == Card.parse("8D")


def test_3_2_3_leader_must_lead() -> None:
    state = fixed(3, 2, ["5S"])
    assert state.to_act == 0
    assert all(isinstance(a, Run) for a in state.legal_actions(0))
    assert refused(state, 0, Buy(1)).code is Refusal.LEADER_MUST_LEAD
    assert refused(state, 0, Pass()).code is Refusal.LEADER_MUST_LEAD
    assert refused(state, 1, run("5S")).code is Refusal.NOT_YOUR_TURN
    assert state.legal_actions(1) == ()
    assert refused(state, 0, Buy(3)).code is Refusal.WRONG_GAME
    assert refused(state, 0, object()).code is Refusal.WRONG_GAME
    assert Run(list(parse_cards("5S"))) == run("5S")  # type: ignore[arg-type]  # lists kept as tuples


def test_3_2_3_ace_only_as_first_card_of_a_lead() -> None:
    state = fixed(3, 2, ["AS 2S 3S 7C", "AH 4H"])
    legal = {str(a) for a in state.legal_actions(0)}
    assert {"run AS", "run AS 2S", "run AS 2S 3S"} <= legal
    lines = state.apply(0, "run AS 2S 3S")
    assert events(lines)[0] == {"t": "event", "e": "stake", "seat": 0, "card": "AS", "amount": 2}
    assert refused(state, 1, run("AH")).code is Refusal.ACE_ONLY_LEADS
    assert all("A" not in str(a) for a in state.legal_actions(1))
    state.apply(1, "run 4H")


def test_3_2_4_follow_starts_one_above_the_top() -> None:
    state = fixed(3, 2, ["5S", "6H 7H 8H"])
    state.apply(0, "run 5S")
    error = refused(state, 1, run("7H 8H"))
    assert error.code is Refusal.RUN_MUST_CONTINUE and error.params == {"top": "5S"}
    state.apply(1, "run 6H 7H")
    assert state.view(None).pile == tuple(parse_cards("5S 6H 7H"))
    assert state.view(None).pile_leader == 0 and state.to_act == 2


# --- §3.3 the follower's turn -------------------------------------------------------------------


def test_3_3_2_unable_must_buy_then_pass_when_still_unable() -> None:
    state = fixed(8, 7, EIGHT, "9S 9C 9D 9H")
    state.apply(0, "run 2H")
    assert state.legal_actions(1) == (Buy(1), Buy(2))
    assert refused(state, 1, Pass()).code is Refusal.MUST_BUY
    assert refused(state, 1, run("5C")).code is Refusal.RUN_MUST_CONTINUE
    lines = state.apply(1, "buy 2")
    assert lines[1:] == ({"t": "event", "e": "draw", "seat": 1, "cards": ["9S", "9C"]},)
    assert state.to_act == 1 and state.view(1).bought
    assert state.legal_actions(1) == (Pass(),)
    assert refused(state, 1, Buy(1)).code is Refusal.ALREADY_BOUGHT
    state.apply(1, "pass")
    state.apply(2, "buy 1")
    state.apply(2, "pass")
    assert state.view(None).stock == 1
    assert state.legal_actions(3) == (Buy(1),)
    error = refused(state, 3, Buy(2))
    assert error.code is Refusal.STOCK_TOO_SMALL and error.params == {"stock": 1}
    state.apply(3, "buy 1")
    assert state.legal_actions(3) == (Pass(),)
    state.apply(3, "pass")


def test_3_3_2_able_with_empty_stock_must_play() -> None:
    state = fixed(8, 7, EIGHT, "9S 9C 9D 9H")
    for seat, action in [(0, "run 2H"), (1, "buy 2"), (1, "pass"), (2, "buy 2"), (2, "pass")]:
        state.apply(seat, action)
    assert state.view(None).stock == 0
    assert state.legal_actions(3) == (Pass(),)  # unable, stock empty
    state.apply(3, "pass")
    assert state.legal_actions(4) == (run("3C"), run("3C 4C"))  # able, stock empty: run only
    assert refused(state, 4, Pass()).code is Refusal.MUST_PLAY
    assert refused(state, 4, Buy(1)).code is Refusal.STOCK_TOO_SMALL
    state.apply(4, "run 3C")
    assert state.view(None).passes == 0


def test_3_3_2_able_with_stock_may_buy_or_pass() -> None:
    state = fixed(8, 7, EIGHT, "9S 9C 9D 9H")
    state.apply(0, "run 5S")
    assert state.legal_actions(1) == (
        run("6C"),
        run("6C 7C"),
        run("6C 7C 8C"),
        Buy(1),
        Buy(2),
        Pass(),
    )
    state.apply(1, "buy 2")
    legal = state.legal_actions(1)
    assert Pass() in legal and run("6C 7C 8C 9S") in legal and Buy(1) not in legal
    state.apply(1, "pass")
    assert state.view(None).passes == 1 and not state.view(None).bought


# --- §3.4 stops, kings, Lenturlu cards --------------------------------------------------------


def test_3_4_1_stop_after_every_other_player_passed() -> None:
    state = fixed(3, 2, ["5H 8C", "6S", "6C"])
    state.apply(0, "run 5H")
    assert state.apply(1, "pass")[1:] == ()
    lines = state.apply(2, "pass")
    assert lines[1:] == ({"t": "event", "e": "stop", "seat": 0},)
    view = state.view(0)
    assert state.to_act == 0 and view.phase == "lead" and view.pile == () and view.set_aside == 1
    assert view.passes == 0
    assert refused(state, 0, Pass()).code is Refusal.LEADER_MUST_LEAD
    state.apply(0, "run 8C")
    assert state.view(None).pile_leader == 0


def test_3_4_1_a_run_resets_the_passes_and_the_last_runner_leads() -> None:
    state = fixed(3, 2, ["5H 7S", "6S 7H", "6C"])
    state.apply(0, "run 5H")
    state.apply(1, "pass")
    assert state.view(None).passes == 1
    state.apply(2, "run 6C")
    assert state.view(None).passes == 0
    state.apply(0, "pass")
    lines = state.apply(1, "pass")
    assert lines[1:] == ({"t": "event", "e": "stop", "seat": 2},)
    assert state.to_act == 2 and state.view(2).phase == "lead"


def test_3_4_2_a_covering_king_ends_the_deal() -> None:
    hands = ["QD", "KC"]
    state = fixed(3, 2, hands)
    state.apply(0, "run QD")
    lines = state.apply(1, "run KC")
    assert [line["t"] for line in lines] == ["act", "deal_end", "end"]
    assert lines[1]["reason"] == "king" and lines[1]["winner"] == 1
    assert state.is_over and state.to_act is None and state.result is not None
    assert state.result.winner == 1 and state.legal_actions(1) == ()
    assert refused(state, 2, Pass()).code is Refusal.GAME_OVER
    with pytest.raises(IllegalAction) as late:
        state.abandon()  # §0.11: a finished game cannot be abandoned
    assert late.value.code is Refusal.GAME_OVER and state.record()[-1]["reason"] == "deal"


def test_3_4_2_a_led_king_closes_and_the_leader_leads_again() -> None:
    state = fixed(3, 2, ["QD KD 5S"])
    lines = state.apply(0, "run QD KD")
    assert lines[1:] == ({"t": "event", "e": "close", "seat": 0, "card": "KD"},)
    assert state.to_act == 0 and state.view(None).phase == "lead" and state.view(None).pile == ()
    state.apply(0, "run 5S")
    assert state.to_act == 1


def test_3_4_2_b_manner_out_any_king_closes() -> None:
    state = fixed(3, 2, ["QD", "KC 5S"], manner="out")
    state.apply(0, "run QD")
    lines = state.apply(1, "run KC")
    assert lines[1:] == ({"t": "event", "e": "close", "seat": 1, "card": "KC"},)
    assert not state.is_over and state.to_act == 1 and state.view(1).phase == "lead"


@pytest.mark.parametrize("manner", ["king", "out"])
def test_3_4_3_going_out_wins(manner: str) -> None:
    state = fixed(8, 7, ["2H 3H 4H 5H 6H 7H"], manner=manner)
    lines = state.apply(0, "run 2H 3H 4H 5H 6H 7H")
    deal_end = lines[1]
    assert deal_end["t"] == "deal_end" and deal_end["reason"] == "out" and deal_end["winner"] == 0
    assert deal_end["seats"][0]["hand"] == [] and deal_end["seats"][0]["pays"] == 0


def test_3_4_3_led_king_as_last_card_is_out_in_manner_king() -> None:
    state = fixed(8, 7, ["8H 9H 10H JH QH KH"])
    lines = state.apply(0, "run 8H 9H 10H JH QH KH")
    assert [line.get("e") for line in events(lines)] == ["stake"]  # no refill, no close
    assert lines[-2]["reason"] == "out"


@pytest.mark.parametrize(("manner", "reason"), [("king", "king"), ("out", "out")])
def test_r8_5_king_as_last_card(manner: str, reason: str) -> None:
    hands = ["2H", "3C 4C 5C 6C 7C KC", "8C 9C 10C JC QC", "KS", "KD", "KH"]
    state = fixed(8, 7, hands, manner=manner)
    script = ["run 2H", "run 3C 4C 5C 6C 7C", "run 8C 9C 10C JC QC", "pass", "pass", "pass"]
    script += ["buy 2", "pass", "buy 2", "pass", "pass"]
    for action in script:
        seat = state.to_act
        assert seat is not None
        state.apply(seat, action)
    assert state.to_act == 1 and state.hand(1) == (Card.parse("KC"),)
    lines = state.apply(1, "run KC")
    assert lines[-2]["reason"] == reason and lines[-2]["winner"] == 1
    assert [line["t"] for line in lines] == ["act", "deal_end", "end"]


def test_3_4_4_seed_002_example_on_a_5() -> None:
    # RECORD.md §R11.2: 5 players, dealer 4, unit 1, refill 1.
    hands = [
        "5H 2S 3S 4S 5S 6S 7S 9S 2C",
        "6C 7D 8S AS 3C 4C 5C 7C 8C",
        "9H 10S JS KS 9C 10C QC KC AC",
        "JC 2D 3D 4D 5D 6D 8D 9D 10D",
        "JD AD 2H 4H 6H 7H 8H 10H AH",
    ]
    state = fixed(5, 4, hands, "3H KD")
    state.apply(0, "run 5H")
    assert state.record()[2]["layout"] == {"7D": 7, "KH": 6, "JC": 5, "AS": 4, "QS": 3}
    script = [
        (1, "run 6C 7D 8S"),
        (2, "run 9H 10S"),
        (3, "run JC"),
        (4, "buy 2"),
        (4, "pass"),
    ]
    lines: list[Line] = []
    for seat, action in script:
        lines += state.apply(seat, action)
    assert lines == [
        {"t": "act", "seat": 1, "a": "run 6C 7D 8S"},
        {"t": "event", "e": "stake", "seat": 1, "card": "7D", "amount": 7},
        {"t": "event", "e": "refill", "card": "7D", "each": 1, "amount": 4},
        {"t": "act", "seat": 2, "a": "run 9H 10S"},
        {"t": "act", "seat": 3, "a": "run JC"},
        {"t": "event", "e": "stake", "seat": 3, "card": "JC", "amount": 5},
        {"t": "event", "e": "refill", "card": "JC", "each": 1, "amount": 4},
        {"t": "act", "seat": 4, "a": "buy 2"},
        {"t": "event", "e": "draw", "seat": 4, "cards": ["3H", "KD"]},
        {"t": "act", "seat": 4, "a": "pass"},
    ]
    # §3.4.4: the pile goes on; the 7D does not close it
    assert state.view(None).top == Card.parse("JC") and state.to_act == 0
    assert state.layout() == {"7D": 4, "KH": 6, "JC": 4, "AS": 4, "QS": 3}


def test_3_4_5_refill_units_and_unit_scale_the_refill() -> None:
    state = fixed(4, 3, ["6D 7D"], unit=10, refill_units=3)
    lines = state.apply(0, "run 6D 7D")
    assert events(lines) == [
        {"t": "event", "e": "stake", "seat": 0, "card": "7D", "amount": 60},
        {"t": "event", "e": "refill", "card": "7D", "each": 30, "amount": 90},
    ]


def test_3_4_5_refill_written_when_zero() -> None:
    state = fixed(4, 3, ["6D 7D"], refill_units=0)
    lines = state.apply(0, "run 6D 7D")
    assert events(lines)[1] == {"t": "event", "e": "refill", "card": "7D", "each": 0, "amount": 0}


def test_3_4_7_order_stakes_then_refills_then_close() -> None:
    state = fixed(8, 7, ["JC QS KH 2D 3D 4D"], manner="out")
    lines = state.apply(0, "run JC QS KH")
    assert events(lines) == [
        {"t": "event", "e": "stake", "seat": 0, "card": "JC", "amount": 8},
        {"t": "event", "e": "stake", "seat": 0, "card": "QS", "amount": 6},
        {"t": "event", "e": "stake", "seat": 0, "card": "KH", "amount": 9},
        {"t": "event", "e": "refill", "card": "JC", "each": 1, "amount": 7},
        {"t": "event", "e": "refill", "card": "QS", "each": 1, "amount": 7},
        {"t": "event", "e": "refill", "card": "KH", "each": 1, "amount": 7},
        {"t": "event", "e": "close", "seat": 0, "card": "KH"},
    ]


def test_3_4_7_a_deal_ending_run_takes_stakes_without_refill() -> None:
    state = fixed(3, 2, ["10C", "JC QS KH"])
    state.apply(0, "run 10C")
    lines = state.apply(1, "run JC QS KH")
    assert [e["e"] for e in events(lines)] == ["stake", "stake", "stake"]
    end = lines[-1]
    assert end["taken"] == [0, 3 + 1 + 4, 0] and end["refills"] == [0, 0, 0]
    assert end["layout"] == [0, 15 - 8, 0] and lines[-2]["layout"] == 7


def test_3_4_6_manner_b_ace_of_spades_taken_on_a_lead_after_a_stop() -> None:
    state = fixed(3, 2, ["5H AS 8C", "6S", "6C"], manner="out")
    state.apply(0, "run 5H")
    state.apply(1, "pass")
    state.apply(2, "pass")
    lines = state.apply(0, "run AS")
    assert events(lines)[0] == {"t": "event", "e": "stake", "seat": 0, "card": "AS", "amount": 2}


def test_3_4_6_manner_b_ace_of_spades_taken_on_a_lead_after_a_king() -> None:
    state = fixed(3, 2, ["QD KD AS 2S"], manner="out")
    state.apply(0, "run QD KD")  # §3.4.2 b: closed, he leads again
    assert state.view(0).as_stake_open
    lines = state.apply(0, "run AS 2S")
    assert events(lines)[0] == {"t": "event", "e": "stake", "seat": 0, "card": "AS", "amount": 2}


def test_3_4_6_manner_a_ace_of_spades_taken_on_the_first_lead() -> None:
    state = fixed(3, 2, ["AS 2S 8C"])
    assert state.view(0).as_stake_open
    lines = state.apply(0, "run AS 2S")
    assert events(lines)[0] == {"t": "event", "e": "stake", "seat": 0, "card": "AS", "amount": 2}
    assert events(lines)[1]["e"] == "refill"


@pytest.mark.parametrize("after", ["stop", "king"])
def test_3_4_6_manner_a_a_later_ace_of_spades_takes_nothing(after: str) -> None:
    """Seed 002 §10: the AS stake only with the first player to lead; a later lead of the AS
    writes no ``stake`` (nor ``refill``) and its money stays for the deal's winner (§3.5.1)."""
    if after == "stop":
        state = fixed(3, 2, ["5H AS 2S 8C", "6S", "6C"])
        for seat, action in ((0, "run 5H"), (1, "pass"), (2, "pass")):
            state.apply(seat, action)
    else:
        state = fixed(3, 2, ["QD KD AS 2S 8C"])
        state.apply(0, "run QD KD")  # §3.4.2 a: a led king closes without ending the deal
    assert state.layout()["AS"] == 2 and state.to_act == 0
    assert not state.view(0).as_stake_open and not state.view(None).as_stake_open
    lines = state.apply(0, "run AS 2S")
    assert events(lines) == []
    assert state.layout()["AS"] == 2
    left = sum(state.layout().values())
    while (seat := state.to_act) is not None:
        left = sum(state.layout().values())
        lines = state.apply(seat, state.legal_actions(seat)[0])
    assert state.layout()["AS"] == 0  # §3.5.1: the layout ends empty
    stakes = [line for line in state.record() if line.get("e") == "stake"]
    assert "AS" not in [line["card"] for line in stakes]
    last = sum(line["amount"] for line in events(lines) if line["e"] == "stake")
    assert lines[-2]["t"] == "deal_end" and lines[-2]["layout"] == left - last >= 2


# --- §3.5 end and payments ------------------------------------------------------------------


@pytest.mark.parametrize("payment", ["fixed", "cards", "points"])
def test_3_5_2_payments(payment: str) -> None:
    _, full = deck_for(3, 2, ["QD 7D AS", "KC QS JC KH"])
    state = fixed(3, 2, ["QD 7D AS", "KC QS JC KH"], payment=payment, rate=3)
    state.apply(0, "run QD")
    lines = state.apply(1, "run KC")
    deal_end, end = lines[-2], lines[-1]
    left = [[str(c) for c in h if str(c) not in ("QD", "KC")] for h in full]
    expected = {
        "fixed": [3, 0, 3],
        "cards": [3 * len(left[0]), 0, 3 * len(left[2])],
        "points": [3 * points(left[0]), 0, 3 * points(left[2])],
    }[payment]
    assert [s["pays"] for s in deal_end["seats"]] == expected
    assert [s["points"] for s in deal_end["seats"]] == [points(h) for h in left]
    assert [s["cards"] for s in deal_end["seats"]] == [len(h) for h in left]
    assert deal_end["layout"] == 15
    assert end["payments"] == [-expected[0], expected[0] + expected[2], -expected[2]]
    assert end["staked"] == [5, 5, 5] and end["layout"] == [0, 15, 0]
    assert end["net"] == [-5 - expected[0], 15 - 5 + expected[0] + expected[2], -5 - expected[2]]
    assert end["bank"] == 0 and sum(end["net"]) == 0


def test_3_5_3_lenturlu_cards_count_double() -> None:
    state = fixed(3, 2, ["QD", "KC", "QS JC KH 7D AS"])
    state.apply(0, "run QD")
    lines = state.apply(1, "run KC")
    seat2 = lines[-2]["seats"][2]
    assert seat2["hand"][:2] == ["QS", "AS"]  # canonical: spades K…2 A, then clubs
    assert seat2["points"] == points(seat2["hand"])
    assert points(["QS", "JC", "KH", "7D", "AS"]) == 76


def test_3_5_4_net_is_the_signed_sum() -> None:
    state = fixed(3, 2, ["10C", "6D 7D", "JC QC"], payment="fixed", rate=2)
    lines: tuple[Line, ...] = ()
    while (seat := state.to_act) is not None:
        lines = state.apply(seat, state.legal_actions(seat)[0])
    end = lines[-1]
    assert end["t"] == "end" and end["staked"] == [5, 5, 5]
    for s in range(3):
        signed = end["taken"][s] + end["layout"][s] + end["payments"][s]
        assert end["net"][s] == signed - end["staked"][s] - end["refills"][s]
    assert sum(end["net"]) == 0 and sum(end["payments"]) == 0


def test_0_11_abandon_settles_nothing() -> None:
    state = fixed(3, 2, ["6D 7D"])
    state.apply(0, "run 6D 7D")
    lines = state.abandon()
    assert lines == ({"t": "end", "reason": "abandoned", "net": [0, 0, 0]},)
    assert state.is_over and state.result is not None and state.result.net == (0, 0, 0)
    assert refused(state, 1, Pass()).code is Refusal.GAME_OVER
    before = state.record()
    with pytest.raises(IllegalAction) as again:
        state.abandon()
    assert again.value.code is Refusal.GAME_OVER and state.record() == before


def test_view_shows_own_hand_and_public_table() -> None:
    state = fixed(3, 2, ["5S 9D", "6H"])
    state.apply(0, "run 5S")
    mine, public = state.view(1), state.view(None)
    assert Card.parse("6H") in mine.hand and public.hand == () and public.legal == ()
    assert mine.legal == state.legal_actions(1)
    assert public.top == Card.parse("5S") and public.to_act == 1
    assert {str(c): v for c, v in public.layout} == state.layout()
    assert public.manner == "king" and public.payment == "points" and public.stock == 7
    assert state.view(0).legal == ()
