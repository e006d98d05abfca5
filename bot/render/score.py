"""/score (PRODUCT.md §4.8): any game's all-time standings, with the game's own points where it
scores points beside money (the family's ``GameUI.points_label``)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.i18n import Translator
from bot.render.common import esc, signed
from bot.render.context import game_name
from bot.render.games import game_ui
from bot.storage.rows import LedgerRow


def score(
    title: str,
    current: str | None,
    rows: Sequence[LedgerRow],
    tr: Translator,
    *,
    limit: int = 10,
) -> str:
    lines = [tr("📊 Score — «{chat}»", chat=esc(title)) if title else tr("📊 Your score")]
    if current:
        lines.append(current)
    games: dict[str, list[LedgerRow]] = {}
    for row in rows:
        games.setdefault(row.game, []).append(row)
    if not games:
        lines.append(tr("No finished games yet."))
    for game, of_game in games.items():
        lines.append("")
        lines.append(tr("{game} — all-time", game=game_name(game, tr.locale)))
        ui = game_ui(game)
        label = ui.points_label if ui is not None else None
        for i, r in enumerate(of_game[:limit], start=1):
            money = (
                signed(r.balance)
                if label is None
                else f"{signed(r.balance)} · {label(r.points, tr)}"
            )
            lines.append(
                tr(
                    "{i}. {name} {balance} · played {played} · won {won}",
                    i=i,
                    name=esc(r.name),
                    balance=money,
                    played=r.played,
                    won=r.won,
                )
            )
        if len(of_game) > limit:
            lines.append(tr("… {n} more", n=len(of_game) - limit))
    return "\n".join(lines)
