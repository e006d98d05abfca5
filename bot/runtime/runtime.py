"""What the routers still reach the runtime by besides commands: :meth:`TableRuntime.handle`
(:meth:`bot.runtime.handle.Runtime.handle`, the one way in for every press, deadline and
delivery failure), and the inputs not yet made commands (/newgame, /kick, /notify, /hand, a
member gone, the bot removed, a migration, /settings' redraws, the restart's resume), each one
delegation to the concern that owns it, plus the read queries (/score's boards, what is
playing, a table's game and chat)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Unpack

from bot.caches.members import Members
from bot.caches.people import People
from bot.clock import Clock
from bot.runtime import standings
from bot.runtime.commands import Command, MessageBook
from bot.runtime.core import NewGame, RuntimeOptions, Table
from bot.runtime.deals import Deals
from bot.runtime.handle import Runtime
from bot.runtime.outcome import Facts, Outcome
from bot.runtime.scoreboard import Board
from bot.storage.protocol import Repository
from bot.storage.rows import Deadline, LedgerRow

__all__ = ["TableRuntime"]


class TableRuntime:
    """The runtime's ``handle`` and what is not a command yet, each one delegation."""

    def __init__(
        self,
        repo: Repository,
        people: People,
        members: Members,
        book: MessageBook,
        **options: Unpack[RuntimeOptions],
    ) -> None:
        self.runtime = Runtime(repo, people, members, book, **options)
        self.ctx = self.runtime.ctx
        parts = self.runtime.parts
        self.play = parts.play
        self.lobby = parts.lobby
        self.computers = parts.computers
        self.closing = parts.closing
        self.absent = parts.absent
        self.groups = parts.groups
        self.redraw = parts.redraw
        self.settings = parts.settings

    async def handle(self, cmd: Command) -> Outcome:
        return await self.runtime.handle(cmd)

    # --- what the context holds ----------------------------------------------------------

    @property
    def repo(self) -> Repository:
        return self.ctx.repo

    @property
    def people(self) -> People:
        return self.ctx.people

    @property
    def members(self) -> Members:
        return self.ctx.members

    @property
    def deals(self) -> Deals:
        return self.ctx.deals

    @property
    def new_game(self) -> NewGame:
        return self.ctx.new_game

    @property
    def clock(self) -> Clock:
        return self.ctx.clock

    @property
    def turn_timeout(self) -> float:
        return self.ctx.turn_timeout

    @property
    def _tables(self) -> Mapping[int, Table]:
        return self.ctx.tables

    @property
    def toggle_gap(self) -> float:
        """§13: a person hands his seat over or takes it back once per this many seconds."""
        return self.absent.toggle_gap

    @toggle_gap.setter
    def toggle_gap(self, seconds: float) -> None:
        self.absent.toggle_gap = seconds

    @property
    def cards_gap(self) -> float:
        """The table's 🂠 sends a person's cards once per this many seconds."""
        return self.ctx.cards_gap

    @cards_gap.setter
    def cards_gap(self, seconds: float) -> None:
        self.ctx.cards_gap = seconds

    async def _load(self, table_id: int) -> Table | None:
        return await self.ctx.load(table_id)

    def forget(self, table_id: int) -> None:
        self.ctx.forget(table_id)

    async def facts(self, table: Table) -> Facts:
        return await self.ctx.facts(table)

    async def table_of(self, table_id: int) -> tuple[str, int] | None:
        return await self.ctx.table_of(table_id)

    async def open_table_id(self, chat_id: int, thread: int | None = None) -> int | None:
        return await self.ctx.open_table_id(chat_id, thread)

    async def ledger(
        self, *, chat_id: int | None = None, user_id: int | None = None
    ) -> list[LedgerRow]:
        return await self.ctx.ledger(chat_id=chat_id, user_id=user_id)

    async def deadlines(self) -> list[Deadline]:
        return await self.ctx.deadlines()

    async def boards(
        self, *, chat_id: int | None, user_id: int | None = None, game: str | None = None
    ) -> list[Board]:
        """/score's leaderboards (#35, :func:`bot.runtime.standings.boards`)."""
        return await standings.boards(self.ctx.repo, chat_id=chat_id, user_id=user_id, game=game)

    # --- the lobby (bot.runtime.lobby) ------------------------------------------------------

    async def seeded_options(
        self, chat_id: int, game: str, given: Mapping[str, str] | None = None
    ) -> dict[str, object]:
        return await self.lobby.seeded_options(chat_id, game, given)

    # --- a running table (bot.runtime.play, bot.runtime.absent) -------------------------------

    # --- groups (bot.runtime.groups) --------------------------------------------------------

    async def lobbies_of(self, user_id: int) -> list[Facts]:
        return await self.groups.lobbies_of(user_id)

    # --- screens drawn again (bot.runtime.redraw) ---------------------------------------------

    async def now_playing(
        self, chat_id: int, thread: int | None = None
    ) -> tuple[str, int, list[tuple[str, int]]] | None:
        return await self.redraw.now_playing(chat_id, thread)
