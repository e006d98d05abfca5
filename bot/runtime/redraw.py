"""Screens drawn again from what is stored: every open table after a restart, a user's hands
or a chat's tables after a language change, a group's tables after it became a supergroup, and
/score's glance at the running match."""

from __future__ import annotations

from contextlib import AsyncExitStack

from bot.runtime.core import Context, family_ui
from bot.runtime.outcome import (
    DealResult,
    LobbyScreen,
    MatchResult,
    Outcome,
    Screen,
    TableScreen,
    events_of,
)
from bot.runtime.play import Play
from bot.storage.rows import TableStatus
from engine.lines import LineKind, has, last


class Redraw:
    """Draws tables again; hands are drawn by ``play``."""

    def __init__(self, ctx: Context, *, play: Play) -> None:
        self.ctx = ctx
        self.play = play

    async def resume(self) -> list[tuple[Outcome, int]]:
        """Every open table's screens as the database has them (with the table id)."""
        out = []
        for row in await self.ctx.repo.open_tables():
            async with self.ctx.hold(row.id):
                table = await self.ctx.load(row.id)
                if table is None:
                    continue
                if row.status == TableStatus.LOBBY:
                    out.append((await self.ctx.lobby_screen(table), row.id))
                elif row.status == TableStatus.RUNNING and table.match is not None:
                    facts = await self.ctx.facts(table)
                    view = table.match.state.view(None)
                    screens: list[Screen] = []
                    tail = table.match.tail
                    if has(tail, LineKind.DEAL_END):  # may not have been shown
                        screens.append(DealResult(facts, events_of(tail), view))
                    screens += [TableScreen(facts, view), *await self.play.hands(table, facts)]
                    out.append((Outcome(tuple(screens)), row.id))
        return out

    async def now_playing(
        self, chat_id: int, thread: int | None = None
    ) -> tuple[str, int, list[tuple[str, int]]] | None:
        """The running or ended table's game, match number and counts, if any, of the chat's
        forum topic ``thread``."""
        row = await self.ctx.repo.open_table(chat_id, thread)
        if row is None or row.status not in (TableStatus.RUNNING, TableStatus.ENDED):
            return None
        table = await self.ctx.load(row.id)
        ui = family_ui(row.game)
        if table is None or table.match is None or ui is None:
            return None
        counts = ui.counts(table.match.state.view(None))
        if not counts:
            return None
        return (
            row.game,
            table.match.no,
            [(s.name, c) for s, c in zip(table.seats, counts, strict=False)],
        )

    async def migrate_chat(self, old: int, new: int) -> Outcome:
        """The group ``old`` became the supergroup ``new`` (issue #17): everything follows the
        new id in one unit of work, the caches are read again, and every open table's group
        messages are sent anew in the new chat (a lobby, the running table, a match's result
        with its buttons): the old chat's messages are forgotten, never edited again. A second
        call (the other service message, a redelivery) finds nothing left and does nothing."""
        rows = await self.ctx.repo.open_tables(old)
        async with AsyncExitStack() as stack:
            for row in rows:
                await stack.enter_async_context(self.ctx.hold(row.id))
            async with self.ctx.repo.unit() as tx:
                moved = await tx.migrate_chat(old, new)
            if not moved:
                return Outcome()
            self.ctx.people.forget_chat(old)
            self.ctx.people.forget_chat(new)
            self.ctx.members.forget_chat(old)
            screens: list[Screen] = []
            for row in rows:
                kept = self.ctx.tables.get(row.id)
                table = (
                    await self.ctx.reload(kept) if kept is not None else await self.ctx.load(row.id)
                )
                if table is None:
                    continue
                facts = await self.ctx.facts(table)
                match = table.match
                if table.row.status == TableStatus.LOBBY:
                    screens.append(LobbyScreen(facts))
                elif match is not None and table.row.status == TableStatus.RUNNING:
                    screens.append(TableScreen(facts, match.state.view(None), fresh=True))
                elif match is not None and table.row.status == TableStatus.ENDED:
                    lines = match.state.record()
                    end = last(lines, LineKind.END)
                    if end is not None:
                        result = match.state.result
                        winner = result.winner if result is not None else None
                        standings = await self.play.standings(table)
                        screens.append(MatchResult(facts, end, winner, standings))
            return Outcome(tuple(screens))

    async def refresh_hands(self, user_id: int) -> Outcome:
        """The user's hand messages drawn again in place (his /settings changed: language,
        cards in words)."""
        out = Outcome()
        for row in await self.ctx.repo.tables_of_user(user_id):
            if row.status != TableStatus.RUNNING:
                continue
            async with self.ctx.hold(row.id):
                table = await self.ctx.load(row.id)
                mine = table.seat_of(user_id) if table is not None else None
                if table is not None and table.match is not None and mine is not None:
                    out += await self.play.one_hand(table, mine.seat)
        return out

    async def refresh_chat(self, chat_id: int) -> Outcome:
        """The chat's open lobbies and live tables (every topic's) drawn again (its language
        changed)."""
        out = Outcome()
        for row in await self.ctx.repo.open_tables(chat_id):
            async with self.ctx.hold(row.id):
                table = await self.ctx.load(row.id)
                if table is None:
                    continue
                if table.row.status == TableStatus.LOBBY and not table.starting:
                    out += await self.ctx.lobby_screen(table)
                elif table.row.status == TableStatus.RUNNING and table.match is not None:
                    view = table.match.state.view(None)
                    out += Outcome.of(TableScreen(await self.ctx.facts(table), view))
        return out
