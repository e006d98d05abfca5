"""Кончинка (RULES.md §4): scripted deals, one clause at a time."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

import pytest

from engine import IllegalAction, InvalidNotation, Refusal, new_game
from engine.cards import DECK_52, Card, parse_cards
from engine.chance import StackedChance
from engine.errors import InvalidOption
from engine.konchinka import Capture, KonchinkaState, Sweep, Trail, parse_action
from engine.konchinka.rules import (
    Haul,
    bounds,
    captures,
    certain_winner,
    deal_points,
    settle,
    target_winner,
)


def c(code: str) -> Card:
    return Card.parse(code)


def deck_for(n: int, dealer: int, hands: Sequence[str], table: str, stock: str = "") -> list[Card]:
    """A deal's deck giving each seat its hand (§0.6), then the table, then the stock top."""
    held = [parse_cards(h) for h in hands]
    deck: list[Card] = []
    for r in range(4):
        deck.extend(held[(dealer + 1 + i) % n][r] for i in range(n))
    deck += parse_cards(table) + parse_cards(stock)
    deck += [card for card in DECK_52 if card not in deck]
    assert len(set(deck)) == 52
    return deck


def start(
    hands: Sequence[str],
    table: str,
    stock: str = "",
    *,
    dealer: int = 0,
    options: Mapping[str, object] | None = None,
    more: Sequence[Sequence[Card]] = (),
) -> KonchinkaState:
    n = len(hands)
    chance = StackedChance.of([deck_for(n, dealer, hands, table, stock), *more])
    state = new_game("konchinka", n, 7, options, chance=chance, prev_dealer=(dealer - 1) % n)
    assert isinstance(state, KonchinkaState)
    return state


def events(lines: Sequence[Mapping[str, object]], name: str) -> list[Mapping[str, object]]:
    return [x for x in lines if x["t"] == "event" and x["e"] == name]


def capture_sets(state: KonchinkaState, seat: int, card: str) -> set[frozenset[str]]:
    return {
        frozenset(str(x) for x in a.taken)
        for a in state.legal_actions(seat)
        if isinstance(a, Capture) and a.card == c(card)
    }


# --- §0.5, §4.2: the draw, the deal, the initial table -----------------------------------


def test_0_5_2_first_dealer_draw_ace_is_lowest() -> None:
    chance = StackedChance.of([parse_cards("2H AS KD"), DECK_52])
    state = new_game("konchinka", 3, 1, chance=chance)
    seats = state.record()[1]
    assert seats["draw"] == [["2H", "AS", "KD"]] and seats["first_dealer"] == 1
    assert state.to_act == 2


def test_4_2_1_four_each_then_four_to_the_table() -> None:
    state = start(["2S 3S 4S 5S", "2H 3H 4H 5H", "2D 3D 4D 5D"], "6C 7C 8C 9C", dealer=1)
    assert state.to_act == 2  # §4.3.1: the dealer's left moves first
    assert state.view(2).hand == tuple(parse_cards("5D 4D 3D 2D"))
    assert state.view(0).hand == tuple(parse_cards("5S 4S 3S 2S"))
    public = state.view(None)
    assert public.table == tuple(parse_cards("6C 7C 8C 9C")) and public.stock == 52 - 16
    assert public.hand == () and public.hand_sizes == (4, 4, 4)
    assert state.record()[-1] == {"t": "event", "e": "table", "cards": ["6C", "7C", "8C", "9C"]}


def test_4_2_2_jack_replaced_into_the_middle_of_the_stock() -> None:
    stock = parse_cards("5S 9H") + [x for x in DECK_52 if x not in parse_cards("5S 9H")]
    stock = [x for x in stock if x not in parse_cards("2S 3S 4S 6S 2H 3H 4H 6H 8C JD 3D KH")]
    state = start(["2S 3S 4S 6S", "2H 3H 4H 6H"], "8C JD 3D KH", " ".join(map(str, stock)))
    fixes = events(state.record(), "table_fix")
    assert fixes == [
        {"t": "event", "e": "table_fix", "place": 2, "card": "JD", "insert_at": 20,
         "replacement": "5S"}
    ]  # fmt: skip
    assert events(state.record(), "table")[0]["cards"] == ["8C", "5S", "3D", "KH"]
    expected = [*stock[1:20], c("JD"), *stock[20:]]
    assert state._stock == expected  # inserted at ⌊40/2⌋ = 20, then the top card left


