"""Typed record lines (engine/events.py, engine/<family>/events.py): every line the engine writes
reads into its family's typed line and writes back to exactly that line (key order included);
a line the family does not write is refused loudly (RECORD.md §R1.7, §R10.1)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from engine import GAMES, InvalidRecord, read_records, replay
from engine.cards import Card, Suit
from engine.core import Line, abandoned_line
from engine.events import Abandoned, Deal, EndReason, Event, RecordBook, first_of
from engine.games import new_game, record_book
from engine.kopilka.events import BOOK as KOPILKA
from engine.kopilka.events import Taken
from engine.lines import end_reason
from engine.record import dumps
from engine.simulate import simulate
from engine.trick.events import BOOK as TRICK
from engine.trick.events import TrickEnd, TrickWon

from .test_kopilka import play, table

GOLDEN = Path(__file__).parent.parent / "golden"
FILES = sorted((GOLDEN / "records").glob("*.jsonl")) + sorted(
    (GOLDEN / "simulated").glob("*.jsonl")
)
TABLES = [(game, n) for game, spec in GAMES.items() for n in spec.seat_counts]
BOOKS = {spec.family: spec.book for spec in GAMES.values()}


def _golden() -> Iterator[list[Line]]:
    for path in FILES:
        yield from read_records(path)


def _assert_reads_back(book: RecordBook, record: list[Line]) -> None:
    for number, line in enumerate(record, 1):
        typed = book.parse(line)
        assert dumps(typed.line()) == dumps(line), f"line {number}"


def test_every_line_of_the_golden_records_reads_and_writes_back() -> None:
    records = [*_golden(), _lead_freed()]
    assert len(records) >= 250
    for record in records:
        _assert_reads_back(record_book(record[0]["game"]), record)


@pytest.mark.parametrize(("game", "players"), TABLES, ids=[f"{g}-{n}" for g, n in TABLES])
def test_every_line_of_fresh_playouts_reads_and_writes_back(game: str, players: int) -> None:
    for record in simulate(game, players, 5, seed=4800 + players):
        _assert_reads_back(record_book(game), record)


def _lead_freed() -> list[Line]:
    """Копилка's rare ``lead_free`` (§2.4.2), which no golden record has: its clause's deal."""
    hands = ["7S 7C 7D 7H 8H", "8S 8C 8D 9H 10H", "9S 9C 9D JH QH", "10S 10C 10D KH AH"]
    state = table(3, hands)
    play(state, (0, "card 7S"), (1, "card 8S"), (2, "card 9S"), (3, "card 10S"))
    play(state, (3, "card 10C"), (0, "card 7C"), (1, "card 8C"), (2, "card 9C"))
    play(state, (3, "card 10D"), (0, "card 7D"), (1, "card 8D"), (2, "card 9D"))
    play(state, (3, "card AH"), (0, "card 7H"), (1, "card 9H"), (2, "card JH"))
    state.abandon()
    return state.record()


def test_every_kind_of_every_family_is_written() -> None:
    """No typed kind is dead: each event, and each reason of each family's end, is written."""
    seen: dict[str, set[str]] = {family: set() for family in BOOKS}
    reasons: dict[str, set[str]] = {family: set() for family in BOOKS}
    for record in [*_golden(), _lead_freed()]:
        family = GAMES[record[0]["game"]].family
        seen[family] |= {line["e"] for line in record if line["t"] == "event"}
        reasons[family].add(record[-1]["reason"])
    for family, book in BOOKS.items():
        assert seen[family] == set(book.kinds), family
        assert reasons[family] | {EndReason.ABANDONED} == set(book.ends), family
    assert {r for family in BOOKS for r in BOOKS[family].ends} == set(EndReason)


def test_the_fields_are_typed() -> None:
    record = read_records(GOLDEN / "records" / "mushka-3p-record-example.jsonl")[0]
    lines = TRICK.read(record)
    trick = first_of(lines, TrickWon)
    assert trick == TrickWon(
        no=1, leader=0, plays=((0, Card.parse("AS")), (1, Card.parse("10H"))), winner=1
    )
    end = lines[-1]
    assert isinstance(end, TrickEnd) and end.reason is EndReason.ZERO and end.net == (-15, 20, -5)
    deal = first_of(lines, Deal)
    assert deal is not None and deal.deck is not None and deal.deck[0] == Card.parse("AS")
    assert all(isinstance(e, Event) for e in TRICK.events(record))
    assert len(TRICK.events(record)) == sum(line["t"] == "event" for line in record)


