"""The buttons' key is a secret of the bot's own, not the token: after the token is
revoked at @BotFather and the bot restarts with the new one, the buttons it drew before still
work. The key is ``BOT_CALLBACK_SECRET``, or one made once and kept in the database (so every
worker shares it); on SQLite and on PostgreSQL (``BOT_TEST_DATABASE``)."""

from __future__ import annotations

import asyncio

import pytest
from pydantic import SecretStr, ValidationError

from bot.app import running_bot
from bot.callbacks import Kind, Press, PressCodec
from bot.config import Settings
from bot.storage import open_repository
from bot.storage.protocol import SecretName
from tests.bot.helpers import fixed_seeds, say, watched
from tests.bot.test_e2e_settings import open_settings, people, press_until
from tests.databases import TestDatabase, db_rows
from tests.fakeapi import FakeTelegram

UNKNOWN = "Кнопка не распознана."
STORED = "SELECT value FROM secrets WHERE name = 'callback'"


async def test_buttons_drawn_under_a_revoked_token_still_work(
    fake_telegram: FakeTelegram, settings: Settings, database: TestDatabase
) -> None:
    anna, boris, _, group = people(fake := fake_telegram)
    async with watched(fake, running_bot(settings, seeds=fixed_seeds())):
        shown = await open_settings(fake, anna, group)
        picker = await say(fake, boris, "/language", group)
        assert picker.text == "Язык:"
    stored = db_rows(database, STORED)
    assert len(stored) == 1 and len(str(stored[0][0])) >= 32  # made once, kept

    fake.token = "123456:NEW-token-after-revoke"  # @BotFather: revoke; the old one is refused
    renewed = settings.model_copy(update={"token": SecretStr(fake.token)})
    async with watched(fake, running_bot(renewed, seeds=fixed_seeds())):
        await press_until(fake, anna, shown, "⏱", "Время на ход: 180 с")
        answer = await anna.press(picker, "English")
        assert answer.text == "Language: English"
        forged = PressCodec.from_token(settings.token.get_secret_value())  # the old token's key
        data = forged.pack(Press(Kind.GROUP, 0, None, 0, "l", "ru"))
        assert (await anna.press_raw(picker, data=data)).text in (UNKNOWN, "Unknown button.")
    assert db_rows(database, STORED) == stored  # the same key, not a new one


async def test_the_callback_secret_setting_is_the_key_and_nothing_is_stored(
    fake_telegram: FakeTelegram, settings: Settings, database: TestDatabase
) -> None:
    fake = fake_telegram
    anna, _, _, group = people(fake)
    secret = "operator-chosen-secret-0123456789"
    configured = settings.model_copy(update={"callback_secret": SecretStr(secret)})
    async with watched(fake, running_bot(configured, seeds=fixed_seeds())):
        picker = await say(fake, anna, "/language", group)
        press = Press(Kind.GROUP, 0, None, 0, "l", "en")
        mine = PressCodec.from_secret(secret).pack(press)
        assert [b.callback_data for b in picker.all_buttons][1] == mine  # drawn with that key
        other = PressCodec.from_secret("another-secret-0123456789abcdef").pack(press)
        assert (await anna.press_raw(picker, data=other)).text == UNKNOWN
        assert (await anna.press(picker, data=mine)).text == "Language: English"
    assert db_rows(database, STORED) == []


async def test_workers_starting_together_share_one_stored_secret(database: TestDatabase) -> None:
    stores = [await open_repository(database) for _ in range(3)]
    try:
        got = await asyncio.gather(
            *(s.secret(SecretName.CALLBACK, f"fresh-{i}") for i, s in enumerate(stores))
        )
        again = await stores[0].secret(SecretName.CALLBACK, "later")
    finally:
        for store in stores:
            await store.close()
    assert len(set(got)) == 1 and got[0].startswith("fresh-") and again == got[0]


@pytest.mark.parametrize("value", ["short", "x" * 15])
def test_a_short_callback_secret_is_a_configuration_error(value: str) -> None:
    with pytest.raises(ValidationError, match="at least 16 characters"):
        Settings(token="1:abc", callback_secret=value, _env_file=None)  # type: ignore[arg-type, call-arg]
    empty = Settings(token="1:abc", callback_secret="", _env_file=None)  # type: ignore[arg-type, call-arg]
    assert empty.callback_secret is None  # an empty line in .env: the database keeps one


def test_buttons_drawn_before_the_bot_had_a_secret_work_while_their_token_is_current() -> None:
    press = Press(Kind.HAND, 12, 1, 40, "a", "QS")
    token = "123456:TEST-token"
    codec = PressCodec.from_secret("the-stored-secret-0123456789", token=token)
    old = PressCodec.from_token(token).pack(press)
    assert codec.parse(old) == press  # drawn by the previous version, under this token
    assert codec.pack(press) != old  # new buttons: the secret's tag
    assert codec.parse(codec.pack(press)) == press
    rotated = PressCodec.from_secret("the-stored-secret-0123456789", token="123456:NEW")
    assert rotated.parse(old) is None  # that token was revoked: its tags with it
    assert rotated.parse(codec.pack(press)) == press
