"""Issue #37: what players see in Копилка, Лентюрлю and Кончинка — the right totals, who won in
words, every move told. Screens rendered from the golden records, in ru and en; each test names
the defect it keeps away."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.callbacks import PressCodec
from bot.i18n import Catalogues
from bot.render.context import HandUI
from bot.render.games.kopilka.screen import KOPILKA_UI
from engine.core import Line
from engine.kopilka.state import Phase
from engine.record import read_records
from engine.record import replay as replay_state
from tests.bot.golden import prefixes, screen_context

ROOT = Path(__file__).resolve().parents[2]


def replay(lines: list[Line]) -> Any:
    """The replayed state, its views typed by the caller (each test's game)."""
    return replay_state(lines)


RECORDS = ROOT / "tests" / "golden" / "records"
CATALOGUES = Catalogues.load(ROOT / "locales")
CODEC = PressCodec.from_token("123456:TEST-token")
NAMES = ("Аня", "Борис", "Вера", "Глеб", "Дина", "Егор")
LOCALES = ["ru", "en"]


def kopilka() -> list[Line]:
    return read_records(RECORDS / "kopilka-4p.jsonl")[0]


@pytest.mark.parametrize("locale", LOCALES)
def test_kopilka_final_hand_points_are_the_results(locale: str) -> None:
    """The final hand's partia points are the end line's (the last deal not counted twice), and
    it gives the seat's place and money."""
    tr = CATALOGUES.tr(locale)
    lines = kopilka()
    state = replay(lines)
    end = lines[-1]
    ctx = screen_context("kopilka", lines, NAMES[:4], locale)
    for seat in range(4):
        text = KOPILKA_UI.hand(ctx, state.view(seat), HandUI(), tr, CODEC).text
        partia = tr("partia {n}", n=end["points"][seat])
        assert partia in text, text
        money = end["net"][seat]
        assert f"{'+' if money > 0 else '−' if money < 0 else ''}{abs(money)}" in text
        assert tr("The partia is over") in text


@pytest.mark.parametrize("locale", LOCALES)
def test_kopilka_takeback_not_under_the_next_trick(locale: str) -> None:
    tr = CATALOGUES.tr(locale)
    said = tr("↩️ All three pass: {name} takes the card back (take-backs in a row: {n} of 4)")
    head = said.split("{name}")[0]
    shown = hidden = False
    for lines, state in prefixes(RECORDS / "kopilka-4p.jsonl", 0):
        view = state.view(None)
        if view.takeback is None or not view.takebacks or state.is_over:
            continue
        ctx = screen_context("kopilka", lines, NAMES[:4], locale)
        text = KOPILKA_UI.table(ctx, view, tr).text
        if view.phase == Phase.FOLLOW:
            assert head not in text, text
            hidden = True
        else:
            assert head in text, text
            shown = True
    assert shown and hidden


def test_kopilka_doubled_tricks_and_buys_told() -> None:
    tr = CATALOGUES.tr("ru")
    lines = kopilka()
    at = next(i for i, ln in enumerate(lines) if ln.get("t") == "deal_end")
    more = next(i for i in range(at, len(lines)) if lines[i].get("t") == "act")
    ctx = screen_context("kopilka", lines[:more], NAMES[:4], "ru")
    events: list[Any] = lines[max(i for i in range(at) if lines[i].get("t") == "act") : more]
    text = KOPILKA_UI.deal_result(ctx, events, replay(lines[:more]).view(None), tr)
    assert "×2" in text  # §2.6.1: which tricks an ace doubled
    buy = next(i for i, ln in enumerate(lines) if ln.get("why") == "buy")
    state = replay(lines[: buy + 1])
    seat = lines[buy]["seat"]
    ctx = screen_context("kopilka", lines[: buy + 1], NAMES[:4], "ru")
    table = KOPILKA_UI.table(ctx, state.view(None), tr).text
    assert f"{NAMES[seat]} покупает {len(lines[buy]['cards'])}" in table
    hand = KOPILKA_UI.hand(ctx, state.view(seat), HandUI(), tr, CODEC).text
    assert "Вы купили" in hand and "Карт на руках" in hand