def test_a_key_that_is_no_python_name_reads_under_its_own() -> None:
    line = {"t": "event", "e": "take", "seat": 2, "from": 1, "card": "10H"}
    take = KOPILKA.event(line)
    assert take == Taken(seat=2, holder=1, card=Card.parse("10H"))
    assert take.line() == line


def test_a_deal_line_without_its_deck_reads_and_writes_back() -> None:
    line = {"t": "deal", "no": 1, "dealer": 2}  # as the bot's screens get it
    deal = TRICK.parse(line)
    assert isinstance(deal, Deal) and deal.deck is None and deal.line() == line


def test_an_abandoned_end_reads_in_every_family() -> None:
    for game in GAMES:
        state = new_game(game, GAMES[game].seat_counts[0], seed=48)
        state.abandon()
        end = record_book(game).end(state.record()[-1])
        assert end == Abandoned(reason=EndReason.ABANDONED, net=(0,) * state.players)
        assert state.result is not None and state.result.reason is EndReason.ABANDONED
        assert replay([*state.record()[:-1], abandoned_line(state.players)]).record() == (
            state.record()
        )


def test_results_carry_the_end_line_s_reason() -> None:
    for record in list(_golden())[::7]:
        state = replay(record)
        assert state.result is not None
        assert state.result.reason is record_book(record[0]["game"]).end(record[-1]).reason


def test_an_end_line_s_reason_reads_alone() -> None:
    """``end_reason``: the reason of any family's end line, the same as its book reads it, from
    an end line with only the keys a screen shows too; anything else refused."""
    for record in list(_golden())[::5]:
        end = record[-1]
        assert end_reason(end) is record_book(record[0]["game"]).end(end).reason
    assert end_reason({"t": "end", "reason": "certain", "winner": 1}) is EndReason.CERTAIN
    for line in (
        {"t": "end", "reason": "nosuch", "net": [0, 0, 0]},
        {"t": "end", "net": [0, 0, 0]},
        {"t": "end", "reason": None},
        {"t": "deal_end", "no": 1, "reason": "king"},  # Лентюрлю's deal_end has a reason too
    ):
        with pytest.raises(InvalidRecord):
            end_reason(line)


@pytest.mark.parametrize(
    ("book", "line", "why"),
    [
        (TRICK, {"t": "event", "e": "nosuch", "seat": 0}, "no trick event is called 'nosuch'"),
        (TRICK, {"t": "event", "e": "take", "seat": 0, "from": 1, "card": "AS"}, "'take'"),
        (KOPILKA, {"t": "event", "e": "walkover", "seat": 0}, "'walkover'"),
        (TRICK, {"t": "end", "reason": "partia", "net": [0, 0, 0]}, "'partia'"),
        (TRICK, {"t": "nosuch"}, "no known type"),
        (TRICK, {"t": "event", "e": "walkover", "seat": 0, "x": 1}, "unknown keys ['x']"),
        (TRICK, {"t": "event", "e": "walkover"}, "no key 'seat'"),
        (TRICK, {"t": "event", "e": "walkover", "seat": True}, "'seat'"),
        (TRICK, {"t": "event", "e": "deal_out", "seat": 0, "card": "as"}, "'card'"),
        (TRICK, {"t": "event", "e": "trump", "card": None, "suit": "X", "retrump": False}, "X"),
        (
            TRICK,
            {"t": "event", "e": "trick", "no": 1, "leader": 0, "plays": [[0]], "winner": 0},
            "'plays'",
        ),
        (TRICK, {"t": "deal", "no": 1, "dealer": 0, "deck": "AS"}, "'deck'"),
    ],
)
def test_a_line_the_family_does_not_write_is_refused(
    book: RecordBook, line: Line, why: str
) -> None:
    with pytest.raises(InvalidRecord, match=None) as refused:
        book.parse(line)
    assert why in str(refused.value)


def test_suits_and_cards_are_the_engine_s_own() -> None:
    line = {"t": "event", "e": "trump", "card": None, "suit": "S", "retrump": False}
    trump = TRICK.event(line)
    assert getattr(trump, "suit") is Suit.SPADES and getattr(trump, "card") is None  # noqa: B009
