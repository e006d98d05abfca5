"""The outbox through the fake Bot API: order, coalesced edits, rate limits, restarts."""

from __future__ import annotations

import asyncio
import io
from collections.abc import AsyncIterator

import pytest
from aiogram import Bot
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.client.telegram import TelegramAPIServer
from PIL import Image

from bot.keys import outbox_key
from bot.rendered import Button, Keyboard, Rendered
from bot.sending.outbox import Old, Outbox, OutboxLimits
from bot.sending.session import TelegramLimits
from bot.storage.protocol import Store
from tests.fakeapi import FakeTelegram

GROUP = -100123
FAST = OutboxLimits(group_ops=6, group_window=1.0, edit_gap=0.15, private_ops=3, private_window=0.3)
"""Telegram's limits ten to sixty times faster, so a test takes seconds, not minutes."""


@pytest.fixture
def db(store: Store) -> Store:
    return store


@pytest.fixture
async def bot(fake_telegram: FakeTelegram) -> AsyncIterator[Bot]:
    session = AiohttpSession(api=TelegramAPIServer.from_base(fake_telegram.base_url))
    session.middleware(TelegramLimits())
    client = Bot(fake_telegram.token, session=session)
    try:
        yield client
    finally:
        await client.session.close()


def group(fake: FakeTelegram) -> None:
    fake.add_user(1, "Vera")
    fake.add_group(GROUP, "Table", members=[1])


def button(text: str) -> Keyboard:
    return Keyboard(((Button(text, callback_data="x"),),))


async def outbox(bot: Bot, db: Store, limits: OutboxLimits = FAST) -> Outbox:
    box = Outbox(bot, db, limits)
    await box.load()
    return box


async def test_edits_of_one_message_coalesce_and_the_last_state_is_delivered(
    fake_telegram: FakeTelegram, bot: Bot, db: Store
) -> None:
    group(fake_telegram)
    box = await outbox(bot, db)
    loop = asyncio.get_running_loop()
    started = loop.time()
    for k in range(40):  # as fast as the caller can: one send, then few edits
        box.show(GROUP, outbox_key("table:1:1"), Rendered(f"state {k}"))
        await asyncio.sleep(0.01)
    spent = loop.time() - started  # 0.4 s, or more on a loaded machine
    await box.drain()
    shown = [m for m in fake_telegram.messages(GROUP) if not m.deleted]
    assert [m.version.text for m in shown] == ["state 39"]
    edits = fake_telegram.count("editMessageText", GROUP)
    assert 1 <= edits <= spent / FAST.edit_gap + 2, (edits, spent)  # at most one per edit gap


async def test_a_group_never_gets_more_than_its_budget_and_order_is_kept(
    fake_telegram: FakeTelegram, bot: Bot, db: Store
) -> None:
    group(fake_telegram)
    fake_telegram.rate_limit(per_chat=FAST.group_ops, window=FAST.group_window)
    box = await outbox(bot, db)
    for k in range(5):
        box.show(GROUP, outbox_key("table:1:1"), Rendered(f"table after trick {k}"))
        box.post(GROUP, Rendered(f"result {k}"))
        box.show(GROUP, outbox_key("table:1:1"), Rendered(f"table after result {k}"))
    await asyncio.wait_for(box.drain(), 20)
    assert fake_telegram.count(chat_id=GROUP, ok=False) == 0  # not one 429
    texts = [m.version.text for m in fake_telegram.messages(GROUP)]
    assert texts[0] == "table after result 4"  # the table message, edited to its last state
    assert texts[1:] == [f"result {k}" for k in range(5)]  # the posts, in order


