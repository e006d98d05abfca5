"""Closing a table that is playing: no member can hold a group's table hostage, and
no close erases a result.

Before a match's first action nothing changes: a lobby, or a table not yet begun, closes as it
always did (:meth:`bot.runtime.lobby.Lobby.cancel`). Once it has begun, the creator's (or an
admin's) /cancel asks the people playing, in the group, and each agrees with a button; when all
have agreed, it closes. Who is asked: the seated people who play their seats now. A computer
never votes, and nor does a person the computer plays for (he is away, or left the group): to
wait for someone who walked away would let him hold the table, and his seat is rated as it
stands all the same. An admin may close at once (the group is told which admin). Anyone asked,
the creator or an admin may say no: the question goes. Unanswered, it lapses (a stored
deadline, as every timer: a restart keeps it).

Every close of a running match — agreed, by an admin, idle (nobody moved), the bot removed from
the group, its topic gone — rates it as it stands once its first deal is over
(:func:`bot.runtime.ratings.closed_early`: the places by the money of the deals played), in the
close's own unit of work, as a finished match is rated in its last action's. Before that: no
result, for anyone. The record stays RECORD.md's abandoned one, and nothing is paid (§0.11).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from enum import StrEnum
from typing import Final

from bot import slow
from bot.i18n import N_
from bot.numbers import rating, signed
from bot.refused import BotRefusal, Refused
from bot.runtime import owed as owe
from bot.runtime import ratings
from bot.runtime.as_it_stands import played_deals
from bot.runtime.outcome import (
    CloseQuestion,
    Facts,
    Gone,
    HandGone,
    Note,
    Outcome,
    PingGone,
    QuestionEnd,
    Screen,
    Strip,
    keys,
    reminder_key,
)
from bot.runtime.owed import Owing
from bot.runtime.tables import Context, IsAdmin, Table, is_running
from bot.storage.rows import (
    Bar,
    Deadline,
    DeadlineKind,
    ResultRow,
    ResultSeat,
    SeatKind,
    SeatRow,
    TableStatus,
)

QUESTION_S: Final = 300.0  # an unanswered question to close a running table lapses after this
CLOSING_KINDS = (
    DeadlineKind.COMPUTER,
    DeadlineKind.REMIND,
    DeadlineKind.TURN,
    DeadlineKind.QUIET,
    DeadlineKind.IDLE,
    DeadlineKind.LOBBY,
    DeadlineKind.CLOSE,
)  # a closed table keeps none


class ClosedWhy(StrEnum):
    """Why a running table closed (the group's line; the idle one says so itself)."""

    AGREED = "🏁 The table is closed: everyone playing agreed."
    ADMIN = "🏁 The table is closed by an admin: {name}."


RATED = "📊 Rated as it stands — places by the money of the deals played: {places}."
RATED_FOR = (
    "📊 Rated as it stands — places by the money of the deals played: {places}. "
    "🤖 — the computer played the seat: its play lifts nobody's rating."
)


def begun(table: Table) -> bool:
    """The table's match has begun: running, and its first action made."""
    match = table.match
    return (
        table.row.status == TableStatus.RUNNING
        and match is not None
        and table.row.moves > match.first_seq
    )


def voters(table: Table) -> list[SeatRow]:
    """Who must agree to close the running table: the seated people who play their seats now
    (not a computer seat, not one the computer plays for its person)."""
    return [
        s
        for s in table.seats
        if s.kind is SeatKind.HUMAN
        and s.user_id is not None
        and not s.away
        and s.barred is Bar.NONE
    ]


def places_line(rated: ResultRow) -> str:
    """``1. Аня 112 (+5) · 2. Борис 97 (0) 🤖``: the places of a match rated as it stands, with each
    seat's rating in the group and its change (plain text: escaped where it is drawn)."""

    def figures(s: ResultSeat) -> str:
        mark = " 🤖" if s.stand_in else ""
        return f"{rating(s.rating)} ({signed(s.change)}){mark}"

    return " · ".join(
        f"{s.place}. {s.name} {figures(s)}" for s in sorted(rated.seats, key=lambda s: s.place)
    )


class Closing:
    """A running table's close: the question to the people playing and its answers, an admin's
    close, the idle close, and every close's rating as it stands."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.question_s = QUESTION_S

    # --- the question ----------------------------------------------------------------------

    async def ask(
        self, table: Table, user_id: int, is_admin: IsAdmin, reply_to: int | None
    ) -> Outcome:
        """/cancel at a match that has begun (the creator's or an admin's): the people playing
        are asked in the group. While the question is open, asking again shows it in place;
        once it went (no, lapsed), it may be asked anew only when its time would have run out —
        so /cancel and ↩️ again and again post one question in :data:`QUESTION_S`."""
        await self.ctx.role(table, user_id, is_admin)
        assert table.match is not None
        stored = await self._stored(table)
        if stored is not None and stored.moves == table.match.no:
            return await self._question(table)  # open: in place, agreements kept
        if stored is not None and stored.moves == -table.match.no:
            left = stored.due_at - self.ctx.clock()
            if left > 0:
                raise Refused(BotRefusal.ASKED_LATELY, minutes=max(1, math.ceil(left / 60)))
        due = Deadline(
            table.id, DeadlineKind.CLOSE, self.ctx.clock() + self.question_s, table.match.no
        )
        async with self.ctx.repo.unit() as tx:
            await tx.set_agreed(table.id, None, False)
            await tx.put_deadline(due)
        table.seats = [dataclasses.replace(s, agreed=False) for s in table.seats]
        return await self._question(table, reply_to=reply_to) + Outcome(due=(due,))

    async def agree(self, table: Table, generation: int, user_id: int) -> Outcome:
        """✅ on the question: the presser agrees; once everyone asked has, the table closes."""
        await self._open(table, generation)
        seat = next((s for s in voters(table) if s.user_id == user_id), None)
        if seat is None:
            raise Refused(BotRefusal.ONLY_PLAYERS_ASKED)
        if seat.agreed:
            raise Refused(BotRefusal.ALREADY_AGREED)
        async with self.ctx.repo.unit() as tx:
            await tx.set_agreed(table.id, seat.seat, True)
        table.seats[seat.seat] = dataclasses.replace(seat, agreed=True)
        if all(s.agreed for s in voters(table)):
            return await self._close(table, ClosedWhy.AGREED)
        return await self._question(table)

    async def close_now(
        self, table: Table, generation: int, name: str, is_admin: IsAdmin
    ) -> Outcome:
        """✖️ on a question once the match has begun: only an admin closes it at once."""
        if not await is_admin():
            raise Refused(BotRefusal.CLOSE_ADMIN_ONLY)
        if generation != table.row.generation:
            raise Refused(BotRefusal.STALE_BUTTON)
        return await self._close(table, ClosedWhy.ADMIN, name)

    async def refuse(
        self, table: Table, generation: int, user_id: int, name: str, is_admin: IsAdmin
    ) -> Outcome:
        """↩️ No on the question: anyone asked, the creator or an admin; the question goes."""
        await self._open(table, generation)
        asked = any(s.user_id == user_id for s in voters(table))
        if not asked and user_id != table.row.creator_id and not await is_admin():
            raise Refused(BotRefusal.ONLY_PLAYERS_ASKED)
        return await self._end(table, QuestionEnd.NO, name)

    async def lapsed(self, deadline: Deadline) -> Outcome:
        """The question's time is up with no answer: it goes, the game goes on."""
        table = await self.ctx.load(deadline.table_id)
        undue = Outcome(undue=((deadline.table_id, DeadlineKind.CLOSE),))
        if table is None or not is_running(table) or table.match is None:
            async with self.ctx.repo.unit() as tx:  # the match is over: only the row goes
                await tx.drop_deadline(deadline.table_id, DeadlineKind.CLOSE)
            return undue
        stored = await self._stored(table)
        if stored is not None and stored.moves < 0:  # a pause after a question: over
            async with self.ctx.repo.unit() as tx:
                await tx.drop_deadline(deadline.table_id, DeadlineKind.CLOSE)
            return undue
        if stored is None or stored.moves != table.match.no:
            return undue
        if stored.due_at > deadline.due_at + 0.5:  # asked again since: its own deadline
            return Outcome()
        return await self._end(table, QuestionEnd.LAPSED)

    async def asking(self, table: Table) -> bool:
        """Whether the question to close the table's match is open."""
        stored = await self._stored(table) if begun(table) else None
        return stored is not None and table.match is not None and stored.moves == table.match.no

    async def _stored(self, table: Table) -> Deadline | None:
        found = await self.ctx.repo.deadlines(table.id)
        return next((d for d in found if d.kind == DeadlineKind.CLOSE), None)

    async def _open(self, table: Table, generation: int) -> None:
        """The question pressed is the open one of this match (else out of date)."""
        stored = await self._stored(table) if begun(table) else None
        if (
            stored is None
            or generation != table.row.generation
            or table.match is None
            or stored.moves != table.match.no
        ):
            raise Refused(BotRefusal.STALE_BUTTON)

    async def _question(
        self,
        table: Table,
        *,
        reply_to: int | None = None,
        end: QuestionEnd | None = None,
        by: str = "",
    ) -> Outcome:
        assert table.match is not None
        # rated as it stands once a deal is over — never a practice or teaching table
        rated = table.row.rated and bool(played_deals(table.match.state.record()))
        facts = await self.ctx.facts(table)
        asked = tuple(s.seat for s in voters(table))
        return Outcome.of(CloseQuestion(facts, asked, rated, reply_to, end, by))

    async def _end(self, table: Table, end: QuestionEnd, by: str = "") -> Outcome:
        """The question goes (no, or lapsed): its message says why, without buttons. After a no,
        until its time would have run out, the deadline stays as a pause (its match's number
        negated): no new question before it (:meth:`ask`), dropped when it falls due."""
        assert table.match is not None
        stored = await self._stored(table)
        pause = None
        if end is QuestionEnd.NO and stored is not None and stored.due_at > self.ctx.clock():
            pause = Deadline(table.id, DeadlineKind.CLOSE, stored.due_at, -table.match.no)
        async with self.ctx.repo.unit() as tx:
            await tx.set_agreed(table.id, None, False)
            if pause is None:
                await tx.drop_deadline(table.id, DeadlineKind.CLOSE)
            else:
                await tx.put_deadline(pause)
        shown = await self._question(table, end=end, by=by)
        table.seats = [dataclasses.replace(s, agreed=False) for s in table.seats]
        if pause is None:
            return shown + Outcome(undue=((table.id, DeadlineKind.CLOSE),))
        return shown + Outcome(due=(pause,))

    async def _close(self, table: Table, why: ClosedWhy, name: str = "") -> Outcome:
        """Everyone agreed, or an admin closed it: closed and rated as it stands."""
        said = Note(
            table.row.chat_id,
            await self.ctx.people.chat_locale(table.row.chat_id),
            why.value,
            {"name": name} if name else {},
            thread=table.row.thread_id,
        )
        said, owing = owe.note(table.row, f"closed:{table.row.moves}", said)
        _, closed = await self.close_table(table, (owing,))
        group: list[Screen] = [
            Strip(table.row.chat_id, keys(table.id).cancel, forget=True),
            Strip(table.row.chat_id, keys(table.id).table, forget=True),
            said,
        ]
        if table.reminded:
            group.append(Gone(table.row.chat_id, reminder_key(table.id)))
        return Outcome(tuple(group)) + closed

    # --- every close ---------------------------------------------------------------------------

    async def close_table(
        self, table: Table, owing: Sequence[Owing] = (), *, tell: bool = True
    ) -> tuple[Facts, Outcome]:
        """The table closes: every deadline of it dropped, the open match abandoned (§0.11, its
        record ends with RECORD.md's abandoned line), nothing booked — and rated as it stands
        once its first deal is over, in this unit of work (``tell``: the group is told the
        places). What every such close shows: the hands lose their buttons, the turn pings go."""
        match = table.match if table.row.status == TableStatus.RUNNING else None
        locale = await self.ctx.people.chat_locale(table.row.chat_id)
        told: Note | None = None
        async with self.ctx.repo.unit() as tx:
            await tx.update_table(table.id, status=TableStatus.CLOSED)
            for kind in CLOSING_KINDS:
                await tx.drop_deadline(table.id, kind)
            for owed in owing:  # what the close owes the group
                await owed.write(tx)
            if match is not None:
                decided = await tx.deciders(table.id, match.first_seq)
                lines = match.state.record()
                standing = ratings.closed_early(table.row, match.no, table.seats, lines, decided)
                if standing is not None:
                    rated = await ratings.rate(tx, standing, self.ctx.clock)
                    if tell:
                        told, entry = self._rated_note(table, locale, rated)
                        await entry.write(tx)
        facts = await self.ctx.facts(table)
        self.ctx.forget(table.id)
        screens: list[Screen] = [told] if told is not None else []
        if table.match is not None:
            for s in table.seats:
                if s.user_id is not None:
                    screens.append(HandGone(table.row.chat_id, s.user_id, table.id, s.seat))
                    screens.append(PingGone(s.user_id, table.id, table.row.chat_id, s.seat))
        undue = tuple((table.id, k) for k in CLOSING_KINDS)
        return facts, Outcome(tuple(screens), undue=undue)

    @staticmethod
    def _rated_note(table: Table, locale: str, rated: ResultRow) -> tuple[Note, Owing]:
        msgid = RATED_FOR if any(s.stand_in for s in rated.seats) else RATED
        note = Note(
            table.row.chat_id,
            locale,
            msgid,
            {"places": places_line(rated)},
            thread=table.row.thread_id,
        )
        return owe.note(table.row, f"rated:{rated.match_no}", note)

    def _idle_said(self, table: Table) -> tuple[str, dict[str, object]]:
        """For how long nobody moved: in minutes, in hours at a long-turn table."""
        idle = self.ctx.idle_time(table)
        if slow.is_long(self.ctx.turn_time(table)):
            return (
                N_(
                    "🏁 The table is closed: nobody has made a move for {hours} h. "
                    "Nothing is paid for the open deal."
                ),
                {"hours": round(idle / 3600)},
            )
        return (
            N_(
                "🏁 The table is closed: nobody has made a move for {minutes} min. "
                "Nothing is paid for the open deal."
            ),
            {"minutes": round(idle / 60)},
        )

    async def close_idle(self, table: Table) -> Outcome:
        """No person has moved for the idle time: closed (rated as it stands after a deal), and
        the group told why."""
        said = Note(
            table.row.chat_id,
            await self.ctx.people.chat_locale(table.row.chat_id),
            *self._idle_said(table),
            thread=table.row.thread_id,
        )
        said, owing = owe.note(table.row, "idle", said)
        _, closed = await self.close_table(table, (owing,))
        group: list[Screen] = [
            Strip(table.row.chat_id, keys(table.id).cancel, forget=True),  # an open question
            Strip(table.row.chat_id, keys(table.id).table, forget=True),
            said,
        ]
        if table.reminded:
            group.append(Gone(table.row.chat_id, reminder_key(table.id)))
        return Outcome(tuple(group)) + closed