def test_4_2_2_pair_replaced_and_the_scan_repeats() -> None:
    # place 3 pairs place 1; its replacement JC is a jack; then 9S is fine
    state = start(["2S 3S 4S 6S", "2H 3H 4H 6H"], "7C 8D 7H 10S", "JC 9S")
    fixes = events(state.record(), "table_fix")
    assert [(f["place"], f["card"], f["insert_at"], f["replacement"]) for f in fixes] == [
        (3, "7H", 20, "JC"),
        (3, "JC", 20, "9S"),
    ]
    table = state.view(None).table
    assert table == tuple(parse_cards("7C 8D 9S 10S"))
    assert state.view(None).stock == 40


def test_4_2_2_applies_with_court_values_too() -> None:
    state = start(
        ["2S 3S 4S 6S", "2H 3H 4H 6H"], "JC 8D 7H 10S", "5C", options={"court_values": True}
    )
    assert state.view(None).table == tuple(parse_cards("5C 8D 7H 10S"))


# --- §4.3 play ----------------------------------------------------------------------------


def test_4_3_2_an_eight_takes_an_eight_and_three_plus_five() -> None:
    state = start(["2S 3S 4S 6S", "8H 9H 4H 6H"], "8C 5S 3D KH", "2C")
    assert capture_sets(state, 1, "8H") == {
        frozenset({"8C"}),
        frozenset({"5S", "3D"}),
        frozenset({"8C", "5S", "3D"}),
    }
    lines = state.apply(1, "capture 8H = 8C + 3D 5S")
    assert lines[0] == {"t": "act", "seat": 1, "a": "capture 8H = 8C + 3D 5S"}
    assert lines[1] == {"t": "event", "e": "draw", "seat": 1, "card": "2C"}
    view = state.view(None)
    assert view.table == (c("KH"),) and view.captured == (0, 4) and view.last_capturer == 1
    assert state.to_act == 0


def test_4_3_2_grouping_is_free_and_written_as_given() -> None:
    a = parse_action("capture 8H = 8C + 3D 5S")
    b = parse_action("capture 8H = 5S 3D + 8C")
    assert a == b and hash(a) == hash(b) and str(b) == "capture 8H = 5S 3D + 8C"
    state = start(["2S 3S 4S 6S", "8H 9H 4H 6H"], "8C 5S 3D KH")
    assert state.apply(1, b)[0]["a"] == "capture 8H = 5S 3D + 8C"


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("capture 8H = 8C 3D + 5S", Refusal.INVALID_CAPTURE),  # groups of 11 and 5
        ("capture 8H = 8C + 8C", Refusal.DUPLICATE_CARDS),
        ("capture 8H = 8D", Refusal.INVALID_CAPTURE),  # not on the table
        ("capture 8H = 3D 5S KH", Refusal.INVALID_CAPTURE),  # K has no value
        ("capture 7S = 8C", Refusal.NOT_IN_HAND),
        ("sweep 8H", Refusal.NO_SWEEP),
    ],
)
def test_4_3_2_invalid_captures_are_refused(text: str, code: Refusal) -> None:
    state = start(["2S 3S 4S 6S", "8H 9H 4H 6H"], "8C 5S 3D KH")
    before = state.record()
    with pytest.raises(IllegalAction) as refused:
        state.apply(1, text)
    assert refused.value.code is code
    assert state.record() == before


def test_4_3_2_the_ace_takes_only_aces() -> None:
    state = start(["2S 3S 4S 6S", "AH 9H 4H 6H"], "AS 10C 2D QC")
    assert capture_sets(state, 1, "AH") == {frozenset({"AS"})}
    with pytest.raises(IllegalAction) as refused:
        state.apply(1, "capture AH = 2D")
    assert refused.value.code is Refusal.INVALID_CAPTURE


def test_4_3_3_king_and_queen_take_only_their_rank() -> None:
    state = start(["2S 3S 4S 6S", "KH QH 9H 4H"], "KS 3C 10D AC")
    assert capture_sets(state, 1, "KH") == {frozenset({"KS"})}
    assert capture_sets(state, 1, "QH") == set()
    with pytest.raises(IllegalAction) as refused:
        state.apply(1, "capture KH = 3C 10D")
    assert refused.value.code is Refusal.INVALID_CAPTURE


