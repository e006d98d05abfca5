"""Pacing's statements, the same on SQLite and on PostgreSQL: a post claimed once per chat (one
caller of several at once wins; a claim lapses), a subscriber's last ping, a seat's 🂠 time.

PostgreSQL's cases need ``BOT_TEST_DATABASE`` (``.ci/run`` always sets it) and skip without it.
"""

from __future__ import annotations

import asyncio

from bot.keys import outbox_key
from bot.storage.protocol import Store
from bot.storage.rows import Subscriber
from tests.bot.test_storage_backends import CHAT, OTHER, USER, seeded

KEY = outbox_key("record:12:1")


async def test_a_post_is_claimed_once_per_chat_until_its_claim_lapses(repo: Store) -> None:
    claims = await asyncio.gather(*(repo.claim_post(CHAT, KEY, 100.0, -20.0) for _ in range(8)))
    assert sorted(claims) == [False] * 7 + [True]  # eight at once: one wins
    assert await repo.claim_post(USER, KEY, 101.0, -19.0)  # another chat: its own
    assert not await repo.claim_post(CHAT, KEY, 110.0, 99.0)  # claimed at 100: still held
    assert await repo.claim_post(CHAT, KEY, 130.0, 101.0)  # older than 101: lapsed, claimed
    assert not await repo.claim_post(CHAT, KEY, 131.0, 102.0)  # claimed again at 130


async def test_the_subscribers_last_pings_and_a_seat_s_cards_time(repo: Store) -> None:
    table_id = await seeded(repo)
    async with repo.unit() as tx:
        await tx.set_notify(CHAT, USER, True)
        await tx.set_notify(CHAT, OTHER, True)
        await tx.set_notify(-5, USER, True)
    assert await repo.subscribers(CHAT) == [Subscriber(USER, 0.0), Subscriber(OTHER, 0.0)]
    async with repo.unit() as tx:
        await tx.set_pinged(CHAT, [OTHER], 1_800_000_000.5)
        await tx.set_cards_at(table_id, 0, 42.25)
    assert await repo.subscribers(CHAT) == [Subscriber(USER, 0.0), Subscriber(OTHER, 1.8e9 + 0.5)]
    assert await repo.subscribers(-5) == [Subscriber(USER, 0.0)]  # another chat's: untouched
    seats = await repo.seats(table_id)
    assert [s.cards_at for s in seats] == [42.25, 0.0]
