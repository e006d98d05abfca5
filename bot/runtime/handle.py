"""The one way in: :meth:`Runtime.handle` takes a command's lock — the only place a table's
lock is taken — loads its table, runs the guards the command declares
(:mod:`bot.runtime.guards`), and calls the one handler its type maps to
(:data:`bot.runtime.handlers.HANDLERS`), which returns an :class:`~bot.runtime.outcome.Outcome`.
Nothing here sends anything or calls back up: the caller delivers the outcome."""

from __future__ import annotations

from contextlib import AsyncExitStack
from typing import Unpack

from bot.caches.members import Members
from bot.caches.people import People
from bot.runtime import owed as owe
from bot.runtime.absent import Absent
from bot.runtime.closing import Closing
from bot.runtime.commands import Command, Guard
from bot.runtime.computers import Computers
from bot.runtime.daily import Daily
from bot.runtime.groups import Groups
from bot.runtime.guards import GUARDS, Call, Parts, look_up
from bot.runtime.handlers import HANDLERS, Handler
from bot.runtime.lobby import Lobby
from bot.runtime.lock_keys import (
    ChatKey,
    ChatTablesKey,
    HereKey,
    LockKey,
    OwedKey,
    TableKey,
    UserTablesKey,
)
from bot.runtime.message_book import MessageBook, Pressed
from bot.runtime.outcome import Outcome
from bot.runtime.play import Play
from bot.runtime.queries import Queries
from bot.runtime.redraw import Redraw
from bot.runtime.settings import SettingsPanes
from bot.runtime.tables import Context, RuntimeOptions
from bot.storage.protocol import Repository
from bot.storage.rows import OwedState


def lock_id(key: TableKey | ChatKey) -> int:
    """The id a key's lock goes by (a chat's below zero, apart from every table's)."""
    return key.id if isinstance(key, TableKey) else -abs(key.chat_id)


class Runtime:
    """The concerns composed (none inherits another), the one ``handle``, and the reads that
    change nothing (:attr:`queries`)."""

    def __init__(
        self,
        repo: Repository,
        people: People,
        members: Members,
        book: MessageBook,
        **options: Unpack[RuntimeOptions],
    ) -> None:
        ctx = Context(repo, people, members, **options)
        closing = Closing(ctx)
        play = Play(ctx, finish=Daily(ctx, closing).finish)
        lobby = Lobby(ctx, start_match=play.start_match)
        absent = Absent(ctx, play=play, lobby=lobby, closing=closing)
        groups = Groups(ctx, lobby=lobby, absent=absent, closing=closing)
        redraw = Redraw(ctx, play=play)
        settings = SettingsPanes(ctx, lobby=lobby)
        self.ctx = ctx
        self.parts = Parts(
            ctx, lobby, Computers(ctx), play, absent, closing, groups, redraw, settings, book
        )
        self.queries = Queries(ctx, groups=groups, redraw=redraw, settings=settings)

    async def _locks(self, key: LockKey) -> tuple[TableKey | None, list[TableKey | ChatKey]]:
        """The table a key loads (None: none), and every lock it takes, in the one fixed order
        (a chat's before its tables, tables by id): no two commands wait on each other."""
        repo = self.ctx.repo
        match key:
            case TableKey():
                return key, [key]
            case ChatKey():
                return None, [key]
            case HereKey(chat_id, thread):
                row = await repo.open_table(chat_id, thread)
                return (TableKey(row.id), [TableKey(row.id)]) if row else (None, [ChatKey(chat_id)])
            case ChatTablesKey(chat_id):
                ids = sorted({row.id for row in await repo.open_tables(chat_id)})
                return None, [ChatKey(chat_id), *map(TableKey, ids)]
            case UserTablesKey(user_id):
                ids = sorted({row.id for row in await repo.tables_of_user(user_id)})
                return None, list(map(TableKey, ids))
            case OwedKey(table_id):
                rows = await repo.owed()
                if table_id is not None:  # the held entries of the chats it goes to
                    held = [r for r in rows if r.state is OwedState.HELD]
                    chats = {r.chat_id for r in held if owe.table_of(owe.parse(r.what)) == table_id}
                    rows = [r for r in held if r.chat_id in chats]
                ids = sorted({owe.table_of(owe.parse(r.what)) for r in rows})
                return None, list(map(TableKey, ids))

    async def handle(self, cmd: Command) -> Outcome:
        """Lock, load, guard, handle: the command's one handler's outcome (a guard's refusal
        raised, or its own outcome returned)."""
        handler = HANDLERS[type(cmd)]
        if cmd.key is None:  # it changes no table's state: no lock
            return await handler(self.parts, Call(None), cmd)
        key = cmd.key
        # a press on a hand: which message, asked before the lock (as the hand's path always
        # did); the table's own messages are asked by their guard, under it
        pressed = getattr(cmd, "message", None) if Guard.ON_HAND in cmd.guards else None
        looked_up = isinstance(pressed, Pressed)
        found = await look_up(self.parts.book, pressed) if isinstance(pressed, Pressed) else None
        if isinstance(key, TableKey):  # the press path: one table, one lock
            async with self.ctx.hold(key.id):
                table = await self.ctx.load(key.id)
                call = Call(table, held=(key.id,), key=found, looked_up=looked_up)
                return await self._guarded(cmd, call, handler)
        loads, locks = await self._locks(key)
        async with AsyncExitStack() as stack:
            for each in locks:
                await stack.enter_async_context(self.ctx.hold(lock_id(each)))
            table = await self.ctx.load(loads.id) if loads is not None else None
            held = tuple(k.id for k in locks if isinstance(k, TableKey))
            call = Call(table, held=held, key=found, looked_up=looked_up)
            return await self._guarded(cmd, call, handler)

    async def _guarded(self, cmd: Command, call: Call, handler: Handler) -> Outcome:
        for guard in cmd.guards:
            ended = await GUARDS[guard](self.parts, call, cmd)
            if ended is not None:
                return ended
        return await handler(self.parts, call, cmd)
