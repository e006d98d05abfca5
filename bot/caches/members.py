"""Who belongs to a group and who runs it (PRODUCT.md §3, §4.3): getChatMember, cached briefly.

No Telegram types here: the lookup that asks Telegram is injected (``routers.common``), and so
is the clock. One :class:`Members` is built in the composition root and shared by the handlers.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Final

TTL: Final = 60.0  # seconds a getChatMember answer is trusted
BELONGS: Final = frozenset({"creator", "administrator", "member"})
ADMINS: Final = frozenset({"creator", "administrator"})


@dataclass(frozen=True, slots=True)
class Membership:
    """A user's standing in a chat: Telegram's ``status`` and, when restricted, ``is_member``."""

    status: str  # creator | administrator | member | restricted | left | kicked
    is_member: bool = True

    @property
    def belongs(self) -> bool:
        return self.status in BELONGS or (self.status == "restricted" and self.is_member)

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


class Members:
    """Cached membership per (chat, user); an answer is reused for ``ttl`` seconds."""

    def __init__(
        self, lookup: Lookup, *, ttl: float = TTL, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self._lookup = lookup
        self.ttl = ttl  # public: a test may shorten it
        self._clock = clock
        self._cache: OrderedDict[tuple[int, int], tuple[float, Membership]] = OrderedDict()

    async def of(self, chat_id: int, user_id: int) -> Membership | None:
        now = self._clock()
        while self._cache:  # the oldest answers first: drop the expired ones
            at, _ = next(iter(self._cache.values()))
            if now - at < self.ttl:
                break
            self._cache.popitem(last=False)
        cached = self._cache.get((chat_id, user_id))
        if cached is not None:
            return cached[1]
        found = await self._lookup(chat_id, user_id)
        if found is not None:  # "could not tell" is asked again next time
            self._cache[(chat_id, user_id)] = (now, found)
        return found

    def cached(self, chat_id: int, user_id: int) -> Membership | None:
        """The answer still trusted (None: none, or too old), without asking Telegram."""
        found = self._cache.get((chat_id, user_id))
        if found is None or self._clock() - found[0] >= self.ttl:
            return None
        return found[1]

    def forget_chat(self, chat_id: int) -> None:
        """Drop every answer about the chat (it became a supergroup under another id)."""
        for key in [k for k in self._cache if k[0] == chat_id]:
            del self._cache[key]

    def forget(self, chat_id: int, user_id: int) -> None:
        """Drop the answer about one user (he left the group, was banned or came back)."""
        self._cache.pop((chat_id, user_id), None)

    async def standing(self, chat_id: int, user_id: int) -> Standing:
        """A member, an outsider, or unknown (Telegram could not tell: never taken as a yes)."""
        found = await self.of(chat_id, user_id)
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
