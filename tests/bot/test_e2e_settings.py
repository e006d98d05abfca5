"""/settings through the fake Bot API (PRODUCT.md §15, §12, §13): a group admin cycles every
chat setting and the next table uses them (its turn time, its options, no computers); others
are refused and nothing changes; a demoted admin is refused once the cache's time is over; the
language applies at once; a person's own settings: cards in words change the hand's text and
not its buttons, "only reminders" drops the ping of each turn and keeps the reminder; every
setting survives a restart."""

from __future__ import annotations

import json
import logging
import time

import pytest

from bot.app import running_bot
from bot.callbacks import Kind, Press, PressCodec
from bot.config import Settings
from bot.i18n import Catalogues
from bot.render.cards import card_words, with_card_words
from bot.render.settings import group_settings
from bot.runtime.lobby_options import default_options
from bot.storage.settings import ChatSettings, chat_settings, user_settings
from engine.cards import Card
from engine.games import GAMES
from tests.bot.helpers import (
    db_rows,
    fixed_seeds,
    hand_message,
    lobby_message,
    open_table,
    table_message,
    to_act,
    watched,
)
from tests.databases import TestDatabase
from tests.fakeapi import FakeTelegram
from tests.fakeapi.model import SentMessage
from tests.fakeapi.users import SimGroup, SimUser

ADMINS_ONLY = "Настройки группы меняют админы."
OFF = "В этом чате компьютерные игроки выключены."
TIMEOUT = 5.0  # the operator's turn time in the pings test: the reminder comes after ⅔ of it


class Clock:
    """A monotonic clock the test moves on (the membership cache's TTL)."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def people(fake: FakeTelegram) -> tuple[SimUser, SimUser, SimUser, SimGroup]:
    anna = fake.add_user(101, "Anna", language_code="ru")
    boris = fake.add_user(102, "Boris", language_code="ru")
    vera = fake.add_user(103, "Vera", language_code="ru")
    group = fake.add_group(-1001, "Пятница", admins=[101], members=[102, 103])
    return anna, boris, vera, group


def settings_message(chat: SimGroup | SimUser, kind: str = "g") -> SentMessage | None:
    """The newest message with settings buttons (kind ``g`` in a group, ``s`` in private)."""
    for message in reversed(chat.visible):
        if any((b.callback_data or "").startswith(f"{kind}:") for b in message.all_buttons):
            return message
    return None


def my_settings(user: SimUser, group: SimGroup) -> SentMessage | None:
    """The newest settings pane shown to ``user`` alone in ``group`` (the answer to his
    /settings where the bot is an administrator)."""
    for message in reversed(user.ephemeral(group)):
        if any((b.callback_data or "").startswith("g:") for b in message.all_buttons):
            return message
    return None


async def open_my_settings(fake: FakeTelegram, user: SimUser, group: SimGroup) -> SentMessage:
    """An admin's /settings where the bot is an administrator: the pane for him alone."""
    before = my_settings(user, group)
    await user.send(group, "/settings")
    await fake.wait_until(lambda: my_settings(user, group) not in (None, before), timeout=10)
    await fake.settle(quiet=0.05)
    message = my_settings(user, group)
    assert message is not None
    return message


async def open_settings(fake: FakeTelegram, user: SimUser, group: SimGroup) -> SentMessage:
    before = settings_message(group)
    await user.send(group, "/settings")
    await fake.wait_until(lambda: settings_message(group) not in (None, before), timeout=10)
    await fake.settle(quiet=0.05)
    message = settings_message(group)
    assert message is not None
    return message


async def press_until(
    fake: FakeTelegram, user: SimUser, message: SentMessage, button: str, text: str
) -> None:
    answer = await user.press(message, button)
    assert answer.text in (None, ""), answer.text
    await fake.wait_until(lambda: text in message.text, timeout=10)


def option_button(message: SentMessage, game: str, name: str) -> tuple[str, str]:
    """(callback data, the value it sets) of a game's option button on the settings message."""
    for b in message.all_buttons:
        arg = (b.callback_data or "").split("~")[0].split(":")[5:]
        if arg and arg[0].startswith(f"{game}.{name}=") and b.callback_data:
            return b.callback_data, arg[0].partition("=")[2]
    raise AssertionError(message.describe_buttons())


