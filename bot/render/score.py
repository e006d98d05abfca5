"""/score (PRODUCT.md §4.8, §20): a group's leaderboard per game — rating · games · money, best
first, computer levels among the people — one person's own lines with his place in the
group, or his lines across groups (in private).

Names are the users' own (any length, any characters): they are escaped, and a long one is cut
to :data:`NAME_MAX` characters on a leaderboard. A big group's boards (ten players with long names
in seven games) may still pass Telegram's 4,096 characters: the answer is then several messages,
split between games (a game's block is split only if it alone is too long), so every game's
board is still seen whole and in order."""

from __future__ import annotations

from collections.abc import Sequence

from bot.game_names import game_name
from bot.i18n import Translator
from bot.markup import Html, esc
from bot.message_limits import MAX_TEXT, pages
from bot.numbers import RATING_BASE, rating, signed
from bot.render.computers import LEVEL_BUTTONS
from bot.render.games import game_ui
from bot.runtime.scoreboard import Board, BoardLine

NAME_MAX = 32
"""A leaderboard shows at most this many characters of a name (Telegram allows 64 a name)."""


def _name(e: BoardLine, tr: Translator) -> str:
    if e.level:
        return esc(tr(LEVEL_BUTTONS.get(e.level, e.level)))
    name = e.name if len(e.name) <= NAME_MAX else e.name[: NAME_MAX - 1] + "…"
    return esc(name)


def _figures(game: str, e: BoardLine, tr: Translator) -> str:
    """``112 · игр 12 (с людьми: 5) · +240 · очков 57``: rating, games (a person's: how many of
    the rated ones had other people in them), money, the game's points."""
    shown = rating(e.rating) if e.rating is not None else "—"
    games = (
        tr("games {n} (with people: {people})", n=e.games, people=e.people)
        if e.rating is not None and not e.level
        else tr("games {n}", n=e.games)
    )
    parts = [shown, games, signed(e.money)]
    ui = game_ui(game)
    if ui is not None and ui.points_label is not None and not e.level:
        parts.append(ui.points_label(e.points, tr))
    return " · ".join(parts)


def _heading(title: str, tr: Translator) -> str:
    return tr.html("📊 Score — «{chat}»", chat=title) if title else tr.html("📊 Your score")


def _legend(tr: Translator) -> str:
    """Where a rating starts (:data:`bot.numbers.RATING_BASE`), said once above the boards."""
    return tr.html("A rating starts at {base} and rises as the games show skill.", base=RATING_BASE)


def _answer(lines: list[str], blocks: list[list[str]], size: int, tr: Translator) -> list[Html]:
    if blocks:
        lines.append(_legend(tr))
    blocks = [lines, *blocks]
    if len(blocks) > 1:  # the heading goes with the first game, never on a page of its own
        blocks[:2] = [blocks[0] + blocks[1]]
    return pages(blocks, size)


def score(
    title: str,
    current: Html | None,
    boards: Sequence[Board],
    tr: Translator,
    *,
    limit: int = 10,
    size: int = MAX_TEXT,
) -> list[Html]:
    """A group's leaderboards (one message, unless too long for one). ``current``: the line of
    the table playing now."""
    lines: list[str] = [_heading(title, tr)]
    if current:
        lines.append(current)
    if not boards:
        lines.append(tr.html("No finished games yet."))
    blocks: list[list[str]] = []
    for board in boards:
        block = [
            "",
            tr.html("{game} — rating · games · money", game=game_name(board.game, tr.locale)),
        ]
        blocks.append(block)
        for i, e in enumerate(board.entries[:limit], start=1):
            block.append(f"{i}. {_name(e, tr)} {_figures(board.game, e, tr)}")
        if len(board.entries) > limit:
            block.append(tr.html("… {n} more", n=len(board.entries) - limit))
    return _answer(lines, blocks, size, tr)


def mine(
    title: str, boards: Sequence[Board], user_id: int, tr: Translator, *, size: int = MAX_TEXT
) -> list[Html]:
    """One person's lines: per game his rating, his place in the group (``title``: the group's;
    "" in private, across groups: no place), games and money."""
    lines: list[str] = [_heading(title, tr)]
    blocks: list[list[str]] = []
    for board in boards:
        own = next((e for e in board.entries if e.user_id == user_id and not e.level), None)
        if own is None:
            continue
        figures = _figures(board.game, own, tr)
        rank = board.rank(user_id) if title else None
        of = sum(1 for e in board.entries if e.rating is not None)
        where = tr(" — place {rank} of {of}", rank=rank, of=of) if rank is not None else ""
        blocks.append([f"{esc(game_name(board.game, tr.locale))}: {figures}{where}"])
    if not blocks:
        lines.append(tr.html("No finished games of yours yet."))
    return _answer(lines, blocks, size, tr)
