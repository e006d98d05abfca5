"""A running table: a match starts, a family's hand press (the rest of PRODUCT.md §7.2's
checks, after :mod:`bot.runtime.press` checked the table, the seat and the gate), the computer's
moves as stored deadlines, what falls due next, and every hand and turn ping drawn.

The hot path of a card press: checks against memory, ``State.apply``, one unit of work (the
action, the move counter), and the outcome: the table and every hand, fresh views."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from bot.callbacks import REFRESH, Press
from bot.presses.families import family_presses
from bot.presses.meaning import Apply, Deny, HandUI, SetUI
from bot.refused import BotRefusal, Refused
from bot.runtime import owed as owe
from bot.runtime import quiet, ratings
from bot.runtime.daily_deals import daily_over
from bot.runtime.deals import drawn
from bot.runtime.hints import hints_allowed
from bot.runtime.outcome import (
    DealResult,
    EndedTable,
    Facts,
    Gone,
    HandScreen,
    LobbyStarted,
    MatchResult,
    Outcome,
    PingGone,
    Screen,
    Strip,
    StripMessage,
    TableScreen,
    TurnPing,
    events_of,
    keys,
    reminder_key,
)
from bot.runtime.owed import OwedKind, Owing
from bot.runtime.standings import match_standings
from bot.runtime.tables import Context, Match, Table, is_running
from bot.runtime.thinking import think
from bot.runtime.tips import tip_for
from bot.storage.protocol import Writes
from bot.storage.rows import Deadline, DeadlineKind, OwedRef, SeatMarks, TableStatus
from bot.storage.settings import Pings
from engine.core import Line, State
from engine.errors import IllegalAction, InvalidNotation
from engine.lines import LineKind, first, has, last
from engine.players import computer
from engine.players.advice import Advice

Finish = Callable[[Table, Sequence[Line]], Awaitable[Outcome]]
"""What ends a try at the day's deal once its lines are applied (:mod:`bot.runtime.daily`)."""


