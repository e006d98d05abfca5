"""The fake driven by the real aiogram: a Bot over HTTP and a polling Dispatcher."""

from __future__ import annotations

import asyncio
import io
from collections.abc import AsyncIterator

import pytest
from aiogram import Bot, Dispatcher, F, Router
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.client.telegram import TelegramAPIServer
from aiogram.exceptions import (
    TelegramBadRequest,
    TelegramForbiddenError,
    TelegramMigrateToChat,
    TelegramNotFound,
    TelegramRetryAfter,
)
from aiogram.filters import Command, CommandObject, CommandStart
from aiogram.methods import TelegramMethod
from aiogram.types import (
    BufferedInputFile,
    CallbackQuery,
    ChatMemberAdministrator,
    ChatMemberLeft,
    ChatMemberRestricted,
    ChatMemberUpdated,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InlineQuery,
    InlineQueryResultArticle,
    InputTextMessageContent,
    Message,
)
from PIL import Image

from tests.fakeapi import FakeTelegram


def make_bot(fake: FakeTelegram) -> Bot:
    session = AiohttpSession(api=TelegramAPIServer.from_base(fake.base_url))
    return Bot(fake.token, session=session)


def join_keyboard(data: str = "join") -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup(
        inline_keyboard=[[InlineKeyboardButton(text="✋ Join", callback_data=data)]]
    )


def echo_router(seen: list[str]) -> Router:
    router = Router()

    @router.message(CommandStart())
    async def start(message: Message, command: CommandObject) -> None:
        await message.answer(
            f"<b>Hello</b>, {message.chat.first_name}! payload={command.args}",
            parse_mode="HTML",
            reply_markup=join_keyboard(),
        )

    @router.message(Command("newgame"))
    async def newgame(message: Message, command: CommandObject) -> None:
        await message.reply(f"lobby for {command.args}", reply_markup=join_keyboard())

    @router.callback_query(F.data == "join")
    async def join(query: CallbackQuery) -> None:
        await query.answer("You're seated.", show_alert=True)
        assert isinstance(query.message, Message)
        await query.message.edit_text(f"seated: {query.from_user.first_name}")

    @router.callback_query(F.data == "slow")
    async def slow(query: CallbackQuery) -> None:
        seen.append("slow")  # never answered: the press must time out

    @router.inline_query()
    async def inline(query: InlineQuery) -> None:
        card = InlineQueryResultArticle(
            id="invite",
            title="Мушка",
            input_message_content=InputTextMessageContent(message_text="Join my table"),
            reply_markup=InlineKeyboardMarkup(
                inline_keyboard=[
                    [InlineKeyboardButton(text="✋", url="https://t.me/mushka_test_bot?start=j_1")]
                ]
            ),
        )
        await query.answer([card], cache_time=0, is_personal=True)

    @router.my_chat_member()
    async def added(event: ChatMemberUpdated) -> None:
        seen.append(f"{event.chat.id}:{event.new_chat_member.status}")
        if event.new_chat_member.status == "member" and event.chat.type != "private":
            await event.bot.send_message(event.chat.id, "Thanks for adding me")  # type: ignore[union-attr]

    return router


@pytest.fixture
async def polling(fake_telegram: FakeTelegram) -> AsyncIterator[tuple[Bot, list[str]]]:
    seen: list[str] = []
    bot = make_bot(fake_telegram)
    dispatcher = Dispatcher()
    dispatcher.include_router(echo_router(seen))
    task = asyncio.create_task(
        dispatcher.start_polling(bot, polling_timeout=2, handle_signals=False)
    )
    await fake_telegram.wait_until(lambda: fake_telegram.count("getUpdates") > 0)
    yield bot, seen
    await asyncio.wait_for(dispatcher.stop_polling(), 5)
    await asyncio.wait_for(task, 5)


