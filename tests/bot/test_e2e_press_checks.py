"""Presses from outside, as a Telegram client can send them: any data, on any message, by anyone
(PRODUCT.md §7.2 steps 1–6, §16). Each is answered and changes nothing."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from bot.app import RunningBot
from tests.bot.helpers import db_rows, hand_message, lobby_message, open_table, to_act
from tests.fakeapi import FakeTelegram
from tests.fakeapi.model import SentMessage
from tests.fakeapi.users import SimGroup, SimUser

UNKNOWN = ("Кнопка не распознана.", "Unknown button.")


def snapshot(fake: FakeTelegram) -> list[tuple[int, int, int, bool]]:
    """Every message of every chat with its number of versions: any send or edit changes it."""
    return [
        (chat.id, m.message_id, len(m.history), m.deleted)
        for chat in fake.chats.values()
        for m in chat.messages.values()
    ]


def table_rows(db_path: Path) -> list[tuple[object, ...]]:
    return db_rows(
        db_path,
        "SELECT t.id, t.status, t.moves, t.generation, "
        "(SELECT group_concat(user_id) FROM seats s WHERE s.table_id = t.id), "
        "(SELECT group_concat(marks || '/' || mode) FROM hands h WHERE h.table_id = t.id), "
        "(SELECT COUNT(*) FROM actions a WHERE a.table_id = t.id) FROM tables t ORDER BY t.id",
    )


async def three(fake: FakeTelegram) -> tuple[SimGroup, list[SimUser]]:
    anna = fake.add_user(101, "Anna", language_code="ru", username="anna")
    boris = fake.add_user(102, "Boris", language_code="ru")
    vera = fake.add_user(103, "Vera", language_code="en")
    group = fake.add_group(-1001, "Пятница", admins=[101], members=[102, 103])
    players = [anna, boris, vera]
    await open_table(fake, group, players)
    return group, players


def junk_for(genuine: str) -> list[str]:
    """Callback data no button of the bot carries: each kind a client can send (§7.2 steps 1–2)."""
    body, _, tag = genuine.partition("~")
    return [
        "",
        "Кнопка",
        "h:1:0:0:p:QS~ЖЖЖЖЖЖ",  # well-formed, a non-ASCII tag
        f"{body}~{tag[:-1]}é",  # a genuine body, the tag's last character non-ASCII
        f"{body}~ä",
        f"{body.replace(':', '：', 1)}~{tag}",  # a full-width colon
        "🂠" * 16,
        "h:" + "1" * 100,  # over-long
        genuine + "0" * 60,
        bytes(range(1, 256)).decode("latin-1")[:60],  # random bytes as text
        b"\xff\xfe\x00h:1".decode("utf-8", "surrogateescape"),  # lone surrogates
        f"{body}~AAAAAA",  # valid-looking, a wrong tag
        f"{body}~{tag}~{tag}",
        genuine.upper(),
    ]


async def test_7_2_any_callback_data_is_answered_and_changes_nothing(
    fake_telegram: FakeTelegram,
    bot: RunningBot,
    db_path: Path,
    caplog: pytest.LogCaptureFixture,
) -> None:
    fake = fake_telegram
    group, players = await three(fake)
    actor = to_act(group, players)
    assert actor is not None
    hand = hand_message(actor)
    assert hand is not None
    genuine = hand.all_buttons[0].callback_data
    assert genuine is not None
    lobby = group.messages[0]
    await fake.settle(quiet=0.05)
    rows, shown = table_rows(db_path), snapshot(fake)
    caplog.set_level(logging.WARNING)
    targets: list[tuple[SimUser, SentMessage]] = [(actor, hand), (players[1], lobby)]
    for user, message in targets:
        for data in junk_for(genuine):
            answer = await user.press_raw(message, data=data)
            assert answer.text in UNKNOWN, (data, answer)
            assert not answer.show_alert and answer.url is None
    await fake.settle(quiet=0.05)
    assert table_rows(db_path) == rows
    assert snapshot(fake) == shown
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert not errors, [r.getMessage() for r in errors]
    assert lobby_message(group) is None  # the lobby is still the started record
