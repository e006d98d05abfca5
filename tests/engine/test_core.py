"""The shared engine core: cards, decks, chance, options, the first-dealer draw, records."""

from __future__ import annotations

import doctest
import random
from dataclasses import dataclass

import pytest

import engine.cards
from engine.cards import (
    A_HIGH,
    ACE_LOW,
    DECK_32,
    DECK_36,
    DECK_52,
    K_HIGH,
    Card,
    Rank,
    Suit,
    canonical_codes,
    parse_cards,
)
from engine.chance import SeededChance, StackedChance
from engine.core import Line, draw_first_dealer, seats_line
from engine.errors import InvalidNotation, InvalidOption, InvalidRecord
from engine.options import (
    bool_option,
    enum_option,
    int_option,
    options_dict,
    parse_assignments,
    parse_options,
)
from engine.record import read_jsonl, split_records, write_jsonl


def test_doctests_of_value_types() -> None:
    assert doctest.testmod(engine.cards).failed == 0


def test_r2_1_card_notation_round_trips_every_card() -> None:
    for card in DECK_52:
        assert Card.parse(str(card)) == card
    assert str(Card(Rank.TEN, Suit.HEARTS)) == "10H"
    assert Card.parse("qs") == Card(Rank.QUEEN, Suit.SPADES)


@pytest.mark.parametrize("text", ["", "1S", "TH", "10X", "AS ", "♠A", "11H", "A"])
def test_r2_1_bad_card_codes_are_refused(text: str) -> None:
    if text == "AS ":  # surrounding blanks are tolerated, the code itself is fine
        assert Card.parse(text) == Card.parse("AS")
        return
    with pytest.raises(InvalidNotation) as refused:
        Card.parse(text)
    assert refused.value.what == "card"


def test_0_3_decks_have_the_right_ranks() -> None:
    assert len(DECK_32) == len(set(DECK_32)) == 32
    assert len(DECK_36) == len(set(DECK_36)) == 36
    assert len(DECK_52) == len(set(DECK_52)) == 52
    assert {c.rank for c in DECK_32} == set(A_HIGH[:8])
    assert {c.rank for c in DECK_36} == set(A_HIGH[:9])


def test_1_1_3_rank_orders() -> None:
    assert [r.value for r in K_HIGH[:5]] == ["K", "Q", "J", "A", "10"]
    assert ACE_LOW[-1] is Rank.ACE and ACE_LOW[0] is Rank.KING


def test_r1_8_canonical_order_of_card_sets() -> None:
    cards = parse_cards("7H AS 2C KD 10S AC")
    assert canonical_codes(cards, A_HIGH) == ["AS", "10S", "AC", "2C", "KD", "7H"]
    assert canonical_codes(cards, ACE_LOW) == ["10S", "AS", "2C", "AC", "KD", "7H"]


def test_0_4_seeded_chance_is_deterministic() -> None:
    a = SeededChance.from_seed(42).shuffled(DECK_52)
    b = SeededChance.from_seed(42).shuffled(DECK_52)
    c = SeededChance.from_seed(43).shuffled(DECK_52)
    assert a == b != c
    assert sorted(map(str, a)) == sorted(map(str, DECK_52))


def test_stacked_chance_completes_partial_decks_and_checks_picks() -> None:
    chance = StackedChance.of([parse_cards("QD 8H")], parse_cards("7C"))
    deck = chance.shuffled(DECK_32)
    assert deck[:2] == parse_cards("QD 8H") and len(deck) == 32
    assert chance.choice(parse_cards("7C 8C")) == Card.parse("7C")
    with pytest.raises(InvalidRecord):
        chance.shuffled(DECK_32)
    with pytest.raises(InvalidRecord):
        StackedChance.of([], parse_cards("AS")).choice(parse_cards("7C"))
    with pytest.raises(InvalidRecord):
        StackedChance.of([parse_cards("2C")]).shuffled(DECK_32)  # 2C is not in the 32-card deck


