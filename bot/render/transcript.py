"""A game's record in words, line by line (PRODUCT.md §18): who did what, what happened, the
results — the ``.txt`` beside a record's ``.jsonl``."""

from __future__ import annotations

from collections.abc import Sequence

from bot.game_names import game_name
from bot.i18n import Translator
from bot.numbers import signed
from bot.records import GameRecord
from bot.render.cards import notation_word, notation_words
from bot.render.event_words import event_words
from engine.events import Act, Deal, DealEnd, End, Event, RecordLine
from engine.games import record_book
from engine.trick.events import TrickDealEnd


def transcript(record: GameRecord, chat_title: str, tr: Translator) -> str:
    """The record in words, line by line: who did what, what happened, the results."""
    names = record.names
    loc = tr.locale
    book = record_book(record.table.game)
    out = [
        tr(
            "{game} — «{chat}», game {no}",
            game=game_name(record.table.game, loc),
            chat=chat_title,
            no=record.no,
        ),
        tr("Players: {list}", list=" · ".join(f"{i + 1}. {n}" for i, n in enumerate(names))),
    ]
    for line in book.read(record.lines):
        words = line_words(line, names, tr)
        if words is None:
            continue
        if isinstance(line, (Deal, End)):
            out.append("")
        out.append(words)
    return "\n".join(out) + "\n"


def line_words(line: RecordLine, names: Sequence[str], tr: Translator) -> str | None:
    """One typed record line in words, as the transcript says it (None: a line it leaves out —
    the game and seats lines): a deal, an action, an event, a deal's end, the result."""
    loc = tr.locale
    if isinstance(line, Deal):
        return tr("Deal {no} — {name} deals", no=line.no, name=names[line.dealer])
    if isinstance(line, Act):
        return f"{names[line.seat]}: {notation_words(line.a, loc)}"
    if isinstance(line, Event):
        return "  · " + (event_words(line, names, tr) or _fields(line, names, loc))
    if isinstance(line, DealEnd):
        # the trick family's counts (RECORD.md §R6.3); the other families' figures are
        # their events' and results'
        seats = line.seats if isinstance(line, TrickDealEnd) else ()
        moves = [f"{names[s.seat]} {s.before}→{s.after}" for s in seats]
        ended = tr("Deal {no} ended.", no=line.no)
        return f"{ended} {' · '.join(moves)}".rstrip()
    if isinstance(line, End):
        net = " · ".join(f"{n} {signed(v)}" for n, v in zip(names, line.net, strict=False))
        return tr("Result: {list}", list=net)
    return None


def _fields(event: Event, names: Sequence[str], locale: str) -> str:
    """An event's name and its keys as the record has them, seats by name, cards in words (an
    event class with no words in :mod:`bot.render.event_words`)."""
    parts = [event.KIND]
    for key, value in event.line().items():
        if key in ("t", "e"):
            continue
        if (
            key in ("seat", "winner", "to", "from")
            and isinstance(value, int)
            and value < len(names)
        ):
            value = names[value]
        elif isinstance(value, str):
            value = notation_word(value, locale)
        elif isinstance(value, list) and all(isinstance(v, str) for v in value):
            value = " ".join(notation_word(v, locale) for v in value)
        parts.append(f"{key}={value}")
    return " ".join(parts)
