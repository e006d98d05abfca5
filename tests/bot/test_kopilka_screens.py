"""PRODUCT.md §14, RULES.md §2: Копилка's screens never show a hidden card, and every legal
action is reachable by presses (and nothing else is ever sent to the engine).

Pure (no Telegram): seeded partias are played by the engine's random player, under both values
of ``hold_pass``, and every screen of ``bot.render.games.kopilka.screen.KOPILKA_UI`` is rendered at
every step, in ru and en. Where a card is comes from the engine's ``places()``:

* the group's screens (``table``, ``ended_table``, ``deal_result``, ``match_result``) never name a
  card in any hand or the stock (a lay-out says who took a card, never which); the trick in play
  and the cards of completed tricks (played face up, ``trick`` and ``out``) are public;
* a seat's hand never names a card of another hand or the stock, except a card that seat
  received from a lay-out this deal (RECORD.md ``take`` lines name the taker: it saw the card).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path

import pytest

from bot.callbacks import Kind, PressCodec
from bot.i18n import Catalogues, Translator
from bot.presses.families import FAMILY_PRESSES
from bot.presses.meaning import Apply, Deny, HandUI, SetUI
from bot.render.cards import card_name
from bot.render.games import game_ui
from bot.render.games.kopilka.screen import KOPILKA_UI
from bot.render.table_context import TableContext
from bot.rendered import Rendered
from bot.runtime.scoreboard import Standings
from engine.cards import Card
from engine.core import Line, Places, State
from engine.games import new_game
from engine.kopilka.view import KopilkaView
from engine.players import policy_for, random_action

ROOT = Path(__file__).resolve().parents[2]
CATALOGUES = Catalogues.load(ROOT / "locales")
TRANSLATORS = [CATALOGUES.tr("ru"), CATALOGUES.tr("en")]
CODEC = PressCodec.from_token("123456:TEST-token")
PRESSES = FAMILY_PRESSES["kopilka"]
UI = KOPILKA_UI
MAX_STEPS = 600  # a partia is at most 4 deals of 16 tricks; bounded either way


def context(moves: int, options: dict[str, object]) -> TableContext:
    return TableContext(
        table_id=7,
        game="kopilka",
        chat_title="Club",
        names=("P0", "P1", "P2", "P3"),
        match_no=1,
        moves=moves,
        bot_username="mushka_test_bot",
        options=options,
    )


def view_of(state: State, seat: int | None) -> KopilkaView:
    view = state.view(seat)
    assert isinstance(view, KopilkaView)
    return view


def text_of(rendered: Rendered | str) -> str:
    if isinstance(rendered, str):
        return rendered
    rows = rendered.markup.inline_keyboard if rendered.markup else []
    return "\n".join([rendered.text, *(b.text for row in rows for b in row)])


def hidden_from_group(places: Places) -> set[Card]:
    return {c for place, cards in places.items() if place not in ("trick", "out") for c in cards}


def hidden_from(places: Places, seat: int, received: set[Card]) -> set[Card]:
    hidden = {
        c
        for place, cards in places.items()
        if place == "stock" or (place.startswith("hand") and place != f"hand{seat}")
        for c in cards
    }
    return hidden - received


def received_this_deal(record: Sequence[Line], seat: int) -> set[Card]:
    start = max((i for i, ln in enumerate(record) if ln.get("t") == "deal"), default=0)
    return {
        Card.parse(ln["card"])
        for ln in record[start:]
        if ln.get("e") == "take" and ln["seat"] == seat
    }


def assert_hides(text: str, hidden: set[Card], tr: Translator, where: str) -> None:
    shown = sorted(str(c) for c in hidden if card_name(c, tr.locale) in text)
    assert not shown, f"{where} ({tr.locale}) shows {shown}:\n{text}"


def reachable(view: KopilkaView, ctx: TableContext) -> set[object]:
    """Every action the seat's hand message leads to by presses (SetUI applied as the runtime
    does); each Apply must be legal."""
    found: set[object] = set()
    seen: set[HandUI] = set()
    todo = [HandUI()]
    tr = TRANSLATORS[1]
    while todo:
        ui = todo.pop()
        if ui in seen:
            continue
        seen.add(ui)
        rendered = UI.hand(ctx, view, ui, tr, CODEC)
        rows = rendered.markup.inline_keyboard if rendered.markup else []
        assert len(rows) <= 100 and all(len(r) <= 8 for r in rows)
        assert sum(len(r) for r in rows) <= 100
        for button in (b for row in rows for b in row):
            if button.disabled:  # an unplayable card: a button that does nothing (no press)
                assert button.callback_data is None
                continue
            data = button.callback_data
            assert data is not None and len(data.encode()) <= 64
            press = CODEC.parse(data)
            assert press is not None and press.kind is Kind.HAND and press.seat == view.seat
            assert press.version == ctx.moves
            meaning = PRESSES.interpret(view, press.act, press.arg, ui)
            if isinstance(meaning, Apply):
                assert meaning.action in view.legal, (meaning, view.legal)
                found.add(meaning.action)
            elif isinstance(meaning, SetUI):
                todo.append(meaning.ui)
            else:
                assert isinstance(meaning, Deny) and meaning.reason, meaning
    return found


def play(seed: int, hold_pass: bool) -> None:
    options: dict[str, object] = {"hold_pass": hold_pass}
    state = new_game("kopilka", 4, seed, options)
    full = {**state.record()[0]["options"]}
    rng = random.Random(seed)
    policy = policy_for("kopilka")
    for step in range(MAX_STEPS):
        ctx = context(step, full)
        places = state.places()
        public = view_of(state, None)
        record = state.record()
        for tr in TRANSLATORS:
            assert_hides(text_of(UI.table(ctx, public, tr)), hidden_from_group(places), tr, "table")
            for seat in range(4):
                mine = view_of(state, seat)
                text = text_of(UI.hand(ctx, mine, HandUI(), tr, CODEC))
                hidden = hidden_from(places, seat, received_this_deal(record, seat))
                assert_hides(text, hidden, tr, f"hand of seat {seat}")
                missing = [c for c in mine.hand if card_name(c, tr.locale) not in text]
                assert not missing or state.to_act is None, (missing, text)
        if state.is_over or state.to_act is None:
            return
        seat = state.to_act
        mine = view_of(state, seat)
        assert reachable(mine, ctx) == set(mine.legal), mine.legal
        # a press on another seat's turn is never an engine action that seat may not take
        for other in range(4):
            if other != seat:
                theirs = view_of(state, other)
                for act, arg in (("n", None), ("b", "1"), ("b", "2")):
                    assert not isinstance(PRESSES.interpret(theirs, act, arg, HandUI()), Apply)
        action = policy(mine, rng) if rng.random() < 0.5 else random_action(mine.legal, rng)
        lines = state.apply(seat, action)
        events = [{k: v for k, v in ln.items() if k != "deck"} for ln in lines]
        after = state.places()
        played = {Card.parse(c) for ln in events if ln.get("e") == "trick" for _, c in ln["plays"]}
        before = hidden_from_group(places) - played  # the last trick was played face up
        for tr in TRANSLATORS:
            if any(ln.get("t") == "deal_end" for ln in events):
                text = text_of(UI.ended_table(ctx, public, events, tr))
                assert_hides(text, before, tr, "ended table")
                result = UI.deal_result(ctx, events, view_of(state, None), tr)
                assert result.startswith("📋")
                assert_hides(result, before | hidden_from_group(after), tr, "deal result")
            end = next((ln for ln in events if ln.get("t") == "end"), None)
            if end is not None:
                winner = state.result.winner if state.result else None
                text = text_of(UI.match_result(ctx, end, winner, Standings(), 1, tr, CODEC))
                assert text.startswith("🏁")
                assert_hides(text, hidden_from_group(after), tr, "partia result")
    pytest.fail("the partia did not end")


def test_kopilka_is_seated() -> None:
    assert game_ui("kopilka") is KOPILKA_UI


@pytest.mark.parametrize("hold_pass", [False, True])
@pytest.mark.parametrize("seed", range(6))
def test_kopilka_screens_hide_cards_and_presses_reach_every_action(
    seed: int, hold_pass: bool
) -> None:
    play(seed, hold_pass)