async def test_long_polling_commands_and_buttons(
    fake_telegram: FakeTelegram, polling: tuple[Bot, list[str]]
) -> None:
    anna = fake_telegram.add_user(101, "Anna", language_code="ru")
    boris = fake_telegram.add_user(102, "Boris")
    group = fake_telegram.add_group(-1001, "Card club", admins=[101])
    await anna.start_bot("j_2bq_x7Kp9a")
    await fake_telegram.settle()
    assert anna.last.text == "Hello, Anna! payload=j_2bq_x7Kp9a"
    assert anna.last.html.startswith("<b>Hello</b>")
    command = await boris.send(group, "/newgame@mushka_test_bot mushka")
    await fake_telegram.settle()
    lobby = group.last
    assert lobby.text == "lobby for mushka" and lobby.reply_to == command.message_id
    answer = await boris.press(lobby, "Join")
    assert (answer.text, answer.show_alert) == ("You're seated.", True)
    assert 0 <= answer.latency < 1
    await fake_telegram.settle()
    assert lobby.text == "seated: Boris" and lobby.buttons == [] and lobby.edits == 1
    results = await anna.inline_query("")
    assert [r["id"] for r in results] == ["invite"]
    card = await anna.choose_inline_result(results[0], group)
    assert card.button("✋").url == "https://t.me/mushka_test_bot?start=j_1"
    await fake_telegram.settle()
    assert fake_telegram.pending_updates == 0


async def test_unanswered_press_times_out(
    fake_telegram: FakeTelegram, polling: tuple[Bot, list[str]]
) -> None:
    bot, seen = polling
    anna = fake_telegram.add_user(101, "Anna")
    await anna.start_bot()
    await fake_telegram.settle()
    await bot.send_message(anna.id, "x", reply_markup=join_keyboard("slow"))
    with pytest.raises(AssertionError, match="did not answer"):
        await anna.press(anna.last, "Join", timeout=0.5)
    assert seen == ["slow"]


async def test_my_chat_member_when_added_to_group(
    fake_telegram: FakeTelegram, polling: tuple[Bot, list[str]]
) -> None:
    _, seen = polling
    anna = fake_telegram.add_user(101, "Anna")
    group = fake_telegram.add_group(-1001, "Card club", with_bot=False)
    fake_telegram.add_bot_to(group, by=anna)
    await fake_telegram.settle()
    assert seen == ["-1001:member"]
    assert [m.text for m in group.messages] == ["Thanks for adding me"]


async def test_errors_map_to_aiogram_exceptions(fake_telegram: FakeTelegram) -> None:
    bot = make_bot(fake_telegram)
    try:
        anna = fake_telegram.add_user(101, "Anna")
        with pytest.raises(TelegramForbiddenError, match="can't initiate conversation"):
            await bot.send_message(anna.id, "hi")
        await anna.start_bot()
        sent = await bot.send_message(anna.id, "hi", reply_markup=join_keyboard())
        assert sent.message_id == anna.last.message_id
        with pytest.raises(TelegramBadRequest, match="message is not modified"):
            await bot.edit_message_text(
                "hi", chat_id=anna.id, message_id=sent.message_id, reply_markup=join_keyboard()
            )
        with pytest.raises(TelegramBadRequest, match="BUTTON_DATA_INVALID"):
            await bot.send_message(anna.id, "x", reply_markup=join_keyboard("j" * 65))
        await bot.send_message(anna.id, "x", reply_markup=join_keyboard("j" * 64))
        with pytest.raises(TelegramBadRequest, match="message is too long"):
            await bot.send_message(anna.id, "x" * 4097)
        with pytest.raises(TelegramBadRequest, match="message to delete not found"):
            await bot.delete_message(anna.id, 999)
        with pytest.raises(TelegramBadRequest, match="chat not found"):
            await bot.send_message(-42, "x")
        fake_telegram.rate_limit(per_chat=3, window=1.0)
        with pytest.raises(TelegramRetryAfter) as retry:
            for _ in range(4):
                await bot.send_message(anna.id, "flood")
        assert retry.value.retry_after == 1
        fake_telegram.rate_limit(None)
        anna.block_bot()
        with pytest.raises(TelegramForbiddenError, match="blocked by the user"):
            await bot.send_message(anna.id, "hi")
        group = fake_telegram.add_group(-7, "Old", supergroup=False, admins=[101])
        fake_telegram.migrate_group(group, -1007)
        with pytest.raises(TelegramMigrateToChat) as migrated:
            await bot.send_message(-7, "x")
        assert migrated.value.migrate_to_chat_id == -1007

        class Unknown(TelegramMethod[bool]):
            __returning__ = bool
            __api_method__ = "sendPigeon"

        with pytest.raises(TelegramNotFound, match="method not found"):
            await bot(Unknown())
    finally:
        await bot.session.close()


