"""Commands a member sends ephemerally, in the fake (tests/fakeapi/ephemeral_commands.py): only
the bot sees them, only a declared ``is_ephemeral`` command is sent so, and a bot that is no
administrator may answer one to its sender alone, as a reply, within 15 seconds."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from aiogram import Dispatcher, Router
from aiogram.filters import Command
from aiogram.types import BotCommand, BotCommandScopeAllGroupChats, Message

from tests.fakeapi import FakeTelegram, FakeUsageError
from tests.fakeapi.ephemeral import NO_RIGHTS, REPLY_NOT_EPHEMERAL
from tests.fakeapi.ephemeral_commands import REPLY_OTHER_RECEIVER
from tests.fakeapi.test_fake_api import err, ok
from tests.fakeapi.test_fake_ephemeral import GROUP, people
from tests.fakeapi.test_fake_with_aiogram import make_bot

GROUPS = {"type": "all_group_chats"}
NOT_FOUND = "Bad Request: message to be replied not found"


async def declare(fake: FakeTelegram, language: str = "", **flags: bool) -> None:
    """The bot's group commands (``help=True``: declared ephemeral)."""
    commands = [
        {"command": name, "description": name, **({"is_ephemeral": True} if on else {})}
        for name, on in flags.items()
    ]
    assert await ok(fake, "setMyCommands", commands=commands, scope=GROUPS, language_code=language)


async def answer_alone(fake: FakeTelegram, receiver: int, **reply: Any) -> Any:
    return await ok(
        fake,
        "sendMessage",
        chat_id=GROUP,
        text="only you",
        ephemeral_message_parameters={"receiver_user_id": receiver},
        reply_parameters=reply,
    )


async def test_a_declared_command_sent_ephemerally_reaches_the_bot_alone(
    fake_telegram: FakeTelegram,
) -> None:
    fake = fake_telegram
    anna, _, _, group = people(fake, bot_admin=False)  # privacy mode on, no administrator
    await declare(fake, help=True, newgame=False)
    sent = await anna.send_ephemeral(group, "/help")
    update = fake.updates[-1]["message"]
    assert update["message_id"] == 0 and update["ephemeral_message_id"] == sent.ephemeral_id
    assert update["receiver_user"]["id"] == fake.bot_id and update["from"]["id"] == anna.id
    assert update["text"] == "/help" and update["entities"][0]["type"] == "bot_command"
    assert group.messages == [] and fake.messages(GROUP) == []  # nobody else sees it
    assert fake.incoming_ephemeral(GROUP) == [sent]
    # numbered with the chat's ephemeral messages: the bot's own next one comes after it
    fake.set_bot_admin(GROUP)
    reply = await answer_alone(fake, anna.id, ephemeral_message_id=sent.ephemeral_id)
    assert reply["ephemeral_message_id"] == sent.ephemeral_id + 1


async def test_only_what_a_client_offers_can_be_sent_ephemerally(
    fake_telegram: FakeTelegram,
) -> None:
    fake = fake_telegram
    anna, _, carl, group = people(fake)
    with pytest.raises(FakeUsageError, match="not declared"):  # no commands at all
        await anna.send_ephemeral(group, "/help")
    await declare(fake, help=True, newgame=False)
    with pytest.raises(FakeUsageError, match="not declared"):
        await anna.send_ephemeral(group, "/newgame")
    with pytest.raises(FakeUsageError, match="no command"):
        await anna.send_ephemeral(group, "hello")
    with pytest.raises(FakeUsageError, match="no command"):
        await anna.send_ephemeral(group, "/help@another_bot")
    with pytest.raises(FakeUsageError, match="not a member"):
        await carl.send_ephemeral(group, "/help")
    with pytest.raises(FakeUsageError, match="groups only"):
        await anna.send_ephemeral(anna, "/help")  # type: ignore[arg-type]
    # her language's list is the one her client shows: there /help is no ephemeral command
    await declare(fake, anna.language_code or "", help=False)
    with pytest.raises(FakeUsageError, match="not declared"):
        await anna.send_ephemeral(group, "/help")
    await declare(fake, anna.language_code or "", help=True)
    assert (await anna.send_ephemeral(group, f"/help@{fake.bot_username}")).sender_id == anna.id
    fake.remove_bot_from(group, by=anna)
    with pytest.raises(FakeUsageError, match="no member"):
        await anna.send_ephemeral(group, "/help")


