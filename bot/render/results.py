"""/score (PRODUCT.md §4.8): any game's all-time standings; and the tail every family's final
result shares (a family's own result screens are its GameUI's ``match_result``)."""

from __future__ import annotations

from collections.abc import Sequence

from aiogram.types import InlineKeyboardButton

from bot.callbacks import Kind, Press, PressCodec
from bot.i18n import Translator
from bot.render.common import Rendered, esc, keyboard, signed
from bot.render.context import Standing, TableContext, game_name
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
        for i, r in enumerate(of_game[:limit], start=1):
            lines.append(
                tr(
                    "{i}. {name} {balance} · played {played} · won {won}",
                    i=i,
                    name=esc(r.name),
                    balance=signed(r.balance),
                    played=r.played,
                    won=r.won,
                )
            )
        if len(of_game) > limit:
            lines.append(tr("… {n} more", n=len(of_game) - limit))
    return "\n".join(lines)


def match_tail(
    ctx: TableContext,
    lines: list[str],
    standings: Sequence[Standing],
    generation: int,
    again: str,
    tr: Translator,
    codec: PressCodec,
) -> Rendered:
    """The end every game's final result shares: the chat's all-time line for the game, and
    the buttons to play another (``again``, the family's label) or finish (PRODUCT.md §4.7)."""
    if standings:
        lines.append(
            tr(
                "All-time in this chat ({game}): {list}",
                game=game_name(ctx.game, tr.locale),
                list=" · ".join(f"{esc(r.name)} {signed(r.balance)}" for r in standings),
            )
        )

    def button(text: str, act: str) -> InlineKeyboardButton:
        press = Press(Kind.END, ctx.table_id, None, generation, act)
        return InlineKeyboardButton(text=text, callback_data=codec.pack(press))

    markup = keyboard([[button(again, "r"), button(tr("🏁 Finish"), "f")]])
    return Rendered("\n".join(lines), markup)
