"""The fake Bot API over raw HTTP: methods, updates, Telegram's error responses."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import aiohttp
import pytest

from tests.fakeapi import FakeTelegram, FakeUsageError, SentMessage
from tests.fakeapi.methods import NOT_MODIFIED, QUERY_TOO_OLD

TOKEN = "123456:TEST-token"


async def call(fake: FakeTelegram, method: str, **params: Any) -> tuple[int, dict[str, Any]]:
    """POST like aiogram: form fields, strings raw, everything else JSON-encoded."""
    form = aiohttp.FormData(quote_fields=False)
    for key, value in params.items():
        form.add_field(key, value if isinstance(value, str) else json.dumps(value))
    async with (
        aiohttp.ClientSession() as session,
        session.post(f"{fake.base_url}/bot{TOKEN}/{method}", data=form) as resp,
    ):
        return resp.status, await resp.json()


async def ok(fake: FakeTelegram, method: str, **params: Any) -> Any:
    status, body = await call(fake, method, **params)
    assert status == 200 and body["ok"], body
    return body["result"]


async def err(fake: FakeTelegram, method: str, **params: Any) -> tuple[int, str]:
    status, body = await call(fake, method, **params)
    assert not body["ok"] and body["error_code"] == status, body
    return status, body["description"]


def keyboard(*rows: list[tuple[str, str]]) -> dict[str, Any]:
    return {"inline_keyboard": [[{"text": t, "callback_data": d} for t, d in row] for row in rows]}


async def test_get_me_and_url_shape(fake_telegram: FakeTelegram) -> None:
    assert fake_telegram.base_url.startswith("http://127.0.0.1:")
    me = await ok(fake_telegram, "getMe")
    assert me["id"] == 123456 and me["is_bot"] and me["username"] == "mushka_test_bot"
    assert me["can_read_all_group_messages"] is False  # privacy mode on
    assert fake_telegram.count("getMe") == 1


async def test_wrong_token_is_unauthorized(fake_telegram: FakeTelegram) -> None:
    async with (
        aiohttp.ClientSession() as session,
        session.post(f"{fake_telegram.base_url}/bot1:wrong/getMe") as resp,
    ):
        assert resp.status == 401
        assert (await resp.json())["description"] == "Unauthorized"


async def test_unknown_method_is_404(fake_telegram: FakeTelegram) -> None:
    status, description = await err(fake_telegram, "sendPigeon", chat_id=1)
    assert (status, description) == (404, "Not Found: method not found")
    assert fake_telegram.requests[-1].ok is False
    assert fake_telegram.requests[-1].error_code == 404


async def test_send_to_user_who_never_started_is_403(fake_telegram: FakeTelegram) -> None:
    anna = fake_telegram.add_user(101, "Anna")
    status, description = await err(fake_telegram, "sendMessage", chat_id=101, text="hi")
    assert status == 403
    assert description == "Forbidden: bot can't initiate conversation with a user"
    await anna.start_bot()
    await ok(fake_telegram, "sendMessage", chat_id=101, text="hi")
    assert anna.last.text == "hi"


async def test_send_to_blocked_user_is_403(fake_telegram: FakeTelegram) -> None:
    anna = fake_telegram.add_user(101, "Anna")
    await anna.start_bot()
    anna.block_bot()
    status, description = await err(fake_telegram, "sendMessage", chat_id=101, text="hi")
    assert (status, description) == (403, "Forbidden: bot was blocked by the user")
    kinds = [next(k for k in u if k != "update_id") for u in fake_telegram.updates]
    assert kinds == ["message", "my_chat_member"]
    assert fake_telegram.updates[-1]["my_chat_member"]["new_chat_member"]["status"] == "kicked"
    await anna.start_bot()  # pressing Start again unblocks
    await ok(fake_telegram, "sendMessage", chat_id=101, text="back")


async def test_unknown_chat_is_400(fake_telegram: FakeTelegram) -> None:
    assert await err(fake_telegram, "sendMessage", chat_id=-999, text="x") == (
        400,
        "Bad Request: chat not found",
    )


async def test_send_message_html_keyboard_and_reply(fake_telegram: FakeTelegram) -> None:
    anna = fake_telegram.add_user(101, "Anna", username="anna")
    group = fake_telegram.add_group(-1001, "Card club", admins=[101])
    command = await anna.send(group, "/newgame mushka")
    result = await ok(
        fake_telegram,
        "sendMessage",
        chat_id=-1001,
        text="<b>Мушка</b> &lt;лобби&gt; Т♠",
        parse_mode="HTML",
        reply_markup=keyboard([("✋ Сесть", "l:1:-:0:j~abcdef")]),
        reply_parameters={"message_id": command.message_id},
        link_preview_options={"is_disabled": True},
        disable_notification=True,
    )
    assert result["chat"] == {"id": -1001, "type": "supergroup", "title": "Card club"}
    assert result["from"]["id"] == 123456
    assert result["text"] == "Мушка <лобби> Т♠"
    assert result["entities"] == [{"type": "bold", "offset": 0, "length": 5}]
    assert result["reply_to_message"]["message_id"] == command.message_id
    msg = group.last
    assert msg.message_id == result["message_id"] == command.message_id + 1
    assert msg.html == "<b>Мушка</b> &lt;лобби&gt; Т♠"
    assert msg.text == "Мушка <лобби> Т♠"
    assert msg.reply_to == command.message_id
    assert msg.disable_notification and msg.link_preview_options == {"is_disabled": True}
    assert msg.button("Сесть").callback_data == "l:1:-:0:j~abcdef"
    assert [[b.text for b in row] for row in msg.buttons] == [["✋ Сесть"]]
    assert fake_telegram.count("sendMessage", chat_id=-1001) == 1


async def test_numeric_looking_text_stays_a_string(fake_telegram: FakeTelegram) -> None:
    anna = fake_telegram.add_user(101, "Anna")
    await anna.start_bot()
    await ok(fake_telegram, "sendMessage", chat_id=101, text="123")
    assert anna.last.text == "123"
    assert fake_telegram.requests[-1].params == {"chat_id": 101, "text": "123"}


async def test_reply_to_missing_message_is_400(fake_telegram: FakeTelegram) -> None:
    anna = fake_telegram.add_user(101, "Anna")
    await anna.start_bot()
    _, description = await err(
        fake_telegram, "sendMessage", chat_id=101, text="x", reply_to_message_id=77
    )
    assert description == "Bad Request: message to be replied not found"
    await ok(
        fake_telegram,
        "sendMessage",
        chat_id=101,
        text="x",
        reply_parameters={"message_id": 77, "allow_sending_without_reply": True},
    )


@pytest.mark.parametrize(
    ("text", "parse_mode", "description"),
    [
        ("x" * 4097, None, "Bad Request: message is too long"),
        ("  ", None, "Bad Request: message text is empty"),
        ("<b>x", "HTML", 'can\'t find end tag corresponding to start tag "b"'),
        ("a <x> b", "HTML", 'unsupported start tag "x" at byte offset 2'),
        ("Only Tom <3 or an admin", "HTML", "can't find end of the tag starting at byte offset 9"),
        ("🦄" * 2049, None, "Bad Request: message is too long"),  # 4,098 UTF-16 units
        ("<b>" + "x" * 4097 + "</b>", "HTML", "Bad Request: message is too long"),
    ],
)
async def test_bad_text_is_400(
    fake_telegram: FakeTelegram, text: str, parse_mode: str | None, description: str
) -> None:
    anna = fake_telegram.add_user(101, "Anna")
    await anna.start_bot()
    params: dict[str, Any] = {"chat_id": 101, "text": text}
    if parse_mode:
        params["parse_mode"] = parse_mode
    status, got = await err(fake_telegram, "sendMessage", **params)
    assert status == 400 and description.lower() in got.lower()
    assert anna.visible == []


async def test_4096_characters_is_allowed(fake_telegram: FakeTelegram) -> None:
    anna = fake_telegram.add_user(101, "Anna")
    await anna.start_bot()
    await ok(fake_telegram, "sendMessage", chat_id=101, text="щ" * 4096)
    await ok(fake_telegram, "sendMessage", chat_id=101, text="🦄" * 2048)  # 4,096 units
    await ok(fake_telegram, "sendMessage", chat_id=101, text="<b>x</b>" * 4096, parse_mode="HTML")


async def test_callback_data_over_64_bytes_is_button_data_invalid(
    fake_telegram: FakeTelegram,
) -> None:
    anna = fake_telegram.add_user(101, "Anna")
    await anna.start_bot()
    exactly = "h" * 62 + "♠"[:0] + "ab"  # 64 ASCII bytes
    await ok(
        fake_telegram,
        "sendMessage",
        chat_id=101,
        text="x",
        reply_markup=keyboard([("ok", exactly)]),
    )
    too_long = "h:" + "♠" * 21  # 2 + 63 = 65 bytes in UTF-8, only 23 characters
    for markup in (keyboard([("ok", "a")], [("bad", too_long)]), keyboard([("empty", "")])):
        _, description = await err(
            fake_telegram, "sendMessage", chat_id=101, text="x", reply_markup=markup
        )
        assert description == "Bad Request: BUTTON_DATA_INVALID"
    bare = {"inline_keyboard": [[{"text": "no action"}]]}
    _, description = await err(
        fake_telegram, "sendMessage", chat_id=101, text="x", reply_markup=bare
    )
    assert description == "Bad Request: text buttons are unallowed in the inline keyboard"


async def test_edit_text_and_markup(fake_telegram: FakeTelegram) -> None:
    anna = fake_telegram.add_user(101, "Anna")
    await anna.start_bot()
    sent = await ok(
        fake_telegram, "sendMessage", chat_id=101, text="one", reply_markup=keyboard([("A", "a")])
    )
    mid = sent["message_id"]
    edited = await ok(
        fake_telegram,
        "editMessageText",
        chat_id=101,
        message_id=mid,
        text="<i>two</i>",
        parse_mode="HTML",
        reply_markup=keyboard([("B", "b")]),
    )
    assert edited["text"] == "two" and "edit_date" in edited
    msg = anna.last
    assert (msg.text, msg.edits, msg.button("B").callback_data) == ("two", 1, "b")
    await ok(
        fake_telegram,
        "editMessageReplyMarkup",
        chat_id=101,
        message_id=mid,
        reply_markup=keyboard([("C", "c")]),
    )
    assert (msg.text, msg.edits, msg.all_buttons[0].text) == ("two", 2, "C")
    # editMessageText without reply_markup removes the keyboard, as Telegram does
    await ok(fake_telegram, "editMessageText", chat_id=101, message_id=mid, text="three")
    assert msg.buttons == [] and msg.edits == 3
    assert [v.text for v in msg.history] == ["one", "two", "two", "three"]


async def test_edit_that_changes_nothing_is_not_modified(fake_telegram: FakeTelegram) -> None:
    anna = fake_telegram.add_user(101, "Anna")
    await anna.start_bot()
    markup = keyboard([("A", "a")])
    sent = await ok(
        fake_telegram,
        "sendMessage",
        chat_id=101,
        text="<b>x</b>",
        parse_mode="HTML",
        reply_markup=markup,
    )
    mid = sent["message_id"]
    for method, params in [
        ("editMessageText", {"text": "<strong>x</strong>", "parse_mode": "HTML"}),
        ("editMessageReplyMarkup", {}),
    ]:
        _, description = await err(
            fake_telegram, method, chat_id=101, message_id=mid, reply_markup=markup, **params
        )
        assert description == NOT_MODIFIED
    assert anna.last.edits == 0
    # same text but plain (bold entity lost) is a change
    await ok(
        fake_telegram, "editMessageText", chat_id=101, message_id=mid, text="x", reply_markup=markup
    )
    assert anna.last.entities == ()


async def test_edit_and_delete_missing_messages(fake_telegram: FakeTelegram) -> None:
    anna = fake_telegram.add_user(101, "Anna")
    start = await anna.start_bot()
    sent = await ok(fake_telegram, "sendMessage", chat_id=101, text="x")
    mid = sent["message_id"]
    assert await ok(fake_telegram, "deleteMessage", chat_id=101, message_id=mid) is True
    assert anna.messages[-1].deleted and anna.visible == []
    edit = await err(fake_telegram, "editMessageText", chat_id=101, message_id=mid, text="y")
    assert edit == (400, "Bad Request: message to edit not found")
    delete = await err(fake_telegram, "deleteMessage", chat_id=101, message_id=mid)
    assert delete == (400, "Bad Request: message to delete not found")
    not_ours = await err(
        fake_telegram, "editMessageText", chat_id=101, message_id=start.message_id, text="y"
    )
    assert not_ours == (400, "Bad Request: message can't be edited")


async def test_expired_message_cannot_be_edited(fake_telegram: FakeTelegram) -> None:
    anna = fake_telegram.add_user(101, "Anna")
    await anna.start_bot()
    sent = await ok(fake_telegram, "sendMessage", chat_id=101, text="x")
    fake_telegram.expire(anna.last)
    _, description = await err(
        fake_telegram, "editMessageText", chat_id=101, message_id=sent["message_id"], text="y"
    )
    assert description == "Bad Request: message can't be edited"


async def test_message_ids_grow_per_chat_update_ids_globally(fake_telegram: FakeTelegram) -> None:
    anna = fake_telegram.add_user(101, "Anna")
    boris = fake_telegram.add_user(102, "Boris")
    group = fake_telegram.add_group(-1001, "Club")
    a1 = await anna.start_bot()
    b1 = await boris.start_bot()
    g1 = await anna.send(group, "/score")
    g2 = await boris.send(group, "/score@mushka_test_bot")
    assert (a1.message_id, b1.message_id, g1.message_id, g2.message_id) == (1, 1, 1, 2)
    ids = [u["update_id"] for u in fake_telegram.updates]
    assert ids == sorted(ids) and len(set(ids)) == 4
    entity = fake_telegram.updates[-1]["message"]["entities"][0]
    assert entity == {"type": "bot_command", "offset": 0, "length": len("/score@mushka_test_bot")}


async def test_privacy_mode_filters_group_messages(fake_telegram: FakeTelegram) -> None:
    anna = fake_telegram.add_user(101, "Anna")
    group = fake_telegram.add_group(-1001, "Club")
    await anna.send(group, "hello all")
    await anna.send(group, "/help@other_bot")
    assert fake_telegram.updates == []
    await anna.send(group, "/help")
    await ok(fake_telegram, "sendMessage", chat_id=-1001, text="help text")
    await anna.send(group, "thanks", reply_to=group.last)  # replies to the bot are delivered
    texts = [u["message"]["text"] for u in fake_telegram.updates]
    assert texts == ["/help", "thanks"]
    assert fake_telegram.updates[-1]["message"]["reply_to_message"]["text"] == "help text"


async def test_get_updates_offset_limit_and_long_poll(fake_telegram: FakeTelegram) -> None:
    anna = fake_telegram.add_user(101, "Anna")
    for _ in range(3):
        await anna.start_bot()
    first = await ok(fake_telegram, "getUpdates", limit=2)
    assert [u["update_id"] for u in first] == [1, 2]
    again = await ok(fake_telegram, "getUpdates")  # nothing confirmed yet
    assert [u["update_id"] for u in again] == [1, 2, 3]
    rest = await ok(fake_telegram, "getUpdates", offset=3)
    assert [u["update_id"] for u in rest] == [3]
    assert fake_telegram.pending_updates == 0
    began = time.monotonic()
    assert await ok(fake_telegram, "getUpdates", offset=4, timeout=1) == []
    assert 0.9 <= time.monotonic() - began < 3

    async def later() -> None:
        await asyncio.sleep(0.1)
        await anna.send_private("/score")

    began = time.monotonic()
    poll, _ = await asyncio.gather(ok(fake_telegram, "getUpdates", offset=4, timeout=5), later())
    assert [u["message"]["text"] for u in poll] == ["/score"]
    assert time.monotonic() - began < 1.5


async def test_newer_poll_terminates_older_with_conflict(fake_telegram: FakeTelegram) -> None:
    older = asyncio.create_task(call(fake_telegram, "getUpdates", timeout=5))
    await fake_telegram.wait_until(lambda: fake_telegram.count("getUpdates") == 1)
    assert await ok(fake_telegram, "getUpdates", timeout=0) == []
    status, body = await older
    assert status == 409 and body["description"].startswith("Conflict: terminated by other")


async def test_another_poller_gets_every_poll_a_conflict(fake_telegram: FakeTelegram) -> None:
    fake_telegram.other_poller = True
    status, description = await err(fake_telegram, "getUpdates", timeout=0)
    assert status == 409 and description.startswith("Conflict: terminated by other")
    fake_telegram.other_poller = False
    assert await ok(fake_telegram, "getUpdates", timeout=0) == []


async def test_allowed_updates_filter(fake_telegram: FakeTelegram) -> None:
    anna = fake_telegram.add_user(101, "Anna")
    await anna.start_bot()
    anna.block_bot()
    got = await ok(fake_telegram, "getUpdates", allowed_updates=["my_chat_member"])
    assert [list(u)[1] for u in got] == ["my_chat_member"]
    assert fake_telegram.pending_updates == 0


async def test_rate_limit_429(fake_telegram: FakeTelegram) -> None:
    anna = fake_telegram.add_user(101, "Anna")
    await anna.start_bot()
    fake_telegram.rate_limit(per_chat=3, window=1.0)
    for i in range(3):
        await ok(fake_telegram, "sendMessage", chat_id=101, text=f"m{i}")
    status, body = await call(fake_telegram, "sendMessage", chat_id=101, text="m3")
    assert status == 429
    assert body["description"] == "Too Many Requests: retry after 1"
    assert body["parameters"] == {"retry_after": 1}
    mid = anna.last.message_id
    edit = await err(fake_telegram, "editMessageText", chat_id=101, message_id=mid, text="e")
    assert edit[0] == 429  # edits count too
    await ok(fake_telegram, "sendChatAction", chat_id=101, action="typing")  # not counted
    await asyncio.sleep(1.05)
    await ok(fake_telegram, "sendMessage", chat_id=101, text="m4")
    fake_telegram.rate_limit(None)
    for i in range(5):
        await ok(fake_telegram, "sendMessage", chat_id=101, text=f"n{i}")


async def test_commands_per_scope_and_language(fake_telegram: FakeTelegram) -> None:
    group_scope = {"type": "all_group_chats"}
    ru = [{"command": "newgame", "description": "Новый стол"}]
    en = [{"command": "newgame", "description": "New table"}]
    await ok(fake_telegram, "setMyCommands", commands=ru, scope=group_scope, language_code="ru")
    await ok(fake_telegram, "setMyCommands", commands=en, scope=group_scope)
    assert await ok(fake_telegram, "getMyCommands", scope=group_scope, language_code="ru") == ru
    assert await ok(fake_telegram, "getMyCommands", scope=group_scope) == en
    assert await ok(fake_telegram, "getMyCommands") == []
    assert fake_telegram.commands_for(group_scope, "ru") == ru
    bad = [{"command": "New-Game", "description": "x"}]
    assert (await err(fake_telegram, "setMyCommands", commands=bad))[1] == (
        "Bad Request: BOT_COMMAND_INVALID"
    )


async def test_chat_member_admins_and_chat(fake_telegram: FakeTelegram) -> None:
    fake_telegram.add_user(101, "Anna", username="anna")
    fake_telegram.add_user(102, "Boris")
    fake_telegram.add_user(103, "Vera")
    fake_telegram.add_group(-1001, "Club", admins=[101], members=[102], creator=103)
    member = await ok(fake_telegram, "getChatMember", chat_id=-1001, user_id=101)
    assert member["status"] == "administrator" and member["user"]["username"] == "anna"
    assert (await ok(fake_telegram, "getChatMember", chat_id=-1001, user_id=102))["status"] == (
        "member"
    )
    assert (await ok(fake_telegram, "getChatMember", chat_id=-1001, user_id=123456))[
        "status"
    ] == "member"
    admins = await ok(fake_telegram, "getChatAdministrators", chat_id=-1001)
    assert sorted((a["user"]["id"], a["status"]) for a in admins) == [
        (101, "administrator"),
        (103, "creator"),
    ]
    chat = await ok(fake_telegram, "getChat", chat_id=-1001)
    assert (chat["id"], chat["type"], chat["title"]) == (-1001, "supergroup", "Club")
    _, description = await err(fake_telegram, "getChatMember", chat_id=-1001, user_id=555)
    assert description == "Bad Request: user not found"


async def test_left_member_and_removed_bot(fake_telegram: FakeTelegram) -> None:
    anna = fake_telegram.add_user(101, "Anna")
    group = fake_telegram.add_group(-1001, "Club", members=[101])
    anna.leave(group)
    assert (await ok(fake_telegram, "getChatMember", chat_id=-1001, user_id=101))["status"] == (
        "left"
    )
    fake_telegram.remove_bot_from(group, by=anna)
    status, description = await err(fake_telegram, "sendMessage", chat_id=-1001, text="x")
    assert (status, description) == (403, "Forbidden: bot was kicked from the supergroup chat")


async def test_add_bot_to_group_updates(fake_telegram: FakeTelegram) -> None:
    anna = fake_telegram.add_user(101, "Anna", language_code="en")
    group = fake_telegram.add_group(-1001, "Club", with_bot=False)
    assert (await err(fake_telegram, "sendMessage", chat_id=-1001, text="x"))[0] == 403
    fake_telegram.add_bot_to(group, by=anna)
    member_update = fake_telegram.updates[0]["my_chat_member"]
    assert member_update["from"]["language_code"] == "en"
    assert member_update["old_chat_member"]["status"] == "left"
    assert member_update["new_chat_member"]["status"] == "member"
    assert fake_telegram.updates[1]["message"]["new_chat_members"][0]["id"] == 123456
    await ok(fake_telegram, "sendMessage", chat_id=-1001, text="Привет")


async def test_group_migration(fake_telegram: FakeTelegram) -> None:
    anna = fake_telegram.add_user(101, "Anna")
    group = fake_telegram.add_group(-5, "Club", supergroup=False, members=[101])
    await anna.send(group, "/newgame")
    new = fake_telegram.migrate_group(group, -1005)
    status, body = await call(fake_telegram, "sendMessage", chat_id=-5, text="x")
    assert status == 400 and body["parameters"] == {"migrate_to_chat_id": -1005}
    await ok(fake_telegram, "sendMessage", chat_id=-1005, text="x")
    assert new.last.text == "x"
    assert fake_telegram.updates[-1]["message"]["migrate_from_chat_id"] == -5


async def test_press_and_answer_callback(fake_telegram: FakeTelegram) -> None:
    anna = fake_telegram.add_user(101, "Anna")
    group = fake_telegram.add_group(-1001, "Club", members=[101])
    await ok(
        fake_telegram,
        "sendMessage",
        chat_id=-1001,
        text="lobby",
        reply_markup=keyboard([("✋ Join", "l:1:j"), ("🚪 Leave", "l:1:e")]),
    )

    async def bot_side() -> None:
        polled = await ok(fake_telegram, "getUpdates", timeout=2)
        query = polled[0]["callback_query"]
        assert query["data"] == "l:1:j" and query["from"]["id"] == 101
        assert query["message"]["reply_markup"]["inline_keyboard"][0][0]["text"] == "✋ Join"
        assert query["chat_instance"]
        await ok(
            fake_telegram,
            "answerCallbackQuery",
            callback_query_id=query["id"],
            text="Seated",
            show_alert=True,
        )
        again = await err(fake_telegram, "answerCallbackQuery", callback_query_id=query["id"])
        assert again == (400, QUERY_TOO_OLD)

    answer, _ = await asyncio.gather(anna.press(group.last, "Join"), bot_side())
    assert (answer.text, answer.show_alert) == ("Seated", True)
    assert (await err(fake_telegram, "answerCallbackQuery", callback_query_id="nope"))[1] == (
        QUERY_TOO_OLD
    )


async def test_a_press_answered_after_its_life_is_too_old(fake_telegram: FakeTelegram) -> None:
    anna = fake_telegram.add_user(101, "Anna")
    group = fake_telegram.add_group(-1001, "Club", members=[101])
    await ok(
        fake_telegram, "sendMessage", chat_id=-1001, text="x", reply_markup=keyboard([("A", "a")])
    )
    fake_telegram.query_life_s = 0.0
    query_id = anna.press_nowait(group.last, data="a")
    polled = await ok(fake_telegram, "getUpdates", timeout=2)
    assert polled[0]["callback_query"]["id"] == query_id
    late = await err(fake_telegram, "answerCallbackQuery", callback_query_id=query_id)
    assert late == (400, QUERY_TOO_OLD)
    assert query_id not in fake_telegram.callback_answers


async def test_press_without_answer_raises(fake_telegram: FakeTelegram) -> None:
    anna = fake_telegram.add_user(101, "Anna")
    await anna.start_bot()
    await ok(
        fake_telegram, "sendMessage", chat_id=101, text="x", reply_markup=keyboard([("A", "a")])
    )
    with pytest.raises(FakeUsageError, match="did not answer"):
        await anna.press(anna.last, data="a", timeout=0.2)


async def test_press_refuses_impossible_presses(fake_telegram: FakeTelegram) -> None:
    anna = fake_telegram.add_user(101, "Anna")
    boris = fake_telegram.add_user(102, "Boris")
    await anna.start_bot()
    await ok(
        fake_telegram,
        "sendMessage",
        chat_id=101,
        text="hand",
        reply_markup={
            "inline_keyboard": [
                [
                    {"text": "Q♠", "callback_data": "p:QS"},
                    {"text": "9♠", "callback_data": "p:9S"},
                    {"text": "·9♠·", "callback_data": "p:9S!"},
                ],
                [{"text": "Rules", "url": "https://t.me/mushka_test_bot?start=r_mushka"}],
            ]
        },
    )
    hand: SentMessage = anna.last
    assert hand.button("Q♠").callback_data == "p:QS"
    assert hand.button("9♠").callback_data == "p:9S"  # the exact text wins
    with pytest.raises(FakeUsageError, match="3 buttons"):
        hand.button("♠")
    with pytest.raises(FakeUsageError, match="no button"):
        await anna.press(hand, "K♥")
    with pytest.raises(FakeUsageError, match="not a callback button"):
        await anna.press(hand, "Rules")
    with pytest.raises(FakeUsageError, match="cannot see"):
        await boris.press(hand, "Q♠")
    opened = await boris.open_link(hand.button("Rules").url or "")
    assert opened is not None and opened.text == "/start r_mushka" and boris.started


async def test_inline_query_and_chosen_result(fake_telegram: FakeTelegram) -> None:
    anna = fake_telegram.add_user(101, "Anna")
    group = fake_telegram.add_group(-1001, "Club")
    card = {
        "type": "article",
        "id": "t1",
        "title": "Мушка",
        "input_message_content": {"message_text": "<b>Join</b> us", "parse_mode": "HTML"},
        "reply_markup": {
            "inline_keyboard": [[{"text": "✋", "url": "https://t.me/mushka_test_bot?start=j_1"}]]
        },
    }

    async def bot_side() -> None:
        polled = await ok(fake_telegram, "getUpdates", timeout=2)
        query = polled[0]["inline_query"]
        assert query["query"] == "" and query["from"]["id"] == 101
        await ok(
            fake_telegram,
            "answerInlineQuery",
            inline_query_id=query["id"],
            results=[card],
            cache_time=0,
            is_personal=True,
        )

    results, _ = await asyncio.gather(anna.inline_query(""), bot_side())
    assert results == [card]
    posted = await anna.choose_inline_result(results[0], group)
    assert posted.text == "Join us" and posted.via_bot and group.last is posted
    chosen = fake_telegram.updates[-1]["chosen_inline_result"]
    assert chosen["result_id"] == "t1" and chosen["inline_message_id"] == posted.inline_message_id
    assert (
        await ok(
            fake_telegram,
            "editMessageText",
            inline_message_id=posted.inline_message_id,
            text="Full",
        )
        is True
    )
    assert posted.text == "Full"


async def test_fail_next_injects_an_error(fake_telegram: FakeTelegram) -> None:
    anna = fake_telegram.add_user(101, "Anna")
    await anna.start_bot()
    fake_telegram.fail_next("sendMessage", 500, "Internal Server Error", chat_id=101)
    assert await err(fake_telegram, "sendMessage", chat_id=101, text="x") == (
        500,
        "Internal Server Error",
    )
    await ok(fake_telegram, "sendMessage", chat_id=101, text="x")


async def test_fail_next_when_fails_only_the_calls_it_accepts(fake_telegram: FakeTelegram) -> None:
    anna = fake_telegram.add_user(101, "Anna")
    await anna.start_bot()
    fake_telegram.fail_next(
        "sendMessage",
        429,
        "Too Many Requests: retry after 3",
        times=2,
        parameters={"retry_after": 3},
        when=lambda params: str(params.get("text", "")).startswith("📋"),
    )
    await ok(fake_telegram, "sendMessage", chat_id=101, text="the table")  # not its kind
    for _ in range(2):
        assert await err(fake_telegram, "sendMessage", chat_id=101, text="📋 deal 1") == (
            429,
            "Too Many Requests: retry after 3",
        )
    await ok(fake_telegram, "sendMessage", chat_id=101, text="📋 deal 1")  # used up
    assert [m.text for m in anna.messages][-2:] == ["the table", "📋 deal 1"]


async def test_a_call_held_whole_is_made_when_let_through_though_its_client_left(
    fake_telegram: FakeTelegram,
) -> None:
    """Telegram makes a request it got whole, whether or not its client still waits for the
    answer (a bot stopped mid-call); a plain gate drops it, as if it never arrived."""
    fake = fake_telegram
    anna = fake.add_user(101, "Anna")
    await anna.start_bot()
    for whole, kept in ((False, []), (True, ["on its way"])):
        held = fake.gate("sendMessage", chat_id=101, whole=whole)
        before, calls = len(anna.messages), fake.count("sendMessage", 101)
        client = asyncio.create_task(call(fake, "sendMessage", chat_id=101, text="on its way"))
        await fake.wait_until(lambda: fake.count("sendMessage", 101) > calls)  # noqa: B023
        client.cancel()  # the bot is gone before the answer
        with pytest.raises(asyncio.CancelledError):
            await client
        await asyncio.sleep(0.05)
        held.set()
        await asyncio.sleep(0.05)
        assert [m.text for m in anna.messages[before:]] == kept


async def test_settle_waits_for_fetch_and_quiet(fake_telegram: FakeTelegram) -> None:
    anna = fake_telegram.add_user(101, "Anna")
    await anna.start_bot()
    with pytest.raises(TimeoutError, match="1 update"):
        await fake_telegram.settle(quiet=0.05, timeout=0.2)

    async def bot() -> None:
        await ok(fake_telegram, "getUpdates")
        await asyncio.sleep(0.1)
        await ok(fake_telegram, "sendMessage", chat_id=101, text="welcome")

    task = asyncio.create_task(bot())
    await asyncio.sleep(0.05)
    await fake_telegram.settle(quiet=0.2, timeout=3)
    assert task.done() and anna.last.text == "welcome"


async def test_wait_until_times_out(fake_telegram: FakeTelegram) -> None:
    with pytest.raises(TimeoutError):
        await fake_telegram.wait_until(lambda: False, timeout=0.05)
