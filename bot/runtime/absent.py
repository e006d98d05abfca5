"""Absent players (PRODUCT.md §13): the turn timer and its reminder, the computer playing one
turn on expiry, handing a seat to the computer (two expiries, a closed private chat, /kick, or
the owner's own wish) and taking it back; a table no human plays any more is closed
(:meth:`bot.runtime.closing.Closing.close_idle`).

The timer is two stored deadlines a human turn goes through: ``remind`` (⅔ of the time gone)
and then ``turn`` (the time is up). Each is valid while the table's move counter is the one it
was set at, so a move makes the pending one stale without a write. ``idle`` is set once a match
starts and moves itself on while people play.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Collection
from enum import StrEnum

from bot.caches.members import Standing
from bot.callbacks import SeatAct, b36
from bot.refused import BotRefusal, Refused
from bot.runtime import owed as owe
from bot.runtime import quiet
from bot.runtime.closing import Closing
from bot.runtime.hints import advice_for, hints_allowed
from bot.runtime.lobby import Lobby
from bot.runtime.outcome import (
    EphemeralGone,
    Gone,
    HandGone,
    Note,
    Outcome,
    PingGone,
    Screen,
    TableScreen,
    ehand_key,
    eping_key,
)
from bot.runtime.owed import Owing
from bot.runtime.play import Play
from bot.runtime.reminders import Reminders
from bot.runtime.tables import Context, Table, is_running
from bot.storage.rows import Bar, Deadline, DeadlineKind, SeatMarks, TableStatus, deal_mark

ENDED = TableStatus.ENDED

TIMER_KINDS = frozenset(
    {DeadlineKind.REMIND, DeadlineKind.QUIET, DeadlineKind.TURN, DeadlineKind.IDLE}
)
EXPIRIES_TO_HAND_OVER = 2  # §13: two expiries in a row hand the seat to the computer
MOST_STEPS = 50  # one turn of a seat is a few actions at most (declare, exchange …)

TOGGLE_GAP_S = 30.0  # §13: a person hands his seat over or takes it back once per this


class HandOver(StrEnum):
    """Why the computer takes a person's seat."""

    EXPIRED = "expired"  # two expiries in a row
    ASKED = "asked"  # ⋯ → 🤖 Let the computer play: no group line
    KICK = "kick"  # an admin's /kick: for the rest of the table
    LEFT = "left"  # he left the group or was banned: for the rest of the table


HAND_OVER_NOTES = {  # the group's one line a deal (none for ASKED)
    HandOver.EXPIRED: "{name} is away — the computer plays for them.",
    HandOver.KICK: "An admin handed {name}'s seat to the computer.",
    HandOver.LEFT: "{name} left the group — the computer plays for them.",
}
BARS = {HandOver.KICK: Bar.KICKED, HandOver.LEFT: Bar.LEFT}
BARRED = {  # the owner's answer, in private and as a toast, once barred
    Bar.KICKED: BotRefusal.SEAT_KICKED,
    Bar.LEFT: BotRefusal.SEAT_LEFT,
}


