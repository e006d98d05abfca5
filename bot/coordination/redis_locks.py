"""What several worker processes share through Redis (``BOT_REDIS_URL``; docs/scaling.md "Scaling
out"): the per-table locks, the scheduler's leadership, which updates are being handled, and
which membership answers were dropped.

Every lease has a timeout (``BOT_REDIS_LEASE_S``) and is renewed while its holder lives, so a
worker killed with ``kill -9`` leaves nothing held for longer than one lease. Keys start with
``mushka:``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any, Literal, cast

from redis.asyncio import Redis
from redis.asyncio.lock import Lock
from redis.exceptions import LockError, RedisError

from bot.coordination.locks import Leadership, TableLocks, Turn
from bot.tasks import cancelled

logger = logging.getLogger(__name__)
PREFIX = "mushka:"
DONE_S = 86400  # Telegram keeps an undelivered update for a day at most
TIMEOUT_S = 5.0  # a Redis call that has no answer by then fails

# Extend a lease only while it is still ours (its value is the holder's token).
_RENEW = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0
"""
_TAKE_OR_RENEW = """
local holder = redis.call('GET', KEYS[1])
if holder == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
if holder then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
"""
_LET_GO = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


def connect(url: str) -> Redis:
    """A client whose calls fail after ``TIMEOUT_S`` when Redis answers nothing (a stalled or
    unreachable server), rather than wait forever: its callers try again (the outbox) or
    let a lease run out."""
    redis: Redis = Redis.from_url(
        url, decode_responses=True, socket_timeout=TIMEOUT_S, socket_connect_timeout=TIMEOUT_S
    )
    return redis


async def script(redis: Redis, source: str, keys: list[str], args: list[object]) -> Any:
    """Run a Lua script (EVAL) on the server: its keys, then its arguments as strings."""
    pending = redis.eval(source, len(keys), *keys, *(str(a) for a in args))
    return await cast(Awaitable[Any], pending)


async def renewing(
    every: float, renew: Callable[[], Awaitable[object]], stop: asyncio.Event
) -> None:
    """Call ``renew`` every ``every`` seconds until ``stop`` is set (or cancelled): a lease
    kept while alive."""
    while True:
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(every):  # not wait_for (3.11)
                await stop.wait()
        if stop.is_set():
            return
        try:
            await renew()
        except (RedisError, LockError):
            logger.exception("could not renew a lease")


@contextlib.asynccontextmanager
async def kept(every: float, renew: Callable[[], Awaitable[object]]) -> AsyncIterator[None]:
    """Renew a lease every ``every`` seconds while the block runs. At its end a renewal on its
    way is let finish, never cancelled: redis-py's asyncio client can be left waiting for ever
    by a command cancelled mid-way (a connection's response unread, its cleanup waiting on
    it — redis-py#2624, redis-py#2665, redis-py#3847), and with it every later call of this
    worker on that lock's message or table. A renewal still running ``TIMEOUT_S`` on is
    cancelled."""
    stop = asyncio.Event()
    task = asyncio.create_task(renewing(every, renew, stop))
    try:
        yield
    finally:
        stop.set()
        done, _ = await asyncio.wait({task}, timeout=TIMEOUT_S + 1)
        if not done:
            await cancelled(task)
        elif not task.cancelled() and task.exception() is not None:  # retrieved: logged
            logger.error("a lease's renewal failed", exc_info=task.exception())


@contextlib.asynccontextmanager
async def leased(
    redis: Redis, name: str, lease: float, poll: float, errors: tuple[type[Exception], ...]
) -> AsyncIterator[None]:
    """Hold Redis lock ``name`` (a token, a lease of ``lease`` s renewed while held; polled
    every ``poll`` s while another holds it). A release that fails with one of ``errors`` (the
    lease ran out meanwhile, Redis away) is logged: the lease runs out on its own."""
    lock = Lock(redis, name, timeout=lease, sleep=poll, thread_local=False)
    await lock.acquire()
    try:
        async with kept(lease / 3, lock.reacquire):
            yield
    finally:
        try:
            await lock.release()
        except errors as error:
            logger.warning("lock %s was not released (%s)", name, type(error).__name__)


