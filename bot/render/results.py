"""The end of a pulka (PRODUCT.md §5.5) and /score (§4.8)."""

from __future__ import annotations

from collections.abc import Sequence

from aiogram.types import InlineKeyboardButton

from bot.callbacks import Kind, Press, PressCodec
from bot.i18n import Translator
from bot.render.common import Rendered, esc, keyboard, signed
from bot.render.context import game_name
from bot.storage.rows import LedgerRow
from engine.core import Line


def pulka_result(
    table_id: int,
    game: str,
    pulka_no: int,
    generation: int,
    names: Sequence[str],
    end: Line,
    standings: Sequence[LedgerRow],
    tr: Translator,
    codec: PressCodec,
) -> Rendered:
    winner = end.get("winner")
    who = esc(names[winner]) if isinstance(winner, int) else ""
    if end.get("reason") == "abandoned" or winner is None:
        head = tr("🏁 <b>Pulka {no}</b> — stopped, nothing paid", no=pulka_no)
    elif end.get("reason") == "instant":
        head = tr("🏁 <b>Pulka {no}</b> — {name} wins at once!", no=pulka_no, name=who)
    else:
        head = tr("🏁 <b>Pulka {no}</b> — {name} reached zero!", no=pulka_no, name=who)
    lines = [head]
    counts = end.get("counts")
    if counts:
        lines.append(
            tr(
                "Counts: {list}",
                list=" · ".join(f"{esc(n)} {c}" for n, c in zip(names, counts, strict=False)),
            )
        )
    net = end.get("net", [])
    lines.append(
        tr(
            "Settlement: {list}",
            list=" · ".join(f"{esc(n)} {signed(v)}" for n, v in zip(names, net, strict=False)),
        )
    )
    side = end.get("side")
    if side and any(side):
        lines.append(
            tr(
                "Side ledger: {list}",
                list=" · ".join(f"{esc(n)} {signed(v)}" for n, v in zip(names, side, strict=False)),
            )
        )
    if standings:
        lines.append(
            tr(
                "All-time in this chat ({game}): {list}",
                game=game_name(game, tr.locale),
                list=" · ".join(f"{esc(r.name)} {signed(r.balance)}" for r in standings),
            )
        )

    def button(text: str, act: str) -> InlineKeyboardButton:
        press = Press(Kind.END, table_id, None, generation, act)
        return InlineKeyboardButton(text=text, callback_data=codec.pack(press))

    markup = keyboard([[button(tr("🔁 Another pulka"), "r"), button(tr("🏁 Finish"), "f")]])
    return Rendered("\n".join(lines), markup)


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
        lines.append(tr("No finished pulkas yet."))
    for game, of_game in games.items():
        lines.append("")
        lines.append(tr("{game} — all-time", game=game_name(game, tr.locale)))
        for i, r in enumerate(of_game[:limit], start=1):
            lines.append(
                tr(
                    "{i}. {name} {balance} · pulkas {played} · won {won}",
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