async def test_typed_results_validate_in_aiogram(fake_telegram: FakeTelegram) -> None:
    bot = make_bot(fake_telegram)
    try:
        fake_telegram.add_user(101, "Anna", username="anna")
        fake_telegram.add_group(-1001, "Card club", admins=[101])
        me = await bot.get_me()
        assert (me.id, me.username) == (123456, "mushka_test_bot")
        member = await bot.get_chat_member(-1001, 101)
        assert isinstance(member, ChatMemberAdministrator)
        boris = fake_telegram.add_user(102, "Boris")
        vera = fake_telegram.add_user(103, "Vera")
        group = fake_telegram.groups[-1001]
        group.restrict(boris)
        group.restrict(vera, is_member=False)
        restricted = await bot.get_chat_member(-1001, 102)
        assert isinstance(restricted, ChatMemberRestricted) and restricted.is_member
        outside = await bot.get_chat_member(-1001, 103)
        assert isinstance(outside, ChatMemberRestricted) and not outside.is_member
        fake_telegram.add_user(104, "Gleb")  # never in the group
        assert isinstance(await bot.get_chat_member(-1001, 104), ChatMemberLeft)
        admins = await bot.get_chat_administrators(-1001)
        assert [a.user.id for a in admins] == [101]
        chat = await bot.get_chat(-1001)
        assert chat.title == "Card club"
        assert await bot.send_chat_action(-1001, "typing")
        assert await bot.delete_webhook(drop_pending_updates=True)
    finally:
        await bot.session.close()


async def test_polling_stops_cleanly_and_fake_stops_fast(fake_telegram: FakeTelegram) -> None:
    bot = make_bot(fake_telegram)
    dispatcher = Dispatcher()
    task = asyncio.create_task(
        dispatcher.start_polling(bot, polling_timeout=30, handle_signals=False)
    )
    await fake_telegram.wait_until(lambda: fake_telegram.count("getUpdates") > 0)
    await asyncio.wait_for(dispatcher.stop_polling(), 5)
    await asyncio.wait_for(task, 5)
    loop = asyncio.get_running_loop()
    began = loop.time()
    await fake_telegram.stop()
    assert loop.time() - began < 2


async def test_updates_wait_for_a_restarted_bot(fake_telegram: FakeTelegram) -> None:
    anna = fake_telegram.add_user(101, "Anna")
    for round_no in (1, 2):
        bot = make_bot(fake_telegram)
        dispatcher = Dispatcher()
        dispatcher.include_router(echo_router([]))
        task = asyncio.create_task(
            dispatcher.start_polling(bot, polling_timeout=2, handle_signals=False)
        )
        await fake_telegram.settle()
        # round 2: the /start sent while no bot polled is answered now, exactly once
        assert [m.text for m in anna.messages] == ["Hello, Anna! payload=None"] * (
            2 * (round_no - 1)
        )
        if round_no == 1:
            await anna.start_bot()
            await fake_telegram.settle()
        await asyncio.wait_for(dispatcher.stop_polling(), 5)
        await asyncio.wait_for(task, 5)
        if round_no == 1:
            await anna.start_bot()  # sent while no bot is polling
            assert fake_telegram.pending_updates == 1
            with pytest.raises(TimeoutError, match="not fetched"):
                await fake_telegram.settle(quiet=0.05, timeout=0.3)
    assert fake_telegram.pending_updates == 0
    assert len(anna.messages) == 2


async def test_send_photo_keeps_the_picture_and_holds_telegram_s_limits(
    fake_telegram: FakeTelegram,
) -> None:
    """sendPhoto (the games' charts): uploaded, parsed by aiogram, its bytes kept; not an image, or
    sides over Telegram's limits (width + height ≤ 10000, at most 20 to 1), refused."""
    bot = make_bot(fake_telegram)

    def png(width: int, height: int) -> bytes:
        out = io.BytesIO()
        Image.new("RGB", (width, height), "white").save(out, format="PNG")
        return out.getvalue()

    try:
        fake_telegram.add_user(101, "Anna")
        group = fake_telegram.add_group(-1001, "Card club", admins=[101])
        sent = await bot.send_photo(-1001, BufferedInputFile(png(100, 60), filename="chart.png"))
        assert sent.photo is not None and (sent.photo[-1].width, sent.photo[-1].height) == (100, 60)
        assert group.last.photo is not None and group.last.photo.data == png(100, 60)
        for data, error in (
            (b"not an image", "IMAGE_PROCESS_FAILED"),
            (png(2100, 100), "PHOTO_INVALID_DIMENSIONS"),
        ):
            with pytest.raises(TelegramBadRequest, match=error):
                await bot.send_photo(-1001, BufferedInputFile(data, filename="x.png"))
    finally:
        await bot.session.close()
