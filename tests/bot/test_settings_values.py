"""Settings values (PRODUCT.md §15, §19) as enums: stored as the words they always were, read
back as their members, named on the screens member by member, and held as members after a
press changes them."""

from __future__ import annotations

import json
from collections.abc import Callable
from enum import StrEnum

import pytest
from pydantic import BaseModel

from bot.app import running_bot
from bot.config import Settings
from bot.render.settings import CHAT_HANDS_WORDS, PINGS_WORDS, USER_HANDS_WORDS
from bot.storage.settings import (
    ChatHands,
    ChatSettings,
    Pings,
    UserHands,
    UserSettings,
    chat_settings,
    member,
    user_settings,
)
from tests.bot.helpers import fixed_seeds, watched
from tests.bot.test_e2e_hand_settings import GROUP_ROW, SHOWN, offered
from tests.bot.test_e2e_settings import open_settings, people, press_until, private_settings
from tests.fakeapi import FakeTelegram

# (the enum, the settings model, its field, how a stored text is read)
FIELDS = [
    (ChatHands, ChatSettings, "hands", chat_settings),
    (UserHands, UserSettings, "hands", user_settings),
    (Pings, UserSettings, "pings", user_settings),
]
# the words stored before the enums (no migration: they are the values, unchanged)
STORED = {ChatHands: {"auto", "group", "private"}, UserHands: {"group", "private"}}
STORED[Pings] = {"on", "reminders"}


@pytest.mark.parametrize(("kind", "model", "field", "read"), FIELDS)
def test_15_every_settings_value_is_stored_as_its_word_and_read_back_as_its_member(
    kind: type[StrEnum], model: type[BaseModel], field: str, read: Callable[[str], BaseModel]
) -> None:
    assert {value.value for value in kind} == STORED[kind]
    for value in kind:
        written = model.model_validate({field: value}).model_dump_json()
        assert json.loads(written)[field] == value.value  # the stored JSON has the plain word
        assert getattr(read(json.dumps({field: value.value})), field) is value
        assert member(kind, value.value) is value
    assert member(kind, "loud") is None  # a forged or older button's argument


def test_15_every_settings_value_has_its_words_on_the_screen() -> None:
    assert set(CHAT_HANDS_WORDS) == set(ChatHands)
    assert set(USER_HANDS_WORDS) == set(UserHands)
    assert set(PINGS_WORDS) == set(Pings)


async def test_15_a_pressed_setting_is_held_as_its_member(
    fake_telegram: FakeTelegram, settings: Settings
) -> None:
    fake = fake_telegram
    anna, _, _, group = people(fake)
    await anna.start_bot()
    async with watched(fake, running_bot(offered(settings), seeds=fixed_seeds())) as running:
        held = running.services.people
        message = await open_settings(fake, anna, group)
        await press_until(fake, anna, message, "🃏", GROUP_ROW.format(SHOWN["group"]))
        assert (await held.chat_settings(group.id)).hands is ChatHands.GROUP
        mine = await private_settings(fake, anna)
        await press_until(fake, anna, mine, "🔔", "Уведомления о ходе: только напоминания")
        await press_until(fake, anna, mine, "🃏", "Мои карты: всегда в личке")
        own = await held.user_settings(anna.id)
        assert own.pings is Pings.REMINDERS and own.hands is UserHands.PRIVATE
