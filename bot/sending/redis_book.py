"""The outbox's state every worker shares through Redis (``BOT_REDIS_URL``).

* :class:`RedisRates` — the rate windows (:class:`bot.sending.rates.Rates`): one sorted set of
  call times per chat and one for all chats, checked and reserved atomically by a Lua script on
  the Redis server's clock, so all workers together stay within a chat's budget; so are the
  members' quotas, and when each keyed answer was last sent anew.
* :class:`RedisBook` — what every keyed message shows (its Telegram id, digest, the callback
  data it offers, the table turn it shows), and a short lock per message: one worker at a time
  sends or edits a message, and an older turn never overwrites a newer one. The database keeps
  its own copy (``MessageStore``) for restarts; the book is seeded from it.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass

from redis.asyncio import Redis
from redis.exceptions import LockError, RedisError

from bot.coordination.redis_locks import PREFIX, leased, script
from bot.keys import OutboxKey, outbox_key
from bot.sending.rates import EVERY_RECEIVER, OutboxLimits, Quota, Turns, notice_ops
from bot.storage.rows import StoredMessage, stored_id

logger = logging.getLogger(__name__)

# KEYS: the chat's window, all chats' window ('' for none: not a new message), the edit gap key
# ('' for none), a second window
# ('' for none: a group's messages for any one member, together)
# ARGV: calls per window, window ms, calls per second for all chats (fewer for a notice), this
# call's member, the second window's calls per window and ms
_TURN = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local ops, window, all = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local wait = 0
local used = redis.call('ZCARD', KEYS[1])
if used >= ops then  -- until fewer than ``ops`` are left in the window
  local first = redis.call('ZRANGE', KEYS[1], used - ops, used - ops, 'WITHSCORES')
  wait = tonumber(first[2]) + window - now
end
if KEYS[2] ~= '' then
  redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now - 1000)
  local card = redis.call('ZCARD', KEYS[2])
  if card >= all then  -- until fewer than ``all`` are left in the second
    local first = redis.call('ZRANGE', KEYS[2], card - all, card - all, 'WITHSCORES')
    wait = math.max(wait, tonumber(first[2]) + 1000 - now)
  end
end
if KEYS[3] ~= '' then wait = math.max(wait, redis.call('PTTL', KEYS[3])) end
local ops2, window2 = tonumber(ARGV[5]), tonumber(ARGV[6])
if KEYS[4] ~= '' then
  redis.call('ZREMRANGEBYSCORE', KEYS[4], '-inf', now - window2)
  local used2 = redis.call('ZCARD', KEYS[4])
  if used2 >= ops2 then
    local first = redis.call('ZRANGE', KEYS[4], used2 - ops2, used2 - ops2, 'WITHSCORES')
    wait = math.max(wait, tonumber(first[2]) + window2 - now)
  end
end
if wait > 0 then return wait end
redis.call('ZADD', KEYS[1], now, ARGV[4])
redis.call('PEXPIRE', KEYS[1], window + 1000)
if KEYS[2] ~= '' then
  redis.call('ZADD', KEYS[2], now, ARGV[4])
  redis.call('PEXPIRE', KEYS[2], 2000)
end
if KEYS[4] ~= '' then
  redis.call('ZADD', KEYS[4], now, ARGV[4])
  redis.call('PEXPIRE', KEYS[4], window2 + 1000)
end
return 0
"""
# A call was answered: its reserved time moves to now (or, unreserved, it is added now).
# KEYS: as _TURN's first, second and fourth; ARGV: the member, the two windows' ms
_SPENT = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZADD', KEYS[1], now, ARGV[1])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]) + 1000)
if KEYS[2] ~= '' then
  redis.call('ZADD', KEYS[2], now, ARGV[1])
  redis.call('PEXPIRE', KEYS[2], 2000)
end
if KEYS[3] ~= '' then
  redis.call('ZADD', KEYS[3], now, ARGV[1])
  redis.call('PEXPIRE', KEYS[3], tonumber(ARGV[3]) + 1000)
end
return now
"""
# A member's quota: whether it has room, and (ARGV[4] '1') the place taken.
# KEYS: the quota's window; ARGV: calls per span, span ms, this call's member, take
_TAKE = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - tonumber(ARGV[2]))
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then return 0 end
if ARGV[4] == '1' then
  redis.call('ZADD', KEYS[1], now, ARGV[3])
  redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]) + 1000)
end
return 1
"""