class Play:
    """A running table's engine side: a match starts, a card press is applied, the computer
    moves, what falls due next is stored, and every hand and turn ping drawn."""

    def __init__(self, ctx: Context, finish: Finish | None = None) -> None:
        self.ctx = ctx
        self.finish = finish  # a try at the day's deal is over (bot.runtime.daily)

    # --- a match starts ------------------------------------------------------------------

    async def start_match(self, table: Table, no: int, prev_dealer: int | None) -> Outcome:
        row = table.row
        seed, chance = (await self.ctx.deals_at(row)).fresh()
        state = self.ctx.new_game(
            row.game, len(table.seats), seed, row.options, chance=chance, prev_dealer=prev_dealer
        )
        owing = owe.owings(row, no, row.moves, state.record()) if state.is_over else {}
        async with self.ctx.repo.unit() as tx:
            await tx.add_match(table.id, no, seed, prev_dealer, row.moves)
            await tx.set_match_drawn(table.id, no, drawn(state.record()))
            await tx.update_table(table.id, status=TableStatus.RUNNING, generation=no - 1)
            await tx.clear_hand_ui(table.id)
            if state.is_over:  # won at the first deal (§1.6.4): the match ends as it starts
                await self._book(tx, table, no, state, row.moves)
                await tx.update_table(table.id, status=TableStatus.ENDED, generation=no)
            owed = {kind: await o.write(tx) for kind, o in owing.items()}  # the durable outbox
            due = await self._schedule(tx, table, state.to_act, row.moves)
            if not state.is_over:
                idle = Deadline(
                    table.id, DeadlineKind.IDLE, self.ctx.clock() + self.ctx.idle_time(table), 0
                )
                await tx.put_deadline(idle)
                due += (idle,)
        table = await self.ctx.reload(table)
        table.match = Match(state, no, row.moves)
        facts = await self.ctx.facts(table)
        screens: list[Screen] = []
        if no == 1:
            seats_line = first(state.record(), LineKind.SEATS)
            assert seats_line is not None  # every record opens with its seats (RECORD.md)
            screens.append(LobbyStarted(facts, seats_line))
        screens.append(TableScreen(facts, state.view(None), fresh=True))
        if state.is_over:
            events = events_of(state.record())
            screens.append(DealResult(facts, events, state.view(None), owed.get(OwedKind.DEAL)))
            end = last(events, LineKind.END)
            if end is not None:
                result = state.result
                winner = result.winner if result is not None else None
                standings = await match_standings(self.ctx.repo, table, no)
                screens.append(
                    MatchResult(facts, end, winner, standings, owed.get(OwedKind.RESULT))
                )
        if daily_over(table.row, state.record()):  # the day's deal over as it was dealt
            return Outcome(tuple(screens), due) + await self._finished(table, state.record())
        screens += await self.hands(table, facts, fresh=True)
        screens += await self.pings(table, facts, None)
        return Outcome(tuple(screens), due)

    # --- presses on hand messages --------------------------------------------------------------

    async def card_press(self, table: Table, seat: int, press: Press) -> Outcome:
        """A family's button on the seat's own hand, its checks passed (the table running, the
        seat his, he may act, his current hand at the current move offers it:
        :data:`~bot.runtime.commands.HandPressed`'s guards), then applied (or only the marks
        changed)."""
        assert table.match is not None
        state = table.match.state
        ui_game = family_presses(table.row.game)
        assert ui_game is not None
        ui = table.hands.get(seat, HandUI())
        if press.act == REFRESH:
            return await self.one_hand(table, seat)
        if table.seats[seat].away:
            raise Refused(BotRefusal.COMPUTER_PLAYING, refresh=seat)
        table.last_human = self.ctx.clock()
        if state.to_act != seat:
            if state.to_act is None:
                raise Refused(BotRefusal.TABLE_CLOSED)
            raise Refused(BotRefusal.THEIR_TURN, name=table.seats[state.to_act].name)
        meaning = ui_game.interpret(state.view(seat), press.act, press.arg, ui)
        if isinstance(meaning, Deny):
            raise Refused(meaning.reason, **meaning.params)
        if isinstance(meaning, SetUI):
            async with self.ctx.repo.unit() as tx:
                await tx.set_hand_ui(table.id, seat, *meaning.ui.columns())
            table.hands[seat] = meaning.ui
            return await self.one_hand(table, seat)
        assert isinstance(meaning, Apply)
        table.acted[seat] = self.ctx.clock()  # before the pings of this very action are chosen
        out = await self.apply(table, seat, meaning.action)
        if table.seats[seat].expiries:  # he is here: the expiries in a row start again
            await self.change_seat(table, seat, expiries=0, schedule=False)
        return out

    async def refresh(self, table: Table | None, seat: int, stale: StripMessage | None) -> Outcome:
        """After a stale press: the old message loses its buttons (``stale``: it is no keyed
        message any more); the current hand is shown."""
        if not is_running(table):
            return Outcome()
        out = Outcome.of(stale) if stale is not None else Outcome()
        return out + await self.one_hand(table, seat)

    async def one_hand(
        self, table: Table, seat: int, *, fresh: bool = False, hint: Advice | None = None
    ) -> Outcome:
        facts = await self.ctx.facts(table)
        return Outcome(tuple(await self.hands(table, facts, only=seat, fresh=fresh, hint=hint)))

    async def hands(
        self,
        table: Table,
        facts: Facts,
        *,
        only: int | None = None,
        fresh: bool = False,
        answering: str | None = None,
        hint: Advice | None = None,
    ) -> list[Screen]:
        """Every reachable seat's hand (or only one seat's, shown even if away); ``answering``:
        the press of 🂠 it answers — a hand in the group is then sent anew in place of the
        pressed table message, for its owner alone; ``hint``: 💡's answer under ``only``'s."""
        assert table.match is not None
        state = table.match.state
        out: list[Screen] = []
        for s in table.seats:
            if s.user_id is None or (only is not None and s.seat != only) or s.barred:
                continue  # a barred seat's owner no longer sees it (his last hand lost its buttons)
            here = await self.ctx.in_group(table, s)
            if s.seat in table.hidden:  # put away by ↩️ To the table: back at his turn, or 🂠
                if only is None and here and state.to_act != s.seat:
                    continue
                table.hidden.discard(s.seat)
            if (
                s.away
                and only is None
                and not here
                and not await self.ctx.people.private_ok(s.user_id)
            ):
                continue  # the owner can't be reached; /hand in private brings him back
            view = state.view(s.seat)
            settings = await self.ctx.people.user_settings(s.user_id)
            out.append(
                HandScreen(
                    facts,
                    s.seat,
                    s.user_id,
                    await self.ctx.people.user_locale(s.user_id),
                    view,
                    table.hands.get(s.seat, HandUI()),
                    fresh=fresh or (answering is not None and here),
                    away=s.away,
                    menu=s.seat in table.menus,
                    words=settings.words,
                    in_group=here,
                    answering=answering if here else None,
                    replace=answering is not None and here,
                    hints=hints_allowed(table),
                    hint=hint if only is not None else None,
                    tip=None if s.away else await tip_for(self.ctx.repo, s.user_id, settings, view),
                )
            )
        return out

    # --- applying an action ------------------------------------------------------------------

    async def _book(self, tx: Writes, table: Table, no: int, state: State, first_seq: int) -> None:
        """An ended match's money: its net, and each person's line in the chat's score; its
        standing rated, each seat as whoever made most of its decisions (a seat the
        computer played is not its person's win)."""
        row = table.row
        result = state.result
        net = list(result.net) if result else [0] * len(table.seats)
        await tx.set_match_net(table.id, no, net)
        winner = result.winner if result else None
        points = result.points if result else None
        decided = await tx.deciders(table.id, first_seq)
        rated = ratings.finished(row, no, table.seats, result, decided) if result else None
        computer = {s.seat for s in table.seats if ratings.stand_in(s, decided)}
        for s in table.seats:
            if s.user_id is not None and row.rated:  # practice, teaching: nothing booked
                await tx.book(
                    row.chat_id,
                    row.game,
                    s.user_id,
                    net[s.seat],
                    s.seat == winner and s.seat not in computer,
                    points[s.seat] if points else 0,
                )
        if rated is not None:
            await ratings.rate(tx, rated, self.ctx.clock)  # the game's ratings

    async def apply(self, table: Table, seat: int, action: object, stand_in: str = "") -> Outcome:
        """Apply the seat's action and log it (``stand_in``: the level of the computer that
        decided it for the seat's person, "" his own — or a computer seat's — decision)."""
        assert table.match is not None
        match = table.match
        state = match.state
        before = state.view(None)
        try:
            lines = state.apply(seat, action)
        except IllegalAction as error:
            raise Refused.illegal(error) from error
        except InvalidNotation as error:
            raise Refused(BotRefusal.UNKNOWN_BUTTON) from error
        row = table.row
        ended = state.is_over
        moves = row.moves + 1
        owing = owe.owings(row, match.no, moves, lines)
        try:
            async with self.ctx.repo.unit() as tx:
                await tx.add_action(
                    table.id, row.moves, seat, str(lines[0]["a"]), drawn(lines), stand_in
                )
                fields: dict[str, Any] = {"moves": moves}
                if table.hands:
                    await tx.clear_hand_ui(table.id)
                if ended:
                    await self._book(tx, table, match.no, state, match.first_seq)
                    fields.update(status=TableStatus.ENDED, generation=match.no)
                await tx.update_table(table.id, **fields)
                due = await self._schedule(tx, table, None if ended else state.to_act, moves)
                owed = {kind: await o.write(tx) for kind, o in owing.items()}  # the durable outbox
        except BaseException:
            self.ctx.forget(table.id)  # the state is ahead of the log; rebuild it from the log
            raise
        table.row = dataclasses.replace(row, **fields)
        table.hands = {}
        match.last[seat] = action if not isinstance(action, str) else state.parse_action(action)
        after = await self._after(table, seat, before, lines, due, owed)
        return after + await self._finished(table, lines)

    async def _finished(self, table: Table, lines: Sequence[Line]) -> Outcome:
        """A try at the day's deal these lines end: scored, its table closed, told."""
        if self.finish is None or not daily_over(table.row, lines):
            return Outcome()
        return await self.finish(table, lines)

    async def _schedule(
        self, tx: Writes, table: Table, to_act: int | None, moves: int
    ) -> tuple[Deadline, ...]:
        """Store what is due next: the computer's move, or a person's turn timer (its
        reminder first, PRODUCT.md §13); drop a stored computer move no longer due."""
        if to_act is not None and table.seats[to_act].computer:
            deadline = Deadline(
                table.id, DeadlineKind.COMPUTER, self.ctx.clock() + self.ctx.computer_delay, moves
            )
            await tx.put_deadline(deadline)
            table.deadline = True
            table.turn_ends = None
            return (deadline,)
        if table.deadline:
            await tx.drop_deadline(table.id, DeadlineKind.COMPUTER)
            table.deadline = False
        if to_act is not None:
            remind = Deadline(
                table.id,
                DeadlineKind.REMIND,
                self.ctx.clock() + self.ctx.turn_time(table) * 2 / 3,
                moves,
            )
            await tx.put_deadline(remind)
            table.turn_ends = self.ctx.clock() + self.ctx.turn_time(table)
            return (remind,)
        for kind in (
            DeadlineKind.REMIND,
            DeadlineKind.TURN,
            DeadlineKind.QUIET,
            DeadlineKind.IDLE,
            DeadlineKind.CLOSE,
        ):  # the match is over: no timer of it stays, nor a question to close it
            await tx.drop_deadline(table.id, kind)
        table.turn_ends = None
        return ()

    async def change_seat(
        self,
        table: Table,
        seat: int,
        *,
        away: bool | None = None,
        expiries: int | None = None,
        marks: SeatMarks | None = None,
        schedule: bool = True,
        owing: Sequence[Owing] = (),
    ) -> tuple[Deadline, ...]:
        """A seat's ``away`` / ``expiries`` / ``marks`` written in one unit of work with what
        falls due next (``schedule``) and what the change owes the group (``owing``); the
        table in memory follows, so nothing is rebuilt from the log (and it is forgotten, to be
        rebuilt, if the unit fails). A seat that changes hands or is barred stamps the table's
        ``seats_at``: the members' answers asked before it are asked again at their next press."""
        changes: dict[str, Any] = {}
        try:
            async with self.ctx.repo.unit() as tx:
                for owed in owing:
                    await owed.write(tx)
                if away is not None or marks is not None:
                    now = self.ctx.clock()
                    await tx.update_table(table.id, seats_at=now)
                    table.row = dataclasses.replace(table.row, seats_at=now)
                if away is not None:
                    await tx.set_away(table.id, seat, away)
                    changes["away"] = away
                if expiries is not None:
                    await tx.set_expiries(table.id, seat, expiries)
                    changes["expiries"] = expiries
                if marks is not None:
                    await tx.set_seat_marks(table.id, seat, marks)
                    changes.update(
                        barred=marks.barred, noticed=marks.noticed, toggled_at=marks.toggled_at
                    )
                table.seats[seat] = dataclasses.replace(table.seats[seat], **changes)
                if not schedule or table.match is None:
                    return ()
                return await self._schedule(tx, table, table.match.state.to_act, table.row.moves)
        except BaseException:
            self.ctx.forget(table.id)
            raise

    async def _after(
        self,
        table: Table,
        actor: int,
        before: Any,
        lines: Sequence[Line],
        due: tuple[Deadline, ...],
        owed: dict[OwedKind, OwedRef],
    ) -> Outcome:
        """§4.6, §4.7: the deal as it ended, its result, then the next deal's table (or the
        match's result); then every hand. ``owed``: the results' entries the unit wrote."""
        assert table.match is not None
        state = table.match.state
        ended = state.is_over
        facts = await self.ctx.facts(table)
        view = state.view(None)
        events = events_of(lines)
        screens: list[Screen] = []
        deal_ended = has(lines, LineKind.DEAL_END)
        new_deal = has(lines, LineKind.DEAL)
        final = daily_over(table.row, lines)  # the try ends here: no next deal, its table closes
        if deal_ended:
            screens.append(EndedTable(facts, before, events))
            screens.append(DealResult(facts, events, view, owed.get(OwedKind.DEAL)))
        if ended:
            if not deal_ended:
                screens.append(TableScreen(facts, view))
            end = last(lines, LineKind.END)
            if end is not None:
                result = state.result
                winner = result.winner if result is not None else None
                standings = await match_standings(self.ctx.repo, table, table.match.no)
                screens.append(
                    MatchResult(facts, end, winner, standings, owed.get(OwedKind.RESULT))
                )
        elif not final:
            screens.append(TableScreen(facts, view, fresh=new_deal))
        if not final:
            screens += await self.hands(table, facts)
            screens += await self.pings(table, facts, actor)
        undue: tuple[tuple[int, str], ...] = (
            () if table.deadline else ((table.id, DeadlineKind.COMPUTER),)
        )
        if ended:
            undue += (
                (table.id, DeadlineKind.REMIND),
                (table.id, DeadlineKind.TURN),
                (table.id, DeadlineKind.QUIET),
                (table.id, DeadlineKind.IDLE),
                (table.id, DeadlineKind.CLOSE),
            )
            # a question to close it, if one was open, is over: its buttons go
            screens.append(Strip(table.row.chat_id, keys(table.id).cancel, forget=True))
        return Outcome(tuple(screens), due, undue)

    async def pings(self, table: Table, facts: Facts, actor: int | None) -> list[Screen]:
        """PRODUCT.md §4.5, §9: the actor's turn ping goes and the next person to act gets
        one; a seat that stays to act keeps its ping."""
        assert table.match is not None
        out: list[Screen] = []
        if table.reminded and actor is not None:  # the group's reminder goes once he acted
            out.append(Gone(table.row.chat_id, reminder_key(table.id)))
            table.reminded = False
        nxt = table.match.state.to_act
        if nxt == actor and actor is not None:
            return out  # still his turn (e.g. declare, then exchange): his ping stays
        if actor is not None and (owner := table.seats[actor].user_id) is not None:
            out.append(PingGone(owner, table.id, table.row.chat_id, actor))
        if nxt is not None:
            seat = table.seats[nxt]
            # "only reminders" (the user's /settings), or his quiet hours at a long-turn table: no
            # ping now, the ⅓-left reminder still comes (after the quiet hours);
            # nor for a person who moved moments ago: he is at the table, and a buzz per card
            # in a quick round is noise (the reminder still comes if he then waits)
            recent = self.ctx.clock() - table.acted.get(nxt, -1e18) < self.ctx.ping_quiet
            if (
                seat.user_id is not None
                and not seat.computer
                and not recent
                and await self._pinged(seat.user_id)
                and await quiet.until(self.ctx, table, seat.user_id) is None  # not at night
            ):
                locale = await self.ctx.people.user_locale(seat.user_id)
                here = await self.ctx.in_group(table, seat)
                out.append(TurnPing(facts, seat.user_id, locale, nxt, here))
        return out

    async def _pinged(self, user_id: int) -> bool:
        return (await self.ctx.people.user_settings(user_id)).pings is Pings.ON

    # --- the computer's moves (PRODUCT.md §13) -----------------------------------------------

    async def computer_due(self, deadline: Deadline) -> Outcome:
        """A computer's move fell due: the computer plays the seat to act, if still so."""
        table = await self.ctx.load(deadline.table_id)
        if not is_running(table) or table.match is None:
            return Outcome(undue=((deadline.table_id, deadline.kind),))
        state = table.match.state
        seat = state.to_act
        if table.row.moves != deadline.moves or seat is None or not table.seats[seat].computer:
            return Outcome()  # the table moved on; a newer deadline (if any) stands
        action = await self.computer_action(table, seat)
        return await self.apply(table, seat, action, self.stand_in(table, seat))

    def stand_in(self, table: Table, seat: int) -> str:
        """Who the computer's decision at the seat is logged as: "" at a computer seat
        (its own), else the level that decides for the seat's person (``away_level``)."""
        return "" if table.seats[seat].user_id is None else self.ctx.away_level

    async def computer_action(self, table: Table, seat: int) -> Any:
        """The computer's move for the seat (a computer seat's level; a person's seat while
        he is away: the operator's ``away_level``), computed off the event loop: a strong
        player thinks for a noticeable fraction of a second; the other tables go on meanwhile."""
        assert table.match is not None
        s = table.seats[seat]
        level = s.level if s.user_id is None else self.ctx.away_level
        policy = computer(table.row.game, level)
        match = table.match
        # STYLE.md §6: the match's record seed (at a live table a secret label drawn apart from
        # the decks, bot.runtime.deals), the seat, the ply: reproducible, and no way to a deck
        rng = random.Random(f"{match.state.seed}:{seat}:{table.row.moves - match.first_seq}")
        view = match.state.view(seat)
        return await think(policy, view, rng, table_id=table.row.id, level=level)
