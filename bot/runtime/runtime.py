"""The table runtime: the one entry for every input that changes a table.

Routers parse an update and call one method here; it locks the table, checks the press, runs
the engine, commits one unit of work, and returns an :class:`~bot.runtime.outcome.Outcome`.
Nothing here sends anything or calls back up.
"""

from __future__ import annotations

from contextlib import AsyncExitStack

from bot.callbacks import Press, b36
from bot.refused import Refused
from bot.runtime.absent import HandOver
from bot.runtime.computers import ComputerOps
from bot.runtime.core import IsAdmin
from bot.runtime.groups import GroupOps
from bot.runtime.outcome import Facts, LobbyScreen, MatchResult, Note, Outcome, Screen, TableScreen
from bot.runtime.play import PressSource
from bot.storage.rows import Bar, LedgerRow

__all__ = ["PressSource", "TableRuntime"]


class TableRuntime(GroupOps, ComputerOps):
    async def lobby_press(
        self, press: Press, user_id: int, name: str, key: str | None, is_admin: IsAdmin
    ) -> Outcome:
        """A lobby button (or a notice's, or the cancel question's), §4.2–§4.4."""
        async with self.hold(press.table):
            table = await self._open(press.table)
            self.check_message(table, press, key)
            await self.ensure_member(table, user_id)
            v, act = press.version, press.act
            if table.starting and act != "j":  # the seating is final while the notes go out
                raise Refused("The table is starting — one moment.")
            if act == "j":
                user = await self.people.user(user_id)
                if user is None or not user.private_ok:
                    self.lobby_at(table, v)  # still the same lobby?
                    raise Refused(
                        "First open a chat with me — button below.",
                        alert=True,
                        link=f"j_{b36(table.id)}_{table.row.join_code}",
                    )
                return await self.join(table, v, user_id, name)
            if act == "e":
                return await self.leave(table, v, user_id)
            if act == "o":
                return await self.options_view(table, v, user_id, True)
            if act == "b":
                return await self.back(table, v, user_id, is_admin)
            if act == "a":
                return await self.computers_view(table, v, user_id, is_admin)
            if act == "m":
                return await self.add_computer(table, v, user_id, is_admin, press.arg or "")
            if act == "d":
                return await self.remove_computer(table, v, user_id, is_admin, press.arg or "")
            if act == "v":
                option, _, value = (press.arg or "").partition("=")
                return await self.set_option(table, v, user_id, option, value)
            if act == "k":
                return await self.pick(table, v, user_id, press.arg or "")
            if act == "c":
                return await self.ask_cancel(table, v, user_id, is_admin)
            if act == "x":
                return await self.cancel(table, v, user_id, is_admin, key)
            if act == "s":
                return await self.check_start(table, v, user_id, is_admin)
            if act == "n":
                await self.role(table, user_id, is_admin)
                out = await self.dismiss(table, v, user_id, is_admin, key)
                return out + await self.start(table, v, None, without=True)
            if act == "w":
                return await self.dismiss(table, v, user_id, is_admin, key)
            raise Refused("Unknown button.")

    async def kick(
        self,
        chat_id: int,
        target: tuple[int, str] | None,
        is_admin: IsAdmin,
        reply_to: int,
        thread: int | None = None,
    ) -> Outcome:
        """/kick, an admin's reply to a player's message (PRODUCT.md §4.9, §13): in the lobby
        the player is unseated (as by 🚪); at a running table the computer takes his seat.
        ``target``: the replied-to user (id, first name), None if the command was no reply."""
        if not await is_admin():
            raise Refused("Only admins can remove a player from the table.")
        if target is None:
            raise Refused("Use this command as a reply to the player's message.")
        row = await self.repo.open_table(chat_id, thread)
        if row is None:
            raise Refused("There is no open table here.")
        user_id, name = target
        async with self.hold(row.id):
            table = await self._open(row.id)
            seat = table.seat_of(user_id)
            if seat is None:
                raise Refused("{name} isn't at this table.", name=name)
            if table.row.status == "lobby":
                if table.starting:
                    raise Refused("The table is starting — one moment.")
                out = await self.unseat(table, user_id)
                locale = await self.people.chat_locale(chat_id)
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
            if table.row.status != "running":
                raise Refused("There's no game in progress now.")
            if seat.barred is not Bar.NONE:
                raise Refused("{name}: the computer already plays this seat.", name=seat.name)
        return await self.hand_over(row.id, seat.seat, HandOver.KICK)  # §13: the owner is told

    async def start_reached(
        self, table_id: int, generation: int, reached: dict[int, bool]
    ) -> Outcome:
        """The second half of Start: who the private notes reached is known."""
        async with self.hold(table_id):
            table = await self._open(table_id)
            ended = await self.end_starting(table)
            return ended + await self.start(table, generation, reached)

    async def end_press(
        self, press: Press, user_id: int, key: str | None, is_admin: IsAdmin
    ) -> Outcome:
        """Another match, or finish (§4.7), on the match result's buttons."""
        async with self.hold(press.table):
            table = await self._open(press.table)
            self.check_message(table, press, key)
            await self.ensure_member(table, user_id)
            if press.act == "r":
                return await self.another(table, press.version, user_id, is_admin)
            return await self.finish(table, press.version, user_id, is_admin)

    async def join_by_link(self, table_id: int, code: str, user_id: int, name: str) -> Outcome:
        """The deep link of §4.3 (``j_<table>_<code>``)."""
        async with self.hold(table_id):
            table = await self._load(table_id)
            if table is None or table.row.status == "closed" or table.row.join_code != code:
                raise Refused("This table is closed.")
            await self.ensure_member(table, user_id)
            return await self.join(table, None, user_id, name)

    async def lobbies_of(self, user_id: int) -> list[Facts]:
        """The open lobbies the user opened or sits at (what he may invite to)."""
        out = []
        for row in await self.repo.tables_of_user(user_id):
            if row.status != "lobby" or not row.game:
                continue
            table = await self._load(row.id)
            if table is not None:
                out.append(await self.facts(table))
        return out

    async def table_of(self, table_id: int) -> tuple[str, int] | None:
        """A table's game and chat (for a reply), if open."""
        table = await self._load(table_id)
        if table is None or table.row.status == "closed":
            return None
        return table.row.game, table.row.chat_id

    async def migrate_chat(self, old: int, new: int) -> Outcome:
        """The group ``old`` became the supergroup ``new`` (issue #17): everything follows the
        new id in one unit of work, the caches are read again, and every open table's group
        messages are sent anew in the new chat (a lobby, the running table, a match's result
        with its buttons): the old chat's messages are forgotten, never edited again. A second
        call (the other service message, a redelivery) finds nothing left and does nothing."""
        rows = await self.repo.open_tables(old)
        async with AsyncExitStack() as stack:
            for row in rows:
                await stack.enter_async_context(self.hold(row.id))
            async with self.repo.unit() as tx:
                moved = await tx.migrate_chat(old, new)
            if not moved:
                return Outcome()
            self.people.forget_chat(old)
            self.people.forget_chat(new)
            self.members.forget_chat(old)
            screens: list[Screen] = []
            for row in rows:
                kept = self._tables.get(row.id)
                table = await self.reload(kept) if kept is not None else await self._load(row.id)
                if table is None:
                    continue
                facts = await self.facts(table)
                match = table.match
                if table.row.status == "lobby":
                    screens.append(LobbyScreen(facts))
                elif match is not None and table.row.status == "running":
                    screens.append(TableScreen(facts, match.state.view(None), fresh=True))
                elif match is not None and table.row.status == "ended":
                    lines = match.state.record()
                    end = next((ln for ln in reversed(lines) if ln.get("t") == "end"), None)
                    if end is not None:
                        result = match.state.result
                        winner = result.winner if result is not None else None
                        standings = await self._standings(table)
                        screens.append(MatchResult(facts, end, winner, standings))
            return Outcome(tuple(screens))

    async def refresh_hands(self, user_id: int) -> Outcome:
        """The user's hand messages drawn again in place (his /settings changed: language,
        cards in words)."""
        out = Outcome()
        for row in await self.repo.tables_of_user(user_id):
            if row.status != "running":
                continue
            async with self.hold(row.id):
                table = await self._load(row.id)
                mine = table.seat_of(user_id) if table is not None else None
                if table is not None and table.match is not None and mine is not None:
                    out += await self._one_hand(table, mine.seat)
        return out

    async def refresh_chat(self, chat_id: int) -> Outcome:
        """The chat's open lobbies and live tables (every topic's) drawn again (its language
        changed)."""
        out = Outcome()
        for row in await self.repo.open_tables(chat_id):
            async with self.hold(row.id):
                table = await self._load(row.id)
                if table is None:
                    continue
                if table.row.status == "lobby" and not table.starting:
                    out += await self.lobby(table)
                elif table.row.status == "running" and table.match is not None:
                    view = table.match.state.view(None)
                    out += Outcome.of(TableScreen(await self.facts(table), view))
        return out

    async def open_table_id(self, chat_id: int, thread: int | None = None) -> int | None:
        row = await self.repo.open_table(chat_id, thread)
        return row.id if row is not None else None

    async def ledger(
        self, *, chat_id: int | None = None, user_id: int | None = None
    ) -> list[LedgerRow]:
        return await self.repo.ledger(chat_id=chat_id, user_id=user_id)
