"""PRODUCT.md §6.3 reused for RULES.md's discard after a deep deal-out (Шутиха): the engine may
list thousands of ``discard`` actions; the hand shows one button per card, marks, confirms."""

from __future__ import annotations

import random
from pathlib import Path

from bot.callbacks import PressCodec
from bot.i18n import Catalogues
from bot.presses.families import FAMILY_PRESSES
from bot.presses.meaning import Apply, Deny, HandUI, SetUI
from bot.render.games.trick.screen import TRICK_UI
from bot.render.table_context import TableContext
from engine.core import State
from engine.games import new_game
from engine.players import policy_for
from engine.trick.view import TrickView

ROOT = Path(__file__).resolve().parents[2]
CODEC = PressCodec.from_token("123456:TEST-token")
PRESSES = FAMILY_PRESSES["trick"]
UI = TRICK_UI


def big_discard() -> State:
    """The first seeded Шутиха game that reaches a discard with over 100 legal choices."""
    for seed in range(500):
        for players in (5, 4, 3):
            state = new_game("shutikha", players, seed, {"target": 5})
            rng = random.Random(seed)
            for _ in range(300):
                if state.is_over or state.to_act is None:
                    break
                view = state.view(state.to_act)
                if view.phase == "discard":
                    if len(view.legal) > 100:
                        return state
                    break
                state.apply(state.to_act, policy_for("trick")(view, rng))
    raise AssertionError("no big discard found")


def test_6_3_big_discard_is_marked_card_by_card_then_confirmed() -> None:
    state = big_discard()
    seat = state.to_act
    assert seat is not None
    view = state.view(seat)
    assert isinstance(view, TrickView)
    tr = Catalogues.load(ROOT / "locales").tr("en")
    ctx = TableContext(
        table_id=7,
        game="shutikha",
        chat_title="Club",
        names=tuple(f"P{i}" for i in range(len(view.hand_sizes))),
        match_no=1,
        moves=99,
        bot_username="mushka_test_bot",
    )
    rendered = UI.hand(ctx, view, HandUI(), tr, CODEC)
    assert rendered.markup is not None
    buttons = [b for row in rendered.markup.inline_keyboard for b in row]
    assert len(buttons) <= len(view.hand) + 2, "one button per card, not per combination"
    assert all(len((b.callback_data or "").encode()) <= 64 for b in buttons)
    assert all(row and len(row) <= 8 for row in rendered.markup.inline_keyboard)

    target = str(random.Random(1).choice(view.legal)).split()[1:]
    ui = HandUI()
    for card in target:  # mark the cards one tap at a time
        meaning = PRESSES.interpret(view, "m", card, ui)
        assert isinstance(meaning, SetUI), meaning
        ui = meaning.ui
    spare = next(str(c) for c in view.hand if str(c) not in target and str(c) != "QS")
    assert isinstance(PRESSES.interpret(view, "m", spare, ui), Deny)  # no more than needed
    assert isinstance(PRESSES.interpret(view, "m", "QS", ui), Deny)  # the shutikha stays
    rendered = UI.hand(ctx, view, ui, tr, CODEC)
    assert rendered.markup is not None
    confirm = [
        b
        for row in rendered.markup.inline_keyboard
        for b in row
        if b.callback_data and b.callback_data.split("~")[0].split(":")[4] == "q"
    ]
    assert len(confirm) == 1 and len((confirm[0].callback_data or "").encode()) <= 64
    press = CODEC.parse(confirm[0].callback_data or "")
    assert press is not None
    meaning = PRESSES.interpret(view, "q", press.arg, ui)
    assert isinstance(meaning, Apply)
    lines = state.apply(seat, meaning.action)
    assert sorted(lines[0]["a"].split()[1:]) == sorted(target)