def chat_row(database: TestDatabase) -> tuple[object, ...]:
    return db_rows(database, "SELECT language, settings FROM chats WHERE id = -1001")[0]


async def test_15_admin_cycles_chat_settings_and_the_next_table_uses_them(
    fake_telegram: FakeTelegram, settings: Settings, database: TestDatabase
) -> None:
    fake = fake_telegram
    anna, boris, vera, group = people(fake)
    for user in (anna, boris, vera):
        await user.start_bot()
    codec = PressCodec.from_token(fake.token)
    async with watched(fake, running_bot(settings, seeds=fixed_seeds())):
        message = await open_settings(fake, anna, group)
        assert "Время на ход: 90 с" in message.text  # the operator's 90 s
        assert "Компьютерные игроки: да" in message.text
        for seconds in (180, 300):  # 90 → 180 → 300 s → 1 → 6 → 12 → 24 h → 30 s
            await press_until(fake, anna, message, "⏱", f"Время на ход: {seconds} с")
        for hours in (1, 6, 12, 24):  # long turns: a game that can last days
            await press_until(fake, anna, message, "⏱", f"Время на ход: {hours} ч")
        await press_until(fake, anna, message, "⏱", "Время на ход: 30 с")
        await press_until(fake, anna, message, "🤖", "Компьютерные игроки: нет")
        # a game's default options: the lobby's own cycle of values
        await press_until(fake, anna, message, "Мушка", "Параметры по умолчанию для игры Мушка")
        data, target = option_button(message, "mushka", "target")
        assert target != "25"  # RULES.md's 25 is shown; the button sets the next value
        await anna.press(message, data=data)
        await fake.wait_until(lambda: option_button(message, "mushka", "target")[1] != target, 10)
        await press_until(fake, anna, message, "↩️", "Время на ход: 30 с")
        stored = json.loads(str(chat_row(database)[1]))
        assert stored["turn_timeout_s"] == 30 and stored["computers"] is False
        assert list(stored["options"]) == ["mushka"]
        assert stored["options"]["mushka"]["target"] == int(target)

        # others: /settings and every button refused, nothing changes
        before, shown = chat_row(database), message.text
        await boris.send(group, "/settings")
        await fake.wait_until(lambda: ADMINS_ONLY in group.last.text, timeout=10)
        for button in message.all_buttons:
            answer = await boris.press(message, data=button.callback_data)
            assert answer.text == ADMINS_ONLY, (button.text, answer.text)
        # forged: a value no setting takes, a message that is not the settings message
        forged = codec.pack(Press(Kind.GROUP, 0, None, 0, "t", "45"))
        assert (await anna.press_raw(message, data=forged)).text == "Кнопка не распознана."
        real = codec.pack(Press(Kind.GROUP, 0, None, 0, "t", "60"))
        assert (await anna.press_raw(group.last, data=real)).text == "Эта кнопка устарела."
        await fake.settle(quiet=0.05)
        assert chat_row(database) == before and message.text == shown

        # the next table: the chat's options, no computer button, its turn time kept
        await anna.send(group, "/newgame mushka")
        await fake.wait_until(lambda: lobby_message(group) is not None, timeout=10)
        lobby = lobby_message(group)
        assert lobby is not None
        assert f": {target}" in lobby.text.split("\n")[2], lobby.text  # the options line
        assert "🤖" not in lobby.describe_buttons()
        (tid,) = db_rows(database, "SELECT id FROM tables")[0]
        for act, arg in (("a", None), ("m", "easy")):
            data = codec.pack(Press(Kind.LOBBY, int(str(tid)), None, 0, act, arg))
            assert (await anna.press_raw(lobby, data=data)).text == OFF
        assert db_rows(database, "SELECT turn_timeout_s, options FROM tables")[0][0] == 30
        for user in (boris, vera):
            await user.press(lobby, "✋")
        await fake.wait_until(lambda: "(3/7)" in lobby.text, timeout=10)
        await anna.press(lobby, "▶️")
        await fake.wait_until(lambda: table_message(group) is not None, timeout=10)
        await fake.settle(quiet=0.05)
        ((due,),) = db_rows(database, "SELECT due_at FROM deadlines WHERE kind = 'remind'")
        assert 15 < float(str(due)) - time.time() <= 20  # ⅔ of the chat's 30 s
        # later changes leave the running table's time as it was
        await press_until(fake, anna, message, "⏱", "Время на ход: 60 с")
        assert db_rows(database, "SELECT turn_timeout_s FROM tables")[0][0] == 30

    # a restart: every setting is still there
    async with watched(fake, running_bot(settings, seeds=fixed_seeds())):
        message = await open_settings(fake, anna, group)
        assert "Время на ход: 60 с" in message.text
        assert "Компьютерные игроки: нет" in message.text


