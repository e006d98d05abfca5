"""Ephemeral messages in the fake (Bot API 10.2–10.3) driven by the real aiogram."""

from __future__ import annotations

import asyncio

import pytest
from aiogram import Dispatcher, F, Router
from aiogram.exceptions import TelegramBadRequest
from aiogram.types import (
    BotCommand,
    CallbackQuery,
    DisabledButton,
    EphemeralMessageParameters,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    Message,
)

from tests.fakeapi import EphemeralSend, FakeTelegram
from tests.fakeapi.test_fake_ephemeral import GROUP, people
from tests.fakeapi.test_fake_with_aiogram import make_bot


def ephemeral_router(replies: list[Message]) -> Router:
    router = Router()

    @router.callback_query(F.data == "show")
    async def show(query: CallbackQuery) -> None:
        assert isinstance(query.message, Message)
        sent = await query.message.answer(
            "your cards",
            ephemeral_message_parameters=EphemeralMessageParameters(
                receiver_user_id=query.from_user.id,
                callback_query_id=query.id,
                replace_callback_query_message=True,
            ),
            reply_markup=InlineKeyboardMarkup(
                inline_keyboard=[
                    [
                        InlineKeyboardButton(text="K♥", callback_data="card", style="success"),
                        InlineKeyboardButton(text="—", disabled=DisabledButton()),
                    ]
                ]
            ),
        )
        replies.append(sent)
        await query.answer()

    @router.callback_query(F.data == "card")
    async def card(query: CallbackQuery) -> None:
        message = query.message
        assert isinstance(message, Message) and message.ephemeral_message_id is not None
        replies.append(message)
        await query.answer("played")
        await message.edit_ephemeral_text(f"played by {query.from_user.first_name}")

    return router


async def test_aiogram_bot_ephemeral_round_trip(fake_telegram: FakeTelegram) -> None:
    fake = fake_telegram
    anna, boris, _, group = people(fake, bot_admin=False)
    replies: list[Message] = []
    bot = make_bot(fake)
    dispatcher = Dispatcher()
    dispatcher.include_router(ephemeral_router(replies))
    task = asyncio.create_task(
        dispatcher.start_polling(bot, polling_timeout=2, handle_signals=False)
    )
    try:
        await fake.wait_until(lambda: fake.count("getUpdates") > 0)
        show = InlineKeyboardMarkup(
            inline_keyboard=[[InlineKeyboardButton(text="🂠 Show", callback_data="show")]]
        )
        await bot.send_message(GROUP, "table", reply_markup=show)
        table = group.last
        await anna.press(table, "Show")
        await fake.settle()
        sent = replies[0]
        assert sent.message_id == 0 and sent.ephemeral_message_id == 1
        assert sent.receiver_user is not None and sent.receiver_user.id == anna.id
        assert sent.reply_markup is not None
        assert sent.reply_markup.inline_keyboard[0][0].style == "success"
        assert sent.reply_markup.inline_keyboard[0][1].disabled is not None
        stand_in = anna.shown_in_place_of(table)
        assert stand_in is not None and stand_in.text == "your cards"
        assert [b.disabled for b in stand_in.all_buttons] == [False, True]
        assert boris.view(group) == [table] and boris.ephemeral(group) == []
        played = await anna.press(stand_in, "K♥")
        await fake.settle()
        assert played.text == "played"
        assert replies[1].ephemeral_message_id == 1 and replies[1].chat.id == GROUP
        assert stand_in.text == "played by Anna" and stand_in.buttons == []
        assert group.messages == [table] and table.text == "table"
    finally:
        await asyncio.wait_for(dispatcher.stop_polling(), 5)
        await asyncio.wait_for(task, 5)
        await bot.session.close()


async def test_aiogram_bot_methods_and_errors(fake_telegram: FakeTelegram) -> None:
    fake = fake_telegram
    anna, _, _, group = people(fake)
    bot = make_bot(fake)
    try:
        params = EphemeralMessageParameters(receiver_user_id=anna.id)
        sent = await bot.send_message(GROUP, "hand", ephemeral_message_parameters=params)
        assert sent.message_id == 0 and sent.ephemeral_message_id == 1
        assert sent.receiver_user is not None and sent.receiver_user.id == anna.id
        assert await bot.edit_ephemeral_message_text(
            chat_id=GROUP, receiver_user_id=anna.id, ephemeral_message_id=1, text="hand 2"
        )
        assert anna.last_ephemeral(group).text == "hand 2"
        with pytest.raises(TelegramBadRequest, match="message is not modified"):
            await bot.edit_ephemeral_message_text(
                chat_id=GROUP, receiver_user_id=anna.id, ephemeral_message_id=1, text="hand 2"
            )
        markup = InlineKeyboardMarkup(
            inline_keyboard=[[InlineKeyboardButton(text="ok", callback_data="ok")]]
        )
        assert await sent.edit_ephemeral_reply_markup(reply_markup=markup).as_(bot)
        assert anna.last_ephemeral(group).all_buttons[0].text == "ok"
        assert await sent.delete_ephemeral().as_(bot)
        assert anna.ephemeral(group) == []
        with pytest.raises(TelegramBadRequest, match="message to delete not found"):
            await bot.delete_ephemeral_message(
                chat_id=GROUP, receiver_user_id=anna.id, ephemeral_message_id=1
            )
        with pytest.raises(TelegramBadRequest, match="receiver not found"):
            await bot.send_message(
                GROUP,
                "x",
                ephemeral_message_parameters=EphemeralMessageParameters(receiver_user_id=103),
            )
        with pytest.raises(TelegramBadRequest, match="BUTTON_STYLE_INVALID"):
            bad = InlineKeyboardButton(text="a", callback_data="a", style="blue")
            await bot.send_message(
                GROUP, "x", reply_markup=InlineKeyboardMarkup(inline_keyboard=[[bad]])
            )
        assert await bot.set_my_commands(
            [BotCommand(command="hand", description="My hand", is_ephemeral=True)]
        )
        assert (await bot.get_my_commands())[0].is_ephemeral is True
        assert fake.ephemeral_sends() == [
            EphemeralSend(GROUP, anna.id, "hand"),
            EphemeralSend(GROUP, anna.id, "hand 2"),
        ]
    finally:
        await bot.session.close()
