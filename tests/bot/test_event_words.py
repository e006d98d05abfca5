"""A record's events in words: every event of every golden record said as a sentence in ru and
en (no raw keys left), a few exact sentences per family, every event class of the four books
worded, and the transcript still opening with its header and closing with its result."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Final

import pytest

from bot.i18n import Catalogues
from bot.records import GameRecord
from bot.render.event_words import EVENT_WORDS
from bot.render.transcript import line_words, transcript
from bot.storage.rows import TableRow, TableStatus
from engine.cards import Card, Suit
from engine.core import Line
from engine.events import Event
from engine.games import record_book
from engine.konchinka.events import BOOK as KONCHINKA
from engine.konchinka.events import Certain, LastTake, TableLaid
from engine.kopilka.events import BOOK as KOPILKA
from engine.kopilka.events import DrawWhy, Fined, FineKind, KopilkaTrickWon, StockDrawn
from engine.lenturlu.events import BOOK as LENTURLU
from engine.lenturlu.events import Bought, Refilled
from engine.record import read_records
from engine.trick.events import BOOK as TRICK
from engine.trick.events import Exchanged, TrickWon, TrumpSet

ROOT: Final = Path(__file__).resolve().parents[2]
CATALOGUES: Final = Catalogues.load(ROOT / "locales")
GOLDEN: Final = sorted((ROOT / "tests" / "golden" / "records").glob("*.jsonl"))
RECORDS: Final = [(f"{p.stem}#{i}", r) for p in GOLDEN for i, r in enumerate(read_records(p))]
NAMES: Final = ("Аня", "Борис", "Вера", "Дима", "Егор", "Федя", "Галя", "Женя")
RAW: Final = re.compile(
    r"=|\[\[|\{|\}|\b(seat|winner|retrump|discarded|drawn|leader|plays|kind|amount|bank|"
    r"guaranteed|possible|insert_at|replacement|holder|passer|double|points|why|each)\b"
)
"""What a raw event line shows and a sentence never does (the English sentences may say "bank",
"points" and "each" as words, so those are only raw beside ``=``; see ``raw_left``)."""
WORDS_TOO: Final = frozenset({"bank", "points", "each"})


def raw_left(words: str) -> list[str]:
    """The raw-form pieces in ``words``: ``=``, ``[[``, braces and key names."""
    found = [m.group(0) for m in RAW.finditer(words)]
    return [f for f in found if f not in WORDS_TOO]


def C(code: str) -> Card:
    return Card.parse(code)


@pytest.mark.parametrize("locale", ["ru", "en"])
@pytest.mark.parametrize(("name", "record"), RECORDS, ids=[n for n, _ in RECORDS])
def test_every_golden_event_is_a_sentence_without_raw_keys(
    name: str, record: list[Line], locale: str
) -> None:
    tr = CATALOGUES.tr(locale)
    book = record_book(record[0]["game"])
    names = NAMES[: record[0]["players"]]
    events = [e for x in record if isinstance(e := book.parse(x), Event)]
    assert events, name
    for event in events:
        words = line_words(event, names, tr)
        assert words is not None
        assert words.startswith("  · ")
        assert event.KIND not in words.split()[1:2], words  # not the raw «· trump card=…»
        assert raw_left(words) == [], words


def test_every_event_class_of_the_four_books_has_words() -> None:
    classes = {c for book in (TRICK, KOPILKA, LENTURLU, KONCHINKA) for c in book.kinds.values()}
    assert len(classes) == 31
    assert classes - set(EVENT_WORDS) == set()


def said(event: Event, locale: str, names: tuple[str, ...] = NAMES[:3]) -> str:
    words = line_words(event, names, CATALOGUES.tr(locale))
    assert words is not None
    return words.removeprefix("  · ")


def test_trick_family_sentences() -> None:
    assert said(TrumpSet(card=C("8D"), suit=Suit.DIAMONDS, retrump=False), "ru") == (
        "Козырь: ♦ (открыта 8♦)"
    )
    assert said(TrumpSet(card=None, suit=Suit.HEARTS, retrump=False), "en") == "Trump: ♥"
    assert said(Exchanged(seat=1, discarded=(C("7D"),), drawn=(C("9D"),), up=False), "ru") == (
        "Борис меняет 7♦ на 9♦"
    )
    trick = TrickWon(no=1, leader=1, plays=((1, C("QC")), (2, C("9C")), (0, C("8C"))), winner=1)
    assert said(trick, "ru") == "Взятка 1: Д♣ 9♣ 8♣ — берёт Борис (Д♣)"
    assert said(trick, "en") == "Trick 1: Q♣ 9♣ 8♣ — Борис takes it (Q♣)"


def test_kopilka_sentences() -> None:
    fine = Fined(seat=1, kind=FineKind.DEAL_FEE, amount=5, bank=85)
    assert said(fine, "ru") == "Борис: штраф 5 за сдачу, в копилке 85"
    assert said(fine, "en") == "Борис: fine 5 for the deal, the bank 85"
    drawn = StockDrawn(seat=0, cards=(C("7H"), C("8H")), why=DrawWhy.BUY)
    assert said(drawn, "ru").startswith("Аня покупает 2 карты")
    trick = KopilkaTrickWon(
        no=3,
        leader=2,
        suit=Suit.SPADES,
        plays=((2, C("9S")), (0, C("AS"))),
        winner=0,
        points=5,
        double=True,
    )
    assert said(trick, "ru") == "Взятка 3 · заход ♠: 9♠ Т♠ — берёт Аня: 5 очков (туз удваивает)"


def test_lenturlu_sentences() -> None:
    assert said(Bought(seat=2, cards=(C("5C"),)), "en") == "Вера buys 1 card: 5♣"
    assert said(Refilled(card=C("7D"), each=5, amount=10), "en") == (
        "7♦ refilled: 5 from each of the others, now 10 on it"
    )


def test_konchinka_sentences() -> None:
    assert said(TableLaid(cards=(C("2C"), C("10D"))), "en") == "On the table: 2♣ 10♦"
    assert said(LastTake(seat=None, cards=(C("3H"),)), "en") == ("Left on the table, to nobody: 3♥")
    assert said(Certain(seat=0, guaranteed=(12, 3), possible=(15, 6)), "en", NAMES[:2]) == (
        "Аня wins whatever is left: the game ends early (points certain: Аня 12 · Борис 3)"
    )


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_golden_transcript_starts_with_its_header_and_ends_with_its_result(path: Path) -> None:
    tr = CATALOGUES.tr("ru")
    lines = read_records(path)[0]
    names = NAMES[: lines[0]["players"]]
    table = TableRow(
        id=1,
        chat_id=-100,
        game=lines[0]["game"],
        options={},
        status=TableStatus.ENDED,
        creator_id=1,
        join_code="x",
        generation=1,
        moves=0,
    )
    record = GameRecord(table, 1, names, tuple(lines), True)
    text = transcript(record, "Клуб", tr).splitlines()
    assert text[0].endswith("«Клуб», игра " + "1")
    assert text[-1].startswith("Итог: ")
    assert not any(raw_left(line) for line in text if line.startswith("  · "))