async def test_15_a_demoted_admin_is_refused_once_the_cache_time_is_over(
    fake_telegram: FakeTelegram, settings: Settings, database: TestDatabase
) -> None:
    fake = fake_telegram
    anna, _, _, group = people(fake)
    await anna.start_bot()
    clock = Clock()
    async with watched(fake, running_bot(settings, seeds=fixed_seeds(), monotonic=clock)):
        message = await open_settings(fake, anna, group)
        await press_until(fake, anna, message, "🤖", "Компьютерные игроки: нет")
        group.add_member(anna, "member")  # demoted
        await press_until(fake, anna, message, "🤖", "Компьютерные игроки: да")  # cached 60 s
        clock.now += 61
        before = chat_row(database)
        answer = await anna.press(message, "🤖")
        assert answer.text == ADMINS_ONLY
        await fake.settle(quiet=0.05)
        assert chat_row(database) == before and "Компьютерные игроки: да" in message.text


async def test_15_the_language_applies_at_once(
    fake_telegram: FakeTelegram, settings: Settings, database: TestDatabase
) -> None:
    fake = fake_telegram
    anna, _, _, group = people(fake)
    await anna.start_bot()
    async with watched(fake, running_bot(settings, seeds=fixed_seeds())):
        await anna.send(group, "/newgame mushka")
        await fake.wait_until(lambda: lobby_message(group) is not None, timeout=10)
        lobby = lobby_message(group)
        assert lobby is not None and "набор за стол" in lobby.text
        message = await open_settings(fake, anna, group)
        await press_until(fake, anna, message, "🌐", 'Settings of "Пятница"')
        assert "Language: English" in message.text and "Turn time: 90 s" in message.text
        await fake.wait_until(lambda: "Mushka — seating" in lobby.text, timeout=10)
        assert chat_row(database)[0] == "en"
        await press_until(fake, anna, message, "🌐", "Настройки «Пятница»")
        await fake.wait_until(lambda: "набор за стол" in lobby.text, timeout=10)


async def private_settings(fake: FakeTelegram, user: SimUser) -> SentMessage:
    before = settings_message(user, "s")
    await user.send_private("/settings")
    await fake.wait_until(lambda: settings_message(user, "s") not in (None, before), timeout=10)
    await fake.settle(quiet=0.05)  # the bot has taken in the sent message's id, as a person's
    message = settings_message(user, "s")  # tap comes long after it
    assert message is not None
    return message


def buttons(message: SentMessage) -> list[tuple[str, str | None]]:
    return [(b.text, b.callback_data) for b in message.all_buttons]