def test_4_3_3_king_takes_any_set_of_kings() -> None:
    table = parse_cards("KS 9C KD QC")
    found = captures(c("KH"), table, False)
    sets = {frozenset(str(table[i]) for g in groups for i in g) for groups in found}
    assert sets == {frozenset({"KS"}), frozenset({"KD"}), frozenset({"KS", "KD"})}
    assert all(len(g) == 1 for groups in found for g in groups)


def test_4_3_4_the_jack_sweeps_the_whole_table() -> None:
    state = start(["2S 3S 4S 6S", "JH 8H 4H 6H"], "8C 5S 3D KH", "2C")
    legal = state.legal_actions(1)
    assert Sweep(c("JH")) in legal and not any(isinstance(a, Trail) for a in legal)
    for text, code in [
        ("capture JH = 8C", Refusal.JACK_MUST_SWEEP),
        ("trail JH", Refusal.JACK_MUST_SWEEP),
        ("trail 4H", Refusal.MUST_CAPTURE),
    ]:
        with pytest.raises(IllegalAction) as refused:
            state.apply(1, text)
        assert refused.value.code is code
    state.apply(1, "sweep JH")
    view = state.view(None)
    assert view.table == () and view.captured == (0, 5) and view.last_capturer == 1


def test_4_3_4_court_values_jack_adds_up_and_does_not_sweep() -> None:
    state = start(["2S 3S 4S 6S", "JH 8H 4H 6H"], "10C 5S AD KH", options={"court_values": True})
    assert capture_sets(state, 1, "JH") == {frozenset({"10C", "AD"})}
    assert capture_sets(state, 1, "KH") == set()  # not in his hand
    with pytest.raises(IllegalAction) as refused:
        state.apply(1, "sweep JH")
    assert refused.value.code is Refusal.NO_SWEEP


def test_4_1_2_court_values_king_thirteen_queen_twelve() -> None:
    state = start(["2S 3S 4S 6S", "KS QD 8H 9H"], "10C 3D 2H KH", options={"court_values": True})
    assert capture_sets(state, 1, "KS") == {
        frozenset({"KH"}),
        frozenset({"10C", "3D"}),
        frozenset({"KH", "10C", "3D"}),
    }
    assert capture_sets(state, 1, "QD") == {frozenset({"10C", "2H"})}


def test_4_3_5_trail_only_when_nothing_can_capture() -> None:
    state = start(["2S 3S 4S 6S", "KD QH 9H 2H"], "10C 8S 6D 5C")
    assert state.legal_actions(1) == tuple(Trail(x) for x in parse_cards("KD QH 9H 2H"))
    state.apply(1, "trail 9H")
    assert state.view(None).table == tuple(parse_cards("10C 8S 6D 5C 9H"))
    assert [str(a) for a in state.legal_actions(0)] == ["capture 6S = 6D"]  # §0.10 forced
    with pytest.raises(IllegalAction) as refused:
        state.apply(0, "trail 2S")
    assert refused.value.code is Refusal.MUST_CAPTURE


def test_4_3_5_empty_table_only_trails_even_the_jack() -> None:
    state = start(["2S 3S 4S 6S", "JH 8H 4H 6H"], "8C 5S 3D KH", "JC 9D")
    state.apply(1, "sweep JH")
    assert state.legal_actions(0) == tuple(Trail(x) for x in parse_cards("6S 4S 3S 2S"))
    state.apply(0, "trail 2S")
    assert state.legal_actions(1) == (Sweep(c("JC")),)


# --- §4.3.6: every capture set once ---------------------------------------------------------

VALUES = {"A": 1, **{str(v): v for v in range(2, 11)}, "J": 11, "Q": 12, "K": 13}


