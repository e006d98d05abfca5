"""RULES.md §4, PRODUCT.md §14, §6.3: over seeded random Кончинка games, the group's screens
never name a card of a hand or the stock, a hand names only its own hidden cards, and every legal
move of the seat to act is reachable by pressing the hand's buttons (nothing illegal is Apply).
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from bot.callbacks import PressCodec
from bot.i18n import Catalogues, Translator
from bot.presses.families import FAMILY_PRESSES
from bot.presses.meaning import Apply, Deny, HandUI, SetUI
from bot.render.cards import card_name
from bot.render.games.konchinka.screen import KONCHINKA_UI
from bot.render.table_context import TableContext
from bot.rendered import Rendered
from bot.runtime.scoreboard import Standings
from engine.cards import Card
from engine.games import new_game
from engine.players import random_action

ROOT = Path(__file__).resolve().parents[2]
CATALOGUES = Catalogues.load(ROOT / "locales")
TRANSLATORS = [CATALOGUES.tr("ru"), CATALOGUES.tr("en")]
CODEC = PressCodec.from_token("123456:TEST-token")
UI: Any = KONCHINKA_UI  # the states are typed State: their views are generic
PRESSES: Any = FAMILY_PRESSES["konchinka"]


def text_of(rendered: Rendered | str) -> str:
    if isinstance(rendered, str):
        return rendered
    rows = rendered.markup.inline_keyboard if rendered.markup else []
    return "\n".join([rendered.text, *(b.text for row in rows for b in row)])


def hides(text: str, hidden: set[Card], tr: Translator) -> list[str]:
    return sorted(str(c) for c in hidden if card_name(c, tr.locale) in text)


def reachable(view: Any, ctx: TableContext, tr: Translator) -> set[object]:
    """Every Apply reachable by pressing buttons, from the plain hand message (depth 2)."""
    found: set[object] = set()
    todo = [HandUI()]
    seen: set[HandUI] = set()
    while todo:
        ui = todo.pop()
        if ui in seen:
            continue
        seen.add(ui)
        rendered = UI.hand(ctx, view, ui, tr, CODEC)
        assert rendered.markup is not None
        rows = rendered.markup.inline_keyboard
        assert len(rows) <= 100 and all(len(r) <= 8 for r in rows)
        for row in rows:
            for b in row:
                if b.disabled:  # an unplayable card: a button that does nothing (no press)
                    assert b.callback_data is None
                    continue
                assert b.callback_data is not None and len(b.callback_data.encode()) <= 64
                press = CODEC.parse(b.callback_data)
                assert press is not None
                meaning = PRESSES.interpret(view, press.act, press.arg, ui)
                if isinstance(meaning, Apply):
                    assert meaning.action in view.legal, meaning
                    found.add(meaning.action)
                elif isinstance(meaning, SetUI):
                    todo.append(meaning.ui)
                else:
                    assert isinstance(meaning, Deny)
    return found


@pytest.mark.parametrize("seed", range(6))
def test_konchinka_privacy_and_presses(seed: int) -> None:
    players = 2 + seed % 3
    options = {"target": 5, "court_values": seed % 2 == 1}
    state = new_game("konchinka", players, seed, options)
    rng = random.Random(seed)
    names = tuple(f"P{i}" for i in range(players))
    for step in range(400):
        ctx = TableContext(7, "konchinka", "Club", names, 1, step, "mushka_test_bot", options)
        places = state.places()
        secret = {c for p, cs in places.items() if p.startswith("hand") or p == "stock" for c in cs}
        public = state.view(None)
        for tr in TRANSLATORS[step % 2 : step % 2 + 1]:
            assert not hides(text_of(UI.table(ctx, public, tr)), secret, tr)
            for seat in range(players):
                mine = state.view(seat)
                own = set(places.get(f"hand{seat}", ()))
                text = text_of(UI.hand(ctx, mine, HandUI(), tr, CODEC))
                assert not hides(text, secret - own, tr)
            if state.to_act is not None:
                view = state.view(state.to_act)
                assert reachable(view, ctx, tr) == set(view.legal)
        if state.is_over or state.to_act is None:
            return
        seat = state.to_act
        action = random_action(state.view(seat).legal, rng)
        lines = state.apply(seat, action)
        ended_secret = secret - {action.card}  # the played card is face up; the next deal's
        # hands may hold cards of this deal's hauls, so the deal's screens are checked against it
        events = [{k: v for k, v in ln.items() if k != "deck"} for ln in lines]
        after = state.places()
        after_secret = {
            c for p, cs in after.items() if p.startswith("hand") or p == "stock" for c in cs
        }
        tr = TRANSLATORS[step % 2]
        if any(ln.get("t") == "deal_end" for ln in events):
            assert not hides(text_of(UI.ended_table(ctx, public, events, tr)), ended_secret, tr)
            result = UI.deal_result(ctx, events, state.view(None), tr)
            assert not hides(result, ended_secret, tr)
        end = next((ln for ln in events if ln.get("t") == "end"), None)
        if end is not None:
            shown = UI.match_result(ctx, end, end.get("winner"), Standings(), 1, tr, CODEC)
            assert not hides(text_of(shown), after_secret, tr)
