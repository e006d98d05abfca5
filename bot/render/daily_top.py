"""``/daily top``'s screen (:class:`~bot.runtime.daily_boards.DailyTops`): per game, today's
best and the last seven days' across every group, and the asker's place where he played. Names
are data (escaped, cut as on /score); a long answer is several messages, split between games
(:func:`bot.message_limits.pages`)."""

from __future__ import annotations

from bot.game_names import game_name
from bot.i18n import Translator
from bot.markup import Html, esc
from bot.message_limits import pages
from bot.numbers import signed
from bot.render.score import NAME_MAX
from bot.runtime.daily_boards import WEEK_DAYS, DailyTops, PeriodTop
from bot.storage.daily_sql import DailyEntry


def _name(entry: DailyEntry, top: PeriodTop, tr: Translator) -> str:
    number = top.hidden.get(entry.user_id)
    if number is not None:  # he hides his name on boards across chats
        return esc(tr("Player {n}", n=number))
    name = entry.name if len(entry.name) <= NAME_MAX else entry.name[: NAME_MAX - 1] + "…"
    return esc(name)


def _line(at: int, entry: DailyEntry, top: PeriodTop, tr: Translator, *, week: bool) -> str:
    """``1. Аня +12`` (today), ``1. Аня +30 · 3 дня`` (the week)."""
    line = f"{at}. {_name(entry, top, tr)} {signed(entry.total)}"
    if week:
        line += " · " + tr.n("{n} day", "{n} days", entry.tries)
    return line


def _period(top: PeriodTop, tr: Translator, asker: str | None, *, week: bool) -> list[str]:
    lines = []
    place = 1
    for at, entry in enumerate(top.lines, start=1):
        if at > 1 and entry.total < top.lines[at - 2].total:
            place = at  # equal totals share a place
        lines.append(_line(place, entry, top, tr, week=week))
    if not top.lines:
        lines.append(tr.html("Nobody has finished it yet."))
    mine = top.mine
    if mine is not None:
        args = {"place": mine.place, "people": mine.people, "total": signed(mine.entry.total)}
        if asker is None:
            lines.append(tr.html("Your place: {place} of {people} ({total})", **args))
        else:
            lines.append(tr.html("{name}: place {place} of {people} ({total})", name=asker, **args))
    return lines


def daily_top(tops: DailyTops, tr: Translator, asker: str | None) -> list[Html]:
    """The boards as messages; ``asker``: None in private (his place is «yours»), else the
    name the group knows him by."""
    head = tr.html("🏆 The day's deal: the best across all chats")
    if not tops.games:
        empty = tr.n_html(
            "Nobody has finished a day's deal in the last {n} day. /daily to play.",
            "Nobody has finished a day's deal in the last {n} days. /daily to play.",
            WEEK_DAYS,
        )
        return [Html(f"{head}\n{empty}")]
    blocks: list[list[str]] = [[head]]
    for game in tops.games:
        block = ["", f"<b>{esc(game_name(game.game, tr.locale))}</b>"]
        block.append(tr.html("Today ({day}):", day=tops.day))
        block += _period(game.today, tr, asker, week=False)
        block.append(
            tr.n_html(
                "The last {n} day (from {day}):",
                "The last {n} days (from {day}):",
                WEEK_DAYS,
                day=tops.week_from,
            )
        )
        block += _period(game.week, tr, asker, week=True)
        blocks.append(block)
    return pages(blocks)
