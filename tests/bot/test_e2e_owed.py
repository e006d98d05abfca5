"""The durable outbox: what the bot owes a group — a deal's result, a match's
result, a notice — is written with the move that caused it, so a stop or a kill while it waits
behind the group's budget loses nothing: the next start posts it, once, however many moves came
after it. (A real ``kill -9`` of a subprocess: ``test_proof_kill.py``.)"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from collections.abc import AsyncIterator

from redis.asyncio import Redis

from bot.app import running_bot
from bot.config import Settings
from bot.coordination.redis_locks import PREFIX
from bot.storage.protocol import Store
from bot.storage.rows import OwedRow, OwedState
from tests.bot.helpers import (
    WAITING,
    choose,
    fixed_seeds,
    hand_message,
    open_table,
    play_until_end,
    press_and_wait,
    watched,
)
from tests.databases import TestDatabase, db_execute
from tests.fakeapi import FakeTelegram
from tests.fakeapi.users import SimGroup, SimUser

DEAL_RESULT = "📋"


def posted(fake: FakeTelegram, group: SimGroup, head: str) -> list[str]:
    """The texts of the group's messages sent (by request) that begin with ``head``."""
    return [
        str(c.params.get("text", ""))
        for c in fake.requests
        if c.method == "sendMessage"
        and c.chat_id == group.id
        and str(c.params.get("text", "")).startswith(head)
    ]


async def step(fake: FakeTelegram, players: list[SimUser], rng: random.Random) -> None:
    """One legal press by whoever his hand says is to act (the group's table may be waiting
    for the group's budget, so the hands alone say whose turn it is)."""
    for user in players:
        hand = hand_message(user)
        if hand is None or any(w in hand.text for w in WAITING):
            continue
        if any((b.callback_data or "").startswith("h:") for b in hand.all_buttons):
            await press_and_wait(fake, user, hand, choose(hand, rng), players)
            return
    raise AssertionError("nobody's hand is to act")


def seated(fake: FakeTelegram, chat_id: int = -1001) -> tuple[SimGroup, list[SimUser]]:
    players = [
        fake.add_user(101, "Anna", language_code="ru"),
        fake.add_user(102, "Boris", language_code="ru"),
        fake.add_user(103, "Vera", language_code="en"),
    ]
    basic = chat_id > -1_000_000_000_000  # a basic group's id: it may become a supergroup
    group = fake.add_group(
        chat_id, "Пятница", admins=[101], members=[102, 103], supergroup=not basic
    )
    return group, players


async def until_a_deal_is_owed(
    fake: FakeTelegram, players: list[SimUser], store: Store, rng: random.Random
) -> str:
    """Play until a deal ends (its result owed, waiting for the group's budget); its ref."""
    for _ in range(60):
        await step(fake, players, rng)
        owed = [r.ref.ref for r in await store.owed() if r.ref.ref.startswith("deal:")]
        if owed:
            return owed[0]
    raise AssertionError("no deal ended")


@contextlib.asynccontextmanager
async def owing_a_deal(
    fake: FakeTelegram,
    settings: Settings,
    store: Store,
    group: SimGroup,
    players: list[SimUser],
    rng: random.Random,
) -> AsyncIterator[None]:
    """A table opened, then played at Telegram's pace with one group message a minute (the
    first press's table edit takes it, and everything after it for the group waits: the
    table, and the deal's result) until a deal's result is owed; the bot stops at the end of
    the block with nothing drained."""
    await opened(fake, settings, group, players)
    async with running_bot(slowed(settings), seeds=fixed_seeds()):
        await until_a_deal_is_owed(fake, players, store, rng)
        yield


async def opened(
    fake: FakeTelegram, settings: Settings, group: SimGroup, players: list[SimUser]
) -> None:
    """A table of the players opened in the group (the bot stopped afterwards)."""
    async with watched(fake, running_bot(settings, seeds=fixed_seeds())):
        await open_table(fake, group, players, options="target=5")
        await fake.settle(quiet=0.05)


def slowed(settings: Settings) -> Settings:
    """Telegram's pace with one group message a minute; a stop drains nothing."""
    return settings.model_copy(
        update={"outbox_time_scale": 1.0, "group_per_minute": 1, "drain_s": 0.0}
    )


async def test_a_deal_result_waiting_for_the_groups_budget_is_posted_after_a_stop(
    fake_telegram: FakeTelegram, settings: Settings, store: Store
) -> None:
    fake = fake_telegram
    group, players = seated(fake)
    rng = random.Random(36)
    async with owing_a_deal(fake, settings, store, group, players, rng):
        for _ in range(2):  # the players play on into the next deal
            await step(fake, players, rng)
        assert posted(fake, group, DEAL_RESULT) == []  # it waited for the group's budget
        assert [r.state for r in await store.owed()] == [OwedState.PENDING]
    # stopped with nothing drained: the queued result is gone from memory, not from the book
    assert posted(fake, group, DEAL_RESULT) == []
    async with watched(fake, running_bot(settings, seeds=fixed_seeds())):
        await fake.settle(quiet=0.1, timeout=30)
        results = posted(fake, group, DEAL_RESULT)
        assert len(results) == 1, results  # posted, once
        assert await settled_book(store) == []
        for _ in range(2):  # the game goes on as before
            await step(fake, players, rng)
        await fake.settle(quiet=0.05)
    async with watched(fake, running_bot(settings, seeds=fixed_seeds())):
        await fake.settle(quiet=0.1)
    assert posted(fake, group, DEAL_RESULT) == results  # never again after another restart


