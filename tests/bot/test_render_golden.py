"""PRODUCT.md §5.2–§5.5: the trick family's screens, rendered from fixed engine states and
compared with golden text files under ``tests/golden/render/{ru,en}/``.

The states come from replaying prefixes of a golden record (deterministic, no seeds involved).
Regenerate after an intended change with ``UPDATE_GOLDEN=1 pytest tests/bot/test_render_golden.py``
and read the diff against the mock-ups before committing it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.callbacks import PressCodec
from bot.i18n import Catalogues
from bot.presses.meaning import HandUI
from bot.render.games.trick.screen import TRICK_UI
from bot.render.lobby import lobby
from bot.render.table_context import TableContext
from bot.rendered import Rendered
from bot.runtime.outcome import Pane
from bot.runtime.scoreboard import LedgerLine, Rated, Standings
from bot.storage.rows import SeatKind, SeatRow, TableRow, TableStatus
from engine.core import Line
from engine.record import read_records, replay
from tests.bot.golden import assert_golden, last_events, show

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "golden" / "render"
RECORDS = ROOT / "tests" / "golden" / "records"
RECORD = RECORDS / "mushka-3p-record-example.jsonl"
PULKAS = RECORDS / "mushka-3p-target5.jsonl"  # three pulkas: мушка bonuses, overshoots, `up`
CATALOGUES = Catalogues.load(ROOT / "locales")
CODEC = PressCodec.from_token("123456:TEST-token")
NAMES = {"ru": ("Аня", "Борис", "Вера"), "en": ("Anya", "Boris", "Vera")}
NAMES_6 = {
    "ru": ("Аня", "Борис", "Вера", "Глеб", "Дина", "Егор"),
    "en": ("Anya", "Boris", "Vera", "Gleb", "Dina", "Egor"),
}
CHATS = {"ru": "Пятница", "en": "Friday"}
UI = TRICK_UI


def record(path: Path = RECORD, pulka: int = 0) -> list[Line]:
    return read_records(path)[pulka]


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
        options=lines[0]["options"],  # the options in force, as the runtime passes them
    )
    return ctx, state


def deal_lines(state: Any) -> list[Line]:
    """The current deal's record lines, from its ``deal`` line on (the test's own reading)."""
    record: list[Line] = state.record()
    start = max(i for i, ln in enumerate(record) if ln.get("t") == "deal")
    return record[start:]


TABLES = {  # name → (record, pulka, lines replayed)
    "table_declare": (RECORD, 0, 5),
    "table_trick": (RECORD, 0, 10),
    "table_last_trick": (RECORD, 0, 13),  # trick 2 under way, trick 1 trumped (§5.2)
    "table_last_trick_beats": (PULKAS, 2, 164),  # trick 3 under way, trick 2 won in suit
    "table_turn_up_taken": (PULKAS, 0, 10),  # the dealer's `play 4 … up` (§1.2.2)
}
DEALS = {  # name → (record, pulka, the deal_end line's index)
    "deal_result": (RECORD, 0, 24),
    "deal_result_mushka": (PULKAS, 0, 59),  # 10→3 (мушка: 6+1)
    "deal_result_mushka_overshoot": (PULKAS, 2, 175),  # 5→−2 (мушка: 6+1), two overshoots
    "deal_result_mushka_trump": (PULKAS, 1, 93),  # spades trump: 5→−7 (мушка: 10+2)
}


def lobby_screen(name: str, locale: str) -> Rendered:
    tr = CATALOGUES.tr(locale)
    ru = locale == "ru"
    people = ["Аня", "Борис", "Вера", "Глеб", "Дина", "Егор", "🤖 Фёдор"] if ru else [
        "Anya", "Boris", "Vera", "Gleb", "Dina", "Egor", "🤖 Fyodor",
    ]  # fmt: skip
    if name not in ("lobby_full", "lobby_computers_full"):
        people = [*people[:3], people[-1]]  # §5.1: three people and a computer, 4/7
    seats = [
        SeatRow(i, None, n, kind=SeatKind.COMPUTER, level="easy")
        if n.startswith("🤖")
        else SeatRow(i, 100 + i, n)
        for i, n in enumerate(people)
    ]
    options = {"target": 25, "pulka_fee": 0, "point_value": 1, "must_trump": False}
    creator = seats[0].user_id or 0
    table = TableRow(42, -100, "mushka", options, TableStatus.LOBBY, creator, "j", 0, 0)
    pane: Pane = "computers" if name.startswith("lobby_computers") else name == "lobby_options"
    rules = "https://t.me/mushka_test_bot?start=r_mushka"
    return lobby(table, seats, tr, CODEC, options_view=pane, rules_link=rules)


def screen(name: str, locale: str) -> str:
    tr = CATALOGUES.tr(locale)
    if name.startswith("lobby_"):
        return show(lobby_screen(name, locale))
    if name in TABLES:
        path, pulka, prefix = TABLES[name]
        ctx, state = context(record(path, pulka)[:prefix], locale)
        return show(UI.table(ctx, state.view(None), tr))
    if name in DEALS:
        path, pulka, at = DEALS[name]
        lines = record(path, pulka)[: at + 2]  # the deal_end and the next deal line
        assert lines[at]["t"] == "deal_end"
        ctx, state = context(lines, locale)
        return show(UI.deal_result(ctx, last_events(lines), state.view(None), tr))
    full = record()
    if name.startswith("hand_"):
        source, stop, seat, ui = HANDS[name]
        lines = record(RECORDS / f"{source}.jsonl") if source else full
        if name == "hand_must_trump":  # the same deal under the option (records stay as they are)
            lines = [
                {**lines[0], "options": {**lines[0]["options"], "must_trump": True}},
                *lines[1:],
            ]
        ctx, state = context(lines[:stop], locale)
        return show(UI.hand(ctx, state.view(seat), ui, tr, CODEC))
    ctx, state = context(full, locale)
    end = full[-1]
    names = NAMES[locale]
    standings = [
        LedgerLine(100 + seat, names[seat], end["net"][seat] + bonus, 3, won)
        for seat, (bonus, won) in enumerate([(4, 0), (23, 2), (-27, 1)])
    ]
    rated = [Rated(names[seat], r, c) for seat, (r, c) in enumerate([(-4, -4), (13, 13), (7, -2)])]
    shown = Standings(tuple(standings), tuple(rated))
    return show(UI.match_result(ctx, end, end.get("winner"), shown, 1, tr, CODEC))


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
    *TABLES,
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
    *DEALS,
    "pulka_result",
    "lobby_seating",
    "lobby_full",
    "lobby_options",
    "lobby_computers",  # §4.2 🤖: a level per button, ✖️ per computer seated
    "lobby_computers_full",  # no free seat: only the ✖️
]


@pytest.mark.parametrize("locale", ["ru", "en"])
@pytest.mark.parametrize("name", SCREENS)
def test_5_screens_match_golden_text(name: str, locale: str) -> None:
    assert_golden(name, locale, screen(name, locale))


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


@pytest.mark.parametrize(
    ("locale", "reason", "head"),
    [
        ("ru", "zero", "🏁 <b>Пулька 1</b> — победитель: Борис (счёт дошёл до нуля)"),
        ("en", "zero", "🏁 <b>Pulka 1</b> — winner: Boris (count reached zero)"),
        (
            "ru",
            "instant",
            "🏁 <b>Пулька 1</b> — победитель: Борис (мгновенная победа при раздаче)",
        ),
        ("en", "instant", "🏁 <b>Pulka 1</b> — winner: Boris (an instant win at the deal)"),
        ("ru", "abandoned", "🏁 <b>Пулька 1</b> — остановлена, без расчёта"),
        ("en", "abandoned", "🏁 <b>Pulka 1</b> — stopped, nothing paid"),
    ],
)
def test_5_5_pulka_heads_need_neither_gender_nor_case(locale: str, reason: str, head: str) -> None:
    """The winner's name stands alone after a colon, in every way a pulka ends, and
    the head says he won."""
    full = record()
    ctx, _ = context(full, locale)
    winner = None if reason == "abandoned" else 1
    end: Line = {"t": "end", "reason": reason, "net": [0, 0, 0]}  # RECORD.md §R5.7
    if winner is not None:  # §R6.4: the settled end line, whole
        end = {
            "t": "end",
            "reason": reason,
            "winner": winner,
            "deals": 1,
            "counts": [5, 0, 5],
            "pulka": [0, 0, 0],
            "side": [0, 0, 0],
            "net": [0, 0, 0],
        }
    text = UI.match_result(ctx, end, winner, Standings(), 1, CATALOGUES.tr(locale), CODEC).text
    assert text.split("\n")[0] == head
