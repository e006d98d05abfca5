"""A game's record in words, line by line (PRODUCT.md §18): who did what, what happened, the
results — the ``.txt`` beside a record's ``.jsonl``."""

from __future__ import annotations

from collections.abc import Sequence

from bot.game_names import game_name
from bot.i18n import Translator
from bot.numbers import signed
from bot.records import GameRecord
from bot.render.cards import notation_word, notation_words
from engine.core import Line
from engine.events import Event
from engine.games import record_book
from engine.lines import LineKind, kind_of


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
    for line in record.lines:
        kind = kind_of(line)
        if kind == LineKind.DEAL:
            dealer = line.get("dealer")
            who = names[dealer] if isinstance(dealer, int) else "—"
            out += ["", tr("Deal {no} — {name} deals", no=line.get("no", "?"), name=who)]
        elif kind == LineKind.ACT:
            out.append(f"{names[line['seat']]}: {notation_words(str(line['a']), loc)}")
        elif kind == LineKind.EVENT:
            out.append("  · " + _fields(book.event(line), names, loc))
        elif kind == LineKind.DEAL_END:
            seats: Sequence[Line] = line.get("seats", [])
            moves = [
                f"{names[s['seat']]} {s['before']}→{s['after']}"
                for s in seats
                if isinstance(s, dict) and "before" in s and "after" in s
            ]
            ended = tr("Deal {no} ended.", no=line.get("no", "?"))
            out.append(f"{ended} {' · '.join(moves)}".rstrip())
        elif kind == LineKind.END:
            net: Sequence[int] = line.get("net", [])
            out += [
                "",
                tr(
                    "Result: {list}",
                    list=" · ".join(f"{n} {signed(v)}" for n, v in zip(names, net, strict=False)),
                ),
            ]
    return "\n".join(out) + "\n"


def _fields(event: Event, names: Sequence[str], locale: str) -> str:
    """An event's name and its keys as the record has them, seats by name, cards in words."""
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
