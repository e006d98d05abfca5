"""The day's deal (/daily): each UTC day each game has one deal (:mod:`bot.runtime.daily_deals`),
the same for everyone who plays it that day — his seat's cards, the computers' and their play
for the same actions. A person's try opens in his private chat as a table of his own against
``normal`` computers (never rated, nothing booked: :attr:`~bot.storage.rows.TableKind.DAILY`)
and starts there and then; it ends with the game's deal (or its match: Копилка's partia,
Лентюрлю's one deal), when it is scored, its table closes and he is told his place among every
finished try of the day — and the group he started it from, his one line. One try a day: a
second /daily that day tells his result and place so far (or shows his running try again)."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Final

from bot.computer_names import computer_name
from bot.game_names import game_name
from bot.i18n import N_
from bot.runtime.chat_commands import OpenDaily
from bot.runtime.closing import Closing
from bot.runtime.daily_deals import (
    LEVEL,
    SEAT,
    SEATS,
    SETUPS,
    DailyTold,
    day_of,
    fresh_secret,
    score_of,
)
from bot.runtime.guards import Call, Parts
from bot.runtime.lobby import default_options
from bot.runtime.outcome import DailyResult, Note, Outcome, Strip, TableScreen, keys
from bot.runtime.tables import Context, Table, join_code
from bot.storage.daily_sql import DailyTry
from bot.storage.rows import Hands, SeatKind, SeatSpec, TableKind, TableStatus
from engine.core import Line

OPENED: Final = N_(
    "🗓 The day's deal: {game}. Everyone plays these same cards today, against the same "
    "computers; one try. Your cards come next."
)
STILL_ON: Final = N_("Your try at the day's deal is still on — here it is again.")
BUSY: Final = N_(
    "Finish the game open here first (/cancel closes a practice game), then try the day's deal."
)
DAILY_ON: Final = N_("Your try at the day's deal is still on: finish it first (/daily shows it).")
CLOSED_UNFINISHED: Final = N_(
    "Your try at today's deal of {game} was closed unfinished. A new deal comes tomorrow."
)


class Daily:
    """A try at the day's deal ends: scored, its table closed, its person and group told."""

    def __init__(self, ctx: Context, closing: Closing) -> None:
        self.ctx = ctx
        self.closing = closing

    async def finish(self, table: Table, lines: Sequence[Line]) -> Outcome:
        """``lines`` ended the try at the table (:func:`~bot.runtime.daily_deals.daily_over`):
        his score stored (once: a finished try keeps its own), the table closed — the match
        abandoned if it goes on past the try (its record ends there, RECORD.md §R5.7)."""
        ctx = self.ctx
        assert table.match is not None
        tried = await ctx.repo.daily_try_at(table.id)
        assert tried is not None  # stored in the unit that opened the table
        score = score_of(table.row.game, lines, table.match.state)
        decided = await ctx.repo.deciders(table.id, table.match.first_seq)
        stood_in = any(d.seat == SEAT and d.stand_in and d.count for d in decided)
        async with ctx.repo.unit() as tx:
            await tx.finish_try(table.id, score, ctx.clock())
        _, closed = await self.closing.close_table(table, tell=False)  # nothing rated
        shown = keys(table.id)  # no button of the table's or a match result's plays on
        chat_id = table.row.chat_id
        closed = closed + Outcome(
            (Strip(chat_id, shown.table, forget=True), Strip(chat_id, shown.result))
        )
        table.row = dataclasses.replace(table.row, status=TableStatus.CLOSED)
        done = dataclasses.replace(tried, score=score)
        locale = await ctx.people.user_locale(tried.user_id)
        mine = await told(ctx, done, DailyTold.ENDED, tried.user_id, locale)
        out = Outcome.of(dataclasses.replace(mine, stood_in=stood_in))
        if tried.group_id is not None:
            group_locale = await ctx.people.chat_locale(tried.group_id)
            line = await told(ctx, done, DailyTold.GROUP, tried.group_id, group_locale)
            out += Outcome.of(line)
        return closed + out


async def told(
    ctx: Context, tried: DailyTry, how: DailyTold, chat_id: int, locale: str
) -> DailyResult:
    """A finished try's result, as ``how`` tells it in ``chat_id``."""
    assert tried.score is not None
    standing = await ctx.repo.daily_standing(tried.day, tried.game, tried.score)
    return DailyResult(chat_id, locale, how, tried.game, tried.name, tried.score, standing)


async def open_daily(rt: Parts, call: Call, cmd: OpenDaily) -> Outcome:
    """His try at today's deal of the game opens in his private chat and starts; tried already
    today: his result and place so far (finished), or his table shown again (running)."""
    ctx, chat_id = rt.ctx, cmd.user_id
    day = day_of(ctx.clock())
    locale = await ctx.people.user_locale(cmd.user_id)
    tried = await ctx.repo.daily_try(day, cmd.game, cmd.user_id)
    if tried is not None:
        return await _tried(rt, call, tried, locale)
    if await ctx.repo.open_table(chat_id) is not None:
        return Outcome.of(Note(cmd.user_id, locale, BUSY))
    await ctx.repo.daily_secret(day, cmd.game, fresh_secret())  # drawn by the first to ask
    group = cmd.group_id
    if group is not None and not await ctx.members.belongs(group, cmd.user_id):
        group = None  # a link to a group he is not in: nobody there is told
    chat = await ctx.people.seen_chat(chat_id, cmd.title, locale)
    if chat.language != locale:
        await ctx.people.set_chat_language(chat_id, locale)
    seats: list[SeatSpec] = [(SeatKind.HUMAN, cmd.user_id, cmd.name)]
    seats += [
        (SeatKind.COMPUTER, None, computer_name(locale, index), LEVEL) for index in range(SEATS - 1)
    ]
    assert seats[SEAT][1] == cmd.user_id
    options = default_options(cmd.game, SETUPS[cmd.game].options)
    async with ctx.repo.unit() as tx:
        tid = await tx.create_table(
            chat_id, cmd.game, options, cmd.user_id, join_code(), ctx.clock()
        )
        await tx.update_table(
            tid, turn_timeout_s=ctx.turn_timeout, hands=Hands.PRIVATE, kind=TableKind.DAILY
        )
        await tx.replace_seats(tid, seats)
        await tx.add_try(DailyTry(day, cmd.game, cmd.user_id, cmd.name, tid, group))
    table = await ctx.opened(tid)
    said = Note(cmd.user_id, locale, OPENED, {"game": game_name(cmd.game, locale)})
    started = await rt.lobby.start(table, table.row.generation, {cmd.user_id: True})
    return Outcome.of(said) + started


async def _tried(rt: Parts, call: Call, tried: DailyTry, locale: str) -> Outcome:
    """A second /daily the same day: his result so far, or his running try again."""
    ctx = rt.ctx
    if tried.finished:
        return Outcome.of(await told(ctx, tried, DailyTold.AGAIN, tried.user_id, locale))
    table = await ctx.load(tried.table_id)
    if table is None or table.row.status is TableStatus.CLOSED or table.match is None:
        name = game_name(tried.game, locale)
        return Outcome.of(Note(tried.user_id, locale, CLOSED_UNFINISHED, {"game": name}))
    out, _ = await rt.absent.my_hands(tried.user_id, call.held, table.id)
    shown = TableScreen(await ctx.facts(table), table.match.state.view(None), fresh=True)
    return Outcome.of(Note(tried.user_id, locale, STILL_ON), shown) + out
