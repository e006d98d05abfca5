"""The end of a trick-family deal and pulka (PRODUCT.md §4.6, §5.5): the table as the deal
ended, the deal's result, the pulka's result. Each reads the views and the public lines the
deal's last action wrote (``events``), never the rest of the record."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any, Final

from bot.callbacks import PressCodec
from bot.i18n import Translator
from bot.markup import esc
from bot.numbers import num
from bot.render.cards import SUIT_SYMBOL, card_names
from bot.render.games.ended import EndedDeal, ended_deals
from bot.render.games.trick.play_lines import privileged_name
from bot.render.results import match_tail, signed_list
from bot.render.table_context import TableContext
from bot.rendered import Rendered
from bot.runtime.scoreboard import Standings
from engine.cards import Suit
from engine.core import EndReason, Line, Seat
from engine.events import first_of, of_type
from engine.trick.events import (
    BOOK,
    DealEnding,
    Exchanged,
    InstantKind,
    InstantWin,
    SeatFigures,
    SeatStatus,
    TrickDealEnd,
    TrickEnd,
    TrickWon,
)
from engine.trick.rules import TrickPhase
from engine.trick.view import SideBonus, TrickView

_BONUS_GAMES: Final = frozenset({"mushka", "mistigri"})
"""The games whose privileged card adds to its holder's trick points (RULES.md §1.5.3, §1.5.4)."""

_DECLARED: Final = {
    SeatStatus.PLAYED: "play",
    SeatStatus.PASSED: "pass",
    SeatStatus.WALKOVER: "walkover",
}
"""A seat's ``status`` in the ``deal_end`` line → its declaration as views give it."""


def ended_view(before: TrickView, events: Sequence[Line]) -> TrickView:
    """The public view as the deal ended (§4.6): the last trick complete, the declarations all
    made, nobody to act. ``before``: the public view before the deal's last action."""
    changes: dict[str, Any] = {"to_act": None, "legal": ()}
    typed = BOOK.read(events)
    trick = first_of(typed, TrickWon)
    if trick is not None:
        changes.update(
            phase=TrickPhase.OVER, trick=(), last_trick=trick.plays, last_winner=trick.winner
        )
    exchanged = list(before.exchanged)
    for exchange in of_type(typed, Exchanged):
        if exchange.seat < len(exchanged):
            exchanged[exchange.seat] = len(exchange.discarded)  # a count only
    changes["exchanged"] = tuple(exchanged)
    end = first_of(typed, TrickDealEnd)
    if end is not None:
        tricks = list(before.tricks_won)
        declared = list(before.declared)
        for s in end.seats:
            if s.seat < len(tricks):
                tricks[s.seat] = s.tricks
            if end.result is DealEnding.INSTANT:
                continue  # won at the deal: nobody declared (§1.6.4)
            if s.seat < len(declared):
                declared[s.seat] = _DECLARED[s.status]
        changes.update(tricks_won=tuple(tricks), declared=tuple(declared))
    return dataclasses.replace(before, **changes)


def privileged_split(game: str, view: TrickView, trump: Suit, s: SeatFigures) -> str:
    """``6+1``: how a holder of the mushka (or the mistigri) wrote off ``written_off``, by
    RULES.md §1.5.3/§1.5.4 applied to the ``deal_end`` figures (the line has no split): 6 for
    the first trick and 1 for each other, or 10 and 2 when its suit is trump. "" otherwise."""
    t = s.tricks
    if game not in _BONUS_GAMES or not s.held or t < 1 or s.status is not SeatStatus.PLAYED:
        return ""
    first, each = (10, 2) if trump is view.privileged.suit else (6, 1)
    if s.written_off != first + each * (t - 1):
        return ""  # not the §1.5.3 figure: show the total only
    return f"{first}+{each * (t - 1)}" if t > 1 else str(first)


def shutikha_split(s: SeatFigures) -> tuple[str, bool]:
    """``8+1``: how a Шутиха player wrote off ``written_off``, by RULES.md §1.5.5 applied to the
    ``deal_end`` figures — 8 for the trick his Q♠ won, 5 for the Q♠ taken with the K♠, 4 for his
    Q♠ beaten, 1 for each other trick — and whether it was his Q♠ beaten. "" when no trick held
    the Q♠ of his (every trick worth 1: the total says it)."""
    t, w = s.tricks, s.written_off
    if s.status is not SeatStatus.PLAYED:
        return "", False
    if s.held and w == t + 7 and t >= 1:  # his Q♠ won its trick
        return ("8" if t == 1 else f"8+{t - 1}"), False
    if s.held and w == t + 4:  # his Q♠ was beaten by the K♠
        return ("4" if t == 0 else f"4+{t}"), True
    if not s.held and w == t + 4 and t >= 1:  # he took the Q♠ with the K♠
        return ("5" if t == 1 else f"5+{t - 1}"), False
    return "", False


