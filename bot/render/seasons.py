"""Seasons' screens (PRODUCT.md §20): ``/score season`` — a month's board per game, in a group
or across groups — and the group's news once a month is over («🏆 Сезон ноябрь 2026 (Мушка):
1. Аня …»). Names are escaped and cut as on /score; a long answer is several messages, split
between games (:func:`bot.message_limits.pages`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.game_names import game_name
from bot.i18n import N_, Translator
from bot.markup import Html, esc
from bot.message_limits import MAX_TEXT, pages
from bot.numbers import rating, signed
from bot.render.computers import LEVEL_BUTTONS
from bot.render.score import NAME_MAX
from bot.runtime.seasons import MIN_GAMES, Month, SeasonBoard, SeasonLine

MONTHS = (
    N_("January"),
    N_("February"),
    N_("March"),
    N_("April"),
    N_("May"),
    N_("June"),
    N_("July"),
    N_("August"),
    N_("September"),
    N_("October"),
    N_("November"),
    N_("December"),
)
"""The months' names as a season is called (nominative: «Сезон ноябрь 2026»)."""

LIMIT = 10
"""A board shows at most this many placed lines (the rest are counted)."""


def month_name(month: Month, tr: Translator) -> str:
    """«ноябрь 2026» / «November 2026»."""
    return f"{tr(MONTHS[month.month - 1])} {month.year}"


def _name(line: SeasonLine, tr: Translator, hidden: Mapping[int, int]) -> str:
    if line.level:
        return esc(tr(LEVEL_BUTTONS.get(line.level, line.level)))
    number = hidden.get(line.user_id)
    if number is not None:  # he hides his name on boards across groups
        return esc(tr("Player {n}", n=number))
    name = line.name if len(line.name) <= NAME_MAX else line.name[: NAME_MAX - 1] + "…"
    return esc(name)


def _line(at: int, line: SeasonLine, tr: Translator, hidden: Mapping[int, int]) -> str:
    """``1. Аня 1013 · 4 игры · 2 победы · +120``."""
    figures = [
        rating(line.rating),
        tr.n("{n} game", "{n} games", line.games),
        tr.n("{n} win", "{n} wins", line.won),
        signed(line.money),
    ]
    return f"{at}. {_name(line, tr, hidden)} " + " · ".join(figures)


def _board(board: SeasonBoard, tr: Translator, heading: str) -> list[str]:
    block = [heading]
    for at, line in enumerate(board.placed[:LIMIT], start=1):
        block.append(_line(at, line, tr, board.hidden))
    if not board.placed:
        block.append(tr.html("Nobody placed yet."))
    more = len(board.placed) - LIMIT
    if more > 0:
        block.append(tr.n_html("… and {n} more placed", "… and {n} more placed", more))
    if board.unplaced:
        hidden = board.hidden
        named = ", ".join(f"{_name(x, tr, hidden)} ({x.games})" for x in board.unplaced[:LIMIT])
        more = len(board.unplaced) - LIMIT
        rest = " " + tr.n("… and {n} more", "… and {n} more", more) if more > 0 else ""
        block.append(tr.html("Not placed yet (games): {names}", names=Html(named + rest)))
    return block


def _rule(tr: Translator) -> Html:
    """How a season ranks, said once under the heading."""
    return tr.n_html(
        "The month's rated games alone, rated afresh; placed from {n} game.",
        "The month's rated games alone, rated afresh; placed from {n} games.",
        MIN_GAMES,
    )


def season(
    title: str,
    month: Month,
    boards: Sequence[SeasonBoard],
    tr: Translator,
    *,
    running: bool,
    size: int = MAX_TEXT,
) -> list[Html]:
    """/score season: ``month``'s board of each game in the group ``title`` ("" across
    groups); ``running``: the month is the current one (its boards still move)."""
    name = month_name(month, tr)
    if title:
        heading = tr.html("🏆 Season {month} — «{chat}»", month=name, chat=title)
    else:
        heading = tr.html("🏆 Season {month} — all groups", month=name)
    lines = [heading, tr.html("In progress.") if running else tr.html("Final."), _rule(tr)]
    if not boards:
        lines.append(tr.html("No rated games that month."))
    blocks = [["", *_board(b, tr, esc(game_name(b.game, tr.locale)))] for b in boards]
    return _paged(lines, blocks, size)


def season_over(
    month: Month, boards: Sequence[SeasonBoard], tr: Translator, *, size: int = MAX_TEXT
) -> list[Html]:
    """The group's news once ``month`` is over: each game's final board, the way to see it
    again after."""
    name = month_name(month, tr)
    blocks = []
    for at, board in enumerate(boards):
        game = game_name(board.game, tr.locale)
        heading = tr.html("🏆 Season {month} ({game}):", month=name, game=game)
        blocks.append(([""] if at else []) + _board(board, tr, heading))
    again = tr.html("Again: /score season {when}", when=str(month))
    return _paged([], [*blocks, ["", again]], size)


def _paged(lines: Sequence[str], blocks: list[list[str]], size: int) -> list[Html]:
    """The heading goes with the first game, never on a page of its own."""
    joined = [[*lines, *blocks[0]], *blocks[1:]] if blocks else [list(lines)]
    return pages(joined, size)


def usage(tr: Translator) -> Html:
    return tr.html(
        "/score season [game] [YYYY-MM] [all]: a month's board — this group's, or across "
        "groups with “all” (in private always)."
    )


def help_line(tr: Translator) -> Html:
    """/help's line on seasons."""
    return tr.html(
        "Seasons: /score season — this month's board (a month of your choice: /score season "
        "2026-11); when a month ends, the group is shown its final board."
    )
