"""Who belongs to a group and who runs it (PRODUCT.md §3, §4.3): getChatMember, cached briefly.

No Telegram objects here (a status is aiogram's :class:`ChatMemberStatus`): the lookup that asks
Telegram is injected (``routers.common``), and so are the clocks. One :class:`Members` is built
in the composition root and shared by the handlers.

An answer is trusted for ``ttl`` seconds, but never past what makes it doubtful:

* the user's standing changed and the bot was told (``left_chat_member``, a ``chat_member``
  update): :meth:`Members.forget` drops it at once — with several workers for all of them, as
  the drop is noted where they all look (:class:`Drops`, Redis) before a cached answer is used;
* the table's seats changed hands after it was asked (a hand-over, a bar, a member unseated:
  ``tables.seats_at``): a press there asks again (``since``), so a ban nobody told the bot of
  is found at the next press, not a minute later.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Final, Protocol

from aiogram.enums import ChatMemberStatus

TTL: Final = 60.0  # seconds a getChatMember answer is trusted
ADMINS: Final = frozenset({ChatMemberStatus.CREATOR, ChatMemberStatus.ADMINISTRATOR})
BELONGS: Final = ADMINS | {ChatMemberStatus.MEMBER}


@dataclass(frozen=True, slots=True)
class Membership:
    """A user's standing in a chat: Telegram's ``status`` and, when restricted, ``is_member``."""

    status: ChatMemberStatus
    is_member: bool = True

    @property
    def belongs(self) -> bool:
        restricted = self.status is ChatMemberStatus.RESTRICTED
        return self.status in BELONGS or (restricted and self.is_member)

    @property
    def is_admin(self) -> bool:
        return self.status in ADMINS


class Standing(StrEnum):
    """Whether a user is in a chat, as far as Telegram could say just now."""

    MEMBER = "member"
    OUTSIDER = "outsider"  # left, banned, restricted from outside, or never there
    UNKNOWN = "unknown"  # Telegram could not tell (429, a network error): ask again soon


Lookup = Callable[[int, int], Awaitable[Membership | None]]
"""``lookup(chat_id, user_id)``: the membership, or None when Telegram could not tell."""


class Drops(Protocol):
    """Where the answers dropped by what the bot was told are noted for every worker
    (:class:`bot.coordination.redis_locks.RedisDrops`); one process needs none."""

    async def dropped_at(self, chat_id: int, user_id: int) -> float:
        """When the answer about the user was last dropped (wall clock; 0: not lately)."""
        ...

    async def drop(self, chat_id: int, user_id: int, at: float) -> None: ...


@dataclass(frozen=True, slots=True)
class Answer:
    """A cached answer: when it was asked (this process's monotonic clock, for the TTL; the
    wall clock, to compare with when a table's seats changed or the answer was dropped)."""

    at: float
    wall: float
    membership: Membership


class Members:
    """Cached membership per (chat, user); an answer is reused for ``ttl`` seconds, unless it
    was dropped since (:meth:`forget`, by any worker) or is older than a caller's ``since``."""

    def __init__(
        self,
        lookup: Lookup,
        *,
        ttl: float = TTL,
        clock: Callable[[], float] = time.monotonic,
        wall: Callable[[], float] = time.time,
        drops: Drops | None = None,
    ) -> None:
        self._lookup = lookup
        self.ttl = ttl  # public: a test may shorten it
        self._clock = clock
        self._wall = wall
        self._drops = drops
        self._cache: OrderedDict[tuple[int, int], Answer] = OrderedDict()

    async def of(self, chat_id: int, user_id: int, *, since: float = 0.0) -> Membership | None:
        """The user's membership: cached, or asked (again when the cached answer was asked
        before ``since``, wall clock, or dropped since by any worker)."""
        now, wall = self._clock(), self._wall()
        while self._cache:  # the oldest answers first: drop the expired ones
            if now - next(iter(self._cache.values())).at < self.ttl:
                break
            self._cache.popitem(last=False)
        key = (chat_id, user_id)
        cached = self._cache.get(key)
        if cached is not None and cached.wall >= since and not await self._dropped(key, cached):
            return cached.membership
        self._cache.pop(key, None)  # asked again: kept (if at all) as the newest answer
        found = await self._lookup(chat_id, user_id)
        if found is not None:  # "could not tell" is asked again next time
            self._cache[key] = Answer(now, wall, found)
        return found

    async def _dropped(self, key: tuple[int, int], cached: Answer) -> bool:
        if self._drops is None:
            return False
        return await self._drops.dropped_at(*key) >= cached.wall

    def cached(self, chat_id: int, user_id: int) -> Membership | None:
        """The answer still trusted (None: none, or too old), without asking Telegram."""
        found = self._cache.get((chat_id, user_id))
        if found is None or self._clock() - found.at >= self.ttl:
            return None
        return found.membership

    def forget_chat(self, chat_id: int) -> None:
        """Drop every answer about the chat (it became a supergroup under another id)."""
        for key in [k for k in self._cache if k[0] == chat_id]:
            del self._cache[key]

    async def forget(self, chat_id: int, user_id: int) -> None:
        """Drop the answer about one user (he left the group, was banned or came back): here,
        and — with several workers — for every worker, before its next use of it."""
        self._cache.pop((chat_id, user_id), None)
        if self._drops is not None:
            await self._drops.drop(chat_id, user_id, self._wall())

    async def standing(self, chat_id: int, user_id: int, *, since: float = 0.0) -> Standing:
        """A member, an outsider, or unknown (Telegram could not tell: never taken as a yes);
        ``since``: as :meth:`of`."""
        found = await self.of(chat_id, user_id, since=since)
        if found is None:
            return Standing.UNKNOWN
        return Standing.MEMBER if found.belongs else Standing.OUTSIDER

    async def belongs(self, chat_id: int, user_id: int) -> bool:
        """A member of the chat (strict: no when Telegram can't tell)."""
        return await self.standing(chat_id, user_id) is Standing.MEMBER

    async def is_admin(self, chat_id: int, user_id: int) -> bool:
        found = await self.of(chat_id, user_id)
        return found is not None and found.is_admin

    def admin_check(self, chat_id: int, user_id: int) -> Callable[[], Awaitable[bool]]:
        """A lazy ``is the user an admin of the chat`` (asked only when a rule needs it)."""

        async def check() -> bool:
            return await self.is_admin(chat_id, user_id)

        return check
