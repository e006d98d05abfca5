"""Where hands go (PRODUCT.md §19, §15) through the fake Bot API: a group admin cycles the
group's «🃏 Карты» row auto → in the group → in private → auto and the stored settings follow;
anyone else's press is refused and changes nothing; a person switches his own «🃏 Мои карты» to
«always in private» in private /settings; settings stored before the field existed read as the
defaults; :func:`hands_in_group` for every combination; every button fits 64 bytes. The rows
are offered only where the operator left ``BOT_HANDS_IN_GROUP`` on (the default): off, neither
screen has them and a press of one changes nothing."""

from __future__ import annotations

import itertools
import json
import logging

import pytest

from bot.app import running_bot
from bot.callbacks import Kind, Press, PressCodec
from bot.config import Settings
from bot.i18n import Catalogues
from bot.render.settings import (
    CHAT_HANDS_WORDS,
    USER_HANDS_WORDS,
    group_settings,
    user_settings,
)
from bot.storage.settings import (
    ChatHands,
    ChatSettings,
    UserHands,
    UserSettings,
    chat_settings,
    hands_in_group,
)
from bot.storage.settings import user_settings as stored_user_settings
from tests.bot.helpers import db_execute, db_rows, fixed_seeds, watched
from tests.bot.test_e2e_settings import (
    ADMINS_ONLY,
    chat_row,
    open_settings,
    people,
    press_until,
    private_settings,
)
from tests.databases import TestDatabase
from tests.fakeapi import FakeTelegram

UNKNOWN = "Кнопка не распознана."
GROUP_ROW = "Карты: {}"
SHOWN = {"auto": "авто", "group": "в группе (видны только вам)", "private": "в личке"}
CHAT_HANDS, USER_HANDS = tuple(ChatHands), tuple(UserHands)  # the order the buttons step in


def offered(settings: Settings) -> Settings:
    """The bot's settings with where hands go offered in /settings (BOT_HANDS_IN_GROUP)."""
    return settings.model_copy(update={"hands_in_group": True})


def stored_hands(database: TestDatabase) -> object:
    """The stored chats.settings' "hands" (the defaults are not written: "auto" when missing)."""
    text = chat_row(database)[1]
    return json.loads(str(text)).get("hands", "auto") if text else "auto"


def user_row(database: TestDatabase, user_id: int) -> object:
    rows = db_rows(database, "SELECT settings FROM users WHERE id = ?", user_id)
    return rows[0][0] if rows else None


async def test_19_an_admin_cycles_the_groups_hands_and_others_change_nothing(
    fake_telegram: FakeTelegram, settings: Settings, database: TestDatabase
) -> None:
    fake = fake_telegram
    anna, boris, _, group = people(fake)
    await anna.start_bot()
    codec = PressCodec.from_token(fake.token)
    async with watched(fake, running_bot(offered(settings), seeds=fixed_seeds())):
        message = await open_settings(fake, anna, group)
        assert "Карты: авто" in message.text
        assert "Карты «авто»: в группе, если бот здесь админ, иначе в личке." in message.text
        for value in ("group", "private"):  # auto → in the group → in private
            await press_until(fake, anna, message, "🃏", GROUP_ROW.format(SHOWN[value]))
            assert stored_hands(database) == value
        assert "🃏 Карты: в личке" in message.describe_buttons()

        # anyone else: refused, nothing changes
        before, shown = chat_row(database), message.text
        await boris.send(group, "/settings")
        await fake.wait_until(lambda: ADMINS_ONLY in group.last.text, timeout=10)
        answer = await boris.press(message, "🃏")
        assert answer.text == ADMINS_ONLY
        # a value the setting doesn't take, and a real one on a message that isn't /settings
        forged = codec.pack(Press(Kind.GROUP, 0, None, 0, "h", "loud"))
        assert (await anna.press_raw(message, data=forged)).text == UNKNOWN
        real = codec.pack(Press(Kind.GROUP, 0, None, 0, "h", "group"))
        assert (await anna.press_raw(group.last, data=real)).text == "Эта кнопка устарела."
        await fake.settle(quiet=0.05)
        assert chat_row(database) == before and message.text == shown
        assert stored_hands(database) == "private"

        await press_until(fake, anna, message, "🃏", "Карты: авто")  # … → auto again
        assert stored_hands(database) == "auto" and "hands" not in str(chat_row(database)[1])
        await press_until(fake, anna, message, "🃏", "Карты: в группе")
        await press_until(fake, anna, message, "🌐", "Hands: in the group (only you see them)")

    # a restart keeps it
    async with watched(fake, running_bot(offered(settings), seeds=fixed_seeds())):
        message = await open_settings(fake, anna, group)
        assert "Hands: in the group (only you see them)" in message.text
        assert stored_hands(database) == "group"


