"""What the group sees when a deal ends (PRODUCT.md §4.6, §4.7, §9): the old table message's
last state is the deal as it ended, then the deal result, then the next deal's table."""

from __future__ import annotations

import random
from pathlib import Path

from bot.app import RunningBot
from bot.i18n import Catalogues
from bot.render.cards import card_name
from bot.render.games.trick.screen import TRICK_UI
from bot.render.table_context import TableContext
from engine.core import Line
from engine.games import new_game
from engine.trick.view import TrickView
from tests.bot.helpers import db_rows, open_table, play_deal, table_message
from tests.databases import TestDatabase
from tests.fakeapi import FakeTelegram
from tests.fakeapi.model import SentMessage

CATALOGUES = Catalogues.load(Path(__file__).resolve().parents[2] / "locales")


def is_table(message: SentMessage) -> bool:
    return " · пулька " in message.history[0].text.splitlines()[0]


async def test_4_6_the_old_table_shows_the_deal_as_it_ended_then_result_then_new_table(
    fake_telegram: FakeTelegram, bot: RunningBot, database: TestDatabase
) -> None:
    fake = fake_telegram
    anna = fake.add_user(101, "Anna", language_code="ru")
    boris = fake.add_user(102, "Boris", language_code="ru")
    vera = fake.add_user(103, "Vera", language_code="ru")
    group = fake.add_group(-1001, "Пятница", admins=[101], members=[102, 103])
    players = [anna, boris, vera]
    await open_table(fake, group, players, options="target=15")
    first_table = table_message(group)
    assert first_table is not None
    await play_deal(fake, group, players, random.Random(8))
    await fake.settle(quiet=0.1)

    after = [m for m in group.messages if m.message_id >= first_table.message_id]
    kinds = ["table" if is_table(m) else m.text[:1] for m in after]
    assert kinds == ["table", "📋", "table"], [m.text[:40] for m in after]
    old, result, new = after

    # the last trick of deal 1: the last card of each seat that played (the others passed)
    tricks = next(ln for ln in result.text.splitlines() if ln.startswith("Взятки:"))
    playing = len(players) - tricks.count(" пас")
    logged = [a for (a,) in db_rows(database, "SELECT action FROM actions ORDER BY seq")]
    assert all(a.startswith("card ") for a in logged[-playing:]), logged[-6:]
    last_trick = [a.split()[1] for a in logged[-playing:]]

    # the old table: never showed deal 2; its last state is deal 1 with the last trick complete
    assert all("сдача 1" in v.text.splitlines()[0] for v in old.history)
    final = old.text
    assert old.reply_markup is None  # frozen: no buttons
    assert "Ход:" not in final
    last_line = next(ln for ln in final.splitlines() if ln.startswith("Прошлая взятка:"))
    for card in last_trick:
        assert card_name(card, "ru") in last_line, (last_line, last_trick)
    assert "Взятка 5" not in final  # no half-played trick
    assert "колода" not in final or "колода 32" in final  # the deck only as a count

    # the result, then the live table of deal 2 (one only), with its button
    assert result.text.startswith("📋 Сдача 1")
    assert "сдача 2" in new.text.splitlines()[0] and new.all_buttons
    assert table_message(group) is new
    assert [m for m in group.messages if "сдача 2" in m.history[0].text] == [new]


def test_4_6_a_deal_won_by_walkover_ends_with_every_declaration_shown() -> None:
    state = new_game("mushka", 3, 7, {"target": 15})
    before = state.view(None)
    lines: tuple[Line, ...] = ()
    while not any(ln.get("t") == "deal_end" for ln in lines):
        seat = state.to_act
        assert seat is not None
        before = state.view(None)
        lines = state.apply(seat, "pass")  # two passes: the third seat takes it
    ctx = TableContext(
        table_id=1,
        game="mushka",
        chat_title="Пятница",
        names=("Аня", "Борис", "Вера"),
        match_no=1,
        moves=2,
        bot_username="mushka_test_bot",
    )
    events = [{k: v for k, v in ln.items() if k != "deck"} for ln in lines]
    assert isinstance(before, TrickView)
    rendered = TRICK_UI.ended_table(ctx, before, events, CATALOGUES.tr("ru"))
    assert rendered.markup is None
    text = rendered.text
    assert "сдача 1" in text.splitlines()[0] and "Ход:" not in text and "…" not in text
    assert text.count(" пас") >= 2 and "без игры" in text, text
