"""RULES.md §2, PRODUCT.md §5.7: Копилка's screens, rendered from fixed engine states and
compared with golden text files under ``tests/golden/render/{ru,en}/kopilka_*.txt``.

The states come from replaying prefixes of the golden record ``kopilka-4p.jsonl`` (deterministic).
Regenerate after an intended change with ``UPDATE_GOLDEN=1 pytest tests/bot/test_kopilka_golden.py``
and read the diff before committing it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.callbacks import PressCodec
from bot.i18n import Catalogues
from bot.presses.meaning import HandUI
from bot.render.games.kopilka.screen import KOPILKA_UI
from bot.render.lobby import lobby
from bot.render.table_context import TableContext
from bot.runtime.scoreboard import LedgerLine, Standings
from bot.storage.rows import SeatRow, TableRow, TableStatus
from engine.core import Line
from engine.kopilka.scoring import partia_winner
from engine.record import read_records, replay
from tests.bot.golden import assert_golden, last_events, show

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "golden" / "render"
RECORD = ROOT / "tests" / "golden" / "records" / "kopilka-4p.jsonl"
CATALOGUES = Catalogues.load(ROOT / "locales")
CODEC = PressCodec.from_token("123456:TEST-token")
NAMES = {"ru": ("Аня", "Борис", "Вера", "Глеб"), "en": ("Anya", "Boris", "Vera", "Gleb")}
CHATS = {"ru": "Пятница", "en": "Friday"}
UI = KOPILKA_UI


def record(options: dict[str, Any] | None = None) -> list[Line]:
    lines = read_records(RECORD)[0]
    if options:  # the same deals under another option (the record file stays as it is)
        lines = [{**lines[0], "options": {**lines[0]["options"], **options}}, *lines[1:]]
    return lines


def whole(lines: list[Line], stop: int) -> list[Line]:
    """The first ``stop`` lines and the rest of the step they end in (up to the next act)."""
    more = next((i for i in range(stop, len(lines)) if lines[i].get("t") == "act"), len(lines))
    return lines[:more]


def context(lines: list[Line], locale: str) -> tuple[TableContext, Any]:
    state = replay(lines)
    ctx = TableContext(
        table_id=42,
        game="kopilka",
        chat_title=CHATS[locale],
        names=NAMES[locale],
        match_no=1,
        moves=sum(1 for ln in lines if ln.get("t") == "act"),
        bot_username="mushka_test_bot",
        options=lines[0]["options"],
    )
    return ctx, state


TABLES = {  # name → lines replayed
    "kopilka_table_layouts": 15,  # deal 1: two lay-outs, Вера to lead
    "kopilka_table_trick": 40,  # a buy and a pass in the trick; the last trick
    "kopilka_table_takeback": 143,  # all three passed: Аня took the card back
    "kopilka_table_layout_in_trick": 188,  # a buy made Вера lay out ♠
}
HANDS: dict[str, tuple[int | None, int, HandUI, dict[str, Any] | None]] = {
    # name → (lines replayed, seat, UI, options changed)
    "kopilka_hand_lead_received": (15, 2, HandUI(), None),  # own lay-out, a card received
    "kopilka_hand_follow": (16, 3, HandUI(), None),  # ♦ led: follow or the A♠
    "kopilka_hand_hold_pass": (16, 3, HandUI(), {"hold_pass": True}),  # pass with a fine
    "kopilka_hand_waiting": (16, 0, HandUI(), None),
    "kopilka_hand_buy": (37, 1, HandUI(), None),  # no ♦: buy 1, buy 2 or pass
    "kopilka_hand_bought": (39, 1, HandUI(), None),  # after the buy, still no ♦: pass
    "kopilka_hand_lead_forbidden": (20, 2, HandUI(), None),  # not ♦ (the last trick's suit)
    "kopilka_hand_over": (None, 1, HandUI(), None),
}
DEALS = {  # name → the deal_end line's index
    "kopilka_deal_result": 61,
    "kopilka_deal_result_no_trick": 153,
    "kopilka_deal_result_last": 263,
}
SCREENS = [
    *TABLES,
    *HANDS,
    *DEALS,
    *(f"{name}_ended" for name in DEALS),
    "kopilka_partia_result",
    "kopilka_partia_stopped",
    "kopilka_partia_shortfall",
    "kopilka_lobby_options",
    "kopilka_rules",
]


def screen(name: str, locale: str) -> str:
    tr = CATALOGUES.tr(locale)
    full = record()
    if name == "kopilka_lobby_options":  # the Options menu with Копилка's options (§2.7)
        people = NAMES[locale][:3]
        seats = [SeatRow(i, 100 + i, n) for i, n in enumerate(people)]
        options = full[0]["options"]
        table = TableRow(42, -100, "kopilka", options, TableStatus.LOBBY, 100, "j", 0, 0)
        return show(lobby(table, seats, tr, CODEC, options_view=True))
    if name == "kopilka_rules":
        return show(UI.rules_summary("kopilka", tr))
    if name in TABLES:
        ctx, state = context(whole(full, TABLES[name]), locale)
        return show(UI.table(ctx, state.view(None), tr))
    if name in HANDS:
        stop, seat, ui, options = HANDS[name]
        lines = record(options)
        ctx, state = context(whole(lines, stop) if stop else lines, locale)
        return show(UI.hand(ctx, state.view(seat), ui, tr, CODEC))
    if name.endswith("_ended"):
        at = DEALS[name.removesuffix("_ended")]
        lines = whole(full, at + 1)
        act = max(i for i, ln in enumerate(lines) if ln.get("t") == "act")
        ctx, before = context(lines[:act], locale)
        return show(UI.ended_table(ctx, before.view(None), last_events(lines), tr))
    if name in DEALS:
        at = DEALS[name]
        lines = whole(full, at + 1)  # the deal_end, the next deal and its lay-outs (or the end)
        assert lines[at]["t"] == "deal_end", lines[at]
        ctx, state = context(lines, locale)
        return show(UI.deal_result(ctx, last_events(lines), state.view(None), tr))
    ctx, state = context(full, locale)
    names = NAMES[locale]
    if name == "kopilka_partia_stopped":
        end: Line = {"t": "end", "reason": "abandoned", "net": [0, 0, 0, 0]}
        return show(UI.match_result(ctx, end, None, Standings(), 1, tr, CODEC))
    end = full[-1]
    assert state.result is not None
    winner = state.result.winner  # §2.6.7, not in the end line
    if name == "kopilka_partia_shortfall":  # §2.6.5 b: ante 0, the bank only the fines (40)
        end = {
            **end,
            "bank_before": 40,
            "shortfall": True,
            "payout": [17, 6, 4, 13],  # ⌊40 × P / 97⌋, the rest (2) to the last deal's winner
            "paid_in": [10, 10, 15, 5],
            "net": [7, -4, -11, 8],
        }
        first = next(ln["dealer"] for ln in full if ln["t"] == "deal")
        winner = partia_winner(end["net"], end["points"], end["last_winner"], first)
        return show(UI.match_result(ctx, end, winner, Standings(), 1, tr, CODEC))
    standings = [
        LedgerLine(100 + seat, names[seat], end["net"][seat] + bonus, 2, won)
        for seat, (bonus, won) in enumerate([(4, 0), (23, 1), (-27, 1), (0, 0)])
    ]
    return show(UI.match_result(ctx, end, winner, Standings(tuple(standings)), 1, tr, CODEC))


@pytest.mark.parametrize("locale", ["ru", "en"])
@pytest.mark.parametrize("name", SCREENS)
def test_kopilka_screens_match_golden_text(name: str, locale: str) -> None:
    assert_golden(name, locale, screen(name, locale))


def test_kopilka_texts() -> None:
    for locale in ("ru", "en"):
        tr = CATALOGUES.tr(locale)
        assert "4" in UI.rules_summary("kopilka", tr)
        labels = {n: UI.option_label(n, tr) for n in record()[0]["options"]}
        assert all(label != name for name, label in labels.items()) or locale == "en", labels
        assert len(set(labels.values())) == len(labels), labels
    assert UI.option_steps("ante") and UI.option_steps("hold_pass") is None
    assert CATALOGUES.tr("ru")("partia") == UI.match_word(CATALOGUES.tr("ru"))