async def test_19_a_person_switches_his_own_hands_to_always_in_private(
    fake_telegram: FakeTelegram, settings: Settings, database: TestDatabase
) -> None:
    fake = fake_telegram
    anna, _, _, _ = people(fake)
    await anna.start_bot()
    codec = PressCodec.from_token(fake.token)
    async with watched(fake, running_bot(offered(settings), seeds=fixed_seeds())):
        message = await private_settings(fake, anna)
        assert "Мои карты: как решит группа" in message.text
        await press_until(fake, anna, message, "🃏", "Мои карты: всегда в личке")
        assert json.loads(str(user_row(database, 101)))["hands"] == "private"
        assert "Всегда в личке: карты приходят сюда" in message.text
        # a value the setting doesn't take: refused, nothing changes
        before = user_row(database, 101)
        forged = codec.pack(Press(Kind.PRIVATE, 0, None, 0, "h", "auto"))  # a group's value
        assert (await anna.press_raw(message, data=forged)).text == UNKNOWN
        await fake.settle(quiet=0.05)
        assert user_row(database, 101) == before and "всегда в личке" in message.text
    async with watched(fake, running_bot(offered(settings), seeds=fixed_seeds())):
        message = await private_settings(fake, anna)
        assert "Мои карты: всегда в личке" in message.text
        await press_until(fake, anna, message, "🃏", "Мои карты: как решит группа")
        assert "hands" not in str(user_row(database, 101) or "")  # the default: not written


async def test_19_settings_stored_before_the_field_read_as_the_defaults(
    fake_telegram: FakeTelegram, settings: Settings, database: TestDatabase
) -> None:
    fake = fake_telegram
    anna, _, _, group = people(fake)
    await anna.start_bot()
    async with watched(fake, running_bot(offered(settings), seeds=fixed_seeds())):
        await open_settings(fake, anna, group)
        await private_settings(fake, anna)
    # what an earlier version wrote: every field it knew, no "hands"
    db_execute(
        database,
        "UPDATE chats SET settings = ? WHERE id = -1001",
        '{"turn_timeout_s": 60, "computers": false, "options": {}}',
    )
    db_execute(
        database, "UPDATE users SET settings = ? WHERE id = 101", '{"pings": "on", "words": true}'
    )
    async with watched(fake, running_bot(offered(settings), seeds=fixed_seeds())):
        message = await open_settings(fake, anna, group)
        assert "Время на ход: 60 с" in message.text and "Карты: авто" in message.text
        assert "Компьютерные игроки: нет" in message.text
        mine = await private_settings(fake, anna)
        assert "Карты словами: вкл." in mine.text and "Мои карты: как решит группа" in mine.text


def test_19_stored_json_without_hands_or_with_a_bad_one(caplog: pytest.LogCaptureFixture) -> None:
    old_chat = chat_settings('{"turn_timeout_s": 60, "computers": false}', -1)
    assert old_chat.hands == "auto" and old_chat.turn_timeout_s == 60 and not old_chat.computers
    old_user = stored_user_settings('{"pings": "reminders", "words": true}', 7)
    assert old_user.hands == "group" and old_user.pings == "reminders" and old_user.words
    assert chat_settings('{"hands": "group"}').hands == "group"
    assert stored_user_settings('{"hands": "private"}').hands == "private"
    with caplog.at_level(logging.WARNING):
        assert chat_settings('{"hands": "loud", "computers": false}', -1) == ChatSettings()
        assert stored_user_settings('{"hands": "auto", "words": true}', 7) == UserSettings()
    assert sum("malformed stored settings" in r.getMessage() for r in caplog.records) == 2
    # what the bot writes reads back the same
    chat = ChatSettings(hands=ChatHands.PRIVATE, computers=False)
    assert chat_settings(chat.model_dump_json()) == chat


