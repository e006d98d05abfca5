"""Ratings at a match's end and their rebuild (issue #35): the match's standing is written with
its last action, rated in the same unit of work (:class:`bot.rating.Book`), and every rating can
be computed again from the stored standings (``python -m bot ratings --rebuild``)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.rating import EVERYWHERE, Book
from bot.storage.protocol import Repository, Writes
from bot.storage.rows import ResultRow, ResultSeat, SeatKind, SeatRow, TableRow
from engine.core import Result


def standing(row: TableRow, no: int, seats: Sequence[SeatRow], result: Result) -> ResultRow | None:
    """Match ``no``'s standing as rated: each seat's holder (a computer seat: its level; a
    person's seat is his even where the computer played it while he was away), place and money;
    None for a game with no standing (abandoned)."""
    places = result.places()
    if places is None:
        return None
    people = sum(1 for s in seats if s.kind is SeatKind.HUMAN)
    return ResultRow(
        row.id,
        no,
        row.chat_id,
        row.game,
        people == 1 and len(seats) > 1,  # one person and computers: marked (#35)
        tuple(
            ResultSeat(
                s.user_id if s.kind is SeatKind.HUMAN and s.user_id is not None else 0,
                s.level if s.kind is SeatKind.COMPUTER else "",
                s.name,
                places[s.seat],
                result.net[s.seat],
            )
            for s in seats
        ),
    )


async def rate(tx: Writes, result: ResultRow) -> ResultRow:
    """Rate a finished match in its unit of work: its standing and the players' new ratings are
    written; the standing comes back with the chat's ratings after it."""
    await tx.lock_ratings()
    players = [(s.user_id, s.level) for s in result.seats]
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
            row = standing(table, record.no, seats, record.result)
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