def _brute_sets(card: Card, table: Sequence[Card], court: bool) -> set[frozenset[Card]]:
    """Every subset of the table that splits into groups worth the card, by brute force."""

    def val(x: Card) -> int | None:
        return None if not court and x.rank.value in "JQK" else VALUES[x.rank.value]

    n = len(table)
    own_rank = not court and card.rank.value in "KQ"

    def is_group(mask: int) -> bool:
        cards = [table[i] for i in range(n) if mask >> i & 1]
        if own_rank:
            return len(cards) == 1 and cards[0].rank is card.rank
        vals = [val(x) for x in cards]
        return None not in vals and sum(v or 0 for v in vals) == val(card)

    groups = [m for m in range(1, 1 << n) if is_group(m)]
    splits = {0: True}
    for mask in range(1, 1 << n):
        low = mask & -mask
        splits[mask] = any(g & low and g & mask == g and splits[mask ^ g] for g in groups)
    return {
        frozenset(table[i] for i in range(n) if m >> i & 1) for m in range(1, 1 << n) if splits[m]
    }


@pytest.mark.parametrize("court", [False, True])
def test_4_3_6_each_distinct_capture_listed_once(court: bool) -> None:
    pick = random.Random(46)
    for _ in range(200):
        cards = pick.sample(list(DECK_52), 10)
        card, table = cards[0], cards[1:]
        if card.rank.value == "J" and not court:
            continue
        found = captures(card, table, court)
        sets = [frozenset(table[i] for g in groups for i in g) for groups in found]
        assert len(sets) == len(set(sets))
        assert set(sets) == _brute_sets(card, table, court)
        for groups in found:
            vals = [[VALUES[table[i].rank.value] for i in g] for g in groups]
            assert all(len(g) == 1 or sum(g) == VALUES[card.rank.value] for g in vals)


def test_4_3_6_legal_order_is_deterministic() -> None:
    a = start(["2S 3S 4S 6S", "8H 9H 4H 5H"], "8C 5S 3D AC")
    b = start(["2S 3S 4S 6S", "5H 4H 9H 8H"], "8C 5S 3D AC")
    assert a.legal_actions(1) == b.legal_actions(1)
    assert [str(x) for x in a.legal_actions(1)] == [str(x) for x in b.legal_actions(1)]


# --- §4.4 scoring, certainty, settlement ----------------------------------------------------


def test_4_4_1_most_cards_most_clubs_and_konchinki() -> None:
    assert deal_points([Haul(30, 7, 1), Haul(22, 6, 1)]) == [4, 1]


def test_4_4_1_two_way_tie_for_cards_one_each_clubs_tie_none() -> None:
    assert deal_points([Haul(26, 6, 0), Haul(26, 7, 2)]) == [1, 4]
    assert deal_points([Haul(20, 5, 0), Haul(20, 5, 1), Haul(12, 3, 1)]) == [1, 2, 1]


def test_4_4_1_three_way_tie_for_cards_scores_nothing() -> None:
    hauls = [Haul(15, 4, 0), Haul(15, 4, 0), Haul(15, 4, 2), Haul(7, 1, 0)]
    assert deal_points(hauls) == [0, 0, 2, 0]


def test_4_4_4_guaranteed_and_possible_bounds() -> None:
    # r = 12 cards and u = 1 club not yet captured, both кончинки taken by seat 1
    assert bounds([Haul(27, 6, 0), Haul(13, 6, 2)]) == ([2, 2], [3, 3])
    # k_1 + r equals k_0: seat 1 could at best tie for cards (1); 13 clubs and 2 кончинки free
    assert bounds([Haul(26, 0, 0), Haul(20, 0, 0)]) == ([0, 0], [5, 4])


def test_4_4_4_certain_win_needs_target_and_beating_every_possible() -> None:
    assert certain_winner([4, 1], [2, 2], [3, 3], 5) == 0
    assert certain_winner([3, 1], [2, 2], [3, 3], 5) == 0
    assert certain_winner([3, 2], [2, 2], [3, 3], 5) is None  # 5 is not more than 2 + 3
    assert certain_winner([1, 1], [2, 2], [3, 3], 5) is None  # below target


def test_4_4_3_single_highest_total_at_target_wins() -> None:
    assert target_winner([5, 3], 5) == 0
    assert target_winner([5, 5], 5) is None  # a tie: another deal
    assert target_winner([4, 3], 5) is None
    assert target_winner([7, 6, 2], 5) == 0
    assert target_winner([6, 6, 2], 5) is None


def test_4_4_5_a_mushka_losers_pay_missing_points() -> None:
    assert settle([6, 3, 0], 0, "mushka", 5, 2, 10) == [14, -4, -10]
    assert settle([6, 5, 1], 0, "mushka", 5, 1, 10) == [4, 0, -4]