class Absent:
    """Seats whose owner is away: the turn timer, hand-overs to the computer and back, the seat
    menu. Moves are applied and hands drawn by ``play``; a lobby's leaver is unseated by
    ``lobby``; a table nobody plays is closed by ``closing``."""

    def __init__(self, ctx: Context, *, play: Play, lobby: Lobby, closing: Closing) -> None:
        self.ctx = ctx
        self.play = play
        self.lobby = lobby
        self.closing = closing
        self.reminders = Reminders(ctx, play)
        self.toggle_gap = TOGGLE_GAP_S

    # --- deadlines ---------------------------------------------------------------------------

    async def timer_due(self, deadline: Deadline) -> Outcome:
        """A turn timer's step (``remind``, ``turn``) or the idle deadline fell due."""
        table = await self.ctx.load(deadline.table_id)
        if not is_running(table) or table.match is None:
            async with self.ctx.repo.unit() as tx:
                await tx.drop_deadline(deadline.table_id, deadline.kind)
            return Outcome(undue=((deadline.table_id, deadline.kind),))
        if deadline.kind == DeadlineKind.IDLE:
            return await self._idle(table, deadline)
        seat = table.match.state.to_act
        if table.row.moves != deadline.moves or seat is None or table.seats[seat].computer:
            return Outcome()  # he moved, or the computer has the seat: nothing to do
        if deadline.kind == DeadlineKind.REMIND:
            return await self.reminders.remind(table, seat, deadline)
        if deadline.kind == DeadlineKind.QUIET:
            return await self.reminders.held(table, seat, deadline)
        return await self._expire(table, seat)

    async def _expire(self, table: Table, seat: int) -> Outcome:
        """Time is up: the computer plays this one turn; the second time in a row it keeps
        the seat until its owner is back."""
        assert table.match is not None
        owner = table.seats[seat]
        assert owner.user_id is not None
        expiries = owner.expiries + 1
        await self.play.change_seat(table, seat, expiries=expiries, schedule=False)
        out = Outcome()
        played: list[str] = []
        for _ in range(MOST_STEPS):
            assert table.match is not None
            state = table.match.state
            if state.to_act != seat or table.row.status != TableStatus.RUNNING:
                break
            action = await self.play.computer_action(table, seat)
            played.append(str(action))
            out += await self.play.apply(table, seat, action, self.play.stand_in(table, seat))
        # in his quiet hours unannounced (his hand and the table show the move)
        if await quiet.until(self.ctx, table, owner.user_id) is None:
            out += Outcome.of(await self._moved_for(table, seat, played))
        if expiries >= EXPIRIES_TO_HAND_OVER and table.row.status == TableStatus.RUNNING:
            out += await self._hand_over(table, seat, HandOver.EXPIRED)
        return out

    async def _moved_for(self, table: Table, seat: int, played: list[str]) -> Note:
        """⏰ the computer moved for him: where his ping was, for him alone."""
        owner = table.seats[seat]
        assert owner.user_id is not None
        locale = await self.ctx.people.user_locale(owner.user_id)
        said = "⏰ Time ran out — the computer moved for you: {moves}."
        none = {"moves": "—"}  # none played
        if await self.ctx.in_group(table, owner):
            alone = (owner.user_id, eping_key(table.id, seat))
            chat, thread = table.row.chat_id, table.row.thread_id
            return Note(chat, locale, said, none, thread=thread, moves=tuple(played), alone=alone)
        return Note(owner.user_id, locale, said, none, moves=tuple(played))

    async def _idle(self, table: Table, deadline: Deadline) -> Outcome:
        """No human move for the idle time: the table closes, nothing paid for the open deal
        (§13); else the deadline moves on to the last human move plus the idle time."""
        now = self.ctx.clock()
        last = table.last_human or now  # after a restart: counted from the restart
        if table.last_human == 0.0:
            table.last_human = now
        idle = self.ctx.idle_time(table)
        if now - last < idle - 0.5:
            later = Deadline(table.id, DeadlineKind.IDLE, last + idle, 0)
            async with self.ctx.repo.unit() as tx:
                await tx.put_deadline(later)
            return Outcome(due=(later,))
        return await self.closing.close_idle(table)

    # --- handing a seat over and taking it back ------------------------------------------------

    async def hand_over(self, table_id: int, seat: int, why: HandOver) -> Outcome:
        """The computer plays the seat until its owner is back (a /kick: for the rest of the
        table); the group is told at most once a deal, and never of the owner's own wish."""
        table = await self.ctx.running(table_id)
        if seat >= len(table.seats) or table.seats[seat].user_id is None:
            raise Refused(BotRefusal.NOT_YOUR_CARDS)
        return await self._hand_over(table, seat, why)

    async def _hand_over(self, table: Table, seat: int, why: HandOver) -> Outcome:
        owner = table.seats[seat]
        bar = BARS.get(why, Bar.NONE)
        if owner.barred is not Bar.NONE or (owner.away and bar is Bar.NONE):
            return Outcome()  # nothing changes
        assert table.match is not None and owner.user_id is not None
        deal = deal_mark(table.match.no, table.match.state.view(None).deal_no)
        tell = why is not HandOver.ASKED and owner.noticed != deal  # §13: once a deal
        marks = SeatMarks(
            bar,
            deal if tell else owner.noticed,
            self.ctx.clock() if why is HandOver.ASKED else owner.toggled_at,
        )
        screens: list[Screen] = []
        owing: list[Owing] = []
        if tell:  # owed in the unit that hands the seat over
            told = Note(
                table.row.chat_id,
                await self.ctx.people.chat_locale(table.row.chat_id),
                HAND_OVER_NOTES[why],
                {"name": owner.name},
                thread=table.row.thread_id,
            )
            told, owed = owe.note(table.row, f"over:{deal}:{seat}", told)
            screens.append(told)
            owing.append(owed)
        due = await self.play.change_seat(
            table, seat, away=True, expiries=0, marks=marks, owing=owing
        )
        facts = await self.ctx.facts(table)
        screens += [
            TableScreen(facts, table.match.state.view(None)),
            PingGone(owner.user_id, table.id, table.row.chat_id, seat),
        ]
        if bar is Bar.NONE:
            screens += await self.play.hands(table, facts, only=seat)
            return Outcome(tuple(screens), due)
        locale = await self.ctx.people.user_locale(owner.user_id)
        chat = {"chat": facts.chat_title}
        screens.append(HandGone(table.row.chat_id, owner.user_id, table.id, seat))
        screens.append(Note(owner.user_id, locale, BARRED[bar], chat))
        return Outcome(tuple(screens), due)

    async def gate(self, table: Table, seat: int, user_id: int) -> Outcome | None:
        """May the seat's owner act at the table (PRODUCT.md §3, §13)? A barred seat refuses;
        one whose owner is no longer in the group is barred now (the computer keeps it) and
        what that shows is returned; None: he may. Telegram unsure: refused, try again."""
        barred = table.seats[seat].barred
        if barred is not Bar.NONE:
            raise Refused(BARRED[barred], chat=await self.ctx.chat_title(table))
        if await self.ctx.standing_in(table, user_id) is Standing.MEMBER:
            return None
        return await self._hand_over(table, seat, HandOver.LEFT)

    def _may_toggle(self, table: Table, seat: int) -> None:
        """A person's own hand-overs and returns are limited (§13): one per ``toggle_gap`` s."""
        wait = table.seats[seat].toggled_at + self.toggle_gap - self.ctx.clock()
        if wait > 0:
            raise Refused(BotRefusal.SWITCH_TOO_SOON, seconds=max(1, math.ceil(wait)))

    async def my_hands(
        self, user_id: int, held: Collection[int], only: int | None = None
    ) -> tuple[Outcome, int]:
        """/hand: every running table's hand of the user sent anew (a seat the computer played
        for him is his again, if he may still act there); how many tables answered. ``held``:
        the tables whose locks are held (a table he sat down at since waits for the next)."""
        out, shown = Outcome(), 0
        for row in await self.ctx.repo.tables_of_user(user_id):
            if (only is not None and row.id != only) or row.id not in held:
                continue
            # a table between matches: its last hand, from the table's 🂠 only
            if row.status != TableStatus.RUNNING and (only is None or row.status != ENDED):
                continue
            table = await self.ctx.load(row.id)
            mine = table.seat_of(user_id) if table is not None else None
            if table is None or table.match is None or mine is None:
                continue
            shown += 1
            if table.row.status == ENDED:
                out += await self.play.one_hand(table, mine.seat, fresh=True)
                continue
            try:
                gone = await self.gate(table, mine.seat, user_id)
            except Refused as refused:  # barred, or Telegram unsure: said in private
                assert isinstance(refused.reason, BotRefusal)  # the gate's own
                locale = await self.ctx.people.user_locale(user_id)
                said = refused.reason
                out += Outcome.of(Note(user_id, locale, said, dict(refused.params)))
                continue
            if gone is not None:
                out += gone
                continue
            if mine.away:
                out += await self._back(table, mine.seat)
                table = await self.ctx.load(row.id)
                assert table is not None
            anew = await self._anew(table, mine.seat)
            out += await self.play.one_hand(table, mine.seat, fresh=anew)
        return out, shown

    async def _anew(self, table: Table, seat: int) -> bool:
        """Whether his hand is sent anew (at the chat's end): once per ``cards_gap``; a tap
        sooner (🂠's link again and again) shows it in place, no new message."""
        now, mine = self.ctx.clock(), table.seats[seat]
        if mine.cards_at + self.ctx.cards_gap > now:
            return False
        async with self.ctx.repo.unit() as tx:  # every worker's next tap sees it
            await tx.set_cards_at(table.id, mine.seat, now)
        table.seats[seat] = dataclasses.replace(mine, cards_at=now)
        return True

    async def _back(self, table: Table, seat: int) -> Outcome:
        """The seat is its owner's again (no group line, §13: the table's seat line drops its
        🤖): if it is his turn, his timer starts now."""
        marks = dataclasses.replace(table.seats[seat].marks(), toggled_at=self.ctx.clock())
        due = await self.play.change_seat(table, seat, away=False, marks=marks)
        assert table.match is not None
        facts = await self.ctx.facts(table)
        screens: list[Screen] = [TableScreen(facts, table.match.state.view(None))]
        screens += await self.play.hands(table, facts, only=seat)
        if table.match.state.to_act == seat:  # his turn now: he is pinged like anyone
            screens += await self.play.pings(table, facts, None)
        undue = () if table.deadline else ((table.id, DeadlineKind.COMPUTER),)
        return Outcome(tuple(screens), due, undue)

    async def member_left(self, chat_id: int, user_id: int) -> Outcome:
        """He left the group: unseated from its lobbies, or his running seats to the computer
        (every open table of the group, in any of its forum topics)."""
        out = Outcome()
        for row in await self.ctx.repo.open_tables(chat_id):
            out += await self._member_left(row.id, user_id)
        return out

    async def _member_left(self, table_id: int, user_id: int) -> Outcome:
        table = await self.ctx.load(table_id)
        if table is None:
            return Outcome()
        seat = table.seat_of(user_id)
        if seat is None:
            return Outcome()
        if table.row.status == TableStatus.LOBBY and not table.starting:
            return await self.lobby.leave(table, table.row.generation, user_id)
        if not is_running(table) or table.match is None:
            return Outcome()
        return await self._hand_over(table, seat.seat, HandOver.LEFT)

    async def unreachable(self, table_id: int, seat: int) -> Outcome:
        """The seat's owner can't be written to (403): the computer plays it for now (as two
        expiries would), and the group is told once."""
        table = await self.ctx.load(table_id)
        if not is_running(table) or table.match is None:
            return Outcome()
        if seat >= len(table.seats) or table.seats[seat].away:
            return Outcome()
        owner = table.seats[seat]
        deal = deal_mark(table.match.no, table.match.state.view(None).deal_no)
        marks = dataclasses.replace(owner.marks(), noticed=deal)
        note, owing = await self._chat_note(
            table,
            "{name}: the private chat with me is closed, so the computer plays for now. "
            "Open the chat with the button below and send /hand to take the seat back.",
            owner.name,
            f"blocked:{deal}:{seat}",
        )
        told = owner.noticed != deal  # §13: the group hears of a seat once a deal
        due = await self.play.change_seat(
            table, seat, away=True, marks=marks, owing=(owing,) if told else ()
        )
        assert table.match is not None
        if owner.user_id is not None:
            await self.ctx.people.set_private_ok(owner.user_id, False)
        facts = await self.ctx.facts(table)
        view = table.match.state.view(None)
        if not told:
            return Outcome((TableScreen(facts, view),), due)
        return Outcome((note, TableScreen(facts, view)), due)

    async def _chat_note(self, table: Table, msgid: str, name: str, tag: str) -> tuple[Note, Owing]:
        """A group notice about a player with a button to his private chat with the bot, and
        the entry that owes it (``tag``: what makes it one of its kind)."""
        note = Note(
            table.row.chat_id,
            await self.ctx.people.chat_locale(table.row.chat_id),
            msgid,
            {"name": name},
            link=f"h_{b36(table.id)}",
            button="💬 Open the chat",
            thread=table.row.thread_id,
        )
        return owe.note(table.row, tag, note)

    # --- hands to private -----------------------------------------------------------------

    async def ephemeral_failed(self, table_id: int, seat: int) -> Outcome:
        """An ephemeral message of the seat could not be sent (the bot no admin and no press
        to answer, the member gone, an error): its hands go to private, the group told once."""
        table = await self.ctx.load(table_id)
        if not is_running(table) or seat >= len(table.seats):
            return Outcome()
        return await self.to_private(table, seat, failed=True)

    async def to_private(self, table: Table, seat: int, *, failed: bool) -> Outcome:
        """The seat's hands go to its owner's private chat for the rest of the table: an
        ephemeral send failed (``failed``: the group is told, once), or he chose ⋯ «В личку»
        (only once the bot can write to him there)."""
        owner = table.seats[seat]
        if owner.private or owner.user_id is None:
            return Outcome()
        if not failed and not await self.ctx.people.private_ok(owner.user_id):
            raise Refused(
                BotRefusal.OPEN_PRIVATE_CHAT,
                alert=True,
                link=f"h_{b36(table.id)}",
            )
        chat = table.row.chat_id
        told = (  # the group told once, in the unit that moves the hands
            await self._chat_note(
                table,
                "{name}: I can't show your cards in the group, so they come to our "
                "private chat from now on.",
                owner.name,
                f"private:{seat}",
            )
            if failed
            else None
        )
        async with self.ctx.repo.unit() as tx:
            await tx.set_seat_private(table.id, seat)
            if told is not None:
                await told[1].write(tx)
        table.seats[seat] = dataclasses.replace(owner, private=True)
        facts = await self.ctx.facts(table)
        screens: list[Screen] = [EphemeralGone(chat, owner.user_id, table.id, seat)]
        if told is not None:
            screens.append(told[0])
        screens += await self.play.hands(table, facts, only=seat, fresh=True)
        return Outcome(tuple(screens))

    async def seat_press(self, table: Table, seat: int, act: SeatAct) -> Outcome:
        """The runtime's own buttons of a hand message (the table running, the seat his, he may
        act: :data:`~bot.runtime.commands.SeatPressed`'s guards): ⋯ (the menu) and its ↩️, 🤖 Let the
        computer play, 🙋 I'm back."""
        match act:
            case SeatAct.MENU:
                table.menus.add(seat)
                return await self.play.one_hand(table, seat)
            case SeatAct.MENU_BACK:
                table.menus.discard(seat)
                return await self.play.one_hand(table, seat)
            case SeatAct.HAND_OVER:
                table.menus.discard(seat)
                if table.seats[seat].away:
                    return await self.play.one_hand(table, seat)
                self._may_toggle(table, seat)
                return await self._hand_over(table, seat, HandOver.ASKED)
            case SeatAct.BACK:
                table.menus.discard(seat)
                if not table.seats[seat].away:
                    return await self.play.one_hand(table, seat)
                self._may_toggle(table, seat)
                return await self._back(table, seat)
            case SeatAct.TO_PRIVATE:
                table.menus.discard(seat)
                return await self.to_private(table, seat, failed=False)
            case SeatAct.HINT:  # 💡 under his own hand: only where allowed, at his turn
                table.menus.discard(seat)
                assert table.match is not None
                if not hints_allowed(table) or table.match.state.to_act != seat:
                    return await self.play.one_hand(table, seat)
                hint = await advice_for(table, seat)
                return await self.play.one_hand(table, seat, hint=hint)
            case SeatAct.TO_TABLE:  # his hand in the group goes, and the table shows again
                table.menus.discard(seat)
                owner = table.seats[seat]
                if not await self.ctx.in_group(table, owner) or owner.user_id is None:
                    return await self.play.one_hand(table, seat)
                table.hidden.add(seat)
                hand = ehand_key(table.id, seat)
                return Outcome((Gone(table.row.chat_id, hand, owner.user_id),))