def figure_source(game: str, view: TrickView, trump: Suit, s: SeatFigures, tr: Translator) -> str:
    """Where a written-off figure comes from, when a privileged card is in it: ``мушка: 6+1``
    (§1.5.3, §1.5.4), ``шутиха: 8`` or ``шутиха бита: 4`` (§1.5.5). "" otherwise."""
    name = privileged_name(game, tr)
    if game == "shutikha":
        split, beaten = shutikha_split(s)
        if not split:
            return ""
        return tr("shutikha beaten: {split}", split=split) if beaten else f"{name}: {split}"
    split = privileged_split(game, view, trump, s)
    return f"{name}: {split}" if split else ""


def deal_result(ctx: TableContext, events: Sequence[Line], view: TrickView, tr: Translator) -> str:
    """The group's result of each deal that just ended, in order ("" if none ended): a deal
    and the next one won at once at the deal (§1.3.9) both end in one action."""
    ended = ended_deals(BOOK.read(events), TrickDealEnd)
    return "\n\n".join(_one_result(ctx, deal, view, tr) for deal in ended)


def _bonuses(ended: EndedDeal[TrickDealEnd], view: TrickView) -> Sequence[SideBonus]:
    """The side-ledger bonuses of ``ended``: the view's for the last deal that ended, its
    previous ones for the deal before (only two deals end in one action: the second is won at
    the deal and ends the pulka)."""
    return view.ended_bonuses if ended.last else view.previous_bonuses


def _bonus_lines(ctx: TableContext, bonuses: Sequence[SideBonus], tr: Translator) -> list[str]:
    """§1.3.7, §1.3.10.2: a deal's side-ledger bonuses, in the order they were booked."""
    names = ctx.names
    out: list[str] = []
    for bonus in bonuses:
        who = esc(names[bonus.seat])
        if bonus.kind == "pamfil":
            out.append(
                tr("Side ledger: {name} announced pamfil: +{n} from each", name=who, n=bonus.amount)
            )
        else:
            out.append(
                tr(
                    "Side ledger: {name} has the best flush: +{n} from each",
                    name=who,
                    n=bonus.amount,
                )
            )
    return out


def _why_instant(kind: InstantKind, tr: Translator) -> str:
    """Why an ``instant_win`` line's ``kind`` wins the pulka (§1.3.9, §1.3.11)."""
    if kind is InstantKind.FIVE_SPADES:
        return tr("Five spades with the queen of spades win the pulka at once.")
    return tr("The king of clubs and four cards of one suit win the pulka at once.")