def test_0_5_first_dealer_draw_with_a_tie() -> None:
    # RECORD.md §R11.1: round 1 7D KS 7C (seats 0 and 2 tie), round 2 QD, 8H → seat 2 deals.
    chance = StackedChance.of([parse_cards("7D KS 7C"), parse_cards("QD 8H")])
    rounds, dealer = draw_first_dealer(chance, DECK_32, A_HIGH, 3)
    assert rounds == [["7D", "KS", "7C"], ["QD", None, "8H"]]
    assert dealer == 2


def test_0_5_2_ace_is_lowest_in_the_ace_low_draw_order() -> None:
    chance = StackedChance.of([parse_cards("2S AH KC")])
    _, dealer = draw_first_dealer(chance, DECK_52, ACE_LOW, 3)
    assert dealer == 1


def test_0_5_draw_always_ends_on_random_decks() -> None:
    for seed in range(200):
        rounds, dealer = draw_first_dealer(SeededChance.from_seed(seed), DECK_32, A_HIGH, 7)
        assert 0 <= dealer < 7
        assert rounds[-1][dealer] is not None


def test_0_8_series_continues_after_the_previous_dealer() -> None:
    line, first = seats_line(SeededChance.from_seed(1), DECK_32, A_HIGH, 4, prev_dealer=3)
    assert first == 0
    assert line == {
        "t": "seats",
        "players": 4,
        "by": "series",
        "draw": [],
        "prev_dealer": 3,
        "first_dealer": 0,
    }


@dataclass(frozen=True, slots=True)
class _Opts:
    target: int = int_option(25, 5, 100)
    must: bool = bool_option(False)
    manner: str = enum_option("king", "king", "out")


def test_options_defaults_values_and_refusals() -> None:
    assert options_dict(parse_options(_Opts, None)) == {
        "target": 25,
        "must": False,
        "manner": "king",
    }
    opts = parse_options(_Opts, {"target": "30", "must": "true", "manner": "OUT"})
    assert (opts.target, opts.must, opts.manner) == (30, True, "out")
    cases: list[tuple[dict[str, object], str]] = [
        ({"target": "4"}, "option_out_of_range"),
        ({"target": "x"}, "option_not_int"),
        ({"target": True}, "option_not_int"),
        ({"must": "yes"}, "option_not_bool"),
        ({"manner": "queen"}, "option_not_allowed"),
        ({"colour": "red"}, "unknown_option"),
    ]
    for bad, code in cases:
        with pytest.raises(InvalidOption) as refused:
            parse_options(_Opts, bad)
        assert refused.value.code == code
    assert parse_assignments(["target=30", " must = true"]) == {"target": "30", "must": "true"}
    with pytest.raises(InvalidOption):
        parse_assignments(["target"])


def test_r1_1_json_lines_round_trip_and_record_splitting() -> None:
    lines: list[Line] = [
        {"t": "game", "v": 1, "game": "mushka"},
        {"t": "end", "reason": "abandoned", "net": [0, 0, 0]},
        {"t": "game", "v": 1, "game": "pamfil"},
        {"t": "act", "seat": 0, "a": "pass"},
        {"t": "end", "reason": "abandoned", "net": [0, 0, 0]},
    ]
    text = write_jsonl(lines)
    assert text.endswith("\n") and text.count("\n") == 5
    assert read_jsonl(text) == lines
    assert [len(r) for r in split_records(read_jsonl(text))] == [2, 3]
    with pytest.raises(InvalidRecord):
        list(split_records(lines[:1]))
    with pytest.raises(InvalidRecord):
        read_jsonl('{"t":"game"}\n\n')
    with pytest.raises(InvalidRecord):
        read_jsonl("[1, 2]\n")


def test_random_module_is_never_used_globally() -> None:
    state = random.getstate()
    SeededChance.from_seed(5).shuffled(DECK_52)
    assert random.getstate() == state
