"""The one way in: :meth:`Runtime.handle` takes a command's lock — the only place a table's
lock is taken — loads its table, runs the guards the command declares
(:mod:`bot.runtime.guards`), and calls the one handler its type maps to
(:data:`bot.runtime.handlers.HANDLERS`), which returns an :class:`~bot.runtime.outcome.Outcome`.
Nothing here sends anything or calls back up: the caller delivers the outcome."""

from __future__ import annotations

from typing import Unpack

from bot.caches.members import Members
from bot.caches.people import People
from bot.runtime.absent import Absent
from bot.runtime.closing import Closing
from bot.runtime.commands import ChatKey, Command, HereKey, LockKey, MessageBook, TableKey
from bot.runtime.computers import Computers
from bot.runtime.core import Context, RuntimeOptions
from bot.runtime.groups import Groups
from bot.runtime.guards import GUARDS, Call, Parts
from bot.runtime.handlers import HANDLERS
from bot.runtime.lobby import Lobby
from bot.runtime.outcome import Outcome
from bot.runtime.play import Play
from bot.runtime.redraw import Redraw
from bot.storage.protocol import Repository


def lock_id(key: TableKey | ChatKey) -> int:
    """The id a key's lock goes by (a chat's below zero, apart from every table's)."""
    return key.id if isinstance(key, TableKey) else -abs(key.chat_id)


class Runtime:
    """The concerns composed (none inherits another), and the one ``handle``."""

    def __init__(
        self,
        repo: Repository,
        people: People,
        members: Members,
        book: MessageBook,
        **options: Unpack[RuntimeOptions],
    ) -> None:
        ctx = Context(repo, people, members, **options)
        play = Play(ctx)
        lobby = Lobby(ctx, start_match=play.start_match)
        closing = Closing(ctx)
        absent = Absent(ctx, play=play, lobby=lobby, closing=closing)
        self.ctx = ctx
        self.parts = Parts(
            ctx,
            lobby,
            Computers(ctx),
            play,
            absent,
            closing,
            Groups(ctx, lobby=lobby, absent=absent, closing=closing),
            Redraw(ctx, play=play),
            book,
        )

    async def _where(self, key: LockKey) -> TableKey | ChatKey:
        if not isinstance(key, HereKey):
            return key
        row = await self.ctx.repo.open_table(key.chat_id, key.thread)
        return TableKey(row.id) if row is not None else ChatKey(key.chat_id)

    async def handle(self, cmd: Command) -> Outcome:
        """Lock, load, guard, handle: the command's one handler's outcome (a guard's refusal
        raised, or its own outcome returned)."""
        handler = HANDLERS[type(cmd)]
        if cmd.key is None:  # its handler takes each table it draws in turn
            return await handler(self.parts, Call(None), cmd)
        key = await self._where(cmd.key)
        async with self.ctx.hold(lock_id(key)):
            table = await self.ctx.load(key.id) if isinstance(key, TableKey) else None
            call = Call(table)
            for guard in cmd.guards:
                ended = await GUARDS[guard](self.parts, call, cmd)
                if ended is not None:
                    return ended
            return await handler(self.parts, call, cmd)