def _one_result(
    ctx: TableContext, ended: EndedDeal[TrickDealEnd], view: TrickView, tr: Translator
) -> str:
    end, deal = ended.end, ended.deal
    loc = tr.locale
    names = ctx.names
    trump = end.trump
    out = [tr("📋 <b>Deal {no}</b> · trump {suit}", no=end.no, suit=SUIT_SYMBOL[trump])]
    seats = end.seats
    if end.result is DealEnding.WALKOVER:
        lone = next((s for s in seats if s.status is SeatStatus.WALKOVER), None)
        if lone is not None:
            out.append(
                tr(
                    "Walkover: everyone passed; {name} takes the deal.",
                    name=esc(names[lone.seat]),
                )
            )
    if end.result is DealEnding.INSTANT:  # §1.6.4: nothing is played or written off
        win = first_of(deal, InstantWin)
        if win is not None:  # §1.3.9, §1.3.11: the winning hand is shown to all
            out.append(
                tr(
                    "Instant win: {name} shows {cards}.",
                    name=esc(names[win.seat]),
                    cards=card_names(win.cards, loc),
                )
            )
            out.append(_why_instant(win.kind, tr))
        return "\n".join([*out, *_bonus_lines(ctx, _bonuses(ended, view), tr)])
    played = sorted(
        (s for s in seats if s.status is not SeatStatus.PASSED), key=lambda s: -s.tricks
    )
    passed = [s for s in seats if s.status is SeatStatus.PASSED]
    tricks = [f"{esc(names[s.seat])} {s.tricks}" for s in played]
    tricks += [tr("{name} passed", name=esc(names[s.seat])) for s in passed]
    out.append(tr("Tricks: {list}", list=" · ".join(tricks)))
    written = []
    for s in played:  # by tricks taken, as the Tricks line (§5.4)
        if s.written_off:
            line = f"{esc(names[s.seat])} {s.before}→{num(s.before - s.written_off)}"
            source = figure_source(ctx.game, view, trump, s, tr)
            if source:
                line += f" ({source})"
            written.append(line)
    out.append(tr("Written off: {list}", list=" · ".join(written) or "—"))
    remises = [
        tr(
            "{name} +{r} (no trick) → {after}",
            name=esc(names[s.seat]),
            r=s.remise,
            after=s.after,
        )
        for s in seats
        if s.remise
    ]
    out.append(tr("Remises: {list}", list=" · ".join(remises) or "—"))
    over = [
        tr(
            "{name} ({n}) → back to {target}",
            name=esc(names[s.seat]),
            n=num(s.before - s.written_off + s.remise),
            target=s.after,
        )
        for s in seats
        if s.overshoot
    ]
    out.append(tr("Overshoot: {list}", list=" · ".join(over) or "—"))
    out += _bonus_lines(ctx, _bonuses(ended, view), tr)
    dealer = ended.next_deal.dealer if ended.next_deal is not None else None
    if dealer is None and ended.last and view.phase != TrickPhase.OVER:
        dealer = view.dealer
    if dealer is not None:
        out.append(tr("Next deal: {name} deals", name=esc(names[dealer])))
    return "\n".join(out)


def _money(
    ctx: TableContext, end: TrickEnd | None, net: Sequence[int], tr: Translator
) -> list[str]:
    """§1.6: the settlement (``end`` None: stopped, ``net`` all 0); with a side ledger, the
    pulka's money, the side ledger and their sum (the net, §1.6.5) each on its own labelled
    line."""
    names = ctx.names
    shown = signed_list(names, net)
    point = ctx.options.get("point_value")
    priced = isinstance(point, int) and not isinstance(point, bool)  # RULES.md §1.6.1
    if end is None or not any(end.side):
        if priced:
            return [tr("Settlement (point {n}): {list}", n=point, list=shown)]
        return [tr("Settlement: {list}", list=shown)]
    pulka = signed_list(names, end.pulka)
    if priced:
        first = tr("Pulka money (point {n}): {list}", n=point, list=pulka)
    else:
        first = tr("Pulka money: {list}", list=pulka)
    return [
        first,
        tr("Side ledger: {list}", list=signed_list(names, end.side)),
        tr("Total: {list}", list=shown),
    ]


def match_result(
    ctx: TableContext,
    end: Line,
    winner: Seat | None,
    standings: Standings,
    generation: int,
    tr: Translator,
    codec: PressCodec,
) -> Rendered:
    """The group's result of a pulka (§5.5), with Another pulka / Finish."""
    names = ctx.names
    match_no = ctx.match_no
    who = esc(names[winner]) if winner is not None else ""
    # the name stands alone after a colon: no form needs the player's gender or case
    typed = BOOK.end(end)
    settled = typed if isinstance(typed, TrickEnd) else None
    reason = typed.reason
    if reason is EndReason.ABANDONED or winner is None:
        head = tr("🏁 <b>Pulka {no}</b> — stopped, nothing paid", no=match_no)
    elif reason is EndReason.INSTANT:
        head = tr(
            "🏁 <b>Pulka {no}</b> — winner: {name} (an instant win at the deal)",
            no=match_no,
            name=who,
        )
    else:
        head = tr(
            "🏁 <b>Pulka {no}</b> — winner: {name} (the count down to zero)",
            no=match_no,
            name=who,
        )
    lines = [head]
    if settled is not None and settled.counts:
        counts = settled.counts
        lines.append(
            tr(
                "Counts: {list}",
                list=" · ".join(f"{esc(n)} {num(c)}" for n, c in zip(names, counts, strict=False)),
            )
        )
    lines += _money(ctx, settled, typed.net, tr)
    again = tr("🔁 Another pulka")
    charted = winner is not None  # stopped: no chart
    return match_tail(ctx, lines, standings, generation, again, tr, codec, chart=charted)
