"""Practice alone (/practice in private): a table of the person and computers opens in the
private chat and starts there and then — no group, nobody to wait for. The same screens as a
group's table, its hands in the same chat; never rated, nothing booked
(:attr:`~bot.storage.rows.TableRow.practice`); left alone, it closes as an idle table does."""

from __future__ import annotations

from typing import Final

from bot.computer_names import computer_name
from bot.game_names import game_name
from bot.i18n import N_
from bot.runtime.chat_commands import ClosePractice, OpenPractice
from bot.runtime.daily import DAILY_ON
from bot.runtime.guards import Call, Parts
from bot.runtime.outcome import Note, Outcome, Strip, TableScreen, keys
from bot.runtime.tables import join_code, seat_range
from bot.storage.rows import Hands, SeatKind, SeatSpec, TableKind, TableStatus

LEVEL: Final = "easy"  # the computers a newcomer meets
SEATS: Final = 3  # the person and two computers, where the game allows it
OPENED: Final = N_("🎮 Practice: {game} against computers, unrated. Your cards come next.")
STILL_RUNNING: Final = N_("Your practice game is still on — here it is again.")
CLOSED: Final = N_("🏁 Your practice game is closed. It was unrated.")
NONE_OPEN: Final = N_("You have no practice game to close. Start one: /practice")


async def open_practice(rt: Parts, call: Call, cmd: OpenPractice) -> Outcome:
    """A practice table opens in his private chat and its first match starts; while one is open
    there, its table and his hand are shown again instead (``said``: that it still runs) —
    unless he asked to close it and start anew (``anew``)."""
    ctx, chat_id = rt.ctx, cmd.user_id
    current = await ctx.repo.open_table(chat_id)
    if current is not None and current.daily:  # never closed for practice: finished first
        locale = await ctx.people.user_locale(cmd.user_id)
        return Outcome.of(Note(cmd.user_id, locale, DAILY_ON))
    closed = Outcome()
    anew = cmd.anew or (current is not None and current.status is not TableStatus.RUNNING)
    if current is not None and anew and (old := await ctx.load(current.id)) is not None:
        _, closed = await rt.closing.close_table(old)  # a practice table: nothing is rated
        shown = keys(old.id)
        strips = (Strip(chat_id, shown.table, forget=True), Strip(chat_id, shown.result))
        closed = Outcome(strips) + closed
        current = None
    if current is not None:
        out, _ = await rt.absent.my_hands(cmd.user_id, call.held, current.id)
        table = await ctx.load(current.id)
        if table is not None and table.match is not None:
            view = table.match.state.view(None)
            out = Outcome.of(TableScreen(await ctx.facts(table), view, fresh=True)) + out
        return Outcome(out.screens, out.due, out.undue, STILL_RUNNING)
    options = await rt.lobby.seeded_options(chat_id, cmd.game, cmd.options)
    least, most = seat_range(cmd.game)
    locale = await ctx.people.user_locale(cmd.user_id)
    # the private chat as the table's chat: called «Practice», in his language (the screens')
    chat = await ctx.people.seen_chat(chat_id, cmd.title, locale)
    if chat.language != locale:
        await ctx.people.set_chat_language(chat_id, locale)
    computers: list[SeatSpec] = [
        (SeatKind.COMPUTER, None, computer_name(locale, index), LEVEL)
        for index in range(max(least, min(SEATS, most)) - 1)
    ]
    seats: list[SeatSpec] = [(SeatKind.HUMAN, cmd.user_id, cmd.name), *computers]
    async with ctx.repo.unit() as tx:
        tid = await tx.create_table(
            chat_id, cmd.game, options, cmd.user_id, join_code(), ctx.clock()
        )
        await tx.update_table(
            tid, turn_timeout_s=ctx.turn_timeout, hands=Hands.PRIVATE, kind=TableKind.PRACTICE
        )
        await tx.replace_seats(tid, seats)
    table = await ctx.opened(tid)
    said = Note(cmd.user_id, locale, OPENED, {"game": game_name(cmd.game, locale)})
    started = await rt.lobby.start(table, table.row.generation, {cmd.user_id: True})
    return closed + Outcome.of(said) + started


async def close_practice(rt: Parts, call: Call, cmd: ClosePractice) -> Outcome:
    """/cancel in private: his practice table there closes as any close does (nothing rated,
    nothing booked), and he is told so once; with none open, he is told that."""
    ctx, chat_id = rt.ctx, cmd.user_id
    locale = await ctx.people.user_locale(cmd.user_id)
    current = await ctx.repo.open_table(chat_id)
    table = await ctx.load(current.id) if current is not None and current.practice else None
    if table is None:
        return Outcome.of(Note(cmd.user_id, locale, NONE_OPEN))
    _, closed = await rt.closing.close_table(table)  # a practice table: nothing is rated
    shown = keys(table.id)
    strips = (Strip(chat_id, shown.table, forget=True), Strip(chat_id, shown.result))
    return Outcome(strips) + closed + Outcome.of(Note(cmd.user_id, locale, CLOSED))
