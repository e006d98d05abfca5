"""What the group and one player see through a whole game of Копилка, Лентюрлю and
Кончинка, written down as goldens (``tests/golden/render/{ru,en}/*_whole_game.txt``).

Each golden follows one record of ``tests/golden/records`` action by action: the group's table
message after every action that changes it (with the action that changed it), each deal's result
and the table as the deal ended, the game's result, and the first seat's hand at its key
moments (the first hand, each of its turns in the first deal, its last hand). Read them as a
player would: every move told, the right totals, who won. ``UPDATE_GOLDEN=1`` rewrites them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.callbacks import PressCodec
from bot.i18n import Catalogues
from bot.presses.meaning import HandUI
from bot.render.games import game_ui
from bot.runtime.scoreboard import LedgerLine, Standings
from engine.core import Line
from engine.record import read_records
from tests.bot.golden import assert_golden, last_events, prefixes, screen_context, show

ROOT = Path(__file__).resolve().parents[2]
RECORDS = ROOT / "tests" / "golden" / "records"
CATALOGUES = Catalogues.load(ROOT / "locales")
CODEC = PressCodec.from_token("123456:TEST-token")
NAMES = {
    "ru": ("Аня", "Борис", "Вера", "Глеб", "Дима", "Ева"),
    "en": ("Anya", "Boris", "Vera", "Gleb", "Dima", "Eva"),
}
GAMES = {  # golden name → (game, record file)
    "kopilka_whole_game": ("kopilka", "kopilka-4p.jsonl"),
    "lenturlu_whole_game": ("lenturlu", "lenturlu-3p-king.jsonl"),
    "konchinka_whole_game": ("konchinka", "konchinka-2p-target5.jsonl"),
}
RULE = "─" * 24


def trace(name: str, locale: str) -> str:
    game, file = GAMES[name]
    ui = game_ui(game)
    assert ui is not None
    tr = CATALOGUES.tr(locale)
    players = read_records(RECORDS / file)[0][0]["players"]
    names = NAMES[locale][:players]
    out: list[str] = []
    shown = ""
    before: Any = None
    hand_turns = 0
    deals_ended = 0
    last: tuple[list[Line], Any] | None = None
    for lines, state in prefixes(RECORDS / file, 0):
        ctx = screen_context(game, lines, names, locale)
        acts = [ln for ln in lines if ln.get("t") == "act"]
        said = f"{RULE} {len(acts)}: {names[acts[-1]['seat']]} {acts[-1]['a']}" if acts else RULE
        events = last_events(lines) if acts else []
        if any(ln.get("t") == "deal_end" for ln in events) and before is not None:
            deals_ended += 1
            out += [
                f"{said} · the table as the deal ended",
                show(ui.ended_table(ctx, before, events, tr)),
            ]
            out += [
                f"{RULE} the deal's result",
                show(ui.deal_result(ctx, events, state.view(None), tr)),
            ]
        if state.to_act is not None:
            table = show(ui.table(ctx, state.view(None), tr))
            if table != shown:
                out += [f"{said} · the table", table]
                shown = table
            if state.to_act == 0 and deals_ended == 0 and hand_turns < 4:
                hand_turns += 1
                hand = ui.hand(ctx, state.view(0), HandUI(), tr, CODEC)
                out += [f"{RULE} {names[0]}'s hand, her turn", show(hand)]
        before = state.view(None)
        last = (lines, state)
    assert last is not None
    lines, state = last
    ctx = screen_context(game, lines, names, locale)
    result = state.result
    assert result is not None
    standings = [
        LedgerLine(100 + s, names[s], result.net[s], 1, int(result.winner == s))
        for s in range(players)
    ]
    out += [
        f"{RULE} the game's result",
        show(
            ui.match_result(
                ctx, lines[-1], result.winner, Standings(tuple(standings)), 1, tr, CODEC
            )
        ),
    ]
    out += [
        f"{RULE} {names[0]}'s last hand",
        show(ui.hand(ctx, state.view(0), HandUI(), tr, CODEC)),
    ]
    return "\n".join(out)


@pytest.mark.parametrize("locale", ["ru", "en"])
@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_whole_game_as_its_players_see_it(name: str, locale: str) -> None:
    text = trace(name, locale)
    assert_golden(name, locale, text)
