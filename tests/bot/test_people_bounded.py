"""The people cache is bounded: anyone on Telegram makes the bot read a user (an
inline query needs no group), so only the most recently used users and chats stay in memory;
one dropped is read again from the database, unchanged. SQLite and PostgreSQL."""

from __future__ import annotations

import pytest

from bot.caches.people import PEOPLE_KEPT, People
from bot.lru import Lru
from bot.storage import open_repository
from tests.databases import TestDatabase


async def test_thousands_of_strangers_keep_the_cache_at_its_size(database: TestDatabase) -> None:
    store = await open_repository(database)
    try:
        people = People(store, "ru", kept=50)
        anna = await people.seen(101, "Anna", "anna", "en", private=True)
        await people.seen_chat(-1001, "Пятница", "ru")
        for stranger in range(1_000, 1_400):  # inline queries from people never seen before
            await people.seen(stranger, f"S{stranger}", None, "ru")
            await people.chat(-stranger)
            assert len(people) <= 2 * 50
        assert len(people) == 2 * 50
        assert await people.user(101) == anna  # dropped, read again: the same row
        assert await people.user_locale(101) == "en"
        assert await people.private_ok(101)
        assert await people.chat_locale(-1001) == "ru"
        assert await people.user(1_399) is not None  # the newest are still there
    finally:
        await store.close()


def test_the_documented_size_is_the_default() -> None:
    assert PEOPLE_KEPT == 10_000
    lru: Lru[int, str] = Lru(2)
    lru.put(1, "a")
    lru.put(2, "b")
    assert lru.get(1) == "a"  # 1 is now the most recently used
    lru.put(3, "c")
    assert (lru.get(2), lru.get(1), lru.get(3), len(lru)) == (None, "a", "c", 2)
    with pytest.raises(ValueError, match="at least one"):
        Lru(0)
