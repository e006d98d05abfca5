"""What every family's golden-screen test shares: how a screen is written down, how it is
compared with (or, with ``UPDATE_GOLDEN=1``, written to) its file, and replayed prefixes."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from bot.render.table_context import TableContext
from bot.rendered import Rendered
from engine.core import Line
from engine.record import read_records, replay

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "golden" / "render"
CHATS = {"ru": "Пятница", "en": "Friday"}


def show(rendered: Rendered | str) -> str:
    """The text, then one line per keyboard row: ``[label] [label]``."""
    if isinstance(rendered, str):
        return rendered + "\n"
    out = [rendered.text]
    if rendered.markup is not None:
        out.append("")
        out.extend(" ".join(f"[{b.text}]" for b in row) for row in rendered.markup.inline_keyboard)
    return "\n".join(out) + "\n"


def assert_golden(name: str, locale: str, text: str) -> None:
    """The screen equals its golden file (``UPDATE_GOLDEN=1``: write it, then read the diff)."""
    path = GOLDEN / locale / f"{name}.txt"
    if os.environ.get("UPDATE_GOLDEN"):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.read_text(encoding="utf-8") == text


def last_events(lines: list[Line]) -> list[Line]:
    """What the last action wrote, a ``deal`` line's deck removed (as the runtime passes it)."""
    start = max(i for i, ln in enumerate(lines) if ln.get("t") == "act")
    return [{k: v for k, v in ln.items() if k != "deck"} for ln in lines[start:]]


def prefixes(path: Path, game: int | None = None) -> Iterator[tuple[list[Line], Any]]:
    """Every prefix of the file's records (or of record ``game``) ending just after an ``act``
    line's output, and its replayed state."""
    records = read_records(path)
    for lines in records if game is None else [records[game]]:
        ends = [i for i, ln in enumerate(lines) if ln.get("t") == "act"]
        cuts = [ends[0]] + [
            next((j for j in range(i + 1, len(lines)) if lines[j].get("t") == "act"), len(lines))
            for i in ends
        ]
        for cut in cuts:
            yield lines[:cut], replay(lines[:cut])


def screen_context(
    game: str, lines: list[Line], names: tuple[str, ...], locale: str
) -> TableContext:
    """The table facts of a replayed prefix, as the runtime gives them to the screens."""
    return TableContext(
        table_id=42,
        game=game,
        chat_title=CHATS[locale],
        names=names,
        match_no=1,
        moves=sum(1 for ln in lines if ln.get("t") == "act"),
        bot_username="mushka_test_bot",
        options=lines[0]["options"],
    )
