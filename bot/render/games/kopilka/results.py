"""The end of a Копилка deal and partia (RULES.md §2.5, §2.6): the table as the deal ended,
the deal's result (points, fines, the bank), the partia's payout from the bank. Each reads the
views and the public lines the last action wrote (``events``), never the rest of the record."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from bot.callbacks import PressCodec
from bot.i18n import Translator
from bot.markup import esc
from bot.numbers import signed
from bot.render.cards import SUIT_SYMBOL
from bot.render.games.ended import last_ended
from bot.render.results import match_tail
from bot.render.table_context import TableContext
from bot.rendered import Rendered
from bot.runtime.scoreboard import Standings
from engine.cards import Suit
from engine.core import EndReason, Line, Seat
from engine.events import Event, first_of, of_type
from engine.kopilka.events import (
    BOOK,
    DrawWhy,
    Fined,
    KopilkaDealEnd,
    KopilkaEnd,
    KopilkaTrickWon,
    LaidOut,
    Returned,
    StockDrawn,
    Taken,
    TookBack,
    WentOut,
)
from engine.kopilka.rules import DEALS, SUIT_POINTS, KopilkaPhase
from engine.kopilka.view import KopilkaView, LayOut


def layouts_of(events: Sequence[Event]) -> tuple[LayOut, ...]:
    """The public lay-outs among ``events`` (who laid out which suit, who took a card)."""
    out: list[dict[str, Any]] = []
    for event in events:
        if isinstance(event, LaidOut):
            out.append(
                {
                    "seat": event.seat,
                    "suit": event.suit,
                    "count": len(event.cards),
                    "takers": [],
                    "returned": 0,
                    "drawn": 0,
                }
            )
        elif not out:
            continue
        elif isinstance(event, Taken) and event.holder == out[-1]["seat"]:
            out[-1]["takers"].append(event.seat)
        elif isinstance(event, Returned) and event.seat == out[-1]["seat"]:
            out[-1]["returned"] = len(event.cards)
        elif isinstance(event, StockDrawn) and event.why is DrawWhy.REPLACE:
            out[-1]["drawn"] = len(event.cards)
    return tuple(
        LayOut(
            seat=d["seat"],
            suit=d["suit"],
            count=d["count"],
            takers=tuple(d["takers"]),
            taken=(None,) * len(d["takers"]),
            returned=d["returned"],
            drawn=d["drawn"],
        )
        for d in out
    )


def ended_view(before: KopilkaView, events: Sequence[Line]) -> KopilkaView:
    """The public view as the deal ended: the last trick complete (or taken back), nobody to
    act, the deal's tricks, points, cards left and the bank as the ``deal_end`` line has them."""
    changes: dict[str, Any] = {"to_act": None, "legal": (), "phase": KopilkaPhase.OVER}
    typed = BOOK.read(events)
    end = first_of(typed, KopilkaDealEnd)
    upto = typed.index(end) if end is not None else len(typed)
    mine = of_type(typed[:upto], Event)
    trick = first_of(mine, KopilkaTrickWon)
    if trick is not None:
        changes.update(
            trick=(),
            trick_log=(),
            last_trick=trick.plays,
            last_winner=trick.winner,
            last_points=trick.points,
            takeback=None,
            takebacks=0,
        )
    back = first_of(mine, TookBack)
    if back is not None:
        changes.update(trick=(), trick_log=(), takeback=back.seat)
        changes["takebacks"] = before.takebacks + 1
    lays = layouts_of(mine)
    if lays:
        changes["layouts"] = lays
    elif trick is not None or back is not None:
        changes["layouts"] = ()
    fines = list(before.fines)
    for fine in of_type(mine, Fined):
        if fine.seat < len(fines):
            fines[fine.seat] += fine.amount
    changes["fines"] = tuple(fines)
    if end is not None:
        seats = end.seats
        changes.update(
            bank=end.bank,
            tricks_won=tuple(len(s.tricks) for s in seats),
            deal_points=tuple(s.points for s in seats),
            partia_points=tuple(s.partia_points for s in seats),
            hand_sizes=tuple(s.cards_left for s in seats),
        )
    return dataclasses.replace(before, **changes)


def _trick_list(tricks: Sequence[tuple[Suit, int]], tr: Translator) -> str:
    """``♥ ace — 8, ♦ 3``: each trick's suit and points, spelled out; a trick an ace doubled
    (its suit's or the A♠, §2.6.1) says so."""
    out = []
    for suit, points in tricks:
        if points == 2 * SUIT_POINTS[suit]:
            out.append(tr("{suit} ace — {n}", suit=SUIT_SYMBOL[suit], n=points))
        else:
            out.append(f"{SUIT_SYMBOL[suit]} {points}")
    return ", ".join(out)


