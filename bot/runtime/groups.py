"""Groups as they really are: the bot removed from a group, or no longer allowed to
write there, closes the group's open table — nothing can be shown there any more; and /notify,
a person's private ping when a new table opens in a group (off by default), paced: a minute
after it opens, if it still seats, and once per half an hour a group (the settings' times)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.callbacks import b36
from bot.game_names import game_name
from bot.refused import BotRefusal, Refused
from bot.runtime.absent import Absent, HandOver
from bot.runtime.closing import Closing
from bot.runtime.lobby import Lobby
from bot.runtime.outcome import Facts, Note, Outcome, Screen
from bot.runtime.tables import Context, IsAdmin, Table
from bot.storage.rows import OPEN_STATUSES, Bar, Deadline, DeadlineKind, TableRow, TableStatus

REMOVED = "The «{game}» table in «{chat}» is closed: I was removed from the group."
TOPIC_GONE = "The «{game}» table in «{chat}» is closed: its topic was closed or deleted."


class Groups:
    """A group's life around its tables: the bot removed or a topic gone (its tables close),
    /notify and the pings of a new table, a lobby opened with them."""

    def __init__(self, ctx: Context, *, lobby: Lobby, absent: Absent, closing: Closing) -> None:
        self.ctx = ctx
        self.lobby = lobby
        self.absent = absent
        self.closing = closing

    async def bot_removed(self, chat_id: int) -> Outcome:
        """The bot was removed from the group (or may not write there): its open table, lobby
        or running, is closed as an idle one is — the open match abandoned, nothing booked, its
        deadlines dropped — and every seated person is told in private once. Nothing goes to
        the group: it can't be written to. Every open table of the group (in any topic)."""
        out = Outcome()
        for row in await self.ctx.repo.open_tables(chat_id):
            out += await self.close_unshown(row.id, REMOVED)
        return out

    async def topic_gone(self, table_id: int) -> Outcome:
        """The forum topic the table lives in was closed or deleted (a send there failed): the
        table can't be shown any more, so it closes as in :meth:`bot_removed`, its players told
        in private why."""
        return await self.close_unshown(table_id, TOPIC_GONE)

    async def close_unshown(self, table_id: int, msgid: str) -> Outcome:
        table = await self.ctx.load(table_id)
        if table is None or table.row.status not in OPEN_STATUSES:
            return Outcome()
        ended = table.row.status == TableStatus.ENDED
        facts, closed = await self.closing.close_table(table, tell=False)
        if ended:  # its result was shown: it only stops being open, nothing is touched
            return Outcome(undue=closed.undue)
        notes: list[Screen] = []
        told: set[int] = set()
        for s in table.seats:
            if s.user_id is None or s.user_id in told:
                continue
            told.add(s.user_id)
            locale = await self.ctx.people.user_locale(s.user_id)
            notes.append(
                Note(
                    s.user_id,
                    locale,
                    msgid,
                    {
                        "game": game_name(table.row.game, locale) if table.row.game else "—",
                        "chat": facts.chat_title,
                    },
                )
            )
        return closed + Outcome(tuple(notes))

    # --- /kick ---------------------------------------------------------------------------------

    async def kick(
        self,
        table: Table | None,
        chat_id: int,
        target: tuple[int, str] | None,
        is_admin: IsAdmin,
        reply_to: int,
        thread: int | None = None,
    ) -> Outcome:
        """/kick, an admin's reply to a player's message (PRODUCT.md §4.9, §13), at the open
        ``table`` here: in the lobby the player is unseated (as by 🚪); at a running table the
        computer takes his seat. ``target``: the replied-to user (id, first name), None if the
        command was no reply."""
        if not await is_admin():
            raise Refused(BotRefusal.KICK_ADMINS_ONLY)
        if target is None:
            raise Refused(BotRefusal.KICK_NEEDS_REPLY)
        if table is None:
            raise Refused(BotRefusal.NO_OPEN_TABLE)
        if table.row.status == TableStatus.CLOSED:
            raise Refused(BotRefusal.TABLE_CLOSED)
        user_id, name = target
        seat = table.seat_of(user_id)
        if seat is None:
            raise Refused(BotRefusal.NOT_AT_TABLE, name=name)
        if table.row.status == TableStatus.LOBBY:
            if table.starting:
                raise Refused(BotRefusal.TABLE_STARTING)
            out = await self.lobby.unseat(table, user_id)
            locale = await self.ctx.people.chat_locale(chat_id)
            gone = {"name": seat.name}
            note = Note(
                chat_id,
                locale,
                "{name} is no longer at the table.",
                gone,
                reply_to=reply_to,
                thread=thread,
            )
            return out + Outcome.of(note)
        if table.row.status != TableStatus.RUNNING:
            raise Refused(BotRefusal.NO_GAME_IN_PROGRESS)
        if seat.barred is not Bar.NONE:
            raise Refused(BotRefusal.ALREADY_COMPUTER, name=seat.name)
        return await self.absent.hand_over(table.id, seat.seat, HandOver.KICK)  # §13: told

    # --- /notify -------------------------------------------------------------------------------

    async def toggle_notify(
        self, chat_id: int, user_id: int, reply_to: int, thread: int | None = None
    ) -> Outcome:
        """/notify in a group: the user's new-table ping for this group on or off; the group is
        told which. Someone the bot can't write to in private is asked to open the chat first."""
        locale = await self.ctx.people.chat_locale(chat_id)
        user = await self.ctx.people.user(user_id)
        if user is None or not user.private_ok:
            return Outcome.of(
                Note(
                    chat_id,
                    locale,
                    "First open a chat with me — button below.",
                    link="s",
                    button="💬 Open the chat",
                    reply_to=reply_to,
                    thread=thread,
                )
            )
        on = user_id not in await self.ctx.repo.notified(chat_id)
        async with self.ctx.repo.unit() as tx:
            await tx.set_notify(chat_id, user_id, on)
        msgid = (
            "🔔 I'll write to you in private when a new table opens here. /notify again: off."
            if on
            else "🔕 No more pings about new tables here."
        )
        return Outcome.of(Note(chat_id, locale, msgid, reply_to=reply_to, thread=thread))

    async def open(
        self,
        chat_id: int,
        user_id: int,
        name: str,
        game: str,
        options: dict[str, str] | None = None,
        thread: int | None = None,
    ) -> Outcome:
        """A lobby opens (:meth:`Lobby.open`); its subscribers' pings are stored as due
        ``notify_delay`` later (:meth:`pings_due`), should anyone else have asked for them."""
        out = await self.lobby.open(chat_id, user_id, name, game, options, thread)
        return out + await self._pings_later(chat_id, thread, user_id)

    async def _pings_later(self, chat_id: int, thread: int | None, opener: int) -> Outcome:
        row = await self.ctx.repo.open_table(chat_id, thread)
        if row is None or row.status != TableStatus.LOBBY:
            return Outcome()
        if all(s.user_id == opener for s in await self.ctx.repo.subscribers(chat_id)):
            return Outcome()  # nobody to ping: nothing stored
        due = Deadline(row.id, DeadlineKind.NOTIFY, self.ctx.clock() + self.ctx.notify_delay, 0)
        async with self.ctx.repo.unit() as tx:
            await tx.put_deadline(due)
        return Outcome(due=(due,))

    async def pings_due(self, deadline: Deadline) -> Outcome:
        """A new lobby's pings fell due. A lobby closed, started or starting by now pings
        nobody (what could they join?); else each subscriber of the group — not seated there,
        the bot able to write to him, not pinged from this group within ``notify_gap`` — gets
        one, and the time of it is written with the deadline's drop (every worker, every
        restart keeps the gap)."""
        table_id = deadline.table_id
        undue = Outcome(undue=((table_id, DeadlineKind.NOTIFY),))
        table = await self.ctx.load(table_id)
        now = self.ctx.clock()
        seating = table is not None and table.row.status == TableStatus.LOBBY and not table.starting
        whom = await self._whom(table, now) if seating and table is not None else []
        async with self.ctx.repo.unit() as tx:
            await tx.drop_deadline(table_id, DeadlineKind.NOTIFY)
            if table is not None and whom:
                await tx.set_pinged(table.row.chat_id, whom, now)
        if table is None or not whom:
            return undue
        return undue + await self._pings(table.row, whom)

    async def _whom(self, table: Table, now: float) -> list[int]:
        """Who is pinged about the lobby now (see :meth:`pings_due`)."""
        seated = {s.user_id for s in table.seats}
        whom = []
        for sub in await self.ctx.repo.subscribers(table.row.chat_id):
            if sub.user_id in seated or now - sub.pinged_at < self.ctx.notify_gap:
                continue
            user = await self.ctx.people.user(sub.user_id)
            if user is not None and user.private_ok:
                whom.append(sub.user_id)
        return whom

    async def _pings(self, row: TableRow, whom: Sequence[int]) -> Outcome:
        chat = await self.ctx.people.chat(row.chat_id)
        title = chat.title if chat else ""
        link = f"j_{b36(row.id)}_{row.join_code}"
        screens: list[Screen] = []
        for user_id in whom:
            locale = await self.ctx.people.user_locale(user_id)
            params = {"chat": title, "game": game_name(row.game, locale)}
            msgid = (
                "🃏 A table is open in «{chat}»: {game} — join in"
                if row.game
                else "🃏 A table is open in «{chat}» — join in"
            )
            screens.append(Note(user_id, locale, msgid, params, link=link, button="✋ Join"))
        return Outcome(tuple(screens))

    async def lobbies_of(self, user_id: int) -> list[Facts]:
        """The open lobbies the user opened or sits at (what he may invite to)."""
        out = []
        for row in await self.ctx.repo.tables_of_user(user_id):
            if row.status != TableStatus.LOBBY or not row.game:
                continue
            table = await self.ctx.load(row.id)
            if table is not None:
                out.append(await self.ctx.facts(table))
        return out