async def test_12_cards_in_words_change_the_hand_text_not_its_buttons(
    fake_telegram: FakeTelegram, settings: Settings, database: TestDatabase
) -> None:
    fake = fake_telegram
    anna, boris, vera, group = people(fake)
    async with watched(fake, running_bot(settings, seeds=fixed_seeds())):
        await open_table(fake, group, [anna, boris, vera])
        hand = hand_message(anna)
        assert hand is not None
        text, keys = hand.text, buttons(hand)
        assert "🗣" not in text
        message = await private_settings(fake, anna)
        assert "Карты словами: выкл." in message.text
        await press_until(fake, anna, message, "🗣", "Карты словами: вкл.")
        await fake.wait_until(lambda: "🗣" in hand.text, timeout=10)
        words = next(ln for ln in hand.text.split("\n") if ln.startswith("🗣"))
        named = words.removeprefix("🗣 ").split(", ")
        assert len(named) == 5 and all(
            n.split()[-1] in ("пик", "треф", "бубен", "червей") for n in named
        ), words
        assert hand.text.replace(words + "\n", "") == text  # one line more, the rest the same
        assert buttons(hand) == keys
        # a restart keeps it; off again: the line goes
        assert json.loads(str(db_rows(database, "SELECT settings FROM users WHERE id = 101")[0][0]))
    async with watched(fake, running_bot(settings, seeds=fixed_seeds())):
        await fake.settle(quiet=0.05)
        assert "🗣" in hand.text
        message = await private_settings(fake, anna)
        await press_until(fake, anna, message, "🗣", "Карты словами: выкл.")
        await fake.wait_until(lambda: "🗣" not in hand.text, timeout=10)
        assert hand.text == text and buttons(hand) == keys


async def test_13_only_reminders_drops_the_turn_ping_and_keeps_the_reminder(
    fake_telegram: FakeTelegram, settings: Settings
) -> None:
    fake = fake_telegram
    anna, boris, vera, group = people(fake)
    players = [anna, boris, vera]
    quick = settings.model_copy(update={"turn_timeout_s": TIMEOUT})
    async with watched(fake, running_bot(quick, seeds=fixed_seeds())):
        for user in players:
            await user.start_bot()
            message = await private_settings(fake, user)
            await press_until(fake, user, message, "🔔", "Уведомления о ходе: только напоминания")
        await open_table(fake, group, players, options="target=25")
        first = to_act(group, players)
        assert first is not None
        await fake.wait_until(lambda: "⏳ Осталось" in first.last.text, timeout=TIMEOUT + 2)
        for user in players:
            assert not [m for m in user.messages if m.text.startswith("🔔 Ваш ход")], user


def test_15_malformed_stored_settings_give_the_defaults_and_a_log_line(
    caplog: pytest.LogCaptureFixture,
) -> None:
    with caplog.at_level(logging.WARNING):
        assert chat_settings('{"turn_timeout_s": 45}', -1) == ChatSettings()
        assert chat_settings("not json", -1) == ChatSettings()
        assert user_settings('{"pings": "loud"}', 7).pings == "on"
    assert sum("malformed stored settings" in r.getMessage() for r in caplog.records) == 3
    assert chat_settings('{"computers": false, "later": 1}').computers is False  # extra: ignored


def test_7_1_every_settings_button_fits_64_bytes(settings: Settings) -> None:
    catalogues = Catalogues.load(settings.locales)
    codec = PressCodec.from_token(settings.token.get_secret_value())
    for game in GAMES:  # pack raises over 64 bytes
        for locale in ("ru", "en"):
            shown = group_settings(
                "x" * 128, locale, ChatSettings(), 90, catalogues.tr(locale), codec,
                game=game, options=default_options(game),
            )  # fmt: skip
            assert shown.markup is not None


def test_12_cards_in_words_line_follows_the_hand_line(settings: Settings) -> None:
    catalogues = Catalogues.load(settings.locales)
    ru, en = catalogues.tr("ru"), catalogues.tr("en")
    cards = [Card.parse(c) for c in ("QS", "9S", "7H", "10D", "AC")]
    assert card_words(cards[:3], ru) == "дама пик, девятка пик, семёрка червей"
    assert card_words(cards[:3], en) == "queen of spades, nine of spades, seven of hearts"
    text = "🃏 Мушка\nВаши карты: ♠ Д 9 · ♥ 7\nВаш ход"
    assert with_card_words(text, cards[:3], ru).split("\n") == [
        "🃏 Мушка",
        "Ваши карты: ♠ Д 9 · ♥ 7",
        "🗣 дама пик, девятка пик, семёрка червей",
        "Ваш ход",
    ]
    assert with_card_words("no hand line", cards[3:], en) == (
        "no hand line\n🗣 ten of diamonds, ace of clubs"
    )
