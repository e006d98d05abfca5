"""PRODUCT.md §5.2–§5.5: the trick family's screens, rendered from fixed engine states and
compared with golden text files under ``tests/golden/render/{ru,en}/``.

The states come from replaying prefixes of a golden record (deterministic, no seeds involved).
Regenerate after an intended change with ``UPDATE_GOLDEN=1 pytest tests/bot/test_render_golden.py``
and read the diff against the mock-ups before committing it.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from bot.callbacks import PressCodec
from bot.i18n import Catalogues
from bot.render.common import Rendered
from bot.render.context import HandUI, Standing, TableContext
from bot.render.games.trick import TrickUI
from engine.core import Line
from engine.record import read_records, replay

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "golden" / "render"
RECORDS = ROOT / "tests" / "golden" / "records"
RECORD = RECORDS / "mushka-3p-record-example.jsonl"
CATALOGUES = Catalogues.load(ROOT / "locales")
CODEC = PressCodec.from_token("123456:TEST-token")
NAMES = {"ru": ("Аня", "Борис", "Вера"), "en": ("Anya", "Boris", "Vera")}
NAMES_6 = {
    "ru": ("Аня", "Борис", "Вера", "Глеб", "Дина", "Егор"),
    "en": ("Anya", "Boris", "Vera", "Gleb", "Dina", "Egor"),
}
CHATS = {"ru": "Пятница", "en": "Friday"}
UI = TrickUI()


def record(name: str = RECORD.stem) -> list[Line]:
    return read_records(RECORDS / f"{name}.jsonl")[0]


def context(lines: list[Line], locale: str) -> tuple[TableContext, Any]:
    state = replay(lines)
    moves = sum(1 for ln in lines if ln.get("t") == "act")
    ctx = TableContext(
        table_id=42,
        game="mushka",
        chat_title=CHATS[locale],
        names=(NAMES if state.players == 3 else NAMES_6)[locale],
        match_no=1,
        moves=moves,
        bot_username="mushka_test_bot",
    )
    return ctx, state


def deal_lines(state: Any) -> list[Line]:
    """The current deal's record lines, from its ``deal`` line on (the test's own reading)."""
    record: list[Line] = state.record()
    start = max(i for i, ln in enumerate(record) if ln.get("t") == "deal")
    return record[start:]


def last_events(lines: list[Line]) -> list[Line]:
    """What the last action wrote, a ``deal`` line's deck removed (as the runtime passes it)."""
    start = max(i for i, ln in enumerate(lines) if ln.get("t") == "act")
    return [{k: v for k, v in ln.items() if k != "deck"} for ln in lines[start:]]


def show(rendered: Rendered | str) -> str:
    """The text, then one line per keyboard row: ``[label] [label]``."""
    if isinstance(rendered, str):
        return rendered + "\n"
    out = [rendered.text]
    if rendered.markup is not None:
        out.append("")
        out.extend(" ".join(f"[{b.text}]" for b in row) for row in rendered.markup.inline_keyboard)
    return "\n".join(out) + "\n"


def screen(name: str, locale: str) -> str:
    tr = CATALOGUES.tr(locale)
    full = record()
    if name.startswith("table_"):
        prefix = {"table_declare": 5, "table_trick": 10, "table_last_trick": 13}[name]
        ctx, state = context(full[:prefix], locale)
        return show(UI.table(ctx, state.view(None), tr))
    if name.startswith("hand_"):
        source, stop, seat, ui = HANDS[name]
        lines = record(source) if source else full
        if name == "hand_must_trump":  # the same deal under the option (records stay as they are)
            lines = [
                {**lines[0], "options": {**lines[0]["options"], "must_trump": True}},
                *lines[1:],
            ]
        ctx, state = context(lines[:stop], locale)
        return show(UI.hand(ctx, state.view(seat), ui, tr, CODEC))
    ctx, state = context(full, locale)
    if name == "deal_result":
        return show(UI.deal_result(ctx, last_events(full), state.view(None), tr))
    end = full[-1]
    names = NAMES[locale]
    standings = [
        Standing(100 + seat, names[seat], end["net"][seat] + bonus, 3, won)
        for seat, (bonus, won) in enumerate([(4, 0), (23, 2), (-27, 1)])
    ]
    return show(UI.match_result(ctx, end, standings, 1, tr, CODEC))


HANDS: dict[str, tuple[str | None, int | None, int, HandUI]] = {
    # name: (record, or None for the example; prefix, or None for the whole record; seat; UI)
    "hand_turn": (None, 10, 1, HandUI()),
    "hand_waiting": (None, 10, 0, HandUI()),
    "hand_declare": (None, 5, 1, HandUI()),
    "hand_exchange": (None, 5, 1, HandUI(("7C",), "x")),
    "hand_declare_no_pass": (None, 4, 0, HandUI()),  # Аня holds the мушка: only what to exchange
    "hand_passed": (None, 10, 2, HandUI()),  # Вера passed; Аня has led
    "hand_no_exchange": ("mushka-6p-target5", 202, 2, HandUI()),  # Вера: play 0, Глеб declares
    "hand_follow": ("mushka-3p-target5", 11, 2, HandUI()),  # ♣ led: К♣, 9♣ only
    "hand_must_trump": ("mushka-3p-target5", 44, 2, HandUI()),  # void in the led suit
    "hand_over_winner": (None, None, 1, HandUI()),  # Борис reached zero
    "hand_over": (None, None, 2, HandUI()),  # Вера: 2nd of 3, −5
}

SCREENS = [
    "table_declare",
    "table_trick",
    "table_last_trick",
    "hand_declare",
    "hand_exchange",
    "hand_turn",
    "hand_waiting",
    "hand_declare_no_pass",
    "hand_passed",
    "hand_no_exchange",
    "hand_follow",
    "hand_must_trump",
    "hand_over_winner",
    "hand_over",
    "deal_result",
    "pulka_result",
]


@pytest.mark.parametrize("locale", ["ru", "en"])
@pytest.mark.parametrize("name", SCREENS)
def test_5_screens_match_golden_text(name: str, locale: str) -> None:
    text = screen(name, locale)
    path = GOLDEN / locale / f"{name}.txt"
    if os.environ.get("UPDATE_GOLDEN"):
        path.write_text(text, encoding="utf-8")
    assert path.read_text(encoding="utf-8") == text


@pytest.mark.parametrize("locale", ["ru", "en"])
def test_14_table_never_shows_exchanged_cards(locale: str) -> None:
    """The table says how many cards a seat exchanged, never which (PRODUCT.md §14)."""
    tr = CATALOGUES.tr(locale)
    full = record()
    ctx, state = context(full[:10], locale)
    table = UI.table(ctx, state.view(None), tr).text
    deal = deal_lines(state)
    hidden = {c for ln in deal if ln.get("e") == "exchange" for c in ln["discarded"]}
    hidden |= {c for ln in deal if ln.get("e") == "exchange" for c in ln["drawn"]}
    played = {c for ln in full[:10] if ln.get("t") == "act" for c in ln["a"].split()[1:2]}
    from bot.render.cards import card_name

    for code in hidden - played:
        assert card_name(code, locale) not in table, code
    # and each hand shows only its own exchange
    own = UI.hand(ctx, state.view(0), HandUI(), tr, CODEC).text
    other = next(ln for ln in deal if ln.get("e") == "exchange" and ln["seat"] == 1)
    assert card_name(other["drawn"][0], locale) not in own.split("\n")[3]
