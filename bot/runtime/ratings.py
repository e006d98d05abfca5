"""Ratings at a match's end and their rebuild: the match's standing is written with
its last action, rated in the same unit of work (:class:`bot.rating.Book`), and every rating can
be computed again from the stored standings (``python -m bot ratings --rebuild``)."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from bot.clock import Clock
from bot.rating import EVERYWHERE, Book, player_of
from bot.runtime.as_it_stands import money_so_far, places_by
from bot.runtime.seasons import Month
from bot.storage.protocol import Repository, Writes
from bot.storage.rows import (
    Bar,
    Decided,
    ResultRow,
    ResultSeat,
    SeatKind,
    SeatRow,
    TableRow,
)
from engine.core import Line, Result


def stand_in(seat: SeatRow, decided: Sequence[Decided]) -> str:
    """Who a person's seat is rated as: "" its person, or the level of the computer
    that made more of its decisions for him (his turns timed out, ⋯ → 🤖, a closed private
    chat) than he made himself — then neither the rating nor the win is his. A person who left
    the group (or was removed by an admin) after deciding himself keeps the seat: leaving before
    the end still rates it to him, whoever played it out."""
    if seat.kind is not SeatKind.HUMAN:
        return ""
    own = sum(d.count for d in decided if d.seat == seat.seat and not d.stand_in)
    computers: dict[str, int] = {}
    for d in decided:
        if d.seat == seat.seat and d.stand_in:
            computers[d.stand_in] = computers.get(d.stand_in, 0) + d.count
    if sum(computers.values()) <= own or (seat.barred is not Bar.NONE and own > 0):
        return ""
    return max(computers, key=lambda level: (computers[level], level))


def standing(
    row: TableRow,
    no: int,
    seats: Sequence[SeatRow],
    places: Sequence[int],
    money: Sequence[int],
    decided: Sequence[Decided] = (),
) -> ResultRow:
    """Match ``no``'s standing as rated: each seat's holder (a computer seat: its level), place
    and money, and who it is rated as (:func:`stand_in`, from ``decided``: who made the match's
    decisions). ``solo``: one person made his own decisions there, the rest were computers."""
    by = [stand_in(s, decided) for s in seats]
    mine = zip(seats, by, strict=True)
    people = {s.user_id for s, b in mine if s.kind is SeatKind.HUMAN and not b}
    return ResultRow(
        row.id,
        no,
        row.chat_id,
        row.game,
        len(people) == 1 and len(seats) > 1,  # one person and computers: marked
        tuple(
            ResultSeat(
                s.user_id if s.kind is SeatKind.HUMAN and s.user_id is not None else 0,
                s.level if s.kind is SeatKind.COMPUTER else "",
                s.name,
                places[s.seat],
                money[s.seat],
                stand_in=b,
            )
            for s, b in zip(seats, by, strict=True)
        ),
    )


def finished(
    row: TableRow, no: int, seats: Sequence[SeatRow], result: Result, decided: Sequence[Decided]
) -> ResultRow | None:
    """A finished match's standing: places by its result (None: a game with no standing, or
    a practice or teaching table, never rated)."""
    places = result.places()
    if places is None or not row.rated:
        return None
    return standing(row, no, seats, places, result.net, decided)


def closed_early(
    row: TableRow,
    no: int,
    seats: Sequence[SeatRow],
    lines: Sequence[Line],
    decided: Sequence[Decided],
) -> ResultRow | None:
    """A match closed before its end, as it stands (:mod:`bot.runtime.as_it_stands`): places by
    the money of the deals played, ties shared; no money (it settles nothing, RULES.md §0.11).
    None before its first deal is over: no result, for anyone; None at a practice or teaching
    table."""
    if not row.rated:
        return None
    money = money_so_far(row.game, row.options, lines)
    if money is None:
        return None
    return standing(row, no, seats, places_by(money), [0] * len(seats), decided)


async def rate(tx: Writes, result: ResultRow, clock: Clock) -> ResultRow:
    """Rate a finished match in its unit of work: its standing and the players' new ratings are
    written; the standing comes back with the chat's ratings after it. The standing is stamped
    with its season, the month the clock reads once the ratings are held (a season's news,
    told under the same lock, misses no match of its month: :mod:`bot.runtime.seasons`)."""
    await tx.lock_ratings()
    result = dataclasses.replace(result, month=str(Month.of(clock())))
    players = [(p.user_id, p.level) for p in map(player_of, result.seats)]
    players += [(s.user_id, "") for s in result.seats if s.stand_in]  # rated for losses
    book = Book()
    for scope in (result.chat_id, EVERYWHERE):
        book.load(await tx.ratings(scope, game=result.game, players=players))
    rated = book.add(result)
    for r in book.changed():
        await tx.put_rating(r)
    await tx.add_result(rated)
    return rated


async def backfill(repo: Repository) -> int:
    """The standings of the matches that finished before ratings (replayed from the action log,
    oldest table first), stored so that a rebuild rates them too; how many. They are rated after
    the matches rated already (the order of ``results``)."""
    from bot.records import Records
    from engine.games import new_game

    added = 0
    records = Records(repo, new_game)
    for table in reversed(await repo.tables()):
        seats = await repo.seats(table.id)
        for record in await records.of_table(table):
            if record.result is None or await repo.result(table.id, record.no) is not None:
                continue
            # no action logged before who decided was recorded: each was its seat's own
            row = finished(table, record.no, seats, record.result, ())
            if row is not None:
                async with repo.unit() as tx:
                    await tx.add_result(row)
                added += 1
    return added


async def rebuild(repo: Repository) -> int:
    """Every rating computed again from the stored standings, in the order they were rated (one
    unit of work: the ratings are never seen half rebuilt); the number of matches rated."""
    async with repo.unit() as tx:
        await tx.lock_ratings()
        results = await tx.results()
        await tx.clear_ratings()
        book = Book()
        for result in results:
            rated = book.add(result)
            if rated.seats != result.seats:
                await tx.set_result_seats(result.table_id, result.match_no, rated.seats)
        for r in book.changed():
            await tx.put_rating(r)
    return len(results)
