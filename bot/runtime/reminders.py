"""A person's turn reminder (PRODUCT.md §13): when a third of his time is left, in private and
as a mention in the group; at a long-turn table held by his quiet hours until they end
(:mod:`bot.runtime.quiet`). Fired by the turn timer's ``remind`` and ``quiet`` deadlines
(:meth:`bot.runtime.absent.Absent.timer_due`)."""

from __future__ import annotations

from bot.runtime import quiet
from bot.runtime.outcome import Outcome, Reminder, TableScreen
from bot.runtime.play import Play
from bot.runtime.tables import Context, Table
from bot.storage.rows import Deadline, DeadlineKind


class Reminders:
    """The reminder of the seat to act: sent, held, or shown again after a restart."""

    def __init__(self, ctx: Context, play: Play) -> None:
        self.ctx = ctx
        self.play = play

    async def remind(self, table: Table, seat: int, deadline: Deadline) -> Outcome:
        """⅓ of the time left: a private reminder and a short mention in the group; in the
        player's quiet hours (a long turn) held until they end, or skipped if the turn ends
        first."""
        third = self.ctx.turn_time(table) / 3
        stored = await self.ctx.repo.deadlines(table.id)
        mine = {d.kind: d for d in stored if d.moves == deadline.moves}
        # fired before a restart already (its expiry is stored): shown again in place, so a
        # chat that has it is sent nothing and one that lost it with the stop gets it
        again = DeadlineKind.TURN in mine
        expiry = mine.get(DeadlineKind.TURN) or Deadline(
            table.id, DeadlineKind.TURN, deadline.due_at + third, deadline.moves
        )
        owner = table.seats[seat]
        wait = None if again else await quiet.until(self.ctx, table, owner.user_id)
        if DeadlineKind.QUIET in mine or wait is not None:  # held by his quiet hours
            held = mine.get(DeadlineKind.QUIET)
            if held is None and wait is not None and wait < expiry.due_at:
                held = Deadline(table.id, DeadlineKind.QUIET, wait, deadline.moves)
            async with self.ctx.repo.unit() as tx:
                await tx.put_deadline(expiry)
                if held is not None:
                    await tx.put_deadline(held)
            return Outcome(due=(expiry,) if held is None else (expiry, held))
        async with self.ctx.repo.unit() as tx:
            await tx.put_deadline(expiry)
        # the time left as it was said (shown again in place after a restart: the same text)
        return await self._reminder(
            table, seat, expiry, round(expiry.due_at - deadline.due_at), again
        )

    async def held(self, table: Table, seat: int, deadline: Deadline) -> Outcome:
        """His quiet hours are over: the reminder they held, once, with the time left now. The
        held deadline becomes the reminder's, fired (in one unit): after a restart it is shown
        again in place, as any fired reminder, saying the same."""
        stored = await self.ctx.repo.deadlines(table.id)
        expiry = next(
            (d for d in stored if d.kind == DeadlineKind.TURN and d.moves == deadline.moves), None
        )
        async with self.ctx.repo.unit() as tx:
            await tx.drop_deadline(table.id, DeadlineKind.QUIET)
            if expiry is not None:
                fired = Deadline(table.id, DeadlineKind.REMIND, deadline.due_at, deadline.moves)
                await tx.put_deadline(fired)
        if expiry is None or expiry.due_at <= self.ctx.clock():
            return Outcome()
        left = round(expiry.due_at - deadline.due_at)
        return await self._reminder(table, seat, expiry, left, False)

    async def _reminder(
        self, table: Table, seat: int, expiry: Deadline, left: int, again: bool
    ) -> Outcome:
        owner = table.seats[seat]
        assert owner.user_id is not None
        table.reminded = True
        table.turn_ends = expiry.due_at
        facts = await self.ctx.facts(table)  # the table shows the time left, and the reminder
        screen = Reminder(
            facts,
            owner.user_id,
            await self.ctx.people.user_locale(owner.user_id),
            seat,
            left,
            in_group=await self.ctx.in_group(table, owner),
            again=again,
        )
        assert table.match is not None
        shown = TableScreen(facts, table.match.state.view(None))
        hands = await self.play.hands(table, facts)  # a hand in the group shows the time too
        return Outcome((shown, *hands, screen), (expiry,))
