"""Screens drawn again from what is stored: every open table after a restart, a user's hands
or a chat's tables after a language change, a group's tables after it became a supergroup, and
/score's glance at the running match."""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Collection, Sequence
from typing import Any

from bot.presses.families import family_presses
from bot.runtime import owed as owe
from bot.runtime.outcome import (
    DealResult,
    EndedTable,
    LobbyScreen,
    MatchResult,
    Outcome,
    Screen,
    TableScreen,
    events_of,
)
from bot.runtime.play import Play
from bot.runtime.standings import match_standings
from bot.runtime.tables import Context, Table
from bot.storage.rows import Deadline, DeadlineKind, OwedRef, OwedRow, OwedState, TableStatus
from engine.core import Line, State
from engine.lines import LineKind, has, last

logger = logging.getLogger(__name__)


class Redraw:
    """Draws tables again; hands are drawn by ``play``."""

    def __init__(self, ctx: Context, *, play: Play) -> None:
        self.ctx = ctx
        self.play = play

    async def resumes(self) -> list[tuple[int, bool]]:
        """After a restart, every open table to draw again (:meth:`resume`), by id, and
        whether its turn reminder fired for the current move. Reads only."""
        stored = await self.ctx.repo.deadlines()
        held = {(d.table_id, d.moves) for d in stored if d.kind == DeadlineKind.QUIET}
        reminded = {  # the tables whose turn reminder fired for the current move (not held)
            (d.table_id, d.moves) for d in stored if d.kind == DeadlineKind.TURN
        } - held
        rows = await self.ctx.repo.open_tables()
        return [(row.id, (row.id, row.moves) in reminded) for row in rows]

    async def resume_owed(self, held: Collection[int]) -> Outcome:
        """After a restart, what the chats are still owed, oldest first."""
        await self.ctx.repo.prune_owed()
        out = Outcome()
        for outcome in await self.owed(held):
            out += outcome
        return out

    async def resume(self, table_id: int, reminded: bool) -> Outcome:
        """After a restart, an open table's screens as the database has them."""
        table = await self.ctx.load(table_id)
        if table is None:
            return Outcome()
        status = table.row.status
        if status == TableStatus.LOBBY:
            return await self.ctx.lobby_screen(table)
        if status == TableStatus.RUNNING and table.match is not None:
            # a reminder fired for this move (its expiry is stored): the group's mention goes
            # when he acts, as it would have without the stop
            table.reminded = reminded
            facts = await self.ctx.facts(table)
            screens: list[Screen] = [TableScreen(facts, table.match.state.view(None))]
            screens += await self.play.hands(table, facts)
            return Outcome(tuple(screens))
        if status == TableStatus.ENDED and table.match is not None:
            return await self._ended(table)
        return Outcome()

    async def _ended(self, table: Table) -> Outcome:
        """A match that ended: its table and hands as its last move left them (a stop right
        after that move must not leave live buttons behind); nothing is sent where they
        show it already."""
        assert table.match is not None
        facts = await self.ctx.facts(table)
        hands = await self.play.hands(table, facts)
        moves = table.row.moves  # the last move is the one that ended the match
        shown: Screen = TableScreen(facts, table.match.state.view(None))
        if moves > table.match.first_seq:  # else won as it started (§1.6.4): no move of its own
            replayed = await self._replayed(table, table.match.no, moves - 1)
            final = await self.ctx.repo.actions(table.id, moves - 1)
            if replayed is not None and final:
                state, _ = replayed
                before = state.view(None)
                lines = state.apply(*final[0])
                if has(lines, LineKind.DEAL_END):
                    shown = EndedTable(facts, before, events_of(lines))
        return Outcome((shown, *hands))

    async def owed(
        self, held: Collection[int], rows: Sequence[OwedRow] | None = None
    ) -> list[Outcome]:
        """Every entry the chats are still owed (written with its action, never settled —
        it waited behind Telegram's limits when the bot stopped), drawn again from the log, in
        the order they were owed (``rows``: only these), of the tables whose locks are
        ``held`` (an entry owed since, of another table, waits for the next time)."""
        out: list[Outcome] = []
        for row in await self.ctx.repo.owed() if rows is None else rows:
            data = owe.parse(row.what)
            if owe.table_of(data) not in held:
                continue
            screen = await self._drawn(row, data)
            if screen is not None:
                out.append(Outcome.of(screen))
        return out

    async def held(self, owed: OwedRef, seconds: float) -> Outcome:
        """An owed entry could not be sent for now (held, :mod:`bot.sending.held`): it is tried
        again in ``seconds``, a stored deadline of its table (whichever worker leads fires it)."""
        row = next((r for r in await self.ctx.repo.owed() if r.ref.ref == owed.ref), None)
        if row is None or row.state is not OwedState.HELD:
            return Outcome()  # sent or settled meanwhile
        table_id = owe.table_of(owe.parse(row.what))
        again = Deadline(table_id, DeadlineKind.OWED, self.ctx.clock() + seconds, 0)
        async with self.ctx.repo.unit() as tx:
            await tx.put_deadline(again)
        return Outcome(due=(again,))

    async def owed_due(self, deadline: Deadline, tables: Collection[int]) -> Outcome:
        """A held entry's time came: every entry held for the chat of the deadline's table is
        drawn again, in the order it was owed (one held behind another goes after it)."""
        async with self.ctx.repo.unit() as tx:
            await tx.drop_deadline(deadline.table_id, DeadlineKind.OWED)
        held = [r for r in await self.ctx.repo.owed() if r.state is OwedState.HELD]
        chats = {r.chat_id for r in held if owe.table_of(owe.parse(r.what)) == deadline.table_id}
        out = Outcome()
        for outcome in await self.owed(tables, [r for r in held if r.chat_id in chats]):
            out += outcome
        return out

    async def _drawn(self, row: OwedRow, data: dict[str, Any] | None) -> Screen | None:
        """An owed entry's screen drawn again; None: it can't be (settled, and logged)."""
        screen = None
        if data is not None:
            try:
                screen = await self._owed_screen(row, data)
            except Exception:  # never a start that fails on one old entry
                logger.exception("outbox: owed %s: drawing it again failed", row.ref.ref)
        if row.state is OwedState.SENT:  # cut short between the claim and the settle
            logger.warning(
                "outbox: owed %s was being sent when the bot stopped; it goes again (a second"
                " copy only if Telegram had the first)",
                row.ref.ref,
            )
        if screen is None:
            logger.warning("outbox: owed %s can't be drawn again; settled", row.ref.ref)
            await self.ctx.repo.settle_owed(row.ref)
        return screen

    async def _owed_screen(self, row: OwedRow, data: dict[str, Any]) -> Screen | None:
        table = await self.ctx.load(int(data["table"]))
        if table is None:
            return None
        kind = owe.OwedKind(data["kind"])
        if kind is owe.OwedKind.NOTE:
            return owe.screen_of_note(row.chat_id, data, row.ref)
        no = int(data["match"])
        upto = int(data["moves"]) if kind is owe.OwedKind.DEAL else None
        replayed = await self._replayed(table, no, upto)
        if replayed is None:
            return None
        state, lines = replayed
        facts = await self.ctx.facts(table)
        if kind is owe.OwedKind.DEAL:  # as it was when the deal ended
            moved = dataclasses.replace(facts.table, moves=int(data["moves"]))
            facts = dataclasses.replace(facts, table=moved, match_no=no)
            return DealResult(facts, events_of(lines), state.view(None), row.ref)
        end = last(state.record(), LineKind.END)
        if end is None:
            return None
        winner = state.result.winner if state.result is not None else None
        standings = await match_standings(self.ctx.repo, table, no)
        return MatchResult(facts, end, winner, standings, row.ref)

    async def _replayed(
        self, table: Table, no: int, upto: int | None
    ) -> tuple[State, Sequence[Line]] | None:
        """Match ``no`` of the table replayed from the log up to move ``upto`` (None: to its
        end), and the lines of its last action (of its start, when no action came first)."""
        match = await self.ctx.repo.match(table.id, no)
        if match is None:
            return None
        chance = await self.ctx.stored_chance(table.row, match)
        state = self.ctx.new_game(
            table.row.game,
            len(table.seats),
            match.seed,
            table.row.options,
            chance=chance,
            prev_dealer=match.prev_dealer,
        )
        lines: Sequence[Line] = state.record()
        actions = await self.ctx.repo.actions(table.id, match.first_seq)
        for seq, (seat, action) in enumerate(actions, start=match.first_seq):
            if state.is_over or (upto is not None and seq >= upto):
                break
            lines = state.apply(seat, action)
        return state, lines

    async def now_playing(
        self, chat_id: int, thread: int | None = None
    ) -> tuple[str, int, list[tuple[str, int]]] | None:
        """The running or ended table's game, match number and counts, if any, of the chat's
        forum topic ``thread``."""
        row = await self.ctx.repo.open_table(chat_id, thread)
        if row is None or row.status not in (TableStatus.RUNNING, TableStatus.ENDED):
            return None
        table = await self.ctx.load(row.id)
        ui = family_presses(row.game)
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
        """The group ``old`` became the supergroup ``new``: everything follows the
        new id in one unit of work, the caches are read again, and every open table's group
        messages are sent anew in the new chat (a lobby, the running table, a match's result
        with its buttons): the old chat's messages are forgotten, never edited again. A second
        call (the other service message, a redelivery) finds nothing left and does nothing."""
        rows = await self.ctx.repo.open_tables(old)
        async with self.ctx.repo.unit() as tx:
            moved = await tx.migrate_chat(old, new)
        if not moved:
            return Outcome()
        # what the old chat's queue still owed follows to the new one: that queue goes
        owed = [r for r in await self.ctx.repo.owed() if r.chat_id == new]
        self.ctx.people.forget_chat(old)
        self.ctx.people.forget_chat(new)
        self.ctx.members.forget_chat(old)
        screens: list[Screen] = []
        results = {e.ref.ref: e.ref for e in owed}
        for row in rows:
            kept = self.ctx.tables.get(row.id)
            table = await self.ctx.reload(kept) if kept is not None else await self.ctx.load(row.id)
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
                    standings = await match_standings(self.ctx.repo, table, match.no)
                    ref = results.pop(owe.result(table.row, match.no).ref, None)
                    screens.append(MatchResult(facts, end, winner, standings, ref))
        drawn: list[Screen] = []  # the tables are read again: drawn in the new chat
        for entry in owed:
            if entry.ref.ref in results:  # not a result sent anew above
                screen = await self._drawn(entry, owe.parse(entry.what))
                drawn += [screen] if screen is not None else []
        return Outcome((*drawn, *screens))

    async def refresh_hands(self, user_id: int) -> Outcome:
        """The user's hand messages drawn again in place (his /settings changed: language,
        cards in words)."""
        out = Outcome()
        for row in await self.ctx.repo.tables_of_user(user_id):
            if row.status != TableStatus.RUNNING:
                continue
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
            table = await self.ctx.load(row.id)
            if table is None:
                continue
            if table.row.status == TableStatus.LOBBY and not table.starting:
                out += await self.ctx.lobby_screen(table)
            elif table.row.status == TableStatus.RUNNING and table.match is not None:
                view = table.match.state.view(None)
                out += Outcome.of(TableScreen(await self.ctx.facts(table), view))
        return out
