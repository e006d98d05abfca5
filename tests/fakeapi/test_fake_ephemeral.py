"""Ephemeral messages in the fake (Bot API 10.2–10.3) over raw HTTP; through aiogram:
test_fake_ephemeral_aiogram.py."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

from tests.fakeapi import FakeTelegram, FakeUsageError, SimGroup, SimUser
from tests.fakeapi.ephemeral import (
    NO_RECEIVER,
    NO_RIGHTS,
    NOT_GROUP,
    QUERY_MISMATCH,
    QUERY_NOT_FOUND,
    RECEIVER_BOT,
    REPLACE_EPHEMERAL,
    REPLACE_NEEDS_QUERY,
    REPLY_NOT_EPHEMERAL,
    EphemeralSend,
)
from tests.fakeapi.methods import NOT_MODIFIED
from tests.fakeapi.test_fake_api import err, keyboard, ok

GROUP = -1001


def people(
    fake: FakeTelegram, *, bot_admin: bool = True
) -> tuple[SimUser, SimUser, SimUser, SimGroup]:
    anna = fake.add_user(101, "Anna")
    boris = fake.add_user(102, "Boris")
    carl = fake.add_user(103, "Carl")  # not in the group
    group = fake.add_group(GROUP, "Club", members=[101, 102], bot_admin=bot_admin)
    return anna, boris, carl, group


async def send_eph(
    fake: FakeTelegram, receiver: int, text: str = "your hand", *, html: bool = False, **eph: Any
) -> Any:
    more: dict[str, Any] = {"parse_mode": "HTML"} if html else {}
    if "reply_parameters" in eph:  # a field of the send, not of the ephemeral parameters
        more["reply_parameters"] = eph.pop("reply_parameters")
    return await ok(
        fake,
        "sendMessage",
        chat_id=GROUP,
        text=text,
        ephemeral_message_parameters={"receiver_user_id": receiver, **eph},
        reply_markup=keyboard([("K♥", "h:K"), ("Q♠", "h:Q")]),
        **more,
    )


async def eph_err(fake: FakeTelegram, receiver: int, **more: Any) -> str:
    top = {k: more.pop(k) for k in ("reply_parameters",) if k in more}
    status, description = await err(
        fake,
        "sendMessage",
        chat_id=more.pop("chat_id", GROUP),
        text="x",
        ephemeral_message_parameters={"receiver_user_id": receiver, **more},
        **top,
    )
    assert status == 400
    return description


async def pressed(fake: FakeTelegram, user: SimUser, message: Any, text: str) -> Any:
    """Start ``user``'s press (the bot answers later): (the press task, its callback query)."""
    before = len(fake.updates)
    task = asyncio.create_task(user.press(message, text))
    await fake.wait_until(lambda: len(fake.updates) > before)
    return task, fake.updates[-1]["callback_query"]


async def answer(fake: FakeTelegram, task: Any, query: dict[str, Any]) -> None:
    await ok(fake, "answerCallbackQuery", callback_query_id=query["id"])
    await task


# ---------------------------------------------------------------------- sending, visibility


async def test_admin_bot_sends_ephemeral_seen_by_receiver_only(fake_telegram: FakeTelegram) -> None:
    fake = fake_telegram
    anna, boris, _, group = people(fake)
    result = await send_eph(fake, 101, "<b>your</b> hand", html=True)
    assert result["message_id"] == 0 and result["ephemeral_message_id"] == 1
    assert result["receiver_user"]["id"] == 101 and result["chat"]["id"] == GROUP
    assert result["text"] == "your hand" and result["entities"][0]["type"] == "bold"
    assert result["reply_markup"]["inline_keyboard"][0][0]["callback_data"] == "h:K"
    second = await send_eph(fake, 102, "boris's hand")
    assert second["ephemeral_message_id"] == 2  # unique per chat, whoever receives it
    assert fake.requests[-1].ephemeral
    mine = anna.last_ephemeral(group)
    assert (mine.ephemeral_id, mine.receiver_id, mine.message_id) == (1, 101, 0)
    assert mine.html == "<b>your</b> hand" and mine.delivered
    assert [m.text for m in anna.ephemeral(group)] == ["your hand"]
    assert [m.text for m in boris.ephemeral(group)] == ["boris's hand"]
    # nobody sees them as group messages
    assert group.messages == [] and group.visible == [] and fake.messages(GROUP) == []
    with pytest.raises(FakeUsageError):
        _ = group.last
    assert [m.text for m in anna.view(group)] == ["your hand"]
    assert fake.ephemeral_sends() == [
        EphemeralSend(GROUP, 101, "your hand"),
        EphemeralSend(GROUP, 102, "boris's hand"),
    ]
    assert len(fake.ephemeral(GROUP)) == 2
    # a normal group message is still seen by all, and not counted as ephemeral
    await ok(fake, "sendMessage", chat_id=GROUP, text="table")
    assert [m.text for m in group.visible] == ["table"] and not fake.requests[-1].ephemeral
    assert [m.text for m in boris.view(group)] == ["table", "boris's hand"]


