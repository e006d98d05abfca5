"""What the front ends ask the runtime that changes nothing: /score's boards and what is
playing, a table's game and chat, the open table here, the lobbies a user may invite to, the
stored deadlines, a settings pane, the tables a restart draws again. No lock, no command:
each reads what is stored (or the copy in memory), and a command run meanwhile changes
nothing it must agree with — its answer is what the asker sees next, as the state was when
asked (docs/bot.md, "Queries")."""

from __future__ import annotations

from bot.keys import OutboxKey
from bot.runtime import standings
from bot.runtime.groups import Groups
from bot.runtime.outcome import Facts, GroupSettingsScreen, MySettingsScreen
from bot.runtime.redraw import Redraw
from bot.runtime.scoreboard import Board
from bot.runtime.settings import SettingsPanes
from bot.runtime.tables import Context
from bot.storage.rows import Deadline


class Queries:
    """The runtime's reads (see the module)."""

    def __init__(
        self, ctx: Context, *, groups: Groups, redraw: Redraw, settings: SettingsPanes
    ) -> None:
        self.ctx = ctx
        self.groups = groups
        self.redraw = redraw
        self.settings = settings

    async def table_of(self, table_id: int) -> tuple[str, int] | None:
        """A table's game and chat (for a reply), if open."""
        return await self.ctx.table_of(table_id)

    async def open_table_id(self, chat_id: int, thread: int | None = None) -> int | None:
        """The open table of the chat (its forum topic ``thread``), if any."""
        return await self.ctx.open_table_id(chat_id, thread)

    async def now_playing(
        self, chat_id: int, thread: int | None = None
    ) -> tuple[str, int, list[tuple[str, int]]] | None:
        """/score's glance at the match here: its game, number and counts."""
        return await self.redraw.now_playing(chat_id, thread)

    async def open_game(self, chat_id: int, thread: int | None = None) -> str | None:
        """/rules' glance at the table open here (its topic's): its game, None with no table
        here or none picked yet."""
        row = await self.ctx.repo.open_table(chat_id, thread)
        return row.game if row is not None and row.game else None

    async def boards(
        self, *, chat_id: int | None, user_id: int | None = None, game: str | None = None
    ) -> list[Board]:
        """/score's leaderboards (:func:`bot.runtime.standings.boards`)."""
        return await standings.boards(self.ctx.repo, chat_id=chat_id, user_id=user_id, game=game)

    async def lobbies_of(self, user_id: int) -> list[Facts]:
        """The open lobbies the user opened or sits at (what he may invite to)."""
        return await self.groups.lobbies_of(user_id)

    async def deadlines(self) -> list[Deadline]:
        """Every stored deadline (the scheduler's at a start)."""
        return await self.ctx.deadlines()

    async def group_settings(self, chat_id: int, key: OutboxKey) -> GroupSettingsScreen:
        """The group's /settings pane, as message ``key``."""
        return await self.settings.group_pane(chat_id, key)

    async def my_settings(self, user_id: int, key: OutboxKey) -> MySettingsScreen:
        """A person's own /settings pane, as message ``key``."""
        return await self.settings.my_pane(user_id, key)

    async def resumes(self) -> list[tuple[int, bool]]:
        """After a restart, the open tables to draw again (:meth:`Redraw.resumes
        <bot.runtime.redraw.Redraw.resumes>`)."""
        return await self.redraw.resumes()