async def test_a_result_owed_to_a_group_follows_it_into_its_supergroup(
    fake_telegram: FakeTelegram, settings: Settings, store: Store
) -> None:
    fake = fake_telegram
    group, players = seated(fake, -5001)
    rng = random.Random(17)
    async with owing_a_deal(fake, settings, store, group, players, rng):
        assert posted(fake, group, DEAL_RESULT) == []
        new = fake.migrate_group(group, -1005001)  # the old chat's queue goes with the old id
        await fake.wait_until(lambda: bool(posted(fake, new, DEAL_RESULT)), timeout=10)
        # the book is closed once Telegram's answer is back, a moment after the fake saw the call
        assert await settled_book(store) == []
    assert len(posted(fake, new, DEAL_RESULT)) == 1
    assert posted(fake, group, DEAL_RESULT) == []


async def settled_book(store: Store, timeout: float = 10.0) -> list[OwedRow]:  # noqa: ASYNC109
    """The owed rows once none is still being sent (or ``timeout`` passed): a row's delivery is
    recorded after Telegram answers, so a test that saw the message may look a moment early."""
    deadline = time.monotonic() + timeout
    rows = await store.owed()
    while rows and time.monotonic() < deadline:
        await asyncio.sleep(0.01)
        rows = await store.owed()
    return rows


def reminded(players: list[SimUser]) -> bool:
    """A player has his private reminder («⏳ Осталось 5 с — ваш ход …», "⏳ 5 s left — …")."""
    return any(
        m.text.startswith("⏳") and ("Осталось" in m.text or " left " in m.text)
        for p in players
        for m in p.visible
    )


async def test_a_turn_reminder_lost_with_a_stop_is_shown_after_it_and_never_twice(
    fake_telegram: FakeTelegram, settings: Settings, store: Store
) -> None:
    fake = fake_telegram
    group, players = seated(fake)
    timed = settings.model_copy(update={"turn_timeout_s": 15.0})  # reminded at 10 s, 5 s left
    await opened(fake, timed, group, players)
    async with running_bot(slowed(timed), seeds=fixed_seeds()):
        mark, rng = fake.mark(), random.Random(5)
        for _ in range(10):  # until a move edits the table: that takes the group's minute
            await step(fake, players, rng)
            if fake.count("editMessageText", chat_id=group.id, since=mark):
                break
        await fake.wait_until(lambda: reminded(players), timeout=20)
        await asyncio.sleep(0.2)  # the group's mention waits behind the table's edit
        assert posted(fake, group, "⏳") == []
    private = sum(1 for p in players for m in p.messages if m.text.startswith("⏳"))
    async with watched(fake, running_bot(timed, seeds=fixed_seeds())):
        await fake.settle(quiet=0.1)
        mentions = posted(fake, group, "⏳")
        assert len(mentions) == 1 and "ваш ход (5 с)" in mentions[0], mentions
    async with watched(fake, running_bot(timed, seeds=fixed_seeds())):
        await fake.settle(quiet=0.1)
        assert posted(fake, group, "⏳") == mentions  # shown already: nothing sent again
    # the private reminder got through before the stop: never sent again either
    assert sum(1 for p in players for m in p.messages if m.text.startswith("⏳")) == private
    async with watched(fake, running_bot(timed, seeds=fixed_seeds())) as running:
        table = next(iter(running.services.runtime.ctx.tables.values()))
        moves = table.row.moves
        rng = random.Random(6)
        for _ in range(5):  # he acts (a mark of a card to exchange is no act)
            await step(fake, players, rng)
            if table.row.moves > moves:
                break
        await fake.settle(quiet=0.1)
    # and the mention went, as it goes without a stop
    assert [m.text for m in group.visible if m.text.startswith("⏳")] == []


async def test_a_restart_draws_an_ended_matchs_table_and_hands_as_its_last_move_left_them(
    fake_telegram: FakeTelegram, settings: Settings, database: TestDatabase
) -> None:
    """A stop right after a match's last move can lose its final table and hands (their live
    buttons would stay): what the bot remembers of them is rolled back, as such a stop leaves
    it, and the restart draws them again — as they are shown, so Telegram has nothing new."""
    fake = fake_telegram
    group, players = seated(fake)
    async with watched(fake, running_bot(settings, seeds=fixed_seeds())):
        await open_table(fake, group, players, options="target=5")
        await play_until_end(fake, group, players, random.Random(4))
        await fake.settle(quiet=0.05)
    shown = {u.id: hand_message(u) for u in players}
    assert all(shown.values())
    db_execute(database, "UPDATE messages SET digest = 'lost' WHERE key LIKE 'hand:%'")
    db_execute(database, "UPDATE messages SET digest = 'lost' WHERE key LIKE 'table:%'")
    if settings.redis_url is not None:  # several workers: the shared book lost them as well
        client = Redis.from_url(settings.redis_url)
        for chat_id in (group.id, *(u.id for u in players)):
            await client.delete(f"{PREFIX}messages:{chat_id}")
        await client.aclose()
    mark = fake.mark()
    async with watched(fake, running_bot(settings, seeds=fixed_seeds())):
        await fake.settle(quiet=0.1)
    edits = {c.chat_id: c for c in fake.requests[mark:] if c.method == "editMessageText"}
    assert set(edits) == {group.id} | {u.id for u in players}
    for user in players:
        hand = shown[user.id]
        assert hand is not None and edits[user.id].params["message_id"] == hand.message_id
        assert "not modified" in (edits[user.id].description or "")  # the final state again
    assert "not modified" in (edits[group.id].description or "")