async def test_ephemeral_refusals(fake_telegram: FakeTelegram) -> None:
    fake = fake_telegram
    anna, boris, carl, group = people(fake)
    await anna.start_bot()
    assert await eph_err(fake, 101, chat_id=101) == f"Bad Request: {NOT_GROUP}"
    assert await eph_err(fake, 103) == f"Bad Request: {NO_RECEIVER}"  # Carl is not in it
    assert await eph_err(fake, 999) == f"Bad Request: {NO_RECEIVER}"  # nobody
    assert await eph_err(fake, fake.bot_id) == f"Bad Request: {RECEIVER_BOT}"
    assert await eph_err(fake, 1087968824) == f"Bad Request: {RECEIVER_BOT}"
    boris.leave(group)
    assert await eph_err(fake, 102) == f"Bad Request: {NO_RECEIVER}"
    group.restrict(anna, is_member=False)
    assert await eph_err(fake, 101) == f"Bad Request: {NO_RECEIVER}"
    group.restrict(anna, is_member=True)  # restricted but in the group: may receive
    await send_eph(fake, 101)
    assert "receiver_user_id" in await eph_err(fake, "101")  # type: ignore[arg-type]
    status, description = await err(
        fake, "sendMessage", chat_id=GROUP, text="x", ephemeral_message_parameters="[1]"
    )
    assert status == 400 and "ephemeral" in description
    assert await eph_err(fake, 101, replace_callback_query_message=True) == (
        f"Bad Request: {REPLACE_NEEDS_QUERY}"
    )
    fake.set_bot_admin(GROUP, False)
    assert await eph_err(fake, 101) == f"Bad Request: {NO_RIGHTS}"
    fake.set_bot_admin(GROUP)
    await send_eph(fake, 101)
    assert carl.ephemeral(group) == [] and len(anna.ephemeral(group)) == 2
    assert fake.count("sendMessage", ok=False) == 11


async def test_deprecated_top_level_receiver_is_read(fake_telegram: FakeTelegram) -> None:
    anna, _, _, group = people(fake_telegram)
    result = await ok(fake_telegram, "sendMessage", chat_id=GROUP, text="hi", receiver_user_id=101)
    assert result["ephemeral_message_id"] == 1 and anna.last_ephemeral(group).text == "hi"
    assert fake_telegram.messages(GROUP) == []


async def test_callback_query_lets_a_plain_member_bot_send(fake_telegram: FakeTelegram) -> None:
    fake = fake_telegram
    anna, boris, _, group = people(fake, bot_admin=False)
    other = fake.add_group(-1002, "Other", members=[101])
    await ok(fake, "sendMessage", chat_id=GROUP, text="table", reply_markup=keyboard([("🂠", "t")]))
    await ok(fake, "sendMessage", chat_id=-1002, text="other", reply_markup=keyboard([("🂠", "t")]))
    assert await eph_err(fake, 101) == f"Bad Request: {NO_RIGHTS}"
    task, query = await pressed(fake, anna, group.last, "🂠")
    await send_eph(fake, 101, "before the answer", callback_query_id=query["id"])
    await answer(fake, task, query)
    await send_eph(fake, 101, "after the answer", callback_query_id=query["id"])
    assert [m.text for m in anna.ephemeral(group)] == ["before the answer", "after the answer"]
    # the query must be the receiver's, from this chat, known and fresh
    assert await eph_err(fake, 102, callback_query_id=query["id"]) == (
        f"Bad Request: {QUERY_MISMATCH}"
    )
    task2, query2 = await pressed(fake, anna, other.last, "🂠")
    await answer(fake, task2, query2)
    assert await eph_err(fake, 101, callback_query_id=query2["id"]) == (
        f"Bad Request: {QUERY_MISMATCH}"
    )
    assert await eph_err(fake, 101, callback_query_id="404") == f"Bad Request: {QUERY_NOT_FOUND}"
    fake.ephemeral_callback_validity = 0.0
    assert await eph_err(fake, 101, callback_query_id=query["id"]) == (
        f"Bad Request: {QUERY_NOT_FOUND}"
    )
    fake.set_bot_admin(GROUP)  # even an admin bot may not name a stale query
    assert await eph_err(fake, 101, callback_query_id=query["id"]) == (
        f"Bad Request: {QUERY_NOT_FOUND}"
    )
    assert boris.ephemeral(group) == []