async def test_an_edit_never_overtakes_what_was_queued_before_it(
    fake_telegram: FakeTelegram, bot: Bot, db: Store
) -> None:
    group(fake_telegram)
    box = await outbox(bot, db)
    box.show(GROUP, outbox_key("table:1:1"), Rendered("deal 1, trick 5 complete"))
    box.post(GROUP, Rendered("deal 1 result"))
    box.show(GROUP, outbox_key("table:1:2"), Rendered("deal 2"), fresh=True)
    box.show(
        GROUP, outbox_key("table:1:1"), Rendered("deal 1 as it ended")
    )  # after the post: stays after
    await box.drain()
    order = [c.method for c in fake_telegram.calls() if c.chat_id == GROUP]
    assert order == ["sendMessage", "sendMessage", "sendMessage", "editMessageText"]


async def test_identical_edits_are_never_sent_across_restarts(
    fake_telegram: FakeTelegram, bot: Bot, db: Store
) -> None:
    group(fake_telegram)
    box = await outbox(bot, db)
    box.show(GROUP, outbox_key("table:1:1"), Rendered("the table", button("🂠")))
    await box.drain()
    for _ in range(3):  # restarts: a new outbox on the same database
        await box.close()
        box = await outbox(bot, db)
        box.show(GROUP, outbox_key("table:1:1"), Rendered("the table", button("🂠")))
        await box.drain()
    assert fake_telegram.count("editMessageText") == 0
    box.show(GROUP, outbox_key("table:1:1"), Rendered("the table", button("🂡")))
    await box.drain()
    assert fake_telegram.count("editMessageText") == 1
    assert (
        box.message_id(GROUP, outbox_key("table:1:1"))
        == fake_telegram.messages(GROUP)[0].message_id
    )


async def test_a_fresh_message_replaces_the_old_one(
    fake_telegram: FakeTelegram, bot: Bot, db: Store
) -> None:
    vera = fake_telegram.add_user(1, "Vera")
    await vera.start_bot()
    box = await outbox(bot, db)
    box.show(vera.id, outbox_key("hand:1:0"), Rendered("old hand", button("7♠")))
    box.show(
        vera.id,
        outbox_key("hand:1:0"),
        Rendered("new hand", button("8♠")),
        fresh=True,
        old=Old.DELETE,
    )
    await box.drain()
    live = [m for m in fake_telegram.messages(vera.id) if not m.deleted]
    assert [m.version.text for m in live] == ["new hand"]
    assert box.message_id(vera.id, outbox_key("hand:1:0")) == live[0].message_id


async def test_a_hand_sent_anew_again_and_again_while_queued_goes_once_in_its_latest_state(
    fake_telegram: FakeTelegram, bot: Bot, db: Store
) -> None:
    """A private chat's queue backs up (its pace), and the hand is sent anew twenty times
    meanwhile, between edits of it: one new message, the latest state — no stale hand sent
    behind a newer one, no message sent only to be deleted."""
    vera = fake_telegram.add_user(1, "Vera")
    await vera.start_bot()
    box = await outbox(bot, db)
    key = outbox_key("hand:1:0")
    box.show(vera.id, key, Rendered("deal 1", button("7♠")))
    await box.drain()
    mark = fake_telegram.mark()
    box.show(vera.id, outbox_key("other:1"), Rendered("before"))  # the queue is busy
    for k in range(20):
        box.show(
            vera.id, key, Rendered(f"deal 2 state {k}", button("8♠")), fresh=True, old=Old.DELETE
        )
        box.show(vera.id, key, Rendered(f"deal 2 state {k}b", button("9♠")))
    await box.drain()
    sent = [c for c in fake_telegram.requests[mark:] if c.method == "sendMessage"]
    assert [c.params["text"] for c in sent] == ["before", "deal 2 state 19"]  # then edited
    live = [m.version.text for m in fake_telegram.messages(vera.id) if not m.deleted]
    assert live[-2:] == ["before", "deal 2 state 19b"] and "deal 1" not in live


