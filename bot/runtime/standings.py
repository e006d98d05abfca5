"""What a game's result and /score show beyond the game: the seats' rating changes
and the chat's money (:func:`match_standings`), the leaderboards — a chat's ratings with each
person's all-time money, or one person's lines across chats (:func:`boards`). Read only; the
screens are :mod:`bot.render.results`' and :mod:`bot.render.score`'s."""

from __future__ import annotations

from bot.rating import EVERYWHERE, shown
from bot.runtime.scoreboard import Board, BoardLine, LedgerLine, Rated, Standings
from bot.runtime.tables import Table
from bot.storage.protocol import Reads
from bot.storage.rows import LedgerRow, RatingRow


def _summed(rows: list[LedgerRow]) -> dict[tuple[str, int], LedgerRow]:
    """The ledger's lines by game and person, summed over chats."""
    out: dict[tuple[str, int], LedgerRow] = {}
    for r in rows:
        key = (r.game, r.user_id)
        s = out.get(key)
        out[key] = (
            r
            if s is None
            else LedgerRow(
                0,
                r.game,
                r.user_id,
                r.name,
                s.balance + r.balance,
                s.played + r.played,
                s.won + r.won,
                s.points + r.points,
            )
        )
    return out


def _entry(r: RatingRow, ledger: LedgerRow | None) -> BoardLine:
    people = r.games - r.solo  # rated games with another person deciding himself
    if ledger is None:  # a computer level (or a person whose money is in no ledger)
        return BoardLine(r.user_id, r.name, r.level, shown(r.mu, r.sigma), r.games, people, r.money)
    games = max(r.games, ledger.played)  # his games before ratings count here too
    return BoardLine(
        r.user_id,
        ledger.name,
        "",
        shown(r.mu, r.sigma),
        games,
        people,
        ledger.balance,
        ledger.points,
    )


async def boards(
    repo: Reads, *, chat_id: int | None, user_id: int | None = None, game: str | None = None
) -> list[Board]:
    """Each game's board in the chat (``chat_id`` None: across chats), best first — the rated
    by rating, then people with games from before ratings by money; only ``user_id``'s lines
    and only ``game``'s where given (a person's board still ranks him among everyone)."""
    scope = EVERYWHERE if chat_id is None else chat_id
    if chat_id is None and user_id is not None:
        ledger = _summed(await repo.ledger(user_id=user_id))
        ratings = await repo.ratings(scope, game=game, user_id=user_id)
    else:
        ledger = _summed(await repo.ledger(chat_id=chat_id))
        ratings = await repo.ratings(scope, game=game)
    games: dict[str, list[BoardLine]] = {}
    seen: set[tuple[str, int]] = set()
    for r in ratings:
        key = (r.game, r.user_id)
        person = None if r.level else ledger.get(key)
        if not r.level:
            seen.add(key)
        games.setdefault(r.game, []).append(_entry(r, person))
    unrated = sorted(  # people whose games all came before ratings: by money, as /score had it
        (v for k, v in ledger.items() if k not in seen and (game is None or v.game == game)),
        key=lambda v: (-v.balance, -v.won, v.name.encode()),
    )
    for v in unrated:
        games.setdefault(v.game, []).append(
            BoardLine(v.user_id, v.name, "", None, v.played, 0, v.balance, v.points)
        )
    return [Board(g, tuple(entries)) for g, entries in sorted(games.items())]


async def match_standings(repo: Reads, table: Table, no: int) -> Standings:
    """The seated people's all-time lines in the chat, and match ``no``'s rating changes."""
    seated = {s.user_id for s in table.seats}
    ledger = tuple(
        LedgerLine(r.user_id, r.name, r.balance, r.played, r.won)
        for r in await repo.ledger(chat_id=table.row.chat_id)
        if r.game == table.row.game and r.user_id in seated
    )
    result = await repo.result(table.id, no)
    seats = result.seats if result is not None else ()
    rated = tuple(Rated(s.name, s.rating, s.change, bool(s.stand_in)) for s in seats)
    return Standings(ledger, rated)