class RedisRates:
    """Every worker's calls in one window per chat (:mod:`bot.sending.rates`)."""

    def __init__(self, redis: Redis, limits: OutboxLimits) -> None:
        self.redis = redis
        self.limits = limits
        self._me = uuid.uuid4().hex[:12]
        self._serial = itertools.count()
        self._reserved: dict[Turns, list[str]] = {}

    def _keys(self, chat_id: int, receiver: int | None) -> tuple[str, str, str]:
        """The call's window, all chats' window, and the second window ('': none)."""
        lane = f"{chat_id}" if receiver is None else f"{chat_id}:{receiver}"
        every = f"{PREFIX}calls:{chat_id}:{EVERY_RECEIVER}" if receiver is not None else ""
        return f"{PREFIX}calls:{lane}", f"{PREFIX}calls:all", every

    async def turn(
        self,
        chat_id: int,
        edit_key: OutboxKey | None,
        receiver: int | None = None,
        *,
        new: bool = True,
        wait: bool = True,
        notice: bool = False,
        answer: bool = False,
    ) -> bool:
        ops, window = self.limits.of(chat_id, receiver, answer=answer)
        ops2, window2 = self.limits.of(chat_id, EVERY_RECEIVER, answer=answer)
        chat_key, all_key, every = self._keys(chat_id, receiver)
        all_key = all_key if new else ""  # all chats' window: new messages only
        gap = f"{PREFIX}edited:{chat_id}:{edit_key}" if edit_key is not None else ""
        member = f"{self._me}:{next(self._serial)}"
        while True:
            due = await script(
                self.redis,
                _TURN,
                [chat_key, all_key, gap, every],
                [
                    ops,
                    int(window * 1000),
                    notice_ops(self.limits, notice),
                    member,
                    ops2,
                    int(window2 * 1000),
                ],
            )
            if int(due) <= 0:
                self._reserved.setdefault((chat_id, receiver, answer), []).append(member)
                return True
            if not wait:
                return False
            await asyncio.sleep(int(due) / 1000)

    async def spent(
        self, chat_id: int, receiver: int | None = None, *, new: bool = True, answer: bool = False
    ) -> None:
        # each of these three can be tried again after a failure (bot.sending.patience): what
        # they took is let go only once Redis has it
        lane = (chat_id, receiver, answer)
        reserved = self._reserved.setdefault(lane, [])
        if not reserved:
            reserved.append(f"{self._me}:{next(self._serial)}")
        _, window = self.limits.of(chat_id, receiver)
        _, window2 = self.limits.of(chat_id, EVERY_RECEIVER)
        chat_key, all_key, every = self._keys(chat_id, receiver)
        all_key = all_key if new else ""
        await script(
            self.redis,
            _SPENT,
            [chat_key, all_key, every],
            [reserved[0], int(window * 1000), int(window2 * 1000)],
        )
        reserved.pop(0)
        if not reserved:
            del self._reserved[lane]

    async def edited(self, chat_id: int, key: OutboxKey) -> None:
        gap = int(self.limits.edit_gap * 1000)
        if gap > 0:
            await self.redis.set(f"{PREFIX}edited:{chat_id}:{key}", "1", px=gap)

    async def done(
        self, chat_id: int, receiver: int | None = None, *, answer: bool = False
    ) -> None:
        lane = (chat_id, receiver, answer)
        unused = self._reserved.get(lane)
        if unused:
            chat_key, all_key, every = self._keys(chat_id, receiver)
            async with self.redis.pipeline(transaction=False) as pipe:
                pipe.zrem(chat_key, *unused)
                pipe.zrem(all_key, *unused)
                if every:
                    pipe.zrem(every, *unused)
                await pipe.execute()
        self._reserved.pop(lane, None)

    async def take(self, chat_id: int, user_id: int, kind: Quota, *, count: bool = True) -> bool:
        ops, span = self.limits.quota(kind)
        key = f"{PREFIX}quota:{chat_id}:{user_id}:{kind.value}"
        member = f"{self._me}:{next(self._serial)}"
        took = await script(
            self.redis, _TAKE, [key], [ops, int(span * 1000), member, "1" if count else "0"]
        )
        return int(took) == 1

    async def recent(self, chat_id: int, key: OutboxKey) -> bool:
        return bool(await self.redis.exists(f"{PREFIX}anew:{chat_id}:{key}"))

    async def sent_anew(self, chat_id: int, key: OutboxKey) -> None:
        window = int(self.limits.group_window * 1000)
        if window > 0:  # no window: nothing to remember
            await self.redis.set(f"{PREFIX}anew:{chat_id}:{key}", "1", px=window)

    def forget(self, chat_id: int) -> None:
        self._reserved = {lane: m for lane, m in self._reserved.items() if lane[0] != chat_id}

    def tracked(self) -> int:
        return len(self._reserved)  # the windows themselves are Redis's, with their expiry


@dataclass(frozen=True, slots=True)
class Entry:
    """A keyed message as the book has it (``known`` None: never sent, or gone)."""

    known: StoredMessage | None
    rev: int | None
    offers: frozenset[str] | None


# The callback data a keyed message is to offer, as its latest queued text has it: written
# unless the book has it from a later table turn already. KEYS: the chat's wanted hash;
# ARGV: the key, {"rev", "offers"} as JSON, the turn ('' for none), the hash's lifetime (s).
_WANT = """
local old = redis.call('HGET', KEYS[1], ARGV[1])
if old and ARGV[3] ~= '' then
  local rev = cjson.decode(old)['rev']
  if type(rev) == 'number' and tonumber(ARGV[3]) < rev then return 0 end
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('EXPIRE', KEYS[1], ARGV[4])
return 1
"""
WANTED_S = 86400  # a chat's wanted offers outlive a day without a new screen: no longer