async def test_a_blocked_private_chat_is_closed_until_a_message_gets_through(
    fake_telegram: FakeTelegram, bot: Bot, db: Store
) -> None:
    vera = fake_telegram.add_user(1, "Vera")  # never started the bot: 403
    box = await outbox(bot, db)
    sent = box.post(vera.id, Rendered("your cards"))
    assert await sent is None and box.is_closed(vera.id)
    await vera.start_bot()
    assert await box.post(vera.id, Rendered("your cards")) is not None
    assert not box.is_closed(vera.id)


async def test_a_keyed_picture_goes_once_and_a_refused_one_lets_its_key_go(
    fake_telegram: FakeTelegram, bot: Bot, db: Store
) -> None:
    """A game's chart: posted twice before it is sent, or again after a restart, it goes once; a
    send Telegram refuses leaves nothing remembered, so the next asking sends it."""
    group(fake_telegram)
    png = io.BytesIO()
    Image.new("RGB", (40, 20), "white").save(png, format="PNG")
    box = await outbox(bot, db)
    fake_telegram.fail_next("sendPhoto", chat_id=GROUP)
    box.post_photo(GROUP, "chart.png", png.getvalue(), key=outbox_key("chart:1:1"))
    await box.drain()
    assert fake_telegram.count("sendPhoto", GROUP, ok=True) == 0  # refused: let go
    assert box.message_id(GROUP, outbox_key("chart:1:1")) is None and not box.queued(
        GROUP, outbox_key("chart:1:1")
    )
    for _ in range(2):  # two presses before it is sent
        box.post_photo(
            GROUP, "chart.png", png.getvalue(), key=outbox_key("chart:1:1"), reply_to=None
        )
    assert box.queued(GROUP, outbox_key("chart:1:1"))
    await box.drain()
    await box.close()
    box = await outbox(bot, db)  # a restart remembers it
    box.post_photo(GROUP, "chart.png", png.getvalue(), key=outbox_key("chart:1:1"))
    await box.drain()
    (sent,) = [m for m in fake_telegram.messages(GROUP) if m.photo is not None]
    assert sent.photo is not None and sent.photo.data == png.getvalue()
    assert box.message_id(GROUP, outbox_key("chart:1:1")) == sent.message_id
    box.post_photo(GROUP, "chart.png", png.getvalue())  # unkeyed (/record): every time
    await box.drain()
    assert fake_telegram.count("sendPhoto", GROUP, ok=True) == 2


async def test_a_keyed_record_goes_once_and_a_refused_one_lets_its_key_go(
    fake_telegram: FakeTelegram, bot: Bot, db: Store
) -> None:
    """A game's record (/record): keyed, it is sent once however often it is queued, its id is
    remembered across a restart (a later /record points to it), and a refused send lets its key
    go; an unkeyed file (its transcript) goes every time."""
    group(fake_telegram)
    box = await outbox(bot, db)
    fake_telegram.fail_next("sendDocument", chat_id=GROUP)
    box.post_document(GROUP, "game.jsonl", b"{}", key=outbox_key("record:1:1"))
    await box.drain()
    assert box.message_id(GROUP, outbox_key("record:1:1")) is None and not box.queued(
        GROUP, outbox_key("record:1:1")
    )
    for _ in range(2):
        box.post_document(GROUP, "game.jsonl", b"{}", key=outbox_key("record:1:1"))
    assert box.queued(GROUP, outbox_key("record:1:1"))
    await box.drain()
    await box.close()
    box = await outbox(bot, db)  # a restart remembers it
    box.post_document(GROUP, "game.jsonl", b"{}", key=outbox_key("record:1:1"))
    await box.drain()
    (sent,) = [m for m in fake_telegram.messages(GROUP) if m.document is not None]
    assert box.message_id(GROUP, outbox_key("record:1:1")) == sent.message_id
    box.post_document(GROUP, "game.txt", b"words")  # unkeyed: every time
    box.post_document(GROUP, "game.txt", b"words")
    await box.drain()
    assert fake_telegram.count("sendDocument", GROUP, ok=True) == 3
