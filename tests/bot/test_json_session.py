"""The bot's HTTP session (bot/sending/json_session.py) sends what aiogram's own form would
send, as one JSON body: the same fields with the same values, defaults resolved alike, ``0`` and
``false`` kept, ``None`` and ``""`` left out; a method with a file takes aiogram's form."""

from __future__ import annotations

import json
from typing import Any

import pytest
from aiogram import Bot
from aiogram.client.default import DefaultBotProperties
from aiogram.methods import (
    AnswerCallbackQuery,
    AnswerInlineQuery,
    DeleteMessage,
    EditMessageText,
    GetUpdates,
    SendDocument,
    SendMessage,
    TelegramMethod,
)
from aiogram.types import (
    BufferedInputFile,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InlineQueryResultArticle,
    InputTextMessageContent,
)

from bot.rendered import Button, Keyboard
from bot.sending.json_session import EditText, JsonSession, SendText

MARKUP = InlineKeyboardMarkup(
    inline_keyboard=[[InlineKeyboardButton(text="Д♠", callback_data="h:1:0:5:p:QS~ab")]]
)
METHODS: list[TelegramMethod[Any]] = [
    SendMessage(chat_id=-1001, text="<b>стол</b>", reply_markup=MARKUP, message_thread_id=7),
    SendMessage(chat_id=5, text="x", disable_notification=False),
    EditMessageText(chat_id=5, message_id=9, text="рука", reply_markup=MARKUP),
    AnswerCallbackQuery(callback_query_id="q1", text="", show_alert=False, cache_time=0),
    AnswerCallbackQuery(callback_query_id="q2", text="Сейчас ходит Вера.", show_alert=True),
    DeleteMessage(chat_id=5, message_id=3),
    AnswerInlineQuery(
        inline_query_id="i1",
        results=[
            InlineQueryResultArticle(
                id="a",
                title="🃏 Мушка",
                input_message_content=InputTextMessageContent(message_text="идёт набор"),
            )
        ],
        cache_time=0,
        is_personal=True,
    ),
]

KEYBOARD = Keyboard(
    (
        (Button("Д♠", callback_data="h:1:0:5:p:QS~ab"), Button("⋯", callback_data="h:1:0:5:M")),
        (Button("💬", url="https://t.me/x?start=s"), Button("📨", switch_inline_query="")),
    )
)
OURS: list[tuple[TelegramMethod[Any], TelegramMethod[Any]]] = [
    (
        EditText(chat_id=5, message_id=9, text="рука", reply_markup=KEYBOARD),
        EditMessageText(chat_id=5, message_id=9, text="рука", reply_markup=KEYBOARD.to_aiogram()),
    ),
    (
        SendText(chat_id=-1001, text="<b>стол</b>", reply_markup=KEYBOARD, message_thread_id=7),
        SendMessage(
            chat_id=-1001,
            text="<b>стол</b>",
            reply_markup=KEYBOARD.to_aiogram(),
            message_thread_id=7,
        ),
    ),
    (
        EditText(chat_id=5, message_id=9, text="итог"),
        EditMessageText(chat_id=5, message_id=9, text="итог"),
    ),
]


@pytest.fixture
def bot() -> Bot:
    return Bot(
        "1:test",
        session=JsonSession(),
        default=DefaultBotProperties(parse_mode="HTML", link_preview_is_disabled=True),
    )


def form_fields(session: JsonSession, bot: Bot, method: TelegramMethod[Any]) -> dict[str, str]:
    form = session.build_form_data(bot, method)
    return {str(options["name"]): str(value) for options, _headers, value in form._fields}


@pytest.mark.parametrize("method", METHODS, ids=lambda m: m.__api_method__)
def test_the_json_body_carries_what_the_form_would(bot: Bot, method: TelegramMethod[Any]) -> None:
    session = bot.session
    assert isinstance(session, JsonSession)
    body = session.json_body(bot, method)
    assert body is not None
    sent = json.loads(body)
    form = form_fields(session, bot, method)
    assert set(sent) == set(form)
    for key, value in sent.items():  # the form JSON-dumps all but strings
        assert (form[key] if isinstance(value, str) else json.loads(form[key])) == value, key


@pytest.mark.parametrize("method", METHODS, ids=lambda m: m.__api_method__)
def test_the_quick_body_is_the_dumped_one(bot: Bot, method: TelegramMethod[Any]) -> None:
    session = bot.session
    assert isinstance(session, JsonSession)
    quick, dumped = session.json_body(bot, method), session.dumped_body(bot, method)
    assert quick is not None and dumped is not None
    assert json.loads(quick) == json.loads(dumped)


@pytest.mark.parametrize(("ours", "theirs"), OURS, ids=lambda m: type(m).__name__)
def test_a_screens_keyboard_is_sent_as_aiograms_markup_would_be(
    bot: Bot, ours: TelegramMethod[Any], theirs: TelegramMethod[Any]
) -> None:
    session = bot.session
    assert isinstance(session, JsonSession)
    mine = json.loads(session.json_body(bot, ours) or "{}")
    assert mine == json.loads(session.dumped_body(bot, theirs) or "{}")
    assert mine["parse_mode"] == "HTML"
    if isinstance(ours, EditText) and ours.reply_markup is not None:
        rows = mine["reply_markup"]["inline_keyboard"]
        assert rows[1][1] == {"text": "📨", "switch_inline_query": ""}  # "" kept inside
        assert KEYBOARD.dumps() == KEYBOARD.to_aiogram().model_dump_json(exclude_none=True)