def test_4_4_5_b_pot_winner_takes_every_stake() -> None:
    assert settle([4, 4, 3, 7], 3, "pot", 5, 1, 10) == [-10, -10, -10, 30]
    assert settle([0, 6], 1, "pot", 5, 1, 25) == [-25, 25]


def test_4_4_4_game_ends_at_once_when_the_win_is_certain() -> None:
    state = start(["2S 3S 4S 6S", "2H 3H 4H 9H"], "2C 10S 7D 5C", "KS", options={"target": 5})
    state._totals = [0, 4]  # as if earlier deals had been played
    lines = state.apply(1, "capture 2H = 2C")
    # seat 1: G = 1 (the 2C); seat 0 at best 2 + 1 + 1 (the 10D) = 4 < 4 + 1
    assert lines[2] == {
        "t": "event", "e": "certain", "seat": 1, "guaranteed": [0, 1], "possible": [4, 5]
    }  # fmt: skip
    assert lines[3]["t"] == "deal_end" and lines[3]["early"] is True
    assert [s["points"] for s in lines[3]["seats"]] == [0, 1]
    assert [s["konchinki"] for s in lines[3]["seats"]] == [[], ["2C"]]
    assert lines[4] == {
        "t": "end", "reason": "certain", "winner": 1, "totals": [0, 5], "deals": 1,
        "payment": "mushka", "net": [-5, 5],
    }  # fmt: skip
    assert state.is_over and state.to_act is None and state.legal_actions(1) == ()
    with pytest.raises(IllegalAction) as refused:
        state.apply(0, "trail 2S")
    assert refused.value.code is Refusal.GAME_OVER


def test_4_4_4_no_early_finish_while_it_is_not_certain() -> None:
    state = start(["2S 3S 4S 6S", "2H 3H 4H 9H"], "2C 10S 7D 5C", "KS", options={"target": 5})
    state._totals = [1, 4]
    lines = state.apply(1, "capture 2H = 2C")
    assert [x["t"] for x in lines] == ["act", "event"] and state.to_act == 0


# --- notation, options, views ----------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "capture 8H =",
        "capture 8H = + 8C",
        "capture 8H = 8C +",
        "capture 8H  = 8C",
        "capture 8H 8C",
        "sweep",
        "trail 1H",
        "trail 7C 8C",
        "pass",
        "card 7C",
    ],
)
def test_r4_1_bad_notation_is_refused(text: str) -> None:
    with pytest.raises(InvalidNotation):
        parse_action(text)


def test_r4_1_notation_round_trips() -> None:
    for text in ["capture KD = 7D 6D + JD 2S", "capture AH = AS", "sweep JD", "trail 10C"]:
        assert str(parse_action(text)) == text


def test_4_5_options_in_the_record_and_their_limits() -> None:
    state = new_game("konchinka", 2, 3)
    assert state.record()[0]["options"] == {
        "target": 15, "court_values": False, "payment": "mushka", "point_value": 1, "stake": 10
    }  # fmt: skip
    bads: list[dict[str, object]] = [
        {"target": 4},
        {"target": 101},
        {"payment": "cash"},
        {"stake": -1},
    ]
    for bad in bads:
        with pytest.raises(InvalidOption):
            new_game("konchinka", 2, 3, bad)
    with pytest.raises(InvalidOption):
        new_game("konchinka", 5, 3)


def test_view_hides_other_hands_and_shows_the_table_facts() -> None:
    state = start(["2S 3S 4S 6S", "2H 3H 4H 10H"], "2C 10S 7D 5C", "10D", options={"target": 9})
    state.apply(1, "capture 10H = 10S")
    state.apply(0, "capture 2S = 2C")
    view = state.view(1)
    assert view.hand == tuple(parse_cards("10D 4H 3H 2H")) and view.hand_sizes == (4, 4)
    assert view.konchinki == ((c("2C"),), ()) and view.captured == (2, 2)
    assert view.clubs == (1, 0) and view.totals == (0, 0) and view.target == 9
    assert view.stock == 38 and view.last_capturer == 0 and view.to_act == 1
    assert view.legal == state.legal_actions(1) and state.view(0).legal == ()