def deal_result(
    ctx: TableContext, events: Sequence[Line], view: KopilkaView, tr: Translator
) -> str:
    ended = last_ended(BOOK.read(events), KopilkaDealEnd)
    if ended is None:
        return ""
    end, deal = ended.end, ended.deal
    names = ctx.names
    winner = end.winner
    out = [
        tr(
            "📋 <b>Deal {no} of {total}</b> · winner: {name}",
            no=end.no,
            total=DEALS,
            name=esc(names[winner]),
        )
    ]
    if end.blocked:
        out.append(tr("Four take-backs in a row: the fewest cards in hand win the deal."))
    else:
        gone = [w.seat for w in of_type(deal, WentOut)]
        if gone:
            out.append(tr("Out of cards: {list}", list=" · ".join(esc(names[s]) for s in gone)))
    seats = end.seats
    points = []
    for s in seats:
        line = f"{esc(names[s.seat])} {s.points}"
        if s.tricks:
            line += f" ({_trick_list(s.tricks, tr)})"
        points.append(line)
    out.append(tr("Points: {list}", list=" · ".join(points)))
    out.append(
        tr(
            "Partia points: {list}",
            list=" · ".join(f"{esc(names[s.seat])} {s.partia_points}" for s in seats),
        )
    )
    no_trick = _option(ctx, "no_trick_fine")
    fee = _option(ctx, "deal_fee")
    fines = []
    for s in seats:
        if not s.fines:
            continue
        parts = []
        if not s.tricks and no_trick:
            parts.append(tr("no trick {n}", n=no_trick))
        if s.seat != winner and fee:
            parts.append(tr("deal fee {n}", n=fee))
        rest = s.fines - (0 if s.tricks else no_trick) - (fee if s.seat != winner else 0)
        if rest > 0:
            parts.append(tr("passes holding the suit {n}", n=rest))
        line = f"{esc(names[s.seat])} {s.fines}"
        if parts:
            line += " (" + ", ".join(parts) + ")"
        fines.append(line)
    out.append(tr("Fines into the bank: {list}", list=" · ".join(fines) or "—"))
    out.append(tr("Bank: {n}", n=end.bank))
    if end.no < DEALS and view.dealer is not None and view.deal_no > end.no:
        out.append(
            tr(
                "Next: deal {n} of {total}, {name} deals",
                n=view.deal_no,
                total=DEALS,
                name=esc(names[view.dealer]),
            )
        )
    return "\n".join(out)


def _option(ctx: TableContext, name: str) -> int:
    value = ctx.options.get(name)
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def match_result(
    ctx: TableContext,
    end: Line,
    winner: Seat | None,
    standings: Standings,
    generation: int,
    tr: Translator,
    codec: PressCodec,
) -> Rendered:
    """The group's result of a partia (§2.6.5, §2.6.6), with Another partia / Finish; its
    winner is the engine's (§2.6.7: the highest net …), the rest of the bank goes to the last
    deal's winner (the ``end`` line's ``last_winner``)."""
    names = ctx.names
    no = ctx.match_no
    typed = BOOK.end(end)

    def row(values: Sequence[int], fmt: Any = str) -> str:
        return " · ".join(f"{esc(n)} {fmt(v)}" for n, v in zip(names, values, strict=False))

    if not isinstance(typed, KopilkaEnd) or typed.reason is not EndReason.PARTIA or winner is None:
        lines = [tr("🏁 <b>Partia {no}</b> — stopped, nothing paid", no=no)]
    else:
        last = typed.last_winner
        lines = [
            tr("🏁 <b>Partia {no}</b> — winner: {name}", no=no, name=esc(names[winner])),
            tr("Last deal won by: {name}", name=esc(names[last])),
        ]
        points = typed.points
        lines.append(tr("Partia points: {list}", list=row(points)))
        bank = typed.bank_before
        rate = _option(ctx, "point_rate")
        if typed.shortfall:
            lines.append(
                tr(
                    "Bank: {bank} — less than the points ({due} at {rate} a point): shared in "
                    "proportion to the points, the rest to {name}",
                    bank=bank,
                    due=sum(points) * rate,
                    rate=rate,
                    name=esc(names[last]),
                )
            )
        else:
            lines.append(
                tr(
                    "Bank: {bank} — {rate} a point, the rest ({rest}) to {name}",
                    bank=bank,
                    rate=rate,
                    rest=bank - sum(points) * rate,
                    name=esc(names[last]),
                )
            )
        lines.append(tr("From the bank: {list}", list=row(typed.payout)))
        lines.append(tr("Paid in (ante and fines): {list}", list=row(typed.paid_in)))
    lines.append(tr("Settlement: {list}", list=row(typed.net, signed)))
    again = tr("🔁 Another partia")
    charted = winner is not None  # stopped: no chart
    return match_tail(ctx, lines, standings, generation, again, tr, codec, chart=charted)
