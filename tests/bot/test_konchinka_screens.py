"""RULES.md §4, PRODUCT.md §5.7: Кончинка's screens, rendered from states replayed from the
golden records and compared with ``tests/golden/render/{ru,en}/konchinka_*.txt``.

Each screen is the first state of the record that shows its case (a capture to choose among
several, a hand that must capture, a trail, a deal's end, an early finish, the game's end).
Regenerate after an intended change with
``UPDATE_GOLDEN=1 pytest tests/bot/test_konchinka_screens.py``.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bot.callbacks import PressCodec
from bot.i18n import Catalogues
from bot.presses.meaning import HandMode, HandUI, ModeKind
from bot.render.games.konchinka.screen import KONCHINKA_UI
from bot.runtime.scoreboard import Standings
from engine.core import Line
from engine.konchinka.actions import Capture, Trail
from engine.konchinka.view import KonchinkaView
from engine.record import read_records, replay
from tests.bot.golden import assert_golden, prefixes, screen_context, show

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "golden" / "render"
RECORDS = ROOT / "tests" / "golden" / "records"
TWO = RECORDS / "konchinka-2p-target5.jsonl"
FOUR = RECORDS / "konchinka-4p-court-pot.jsonl"
CATALOGUES = Catalogues.load(ROOT / "locales")
CODEC = PressCodec.from_token("123456:TEST-token")
NAMES = {"ru": ("Аня", "Борис", "Вера", "Глеб"), "en": ("Anya", "Boris", "Vera", "Gleb")}
UI = KONCHINKA_UI


def first(path: Path, test: Callable[[KonchinkaView], bool]) -> tuple[list[Line], Any]:
    for lines, state in prefixes(path):
        if state.to_act is not None and test(state.view(state.to_act)):
            return lines, state
    raise AssertionError("no such state")


def several(view: KonchinkaView) -> bool:
    cards = [a.card for a in view.legal if isinstance(a, Capture)]
    return any(cards.count(c) > 1 for c in cards)


def must_capture(view: KonchinkaView) -> bool:
    return bool(view.legal) and len({a.card for a in view.legal}) < len(view.hand)


def trails(view: KonchinkaView) -> bool:
    return bool(view.table) and all(isinstance(a, Trail) for a in view.legal)


HANDS: dict[str, tuple[Path, Callable[[KonchinkaView], bool], bool]] = {
    "konchinka_hand_must_capture": (TWO, must_capture, False),
    "konchinka_hand_choose": (TWO, several, True),
    "konchinka_hand_trail": (TWO, trails, False),
    "konchinka_hand_court_choose": (FOUR, several, True),
}


def ending(path: Path, game: int, kind: str) -> tuple[list[Line], list[Line], Any, Any]:
    """The first action whose lines hold ``kind`` (an event or a line type): the lines before
    it, what it wrote, the state before and after."""
    lines = read_records(path)[game]
    for i, ln in enumerate(lines):
        if ln.get("t") == "act":
            j = next((k for k in range(i + 1, len(lines)) if lines[k].get("t") == "act"), None)
            wrote = lines[i + 1 : j]
            if any(w.get("e") == kind or w.get("t") == kind for w in wrote):
                events = [{k: v for k, v in w.items() if k != "deck"} for w in wrote]
                return lines[:i], events, replay(lines[:i]), replay(lines[: i + 1 + len(wrote)])
    raise AssertionError(kind)


def screen(name: str, locale: str) -> str:
    tr = CATALOGUES.tr(locale)
    if name in HANDS:
        path, test, choose = HANDS[name]
        lines, state = first(path, test)
        ctx = screen_context("konchinka", lines, NAMES[locale][: state.players], locale)
        view = state.view(state.to_act)
        ui = HandUI()
        if choose:
            cards = [a.card for a in view.legal if isinstance(a, Capture)]
            card = next(c for c in cards if cards.count(c) > 1)
            ui = HandUI((), HandMode(ModeKind.CHOOSE, card))
        other = (state.to_act + 1) % state.players
        return (
            show(UI.hand(ctx, view, ui, tr, CODEC))
            + "\n"
            + show(UI.hand(ctx, state.view(other), HandUI(), tr, CODEC))
        )
    if name == "konchinka_table":
        lines, state = first(TWO, several)
        return show(
            UI.table(
                screen_context("konchinka", lines, NAMES[locale][: state.players], locale),
                state.view(None),
                tr,
            )
        )
    path, game, kind = {
        "konchinka_deal_end": (TWO, 0, "last_take"),
        "konchinka_deal_certain": (TWO, 0, "certain"),
        "konchinka_deal_end_4p": (FOUR, 0, "last_take"),
        "konchinka_deal_certain_4p": (FOUR, 0, "certain"),
    }[name]
    before_lines, events, before, after = ending(path, game, kind)
    ctx = screen_context("konchinka", before_lines, NAMES[locale][: before.players], locale)
    parts = [
        show(UI.ended_table(ctx, before.view(None), events, tr)),
        show(UI.deal_result(ctx, events, after.view(None), tr)),
    ]
    end = next((e for e in events if e.get("t") == "end"), None)
    if end is not None:
        parts.append(show(UI.match_result(ctx, end, end.get("winner"), Standings(), 1, tr, CODEC)))
    else:
        parts.append(show(UI.table(ctx, after.view(None), tr)))
    return "\n".join(parts)


SCREENS = [
    *HANDS,
    "konchinka_table",
    "konchinka_deal_end",
    "konchinka_deal_certain",
    "konchinka_deal_end_4p",
    "konchinka_deal_certain_4p",
]


@pytest.mark.parametrize("locale", ["ru", "en"])
@pytest.mark.parametrize("name", SCREENS)
def test_konchinka_golden_screen(name: str, locale: str) -> None:
    assert_golden(name, locale, screen(name, locale))


def test_konchinka_texts() -> None:
    tr = CATALOGUES.tr("ru")
    assert UI.match_word(tr) == "партия"
    assert UI.option_label("target", tr) == "цель"
    assert "Кончинка" in UI.rules_summary("konchinka", tr)
    assert UI.option_steps("target") and 15 in (UI.option_steps("target") or ())
