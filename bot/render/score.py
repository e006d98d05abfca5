"""/score (PRODUCT.md §4.8): any game's all-time standings, with the game's own points where it
scores points beside money (the family's ``GameUI.points_label``).

A big group's standings (ten players with long names in seven games) pass Telegram's 4,096
characters: the answer is then several messages, split between games (a game's block is split
only if it alone is too long), so every game's standings are still seen whole and in order."""

from __future__ import annotations

from collections.abc import Sequence

from bot.i18n import Translator
from bot.markup import Html
from bot.render.common import signed
from bot.render.context import game_name
from bot.render.games import game_ui
from bot.render.limits import MAX_TEXT, pages
from bot.storage.rows import LedgerRow


def score(
    title: str,
    current: Html | None,
    rows: Sequence[LedgerRow],
    tr: Translator,
    *,
    limit: int = 10,
    size: int = MAX_TEXT,
) -> list[Html]:
    """The answer's messages (one, unless it is too long for one). ``current``: the line of
    the table playing now."""
    lines: list[str] = [
        tr.html("📊 Score — «{chat}»", chat=title) if title else tr.html("📊 Your score")
    ]
    if current:
        lines.append(current)
    blocks = [lines]
    games: dict[str, list[LedgerRow]] = {}
    for row in rows:
        games.setdefault(row.game, []).append(row)
    if not games:
        lines.append(tr.html("No finished games yet."))
    for game, of_game in games.items():
        lines = ["", tr.html("{game} — all-time", game=game_name(game, tr.locale))]
        blocks.append(lines)
        ui = game_ui(game)
        label = ui.points_label if ui is not None else None
        for i, r in enumerate(of_game[:limit], start=1):
            money = (
                signed(r.balance)
                if label is None
                else f"{signed(r.balance)} · {label(r.points, tr)}"
            )
            lines.append(
                tr.html(
                    "{i}. {name} {balance} · played {played} · won {won}",
                    i=i,
                    name=r.name,
                    balance=money,
                    played=r.played,
                    won=r.won,
                )
            )
        if len(of_game) > limit:
            lines.append(tr.html("… {n} more", n=len(of_game) - limit))
    if len(blocks) > 1:  # the heading goes with the first game, never on a page of its own
        blocks[:2] = [blocks[0] + blocks[1]]
    return pages(blocks, size)