class RedisLocks:
    """A table's lock across processes: the in-process lock first (so one process's tasks
    queue without polling), then a Redis lock with a token and a lease, renewed while held.
    Each hold increments the table's turn counter (``Turn.version``) as it is taken, so even a
    holder that died after its commit counts as a turn."""

    shared = True

    def __init__(self, redis: Redis, *, lease: float = 10.0, poll: float = 0.005) -> None:
        self.redis = redis
        self.lease = lease
        self.poll = poll
        self._local = TableLocks()

    @contextlib.asynccontextmanager
    async def hold(self, table_id: int) -> AsyncIterator[Turn]:
        name = f"{PREFIX}lock:{table_id}"
        async with (
            self._local.hold(table_id),
            leased(
                self.redis,
                name,
                self.lease,
                self.poll,
                (LockError,),  # a stall beyond a lease
            ),
        ):
            version = await self.redis.incr(f"{PREFIX}turns:{table_id}")
            yield Turn(int(version))


class RedisLeader(Leadership):
    """One scheduler leader among the workers: a lease renewed by :meth:`lead`; when the leader
    dies, its lease runs out and the next worker to ask leads. :meth:`claim` is a one-time
    mark (a deadline fired once, even if two workers briefly both thought they led)."""

    shared = True

    def __init__(self, redis: Redis, *, lease: float = 10.0) -> None:
        self.redis = redis
        self.lease = lease
        self.me = uuid.uuid4().hex
        self._key = f"{PREFIX}leader"

    async def lead(self) -> bool:
        ms = int(self.lease * 1000)
        taken = await script(self.redis, _TAKE_OR_RENEW, [self._key], [self.me, ms])
        return bool(taken)

    async def claim(self, name: str) -> bool:
        ms = int(max(self.lease, 60.0) * 1000)
        return bool(await self.redis.set(f"{PREFIX}once:{name}", self.me, nx=True, px=ms))

    async def resign(self) -> None:
        await script(self.redis, _LET_GO, [self._key], [self.me])


Claim = Literal["new", "done", "busy"]


class UpdateGate:
    """Which updates are being handled, and which are done, across workers (webhook mode).

    An update is marked *busy* (a lease, renewed while its handler runs) before it is handled
    and *done* (for a day) once the webhook answers 200. A redelivery of a done update is
    skipped; one of a busy update is answered 503 (Telegram tries again later); one whose
    handler died with its worker finds the lease run out and is handled again — a kill loses
    nothing."""

    def __init__(self, redis: Redis, *, lease: float = 10.0) -> None:
        self.redis = redis
        self.lease = lease
        self.me = uuid.uuid4().hex

    def _key(self, update_id: int) -> str:
        return f"{PREFIX}update:{update_id}"

    async def begin(self, update_id: int) -> Claim:
        key = self._key(update_id)
        if await self.redis.set(key, self.me, nx=True, px=int(self.lease * 1000)):
            return "new"
        return "done" if await self.redis.get(key) == "done" else "busy"

    def renew(self, update_id: int) -> Callable[[], Awaitable[object]]:
        async def again() -> object:
            ms = int(self.lease * 1000)
            return await script(self.redis, _RENEW, [self._key(update_id)], [self.me, ms])

        return again

    async def end(self, update_id: int, done: bool) -> None:
        if done:
            await self.redis.set(self._key(update_id), "done", ex=DONE_S)
        else:
            await script(self.redis, _LET_GO, [self._key(update_id)], [self.me])


class RedisDrops:
    """When each membership answer was last dropped (a ``chat_member`` update, a member who
    left), for every worker: :class:`bot.caches.members.Members` looks here before it uses an
    answer it cached, so the update reaching one worker reaches them all. A mark outlives any
    answer it can concern (``keep`` seconds: twice the cache's minute)."""

    def __init__(self, redis: Redis, *, keep: float = 120.0) -> None:
        self.redis = redis
        self.keep = keep

    @staticmethod
    def _key(chat_id: int, user_id: int) -> str:
        return f"{PREFIX}member-dropped:{chat_id}:{user_id}"

    async def dropped_at(self, chat_id: int, user_id: int) -> float:
        at = await self.redis.get(self._key(chat_id, user_id))
        return float(at) if at is not None else 0.0

    async def drop(self, chat_id: int, user_id: int, at: float) -> None:
        await self.redis.set(self._key(chat_id, user_id), repr(at), px=int(self.keep * 1000))