@pytest.mark.parametrize(
    ("chat", "admin", "user"),
    list(itertools.product(CHAT_HANDS, (False, True), (None, *USER_HANDS))),
)
def test_19_hands_in_group_for_every_combination(chat: str, admin: bool, user: str | None) -> None:
    chat_s = ChatSettings.model_validate({"hands": chat})
    user_s = None if user is None else UserSettings.model_validate({"hands": user})
    expected = {"auto": admin, "group": True, "private": False}[chat] and user != "private"
    assert hands_in_group(chat_s, admin, user_s) is expected
    if user == "group":  # «as the group says» is the table's own answer
        assert hands_in_group(chat_s, admin, user_s) is hands_in_group(chat_s, admin)


def test_19_hands_in_group_table() -> None:
    """The same, spelled out: the table's answer, then a player's «always in private»."""
    auto, group, private = (ChatSettings(hands=h) for h in CHAT_HANDS)
    assert ChatSettings().hands == "auto" and UserSettings().hands == "group"
    assert hands_in_group(auto, True) and not hands_in_group(auto, False)
    assert hands_in_group(group, True) and hands_in_group(group, False)
    assert not hands_in_group(private, True) and not hands_in_group(private, False)
    mine = UserSettings(hands=UserHands.PRIVATE)
    assert not any(hands_in_group(c, a, mine) for c in (auto, group) for a in (True, False))
    assert hands_in_group(group, False, UserSettings())


def test_7_1_every_hands_button_fits_64_bytes_and_is_translated(settings: Settings) -> None:
    catalogues = Catalogues.load(settings.locales)
    codec = PressCodec.from_token(settings.token.get_secret_value())
    for locale in ("ru", "en"):
        tr = catalogues.tr(locale)
        assert all(tr.has(w) for w in (*CHAT_HANDS_WORDS.values(), *USER_HANDS_WORDS.values()))
        for value in CHAT_HANDS:  # pack raises over 64 bytes
            chat = ChatSettings.model_validate({"hands": value})
            shown = group_settings("x" * 128, locale, chat, 300, tr, codec, hands=True)
            assert shown.markup is not None
            data = [b.callback_data or "" for row in shown.markup.inline_keyboard for b in row]
            (hands,) = [d for d in data if d.startswith("g:0:-:0:h:")]
            following = CHAT_HANDS[(CHAT_HANDS.index(value) + 1) % len(CHAT_HANDS)]
            assert hands.split("~")[0] == f"g:0:-:0:h:{following}"
            assert all(len(d.encode()) <= 64 for d in data)
        for own in USER_HANDS:
            user = UserSettings.model_validate({"hands": own})
            mine = user_settings(locale, user, tr, codec, hands=True)
            assert mine.markup is not None
            data = [b.callback_data or "" for row in mine.markup.inline_keyboard for b in row]
            (hands,) = [d for d in data if d.startswith("s:0:-:0:h:")]
            other = next(h for h in USER_HANDS if h != own)
            assert hands.split("~")[0] == f"s:0:-:0:h:{other}"
            assert all(len(d.encode()) <= 64 for d in data)


async def test_19_without_bot_hands_in_group_neither_screen_offers_where_hands_go(
    fake_telegram: FakeTelegram, settings: Settings, database: TestDatabase
) -> None:
    fake = fake_telegram
    anna, _, _, group = people(fake)
    await anna.start_bot()
    codec = PressCodec.from_token(fake.token)
    off = settings.model_copy(update={"hands_in_group": False})
    async with watched(fake, running_bot(off, seeds=fixed_seeds())):
        message = await open_settings(fake, anna, group)
        assert "🃏" not in message.text and not [b for b in message.all_buttons if "🃏" in b.text]
        forged = codec.pack(Press(Kind.GROUP, 0, None, 0, "h", "group"))
        answer = await anna.press_raw(message, data=forged)
        assert answer.text == UNKNOWN
        mine = await private_settings(fake, anna)
        assert "🃏" not in mine.text and not [b for b in mine.all_buttons if "🃏" in b.text]
        forged = codec.pack(Press(Kind.PRIVATE, 0, None, 0, "h", "private"))
        answer = await anna.press_raw(mine, data=forged)
        assert answer.text == UNKNOWN
    assert stored_hands(database) == "auto"
    assert "hands" not in str(user_row(database, anna.id) or "")