# ---------------------------------------------------------------------- presses, replacing


async def test_press_on_ephemeral_round_trip(fake_telegram: FakeTelegram) -> None:
    fake = fake_telegram
    anna, boris, _, group = people(fake)
    await send_eph(fake, 101)
    hand = anna.last_ephemeral(group)
    task, query = await pressed(fake, anna, hand, "Q♠")
    message = query["message"]
    assert query["data"] == "h:Q" and query["from"]["id"] == 101
    assert message["message_id"] == 0 and message["ephemeral_message_id"] == hand.ephemeral_id
    assert message["receiver_user"]["id"] == 101 and message["chat"]["id"] == GROUP
    assert message["reply_markup"]["inline_keyboard"][0][1]["text"] == "Q♠"
    await answer(fake, task, query)
    with pytest.raises(FakeUsageError, match="cannot see ephemeral"):
        await boris.press(hand, "Q♠")
    # the query of an ephemeral message authorises a reply, but not a replacing one
    assert await eph_err(
        fake, 101, callback_query_id=query["id"], replace_callback_query_message=True
    ) == (f"Bad Request: {REPLACE_EPHEMERAL}")
    await send_eph(fake, 101, "again", callback_query_id=query["id"])
    await ok(
        fake,
        "deleteEphemeralMessage",
        chat_id=GROUP,
        receiver_user_id=101,
        ephemeral_message_id=hand.ephemeral_id,
    )
    with pytest.raises(FakeUsageError, match="deleted"):
        await anna.press(hand, "Q♠")


async def test_replace_callback_query_message(fake_telegram: FakeTelegram) -> None:
    fake = fake_telegram
    anna, boris, _, group = people(fake, bot_admin=False)
    await ok(fake, "sendMessage", chat_id=GROUP, text="table", reply_markup=keyboard([("🂠", "t")]))
    table = group.last
    task, query = await pressed(fake, anna, table, "🂠")
    result = await send_eph(
        fake, 101, "your cards", callback_query_id=query["id"], replace_callback_query_message=True
    )
    await answer(fake, task, query)
    stand_in = anna.shown_in_place_of(table)
    assert stand_in is not None and stand_in.replaces == table.message_id
    assert stand_in.ephemeral_id == result["ephemeral_message_id"]
    assert boris.shown_in_place_of(table) is None
    assert [m.text for m in anna.view(group)] == ["your cards"]
    assert [m.text for m in boris.view(group)] == ["table"]
    assert group.last is table  # the group's message itself is untouched
    with pytest.raises(FakeUsageError, match="in place of"):
        await anna.press(table, "🂠")
    await ok(
        fake,
        "deleteEphemeralMessage",
        chat_id=GROUP,
        receiver_user_id=101,
        ephemeral_message_id=stand_in.ephemeral_id,
    )
    assert anna.shown_in_place_of(table) is None
    assert [m.text for m in anna.view(group)] == ["table"]


# ---------------------------------------------------------------------- edits, deletes