async def test_a_plain_member_bot_answers_it_to_its_sender_alone_within_the_window(
    fake_telegram: FakeTelegram,
) -> None:
    fake = fake_telegram
    anna, boris, _, group = people(fake, bot_admin=False)
    await declare(fake, hand=True)
    sent = await anna.send_ephemeral(group, "/hand")
    await answer_alone(fake, anna.id, ephemeral_message_id=sent.ephemeral_id)
    shown = anna.last_ephemeral(group)
    assert shown.text == "only you" and shown.reply_to_ephemeral == sent.ephemeral_id
    assert boris.ephemeral(group) == [] and group.messages == []
    await answer_alone(fake, anna.id, ephemeral_message_id=sent.ephemeral_id)  # again: fine
    # without it, or to someone else, or in the group: refused
    assert await err(
        fake,
        "sendMessage",
        chat_id=GROUP,
        text="x",
        ephemeral_message_parameters={"receiver_user_id": anna.id},
    ) == (400, f"Bad Request: {NO_RIGHTS}")
    assert await err(
        fake,
        "sendMessage",
        chat_id=GROUP,
        text="x",
        ephemeral_message_parameters={"receiver_user_id": boris.id},
        reply_parameters={"ephemeral_message_id": sent.ephemeral_id},
    ) == (400, f"Bad Request: {REPLY_OTHER_RECEIVER}")
    assert await err(
        fake,
        "sendMessage",
        chat_id=GROUP,
        text="x",
        reply_parameters={"ephemeral_message_id": sent.ephemeral_id},
    ) == (400, f"Bad Request: {REPLY_NOT_EPHEMERAL}")
    # an unknown command, and one older than the window, are not found
    assert await err(
        fake,
        "sendMessage",
        chat_id=GROUP,
        text="x",
        ephemeral_message_parameters={"receiver_user_id": anna.id},
        reply_parameters={"ephemeral_message_id": 99},
    ) == (400, NOT_FOUND)
    fake.ephemeral_reply_validity = 0.05
    await asyncio.sleep(0.1)
    assert await err(
        fake,
        "sendMessage",
        chat_id=GROUP,
        text="x",
        ephemeral_message_parameters={"receiver_user_id": anna.id},
        reply_parameters={"ephemeral_message_id": sent.ephemeral_id},
    ) == (400, NOT_FOUND)
    assert len(anna.ephemeral(group)) == 2


async def test_an_aiogram_bot_gets_it_and_replies_to_it(fake_telegram: FakeTelegram) -> None:
    fake = fake_telegram
    anna, boris, _, group = people(fake, bot_admin=False)
    bot = make_bot(fake)
    seen: list[Message] = []
    router = Router()

    @router.message(Command("rules"))
    async def rules(message: Message) -> None:
        seen.append(message)
        await message.answer(  # aiogram fills in both: the receiver and the reply
            "the rules, for you",
            reply_parameters=message.as_reply_parameters(),
            ephemeral_message_parameters=message.as_ephemeral_message_parameters(),
        )

    dispatcher = Dispatcher()
    dispatcher.include_router(router)
    task = asyncio.create_task(
        dispatcher.start_polling(bot, polling_timeout=2, handle_signals=False)
    )
    try:
        scope = BotCommandScopeAllGroupChats()
        command = BotCommand(command="rules", description="Rules", is_ephemeral=True)
        assert await bot.set_my_commands([command], scope=scope)
        sent = await anna.send_ephemeral(group, "/rules")
        await fake.wait_until(lambda: anna.ephemeral(group) != [], timeout=5)
        assert seen[0].ephemeral_message_id == sent.ephemeral_id and seen[0].message_id == 0
        assert seen[0].receiver_user is not None and seen[0].receiver_user.id == fake.bot_id
        shown = anna.last_ephemeral(group)
        assert shown.text == "the rules, for you"
        assert shown.reply_to_ephemeral == sent.ephemeral_id
        assert boris.view(group) == [] and group.messages == []
    finally:
        await asyncio.wait_for(dispatcher.stop_polling(), 5)
        await asyncio.wait_for(task, 5)
        await bot.session.close()