class RedisBook:
    """What every keyed message shows and offers, for every worker (see the module). A press
    is checked against the buttons of the message's latest *queued* text, whichever worker
    queued it (:meth:`want`), as in one process — not those of the text delivered last."""

    def __init__(self, redis: Redis, *, lease: float = 10.0, poll: float = 0.005) -> None:
        self.redis = redis
        self.lease = lease
        self.poll = poll

    @staticmethod
    def _keys(chat_id: int) -> tuple[str, str]:
        return f"{PREFIX}messages:{chat_id}", f"{PREFIX}message-ids:{chat_id}"

    @staticmethod
    def _wanted(chat_id: int) -> str:
        return f"{PREFIX}wanted:{chat_id}"

    async def want(
        self, chat_id: int, key: OutboxKey, offers: frozenset[str], rev: int | None
    ) -> None:
        """Message ``key`` is queued to show a text offering ``offers`` (at table turn ``rev``)."""
        value = json.dumps({"rev": rev, "offers": sorted(offers)})
        turn = "" if rev is None else str(rev)
        await script(self.redis, _WANT, [self._wanted(chat_id)], [str(key), value, turn, WANTED_S])

    async def seed(self, messages: list[StoredMessage]) -> None:
        """The database's messages, where the book has none yet (the first start with Redis)."""
        for message in messages:
            by_key, by_id = self._keys(message.chat_id)
            if await self.redis.hsetnx(by_key, str(message.key), _dump(message, None, None)):  # type: ignore[misc]
                await self.redis.hset(by_id, str(message.message_id), str(message.key))  # type: ignore[misc]

    async def entry(self, chat_id: int, key: OutboxKey) -> Entry:
        raw = await self.redis.hget(self._keys(chat_id)[0], str(key))  # type: ignore[misc]
        return _load(chat_id, key, raw)

    async def message(self, chat_id: int, key: OutboxKey) -> StoredMessage | None:
        return (await self.entry(chat_id, key)).known

    async def offers(self, chat_id: int, key: OutboxKey) -> frozenset[str] | None:
        """What the latest queued text of message ``key`` offers (else its delivered one's)."""
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.hget(self._wanted(chat_id), str(key))
            pipe.hget(self._keys(chat_id)[0], str(key))
            wanted, shown = await pipe.execute()
        if wanted is not None:
            return frozenset(json.loads(wanted)["offers"])
        return _load(chat_id, key, shown).offers

    async def key_of(
        self, chat_id: int, message_id: int, *, ephemeral: bool = False
    ) -> OutboxKey | None:
        """Which keyed message of the chat Telegram's id ``message_id`` is now (``ephemeral``:
        an ephemeral message's id, a namespace apart)."""
        stored = stored_id(message_id, ephemeral=ephemeral)
        text = await self.redis.hget(self._keys(chat_id)[1], str(stored))  # type: ignore[misc]
        if text is None:
            return None
        key = outbox_key(text)
        known = await self.message(chat_id, key)
        return key if known is not None and known.message_id == stored else None

    @contextlib.asynccontextmanager
    async def guard(self, chat_id: int, key: OutboxKey) -> AsyncIterator[Entry]:
        """The message's lock (a lease, renewed while held) and what the book has of it."""
        name = f"{PREFIX}message-lock:{chat_id}:{key}"
        async with leased(self.redis, name, self.lease, self.poll, (LockError, RedisError)):
            yield await self.entry(chat_id, key)

    async def put(
        self,
        chat_id: int,
        key: OutboxKey,
        known: StoredMessage | None,
        rev: int | None,
        offers: frozenset[str] | None,
        before: Entry,
    ) -> None:
        """What the message shows now (under its :meth:`guard`)."""
        by_key, by_id = self._keys(chat_id)
        pipe = self.redis.pipeline(transaction=True)
        if before.known is not None and (
            known is None or known.message_id != before.known.message_id
        ):
            pipe.hdel(by_id, str(before.known.message_id))
        if known is None:
            pipe.hdel(by_key, str(key))
        else:
            pipe.hset(
                by_key, str(key), _dump(known, rev, offers if offers is not None else before.offers)
            )
            pipe.hset(by_id, str(known.message_id), str(key))
        await pipe.execute()


def _dump(known: StoredMessage, rev: int | None, offers: frozenset[str] | None) -> str:
    return json.dumps(
        {
            "id": known.message_id,
            "digest": known.digest,
            "keyboard": known.keyboard,
            "rev": rev,
            "offers": sorted(offers) if offers is not None else None,
        }
    )


def _load(chat_id: int, key: OutboxKey, raw: str | None) -> Entry:
    if raw is None:
        return Entry(None, None, None)
    data = json.loads(raw)
    known = StoredMessage(
        chat_id, key, int(data["id"]), str(data["digest"]), bool(data["keyboard"])
    )
    offers = data.get("offers")
    return Entry(known, data.get("rev"), frozenset(offers) if offers is not None else None)