async def test_edit_and_delete_ephemeral(fake_telegram: FakeTelegram) -> None:
    fake = fake_telegram
    anna, _, _, group = people(fake)
    await send_eph(fake, 101, "hand: K♥ Q♠")
    hand = anna.last_ephemeral(group)
    where = {"chat_id": GROUP, "receiver_user_id": 101, "ephemeral_message_id": 1}
    assert await ok(fake, "editEphemeralMessageText", **where, text="hand: K♥") is True
    assert hand.text == "hand: K♥" and hand.edits == 1 and hand.buttons == []  # keyboard gone
    assert [v.text for v in hand.history] == ["hand: K♥ Q♠", "hand: K♥"]
    status, description = await err(fake, "editEphemeralMessageText", **where, text="hand: K♥")
    assert (status, description) == (400, NOT_MODIFIED)
    markup = keyboard([("K♥", "h:K")])
    assert await ok(fake, "editEphemeralMessageReplyMarkup", **where, reply_markup=markup)
    assert hand.text == "hand: K♥" and hand.all_buttons[0].callback_data == "h:K"
    status, description = await err(
        fake, "editEphemeralMessageReplyMarkup", **where, reply_markup=markup
    )
    assert (status, description) == (400, NOT_MODIFIED)
    assert await ok(fake, "editEphemeralMessageReplyMarkup", **where) is True
    assert hand.buttons == [] and hand.edits == 3
    wrong = {**where, "receiver_user_id": 102}
    assert await err(fake, "editEphemeralMessageText", **wrong, text="x") == (
        400,
        "Bad Request: message to edit not found",
    )
    assert await err(fake, "deleteEphemeralMessage", **{**where, "ephemeral_message_id": 9}) == (
        400,
        "Bad Request: message to delete not found",
    )
    assert await ok(fake, "deleteEphemeralMessage", **where) is True
    assert hand.deleted and anna.ephemeral(group) == [] and anna.ephemeral(group, deleted=True)
    assert await err(fake, "deleteEphemeralMessage", **where) == (
        400,
        "Bad Request: message to delete not found",
    )
    assert await err(fake, "editEphemeralMessageText", **where, text="y") == (
        400,
        "Bad Request: message to edit not found",
    )
    # a normal edit can't reach an ephemeral message by its message_id 0
    assert (await err(fake, "editMessageText", chat_id=GROUP, message_id=0, text="z"))[0] == 400
    assert [s.text for s in fake.ephemeral_sends()] == ["hand: K♥ Q♠", "hand: K♥"]
    assert group.messages == []


# ---------------------------------------------------------------------- undelivered, rate


async def test_drop_switch_is_seeded_and_silent(fake_telegram: FakeTelegram) -> None:
    fake = fake_telegram
    anna, boris, _, group = people(fake)
    fake.drop_ephemeral(0.5, seed=7)
    for i in range(20):
        await send_eph(fake, 101, f"hand {i}")  # every send succeeds at the API
    rng = random.Random(7)
    expected = [f"hand {i}" for i in range(20) if not rng.random() < 0.5]
    assert 0 < len(expected) < 20
    assert [m.text for m in anna.ephemeral(group)] == expected
    lost = next(m for m in fake.ephemeral(GROUP) if not m.delivered)
    with pytest.raises(FakeUsageError, match="never delivered"):
        await anna.press(lost, "K♥")
    where = {"chat_id": GROUP, "receiver_user_id": 101, "ephemeral_message_id": lost.ephemeral_id}
    assert await ok(fake, "editEphemeralMessageText", **where, text="edited") is True
    assert await ok(fake, "deleteEphemeralMessage", **where) is True
    fake.drop_ephemeral(0.0)
    boris.offline = True
    await send_eph(fake, 102, "to boris")
    assert boris.ephemeral(group) == [] and fake.ephemeral(GROUP)[-1].delivered is False
    boris.offline = False
    await send_eph(fake, 102, "to boris again")
    assert [m.text for m in boris.ephemeral(group)] == ["to boris again"]
    with pytest.raises(FakeUsageError):
        fake.drop_ephemeral(1.5)


async def test_ephemeral_rate_budget_is_per_receiver(fake_telegram: FakeTelegram) -> None:
    fake = fake_telegram
    people(fake)
    fake.rate_limit(per_chat=4, window=60.0, groups_only=True)  # the group's window
    limit, _ = fake.ephemeral_rate or (0, 0.0)
    assert limit == 3
    for _ in range(limit):
        await send_eph(fake, 101)
    status, description = await err(
        fake,
        "sendMessage",
        chat_id=GROUP,
        text="x",
        ephemeral_message_parameters={"receiver_user_id": 101},
    )
    assert status == 429 and description.startswith("Too Many Requests: retry after")
    where = {"chat_id": GROUP, "receiver_user_id": 101, "ephemeral_message_id": 1}
    assert (await err(fake, "editEphemeralMessageText", **where, text="e"))[0] == 429
    for _ in range(limit):  # another receiver has a budget of his own
        await send_eph(fake, 102)
    for i in range(4):  # and the group's window was not touched
        await ok(fake, "sendMessage", chat_id=GROUP, text=f"table {i}")
    assert (await err(fake, "sendMessage", chat_id=GROUP, text="one more"))[0] == 429
    fake.ephemeral_rate = (10, 1.0)  # easy to change
    await send_eph(fake, 101)


# ---------------------------------------------------------------------- buttons, commands