def test_a_screens_keyboard_is_kept_as_it_is() -> None:
    method = EditText(chat_id=5, message_id=9, text="x", reply_markup=KEYBOARD)
    assert method.reply_markup is KEYBOARD  # checked by isinstance, never rebuilt


def test_defaults_and_zeros_are_sent(bot: Bot) -> None:
    session = bot.session
    assert isinstance(session, JsonSession)
    answer = json.loads(session.json_body(bot, METHODS[3]) or "{}")
    assert answer["cache_time"] == 0 and answer["show_alert"] is False and "text" not in answer
    edit = json.loads(session.json_body(bot, METHODS[2]) or "{}")
    assert edit["parse_mode"] == "HTML" and edit["link_preview_options"] == {"is_disabled": True}


def test_a_file_takes_aiograms_form(bot: Bot) -> None:
    session = bot.session
    assert isinstance(session, JsonSession)
    record = SendDocument(chat_id=5, document=BufferedInputFile(b"{}", filename="game.jsonl"))
    assert session.json_body(bot, record) is None


def bot_message(message_id: int, chat: dict[str, Any], text: str) -> dict[str, Any]:
    """A message of the bot's as the Bot API returns it: bold text and KEYBOARD."""
    return {
        "message_id": message_id,
        "date": 1700000000,
        "chat": chat,
        "text": text,
        "entities": [{"type": "bold", "offset": 0, "length": len(text)}],
        "reply_markup": KEYBOARD.as_json(),
    }


def test_updates_are_read_without_the_pressed_messages_keyboard_and_formatting(bot: Bot) -> None:
    session = bot.session
    assert isinstance(session, JsonSession)
    message = bot_message(5, {"id": 7, "type": "private", "first_name": "Вера"}, "рука")
    query = {
        "id": "q",
        "from": {"id": 7, "is_bot": False, "first_name": "Вера"},
        "message": message,
        "chat_instance": "1",
        "data": "h:1:0:5:p:QS~ab",
    }
    raw = json.dumps({"ok": True, "result": [{"update_id": 3, "callback_query": query}]})
    theirs = session.check_response(bot, GetUpdates(), 200, raw).result
    ours = session._updates(bot, json.loads(raw))
    assert theirs is not None and theirs[0].callback_query is not None
    assert theirs[0].callback_query.message.reply_markup is not None  # type: ignore[union-attr]
    assert ours[0].callback_query is not None
    assert ours[0].callback_query.message.reply_markup is None  # type: ignore[union-attr]
    assert ours[0].callback_query.message.entities is None  # type: ignore[union-attr]
    assert ours[0].callback_query.message.text == "рука"  # type: ignore[union-attr]
    assert ours[0].callback_query.data == theirs[0].callback_query.data
    unread = {"callback_query": {"message": {"reply_markup", "entities"}}}
    assert ours[0].model_dump(exclude=unread) == theirs[0].model_dump(exclude=unread)


def test_a_sent_message_is_read_for_its_id_without_its_keyboard(bot: Bot) -> None:
    session = bot.session
    assert isinstance(session, JsonSession)
    sent = bot_message(41, {"id": -1001, "type": "supergroup", "title": "Пятница"}, "стол")
    raw = json.dumps({"ok": True, "result": sent})
    theirs = session.check_response(bot, SendMessage(chat_id=-1001, text="x"), 200, raw).result
    ours = session._sent(bot, json.loads(raw))
    assert theirs is not None and theirs.reply_markup is not None
    assert (ours.message_id, ours.chat.id, ours.text) == (41, -1001, "стол")
    assert ours.reply_markup is None and ours.entities is None


async def test_requests_go_to_their_method_and_carry_no_cookie_back() -> None:
    """The session keeps each method's URL and timeout once made, and no cookie jar: what a
    server sets is never sent back (the Bot API sets none; aiohttp would read and match a jar on
    every request)."""
    from aiogram.client.telegram import TelegramAPIServer
    from aiohttp import web

    seen: list[tuple[str, str | None, dict[str, Any]]] = []

    async def method(request: web.Request) -> web.Response:
        seen.append(
            (request.match_info["method"], request.headers.get("Cookie"), await request.json())
        )
        response = web.json_response({"ok": True, "result": True})
        response.set_cookie("session", "abc")
        return response

    app = web.Application()
    app.router.add_post("/bot{token}/{method}", method)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    session = JsonSession(api=TelegramAPIServer.from_base(f"http://127.0.0.1:{port}"))
    bot = Bot("1:test", session=session)
    try:
        assert await bot(DeleteMessage(chat_id=5, message_id=3)) is True
        assert await bot(AnswerCallbackQuery(callback_query_id="q1", cache_time=0)) is True
        assert await bot(DeleteMessage(chat_id=6, message_id=4), request_timeout=5) is True
    finally:
        await session.close()
        await runner.cleanup()
    assert [(m, cookie) for m, cookie, _ in seen] == [
        ("deleteMessage", None),
        ("answerCallbackQuery", None),
        ("deleteMessage", None),
    ]
    assert [body for _, _, body in seen] == [
        {"chat_id": 5, "message_id": 3},
        {"callback_query_id": "q1", "cache_time": 0},
        {"chat_id": 6, "message_id": 4},
    ]
