"""A table before and between its matches: open, pick, join, leave, options, start, cancel,
another match, finish (PRODUCT.md §4.2–§4.4, §4.7). Every method locks the table, checks,
writes one unit of work, updates memory, and returns what the screens must show."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Mapping, Sequence
from typing import Any, Final, Protocol

from bot import slow
from bot.game_names import game_name
from bot.keys import OutboxKey
from bot.logsafe import safe
from bot.presses.families import family_presses
from bot.refused import BotRefusal, Refused
from bot.runtime import teaching
from bot.runtime.lobby_options import default_options, option_refusal
from bot.runtime.outcome import (
    CancelQuestion,
    LobbyClosed,
    LobbyScreen,
    Note,
    Outcome,
    Strip,
    UnreachableNotice,
    keys,
)
from bot.runtime.tables import (
    Context,
    IsAdmin,
    Match,
    Table,
    join_code,
    seat_range,
)
from bot.storage.rows import (
    Deadline,
    DeadlineKind,
    SeatKind,
    SeatRow,
    SeatSpec,
    TableKind,
    TableStatus,
)
from engine.errors import InvalidOption
from engine.games import GAMES
from engine.options import options_dict, parse_options

log = logging.getLogger(__name__)


START_GRACE: Final = 60.0  # a lobby that times out while Start waits for its notes: this later
START_HOLD: Final = 45.0  # Start's gap at most (longer than the router's START_WAIT, 30 s)


def seat_specs(table: Table) -> list[SeatSpec]:
    """The table's seats as :meth:`~bot.storage.protocol.Writes.replace_seats` takes them (a
    computer keeps its level)."""
    return [(s.kind, s.user_id, s.name, s.level) for s in table.seats]


class StartMatch(Protocol):
    """How a match starts (:meth:`bot.runtime.play.Play.start_match`): given to the lobby, which
    starts match 1 and every next one."""

    def __call__(self, table: Table, no: int, prev_dealer: int | None) -> Awaitable[Outcome]: ...


class Lobby:
    """A table before and between its matches. A match is started through ``start_match``."""

    def __init__(self, ctx: Context, *, start_match: StartMatch) -> None:
        self.ctx = ctx
        self.start_match = start_match

    async def open(
        self,
        chat_id: int,
        user_id: int,
        name: str,
        game: str,
        options: dict[str, str] | None = None,
        thread: int | None = None,
    ) -> Outcome:
        """Open a lobby (``game`` "" = the picker); ``options`` as ``name=value`` texts;
        ``thread``: the forum topic it lives in (each topic can hold a table)."""
        current = await self.ctx.repo.open_table(chat_id, thread)
        if current is not None and current.status in (TableStatus.LOBBY, TableStatus.RUNNING):
            shown = keys(current.id)
            here = shown.lobby if current.status == TableStatus.LOBBY else shown.table
            raise Refused(BotRefusal.TABLE_ALREADY_HERE, reply_to_key=here)
        given = dict(options or {})
        try:
            kind = TableKind.TEACHING if teaching.wanted(given) else TableKind.GROUP
            turn = slow.typed_turn(given)
        except InvalidOption as error:
            raise option_refusal(game, error) from error
        also = (teaching.OPTION, slow.OPTION)
        chosen = await self.seeded_options(chat_id, game, given, also) if game else {}
        settings = await self.ctx.people.chat_settings(chat_id)
        hands = await self.ctx.hands_of(chat_id, settings)
        async with self.ctx.repo.unit() as tx:
            if current is not None:
                await tx.update_table(current.id, status=TableStatus.CLOSED)
            tid = await tx.create_table(
                chat_id, game, chosen, user_id, join_code(), self.ctx.clock(), thread
            )
            # the table keeps the turn time it opened with (its own, else the group's,
            # PRODUCT.md §15), and where its hands go
            timeout = turn or settings.turn_timeout_s or self.ctx.turn_timeout
            await tx.update_table(tid, turn_timeout_s=timeout, hands=hands, kind=kind)
            await tx.replace_seats(tid, [(SeatKind.HUMAN, user_id, name)])
            expiry = Deadline(tid, DeadlineKind.LOBBY, self.ctx.clock() + self.ctx.lobby_timeout, 0)
            await tx.put_deadline(expiry)
        if current is not None:
            self.ctx.forget(current.id)
        table = await self.ctx.opened(tid)
        return await self.ctx.lobby_screen(table) + Outcome(due=(expiry,))

    async def seeded_options(
        self,
        chat_id: int,
        game: str,
        given: Mapping[str, str] | None = None,
        also: Sequence[str] = (),
    ) -> dict[str, Any]:
        """A new lobby's options: RULES.md's defaults, then the chat's (its /settings), then
        what /newgame typed (``also``: what else it may type, named by a refusal). Chat
        defaults the game no longer takes are left out (logged)."""
        stored = (await self.ctx.people.chat_settings(chat_id)).options.get(game, {})
        try:
            base: dict[str, object] = dict(default_options(game, stored))
        except Refused:
            log.warning(
                "chat %s: stored %s options %s are not valid, ignored", chat_id, game, safe(stored)
            )
            base = {}
        return default_options(game, {**base, **(given or {})}, also)

    async def cancel_question(
        self, table: Table, user_id: int, is_admin: IsAdmin, reply_to: int
    ) -> Outcome:
        """/cancel at a lobby, or at a table whose match has not begun: asked once (§4.9)."""
        await self.ctx.role(table, user_id, is_admin)
        return Outcome.of(CancelQuestion(await self.ctx.facts(table), reply_to, asker=user_id))

    async def pick(self, table: Table, generation: int, user_id: int, game: str) -> Outcome:
        self.ctx.lobby_at(table, generation)
        if user_id != table.row.creator_id:
            raise Refused(BotRefusal.CREATOR_PICKS_GAME, name=table.creator_name())
        if game not in GAMES or family_presses(game) is None:
            raise Refused(BotRefusal.GAME_NOT_AVAILABLE)
        options = await self.seeded_options(table.row.chat_id, game)  # read before the unit
        async with self.ctx.repo.unit() as tx:
            await tx.update_table(table.id, game=game, options=options)
        return await self.ctx.lobby_screen(await self.ctx.reload(table))

    async def join(self, table: Table, generation: int | None, user_id: int, name: str) -> Outcome:
        if table.row.status in (TableStatus.RUNNING, TableStatus.ENDED) or table.starting:
            raise Refused(BotRefusal.GAME_STARTED)
        self.ctx.lobby_at(table, generation)
        if not table.row.game:
            raise Refused(BotRefusal.PICK_A_GAME_FIRST)
        if table.seat_of(user_id) is not None:
            raise Refused(BotRefusal.ALREADY_SEATED)
        _, most = seat_range(table.row.game)
        if len(table.seats) >= most:
            raise Refused(BotRefusal.NO_SEATS_LEFT, n=len(table.seats))
        async with self.ctx.repo.unit() as tx:
            await tx.replace_seats(table.id, [*seat_specs(table), (SeatKind.HUMAN, user_id, name)])
        return await self.ctx.lobby_screen(await self.ctx.reload(table))

    async def leave(self, table: Table, generation: int, user_id: int) -> Outcome:
        self.ctx.lobby_at(table, generation)
        if table.seat_of(user_id) is None:
            raise Refused(BotRefusal.NOT_SEATED)
        return await self.unseat(table, user_id)

    async def unseat(self, table: Table, user_id: int) -> Outcome:
        """§4.2 Leave (and /kick in the lobby, §13): the next person becomes the creator; with
        no person left the table closes, computers or not."""
        rest = [s for s in table.seats if s.user_id != user_id]
        people = [s.user_id for s in rest if s.kind is SeatKind.HUMAN and s.user_id is not None]
        async with self.ctx.repo.unit() as tx:
            await tx.replace_seats(table.id, [(s.kind, s.user_id, s.name, s.level) for s in rest])
            await tx.update_table(table.id, seats_at=self.ctx.clock())  # members asked again
            if not people:
                await tx.update_table(table.id, status=TableStatus.CLOSED)
                await tx.drop_deadline(table.id, DeadlineKind.LOBBY)
            elif user_id == table.row.creator_id:
                await tx.update_table(table.id, creator_id=people[0])
        table = await self.ctx.reload(table)
        if not people:
            self.ctx.forget(table.id)
            closed = Outcome.of(LobbyClosed(await self.ctx.facts(table), started=False))
            return Outcome(undue=((table.id, DeadlineKind.LOBBY),)) + closed
        return await self.ctx.lobby_screen(table)

    async def options_view(self, table: Table, generation: int, user_id: int, on: bool) -> Outcome:
        self._options_by_creator(table, generation, user_id)
        return await self.ctx.lobby_screen(table, options_view=on)

    async def back(self, table: Table, generation: int, user_id: int, is_admin: IsAdmin) -> Outcome:
        """↩️ from the options (the creator's) or the computers (the creator's or an admin's)."""
        self.ctx.lobby_at(table, generation)
        await self.ctx.role(table, user_id, is_admin)
        return await self.ctx.lobby_screen(table)

    async def set_option(
        self, table: Table, generation: int, user_id: int, name: str, value: str
    ) -> Outcome:
        self._options_by_creator(table, generation, user_id)
        given = dict(table.row.options)
        given[name] = value
        try:
            typed = parse_options(GAMES[table.row.game].options_type, given)
        except InvalidOption as error:
            raise option_refusal(table.row.game, error) from error
        async with self.ctx.repo.unit() as tx:
            await tx.update_table(table.id, options=dict(options_dict(typed)))
        return await self.ctx.lobby_screen(await self.ctx.reload(table), options_view=True)

    async def set_teaching(self, table: Table, generation: int, user_id: int, on: bool) -> Outcome:
        """🎓 in the options: the creator makes the group's table a teaching one (unrated, 💡 for
        every person at it) or a rated one again, before the start. A practice table stays as
        it is."""
        self._options_by_creator(table, generation, user_id)
        if table.row.practice:
            raise Refused(BotRefusal.STALE_BUTTON)
        kind = TableKind.TEACHING if on else TableKind.GROUP
        if kind is not table.row.kind:
            async with self.ctx.repo.unit() as tx:
                await tx.update_table(table.id, kind=kind)
            table = await self.ctx.reload(table)
        return await self.ctx.lobby_screen(table, options_view=True)

    async def set_turn(self, table: Table, generation: int, user_id: int, arg: str) -> Outcome:
        """⏱ in the options: the creator steps the table's turn time (up to a day: a game
        that can last days, bot.slow) before the start."""
        self._options_by_creator(table, generation, user_id)
        if not arg.isdigit() or int(arg) not in slow.TURN_TIMES:
            raise Refused(BotRefusal.UNKNOWN_BUTTON)
        async with self.ctx.repo.unit() as tx:
            await tx.update_table(table.id, turn_timeout_s=int(arg))
        return await self.ctx.lobby_screen(await self.ctx.reload(table), options_view=True)

    async def ask_cancel(
        self, table: Table, generation: int, user_id: int, is_admin: IsAdmin
    ) -> Outcome:
        self.at_generation(table, generation)
        await self.ctx.role(table, user_id, is_admin)
        self.ctx.lobby_at(table, generation)
        return await self.ctx.lobby_screen(table, confirm_cancel=True)

    async def cancel(
        self, table: Table, generation: int, user_id: int, is_admin: IsAdmin, key: OutboxKey | None
    ) -> Outcome:
        self.at_generation(table, generation)
        await self.ctx.role(table, user_id, is_admin)
        started = table.match is not None
        async with self.ctx.repo.unit() as tx:
            await tx.update_table(table.id, status=TableStatus.CLOSED)
            await tx.drop_deadline(table.id, DeadlineKind.COMPUTER)
            await tx.drop_deadline(table.id, DeadlineKind.LOBBY)
        self.ctx.forget(table.id)
        facts = await self.ctx.facts(await self.ctx.reload(table))
        self.ctx.forget(table.id)
        out = Outcome(undue=((table.id, DeadlineKind.COMPUTER), (table.id, DeadlineKind.LOBBY)))
        if key is not None and key != keys(table.id).lobby:
            out += Outcome.of(Strip(table.row.chat_id, key))
        return out + Outcome.of(LobbyClosed(facts, started=started))

    async def dismiss(
        self, table: Table, generation: int, user_id: int, is_admin: IsAdmin, key: OutboxKey | None
    ) -> Outcome:
        """ "Wait" / "No" on a notice or on the cancel question: its buttons go."""
        self.at_generation(table, generation)
        await self.ctx.role(table, user_id, is_admin)
        k = keys(table.id)
        if key == k.lobby:
            return (
                await self.ctx.lobby_screen(table)
                if table.row.status == TableStatus.LOBBY
                else Outcome()
            )
        if key == k.notice:  # kept: a later Start shows its buttons again in this message
            return Outcome.of(Strip(table.row.chat_id, key, forget=False))
        return Outcome.of(Strip(table.row.chat_id, key)) if key is not None else Outcome()

    def _options_by_creator(self, table: Table, generation: int, user_id: int) -> None:
        """The options are the creator's to change, in the lobby the button was drawn in."""
        self.ctx.lobby_at(table, generation)
        if user_id != table.row.creator_id:
            raise Refused(BotRefusal.CREATOR_CHANGES_OPTIONS, creator=table.creator_name())

    @staticmethod
    def at_generation(table: Table, generation: int) -> None:
        if generation != table.row.generation:
            raise Refused(BotRefusal.STALE_BUTTON)

    # --- start ---------------------------------------------------------------------------

    async def check_start(
        self, table: Table, generation: int, user_id: int, is_admin: IsAdmin
    ) -> Outcome:
        """Start pressed: may it start? The private note each player gets first (their
        delivery tells who can be reached, :meth:`start` then)."""
        self.ctx.lobby_at(table, generation)
        await self.ctx.role(table, user_id, is_admin)
        if not table.row.game:
            raise Refused(BotRefusal.PICK_A_GAME_FIRST)
        least, _ = seat_range(table.row.game)
        if len(table.seats) < least:
            raise Refused(BotRefusal.TOO_FEW_SEATED, min=least, n=len(table.seats))
        self.need_a_human(table.seats)
        chat = await self.ctx.people.chat(table.row.chat_id)
        notes = []
        for seat in table.seats:
            if seat.user_id is None or await self.ctx.in_group(table, seat):
                continue  # a hand in the group needs no private chat
            locale = await self.ctx.people.user_locale(seat.user_id)
            notes.append(
                Note(
                    seat.user_id,
                    locale,
                    "🃏 {game} in «{chat}» is starting — your cards come next.",
                    {
                        "game": game_name(table.row.game, locale),
                        "chat": chat.title if chat else "",
                    },
                    wait=True,
                )
            )
        # no one joins while the notes are on their way (:meth:`start`), on any worker
        hold = Deadline(table.id, DeadlineKind.STARTING, self.ctx.clock() + START_HOLD, 0)
        async with self.ctx.repo.unit() as tx:
            await tx.put_deadline(hold)
        table.starting = True
        return Outcome(tuple(notes), due=(hold,))

    async def end_starting(self, table: Table) -> Outcome:
        """Start's gap is over (its second half came, or it lapsed)."""
        table.starting = False
        async with self.ctx.repo.unit() as tx:
            await tx.drop_deadline(table.id, DeadlineKind.STARTING)
        return Outcome(undue=((table.id, DeadlineKind.STARTING),))

    async def start_lapsed(self, deadline: Deadline) -> Outcome:
        """Start's second half never came (the worker that waited for its notes died): the
        lobby seats again, and its message is drawn again."""
        table = await self.ctx.load(deadline.table_id)
        if table is None:
            async with self.ctx.repo.unit() as tx:
                await tx.drop_deadline(deadline.table_id, DeadlineKind.STARTING)
            return Outcome(undue=((deadline.table_id, DeadlineKind.STARTING),))
        out = await self.end_starting(table)
        if table.row.status != TableStatus.LOBBY:
            return out
        return out + await self.ctx.lobby_screen(table)

    async def start(
        self,
        table: Table,
        generation: int,
        reached: dict[int, bool] | None,
        *,
        without: bool = False,
    ) -> Outcome:
        """Start match 1 if everyone was reached; ``without``: unseat those who were not (§4.3)
        if enough remain. ``reached``: user id → whether the private note got through (None:
        as far as the bot knows)."""
        self.ctx.lobby_at(table, generation)
        if reached is None:
            reached = {}
            for s in table.seats:
                if s.user_id is not None and not await self.ctx.in_group(table, s):
                    user = await self.ctx.people.user(s.user_id)
                    reached[s.user_id] = user is not None and user.private_ok
        for user_id, ok in reached.items():
            await self.ctx.people.set_private_ok(user_id, ok)
        missing = [
            s
            for s in table.seats
            if s.user_id is not None
            and not reached.get(s.user_id)
            and not await self.ctx.in_group(table, s)
        ]
        if missing and not without:
            names = tuple(s.name for s in missing)
            facts = await self.ctx.facts(table)
            return Outcome.of(
                LobbyScreen(facts, unreachable=names), UnreachableNotice(facts, names)
            )
        if missing:
            rest = [s for s in table.seats if s not in missing]
            self.need_a_human(rest)
            least, _ = seat_range(table.row.game)
            if len(rest) < least:
                raise Refused(BotRefusal.TOO_FEW_SEATED, min=least, n=len(rest))
            async with self.ctx.repo.unit() as tx:
                await tx.replace_seats(
                    table.id, [(s.kind, s.user_id, s.name, s.level) for s in rest]
                )
                creator = next(s.user_id for s in rest if s.kind is SeatKind.HUMAN)
                if all(s.user_id != table.row.creator_id for s in rest) and creator is not None:
                    await tx.update_table(table.id, creator_id=creator)
            table = await self.ctx.reload(table)
        out = await self.start_match(table, 1, None)
        async with self.ctx.repo.unit() as tx:  # started: it no longer times out (§4.2)
            await tx.drop_deadline(table.id, DeadlineKind.LOBBY)
        return Outcome(undue=((table.id, DeadlineKind.LOBBY),)) + out

    @staticmethod
    def need_a_human(seats: Sequence[SeatRow]) -> None:
        """§4.2: computers alone never play (one person at least, who can be reached)."""
        if not any(s.kind is SeatKind.HUMAN for s in seats):
            raise Refused(BotRefusal.NEED_A_HUMAN)

    async def lobby_expired(self, deadline: Deadline) -> Outcome:
        """§4.2 "Nobody starts it for 15 min": a lobby still seating when its deadline falls due
        closes, and its message says why, without buttons. A table that started meanwhile (or
        closed) only drops the deadline."""
        table_id = deadline.table_id
        undue = Outcome(undue=((table_id, DeadlineKind.LOBBY),))
        table = await self.ctx.load(table_id)
        if table is not None and table.starting:  # Start's notes are on their way: soon
            later = Deadline(table_id, DeadlineKind.LOBBY, self.ctx.clock() + START_GRACE, 0)
            async with self.ctx.repo.unit() as tx:
                await tx.put_deadline(later)
            return Outcome(due=(later,))
        async with self.ctx.repo.unit() as tx:
            await tx.drop_deadline(table_id, DeadlineKind.LOBBY)
            if table is not None and table.row.status == TableStatus.LOBBY:
                await tx.update_table(table_id, status=TableStatus.CLOSED)
        if table is None or table.row.status != TableStatus.LOBBY:
            return undue
        facts = await self.ctx.facts(await self.ctx.reload(table))
        self.ctx.forget(table_id)
        return undue + Outcome.of(LobbyScreen(facts))

    # --- the end of a match (§4.7) ----------------------------------------------------------

    async def another(
        self, table: Table, generation: int, user_id: int, is_admin: IsAdmin
    ) -> Outcome:
        if table.row.status != TableStatus.ENDED or generation != table.row.generation:
            raise Refused(BotRefusal.TABLE_CLOSED)
        await self.ctx.role(table, user_id, is_admin)
        previous = table.match
        prev_dealer = previous.state.view(None).dealer if previous else None
        strip = Outcome.of(Strip(table.row.chat_id, keys(table.id).result))
        return strip + await self.start_match(table, table.row.generation + 1, prev_dealer)

    async def finish(
        self, table: Table, generation: int, user_id: int, is_admin: IsAdmin
    ) -> Outcome:
        if table.row.status != TableStatus.ENDED or generation != table.row.generation:
            raise Refused(BotRefusal.TABLE_CLOSED)
        await self.ctx.role(table, user_id, is_admin)
        async with self.ctx.repo.unit() as tx:
            await tx.update_table(table.id, status=TableStatus.CLOSED)
        self.ctx.forget(table.id)
        chat_id = table.row.chat_id
        locale = await self.ctx.people.chat_locale(chat_id)
        return Outcome.of(
            Strip(chat_id, keys(table.id).result),
            Note(chat_id, locale, "This table is closed.", thread=table.row.thread_id),
        )


__all__ = ["Lobby", "Match", "default_options", "option_refusal"]