async def test_button_style_and_disabled(fake_telegram: FakeTelegram) -> None:
    fake = fake_telegram
    anna, _, _, group = people(fake)
    row: list[dict[str, Any]] = [
        {"text": "Play", "callback_data": "p", "style": "success"},
        {"text": "Pass", "style": "danger", "disabled": {}},
        {"text": "—", "disabled": {}},
    ]
    await ok(fake, "sendMessage", chat_id=GROUP, text="t", reply_markup={"inline_keyboard": [row]})
    play, passed, dash = group.last.all_buttons
    assert (play.style, play.disabled) == ("success", False)
    assert (passed.style, passed.disabled) == ("danger", True)
    assert (dash.style, dash.disabled, dash.callback_data) == (None, True, None)
    await send_eph(fake, 101)  # ephemeral keyboards go through the same checks
    await ok(
        fake,
        "editEphemeralMessageReplyMarkup",
        chat_id=GROUP,
        receiver_user_id=101,
        ephemeral_message_id=1,
        reply_markup={"inline_keyboard": [[{**row[0], "style": "primary"}, row[1]]]},
    )
    assert [(b.style, b.disabled) for b in anna.last_ephemeral(group).all_buttons] == [
        ("primary", False),
        ("danger", True),
    ]
    for bad in ({"style": "blue"}, {"style": 1}):
        markup = {"inline_keyboard": [[{"text": "a", "callback_data": "a", **bad}]]}
        assert await err(fake, "sendMessage", chat_id=GROUP, text="t", reply_markup=markup) == (
            400,
            "Bad Request: BUTTON_STYLE_INVALID",
        )
    two = {"inline_keyboard": [[{"text": "a", "callback_data": "a", "disabled": {}}]]}
    assert await err(fake, "sendMessage", chat_id=GROUP, text="t", reply_markup=two) == (
        400,
        "Bad Request: BUTTON_TYPE_INVALID",  # a button has exactly one kind
    )
    markup = {"inline_keyboard": [[{"text": "a", "disabled": True}]]}
    status, description = await err(
        fake, "sendMessage", chat_id=GROUP, text="t", reply_markup=markup
    )
    assert status == 400 and "disabled" in description
    login = {"inline_keyboard": [[{"text": "in", "login_url": {"url": "https://x.example"}}]]}
    status, description = await err(
        fake,
        "sendMessage",
        chat_id=GROUP,
        text="t",
        reply_markup=login,
        ephemeral_message_parameters={"receiver_user_id": 101},
    )
    assert (status, description) == (400, "Bad Request: BUTTON_TYPE_INVALID")
    # a disabled button does nothing when pressed: it carries no press to send
    with pytest.raises(FakeUsageError):
        await anna.press(group.messages[0], "Pass")
    with pytest.raises(FakeUsageError, match="not a callback button"):
        await anna.press(group.messages[0], "—")


async def test_set_my_commands_keeps_is_ephemeral(fake_telegram: FakeTelegram) -> None:
    commands = [
        {"command": "hand", "description": "Show my hand", "is_ephemeral": True},
        {"command": "newgame", "description": "New game"},
    ]
    assert await ok(fake_telegram, "setMyCommands", commands=commands) is True
    got = await ok(fake_telegram, "getMyCommands")
    assert got[0]["is_ephemeral"] is True and "is_ephemeral" not in got[1]
    bad = [{"command": "hand", "description": "d", "is_ephemeral": "yes"}]
    assert (await err(fake_telegram, "setMyCommands", commands=bad))[0] == 400
    assert fake_telegram.commands_for()[0]["is_ephemeral"] is True


async def test_ephemeral_replies(fake_telegram: FakeTelegram) -> None:
    fake = fake_telegram
    anna, _, _, group = people(fake)
    asked = await anna.send(group, "/hand")
    result = await send_eph(fake, 101, "K♥ Q♠", reply_parameters={"message_id": asked.message_id})
    assert result["reply_to_message"]["text"] == "/hand"
    assert anna.last_ephemeral(group).reply_to == asked.message_id
    assert await eph_err(fake, 101, reply_parameters={"message_id": 999}) == (
        "Bad Request: message to be replied not found"
    )
    # allow_sending_without_reply is always False for an ephemeral message (Bot API)
    lenient = {"message_id": 999, "allow_sending_without_reply": True}
    assert await eph_err(fake, 101, reply_parameters=lenient) == (
        "Bad Request: message to be replied not found"
    )
    assert await eph_err(fake, 101, reply_parameters={"ephemeral_message_id": 1}) == (
        "Bad Request: message to be replied not found"
    )
    status, description = await err(
        fake,
        "sendMessage",
        chat_id=GROUP,
        text="x",
        reply_parameters={"ephemeral_message_id": 1},
    )
    assert (status, description) == (400, f"Bad Request: {REPLY_NOT_EPHEMERAL}")
    assert group.messages == []
