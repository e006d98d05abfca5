"""The end of a Лентюрлю deal (RULES.md §3.4, §3.5): who won and how, where the layout's
money went, what each loser pays from which hand, the game's settlement; and the stakes
taken and refilled as they happen (for the terminal's narration)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.callbacks import PressCodec
from bot.game_names import game_name
from bot.i18n import Translator
from bot.markup import esc
from bot.presses import lenturlu as lp
from bot.render.cards import card_name
from bot.render.results import match_tail, signed_list
from bot.render.table_context import TableContext
from bot.rendered import Rendered
from bot.runtime.scoreboard import Standings
from engine.cards import Card
from engine.core import Line, Seat
from engine.events import Act, RecordLine, first_of
from engine.lenturlu.events import (
    BOOK,
    Finish,
    LenturluDealEnd,
    LenturluEnd,
    Refilled,
    SeatHand,
    StakeTaken,
)
from engine.lenturlu.rules import LENTURLU_CARDS
from engine.lenturlu.view import LenturluView


def run_of(ln: RecordLine) -> tuple[int, tuple[Card, ...]] | None:
    """An ``act`` line's run: who played which cards (None: not a run)."""
    if not isinstance(ln, Act) or not ln.a.startswith("run "):
        return None
    return ln.seat, tuple(Card.parse(c) for c in ln.a.split()[1:])


def where_stakes_went(
    ctx: TableContext,
    takes: Sequence[tuple[int, Card, int]],
    end: LenturluDealEnd,
    tr: Translator,
) -> list[str]:
    """``Stakes taken: 7♦ 5 → Аня`` and ``Left on the layout: 14 → Борис (the winner)``: where
    the layout's money went (§3.4.4, §3.5.1)."""
    out = []
    if takes:
        listed = " · ".join(
            f"{card_name(c, tr.locale)} {n} → {esc(ctx.names[s])}" for s, c, n in takes
        )
        out.append(tr("Stakes taken: {list}", list=listed))
    out.append(
        tr("Left on the layout: {n} → {name}", n=end.layout, name=esc(ctx.names[end.winner]))
    )
    return out


def winner_line(
    ctx: TableContext, end: LenturluDealEnd, events: Sequence[RecordLine], tr: Translator
) -> str:
    """``Борис закрывает кучку картой К♠ и выигрывает`` (§3.4.2 a) or the last card played
    (§3.4.3): the name stands first, the verb in the present (no gender needed)."""
    who = esc(ctx.names[end.winner])
    runs = [r for r in map(run_of, events) if r is not None and r[0] == end.winner]
    card = card_name(runs[-1][1][-1], tr.locale) if runs else ""
    if end.reason is Finish.KING:
        if card:
            return tr("{name} covers the pile with {card} and wins", name=who, card=card)
        return tr("Winner: {name} (a covering king)", name=who)
    if card:
        return tr("{name} plays the last card ({card}) and wins", name=who, card=card)
    return tr("Winner: {name} (out of cards)", name=who)


def deal_result(
    ctx: TableContext, events: Sequence[Line], view: LenturluView, tr: Translator
) -> str:
    """The group's result of the deal: the winner, the layout, what each loser pays."""
    typed = BOOK.read(events)
    end = first_of(typed, LenturluDealEnd)
    if end is None:
        return ""
    names = ctx.names
    out = [tr("📋 <b>Deal {no}</b>", no=ctx.match_no)]  # the table told who won, and how
    losers = [s for s in end.seats if s.seat != end.winner]
    out.extend(loser_line(names[s.seat], s, view.payment, tr) for s in losers)
    return "\n".join(out)


def loser_line(name: str, seat: SeatHand, payment: str, tr: Translator) -> str:
    """``Аня pays 59: Т♠ 2♦ В♣×2 — 59 points``: what a loser pays and the hand it comes from
    (§3.5.2); under points the stake cards count double (§3.5.3) and say so."""
    doubled = payment == "points"
    cards = " ".join(
        card_name(c, tr.locale) + ("×2" if doubled and c in LENTURLU_CARDS else "")
        for c in lp.order(seat.hand)
    )
    line = tr("{name} pays {pays}: {cards}", name=esc(name), pays=seat.pays, cards=cards or "—")
    if payment == "points":
        line += " — " + tr.n("{n} point", "{n} points", seat.points)
    elif payment == "cards":
        line += " — " + tr.n("{n} card", "{n} cards", seat.cards)
    return line


def match_result(
    ctx: TableContext,
    end: Line,
    winner: Seat | None,
    standings: Standings,
    generation: int,
    tr: Translator,
    codec: PressCodec,
) -> Rendered:
    """The group's final result of the deal (one deal is the game, RULES.md §3.1.5)."""
    names = ctx.names
    name = game_name(ctx.game, tr.locale)
    typed = BOOK.end(end)
    if not isinstance(typed, LenturluEnd) or winner is None:
        lines = [tr("🏁 <b>{game}</b> — stopped, nothing paid", game=name)]
    else:
        lines = [tr("🏁 <b>{game}</b> — played out", game=name)]  # the table said who won

        def per_seat(values: Sequence[int]) -> str:
            return " · ".join(f"{esc(n)} {v}" for n, v in zip(names, values, strict=False))

        if any(typed.taken):
            lines.append(tr("Stakes taken: {list}", list=per_seat(typed.taken)))
        if any(typed.refills):
            lines.append(tr("Refills paid: {list}", list=per_seat(typed.refills)))
    net = signed_list(names, typed.net)
    lines.append(tr("Settlement: {list}", list=net))
    return match_tail(ctx, lines, standings, generation, tr("🔁 Another deal"), tr, codec)


def event_lines(ctx: TableContext, events: Sequence[Line], tr: Translator) -> list[str]:
    """The stakes a run took and their refills, as they happen (§3.4.4, §3.4.5)."""
    out = []
    for event in BOOK.read(events):
        if isinstance(event, StakeTaken):
            stake = f"{card_name(event.card, tr.locale)} {event.amount}"
            out.append(
                tr("💰 {name} takes the stake: {list}", name=esc(ctx.names[event.seat]), list=stake)
            )
        elif isinstance(event, Refilled):
            out.append(
                tr(
                    "{card} refilled: {n} from each of the others",
                    card=card_name(event.card, tr.locale),
                    n=event.each,
                )
            )
    return out
