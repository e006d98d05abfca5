"""Where each input goes: a press of a lobby, a result or a hand message, and a stored
deadline, each sent to the one concern's handler that owns it.

Read top to bottom: the table is locked, the checks every press of its kind needs run once
(the table's own message, a member of its group; on a hand: a running table, his own seat, he
may act), then one map (act → handler, deadline kind → handler) picks the handler."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass

from bot.callbacks import SEAT_ACTS, EndAct, LobbyAct, Press, SeatAct, b36
from bot.refused import BotRefusal, Refused
from bot.runtime.absent import TIMER_KINDS, Absent
from bot.runtime.closing import Closing, begun
from bot.runtime.computers import Computers
from bot.runtime.core import Context, IsAdmin, Table, own_seat
from bot.runtime.groups import Groups
from bot.runtime.lobby import Lobby
from bot.runtime.outcome import ChartScreen, Outcome, events_of, keys
from bot.runtime.play import Play, PressSource
from bot.runtime.redraw import Redraw
from bot.storage.rows import Bar, Deadline, DeadlineKind, Hands, TableStatus
from bot.storage.settings import UserHands


@dataclass(frozen=True, slots=True)
class LobbyCall:
    """A lobby button pressed: the table (locked, its message and the presser's membership
    checked) and who pressed what."""

    table: Table
    generation: int  # the lobby generation the button was drawn at
    arg: str  # the button's argument ("" if none)
    user_id: int
    name: str
    key: str | None  # the pressed message, as the outbox knows it
    is_admin: IsAdmin


CARDS_GAP_S = 5.0
"""The table's 🂠 sends a person's cards anew once per this many seconds (taps ten a second
queued a send each, and the group's budget of messages for one member delayed the others'
hands). Seven players tapping without pause then send 84 a minute, within the group's 120
(``BOT_EPHEMERAL_PER_MINUTE``); a hand Telegram lost comes back with a tap 5 s later. Stored
with the seat (``cards_at``), so every worker keeps it."""

LobbyHandler = Callable[[LobbyCall], Awaitable[Outcome]]
DeadlineHandler = Callable[[Deadline], Awaitable[Outcome]]


class Presses:
    """The dispatch of presses and deadlines to the concerns that own them."""

    def __init__(
        self,
        ctx: Context,
        *,
        lobby: Lobby,
        computers: Computers,
        play: Play,
        absent: Absent,
        closing: Closing,
        groups: Groups,
        redraw: Redraw,
    ) -> None:
        self.ctx = ctx
        self.lobby = lobby
        self.play = play
        self.absent = absent
        self.closing = closing
        self.cards_gap = CARDS_GAP_S
        self.lobby_acts: Mapping[str, LobbyHandler] = {
            LobbyAct.JOIN: self._join,
            LobbyAct.LEAVE: lambda c: lobby.leave(c.table, c.generation, c.user_id),
            LobbyAct.OPTIONS: lambda c: lobby.options_view(c.table, c.generation, c.user_id, True),
            LobbyAct.BACK: lambda c: lobby.back(c.table, c.generation, c.user_id, c.is_admin),
            LobbyAct.COMPUTERS: lambda c: computers.computers_view(
                c.table, c.generation, c.user_id, c.is_admin
            ),
            LobbyAct.ADD_COMPUTER: lambda c: computers.add_computer(
                c.table, c.generation, c.user_id, c.is_admin, c.arg
            ),
            LobbyAct.REMOVE_COMPUTER: lambda c: computers.remove_computer(
                c.table, c.generation, c.user_id, c.is_admin, c.arg
            ),
            LobbyAct.SET_OPTION: self._set_option,
            LobbyAct.PICK: lambda c: lobby.pick(c.table, c.generation, c.user_id, c.arg),
            LobbyAct.ASK_CANCEL: lambda c: lobby.ask_cancel(
                c.table, c.generation, c.user_id, c.is_admin
            ),
            LobbyAct.CANCEL: self._cancel,
            LobbyAct.AGREE: lambda c: closing.agree(c.table, c.generation, c.user_id),
            LobbyAct.START: lambda c: lobby.check_start(
                c.table, c.generation, c.user_id, c.is_admin
            ),
            LobbyAct.WITHOUT: self._start_without,
            LobbyAct.WAIT: self._wait,
        }
        self.deadline_kinds: Mapping[str, DeadlineHandler] = {
            DeadlineKind.LOBBY: lobby.lobby_expired,
            DeadlineKind.STARTING: lobby.start_lapsed,
            DeadlineKind.CLOSE: closing.lapsed,
            DeadlineKind.NOTIFY: groups.pings_due,
            **dict.fromkeys(TIMER_KINDS, absent.timer_due),
            DeadlineKind.OWED: redraw.owed_due,
        }  # any other kind: a computer's move (play.computer_due)

    # --- the group's buttons ----------------------------------------------------------------

    async def lobby_press(
        self, press: Press, user_id: int, name: str, key: str | None, is_admin: IsAdmin
    ) -> Outcome:
        """A lobby button (or a notice's, or the cancel question's), §4.2–§4.4."""
        async with self.ctx.hold(press.table):
            table = await self.ctx.opened(press.table)
            self.ctx.check_message(table, press, key)
            await self.ctx.ensure_member(table, user_id)
            if table.starting and press.act != LobbyAct.JOIN:  # seating is final while notes go
                raise Refused(BotRefusal.TABLE_STARTING)
            handler = self.lobby_acts.get(press.act)
            if handler is None:
                raise Refused(BotRefusal.UNKNOWN_BUTTON)
            call = LobbyCall(table, press.version, press.arg or "", user_id, name, key, is_admin)
            return await handler(call)

    async def _join(self, c: LobbyCall) -> Outcome:
        """✋ Join: at once where the table's hands go to the group (and his do: not "always
        in private"), else only someone the bot can write to in private (his cards go there)."""
        if c.table.row.hands is Hands.GROUP:
            mine = await self.ctx.people.user_settings(c.user_id)
            if mine.hands is not UserHands.PRIVATE:
                return await self.lobby.join(c.table, c.generation, c.user_id, c.name)
        user = await self.ctx.people.user(c.user_id)
        if user is None or not user.private_ok:
            self.ctx.lobby_at(c.table, c.generation)  # still the same lobby?
            raise Refused(
                BotRefusal.OPEN_PRIVATE_CHAT,
                alert=True,
                link=f"j_{b36(c.table.id)}_{c.table.row.join_code}",
            )
        return await self.lobby.join(c.table, c.generation, c.user_id, c.name)

    async def cancel_question(
        self,
        chat_id: int,
        user_id: int,
        is_admin: IsAdmin,
        reply_to: int,
        thread: int | None = None,
    ) -> Outcome:
        """/cancel (§4.9) at the table here: once its match has begun, the people playing are
        asked (#47, :meth:`Closing.ask <bot.runtime.closing.Closing.ask>`); before, once."""
        row = await self.ctx.repo.open_table(chat_id, thread)
        if row is None:
            raise Refused(BotRefusal.NO_OPEN_TABLE)
        async with self.ctx.hold(row.id):
            table = await self.ctx.opened(row.id)
            if begun(table):
                return await self.closing.ask(table, user_id, is_admin, reply_to)
            return await self.lobby.cancel_question(table, user_id, is_admin, reply_to)

    async def _cancel(self, c: LobbyCall) -> Outcome:
        """✖️ Yes, close it: a table not begun closes (§4.9); once begun, an admin's alone (#47)."""
        if begun(c.table):
            return await self.closing.close_now(c.table, c.generation, c.name, c.is_admin)
        return await self.lobby.cancel(c.table, c.generation, c.user_id, c.is_admin, c.key)

    async def _wait(self, c: LobbyCall) -> Outcome:
        """⏳ Wait / ↩️ No: a notice's or a question's buttons go; on the open question to close
        a table that is playing, a no (#47)."""
        if c.key == keys(c.table.id).cancel and await self.closing.asking(c.table):
            return await self.closing.refuse(c.table, c.generation, c.user_id, c.name, c.is_admin)
        return await self.lobby.dismiss(c.table, c.generation, c.user_id, c.is_admin, c.key)

    async def _set_option(self, c: LobbyCall) -> Outcome:
        option, _, value = c.arg.partition("=")
        return await self.lobby.set_option(c.table, c.generation, c.user_id, option, value)

    async def _start_without(self, c: LobbyCall) -> Outcome:
        """▶️ Start anyway: the notice goes and the match starts without the unreachable."""
        await self.ctx.role(c.table, c.user_id, c.is_admin)
        out = await self.lobby.dismiss(c.table, c.generation, c.user_id, c.is_admin, c.key)
        return out + await self.lobby.start(c.table, c.generation, None, without=True)

    async def end_press(
        self, press: Press, user_id: int, key: str | None, is_admin: IsAdmin
    ) -> Outcome:
        """Another match, or finish (§4.7), on the match result's buttons."""
        async with self.ctx.hold(press.table):
            table = await self.ctx.opened(press.table)
            self.ctx.check_message(table, press, key)
            await self.ctx.ensure_member(table, user_id)
            if press.act == EndAct.ANOTHER:
                return await self.lobby.another(table, press.version, user_id, is_admin)
            return await self.lobby.finish(table, press.version, user_id, is_admin)

    async def chart_press(
        self, press: Press, user_id: int, key: str | None, reply_to: int | None, shown: bool
    ) -> tuple[Outcome, str]:
        """📈 on the match result (#35): the game's chart posted in the group once, a reply to
        the result (``reply_to``); pressed again (``shown``: the outbox has it, sent or on its
        way), only told so. Anyone in the group may press it. What the press is answered with
        comes back too."""
        async with self.ctx.hold(press.table):
            table = await self.ctx.opened(press.table)
            self.ctx.check_message(table, press, key)
            await self.ctx.ensure_member(table, user_id)
            match = table.match
            if (
                table.row.status != TableStatus.ENDED
                or match is None
                or press.version != table.row.generation
            ):
                raise Refused(BotRefusal.STALE_BUTTON)
            if shown:
                return Outcome(), "The chart is above."
            lines = events_of(match.state.record())  # the record, without its decks
            return Outcome.of(ChartScreen(await self.ctx.facts(table), lines, reply_to)), ""

    # --- a hand message's buttons ------------------------------------------------------------

    async def press(self, press: Press, data: str, user_id: int, source: PressSource) -> Outcome:
        """A hand press (§7.2): a running table, the presser's own seat, and he may act there
        (else what his leaving the group changed); then the seat menu's buttons go to
        ``absent``, a family's to ``play``."""
        async with self.ctx.hold(press.table):
            table = await self.ctx.running(press.table)
            seat = own_seat(table, press.seat, user_id, source.chat_id, source.ephemeral)
            gone = await self.absent.gate(table, seat, user_id)
            if gone is not None:
                return gone
            if press.act in SEAT_ACTS:
                return await self.absent.seat_press(table, seat, SeatAct(press.act), data, source)
            return await self.play.card_press(table, seat, press, data, source)

    async def my_cards(self, table_id: int, user_id: int, query_id: str) -> tuple[Outcome, str]:
        """🂠 My cards on the table message, where its hands are in the group (#32): the
        presser's hand sent anew, for him alone in place of the table message (so one tap
        brings back a hand his client lost); a hand that goes to private is sent anew there.
        What the press is answered with comes back too. Once per ``cards_gap`` a person
        (:data:`CARDS_GAP_S`): a tap sooner is answered with a toast and sends nothing."""
        async with self.ctx.hold(table_id):
            table = await self.ctx.opened(table_id)
            if table.match is None or table.row.status == TableStatus.LOBBY:  # no hands now
                raise Refused(BotRefusal.TABLE_CLOSED)
            mine = table.seat_of(user_id)
            if mine is None or mine.barred is not Bar.NONE:
                raise Refused(BotRefusal.NOT_PLAYING_HERE)
            now = self.ctx.clock()
            wait = mine.cards_at + self.cards_gap - now
            if wait > 0:  # a tap more sends nothing: the one before is shown, or on its way
                seconds = max(1, math.ceil(wait))
                raise Refused(BotRefusal.CARDS_JUST_SENT, seconds=seconds)
            ended = table.row.status == TableStatus.ENDED  # his last hand, as it ended (#37)
            gone = None if ended else await self.absent.gate(table, mine.seat, user_id)
            if gone is not None:
                return gone, ""
            async with self.ctx.repo.unit() as tx:  # every worker's next tap sees it
                await tx.set_cards_at(table.id, mine.seat, now)
            table.seats[mine.seat] = dataclasses.replace(mine, cards_at=now)
            facts = await self.ctx.facts(table)
            if not await self.ctx.in_group(table, mine):
                hand = await self.play.hands(table, facts, only=mine.seat, fresh=True)
                return Outcome(tuple(hand)), "Your cards are in our private chat."
            hand = await self.play.hands(table, facts, only=mine.seat, answering=query_id)
            return Outcome(tuple(hand)), ""

    # --- stored deadlines --------------------------------------------------------------------

    async def due(self, deadline: Deadline) -> Outcome:
        """A stored deadline fell due: its kind's handler."""
        handler = self.deadline_kinds.get(deadline.kind, self.play.computer_due)
        return await handler(deadline)

    # --- Start's second half, and the deep link ------------------------------------------------

    async def start_reached(
        self, table_id: int, generation: int, reached: dict[int, bool]
    ) -> Outcome:
        """The second half of Start: who the private notes reached is known."""
        async with self.ctx.hold(table_id):
            table = await self.ctx.opened(table_id)
            ended = await self.lobby.end_starting(table)
            return ended + await self.lobby.start(table, generation, reached)

    async def join_by_link(self, table_id: int, code: str, user_id: int, name: str) -> Outcome:
        """The deep link of §4.3 (``j_<table>_<code>``)."""
        async with self.ctx.hold(table_id):
            table = await self.ctx.load(table_id)
            if (
                table is None
                or table.row.status == TableStatus.CLOSED
                or table.row.join_code != code
            ):
                raise Refused(BotRefusal.TABLE_CLOSED)
            await self.ctx.ensure_member(table, user_id)
            return await self.lobby.join(table, None, user_id, name)
