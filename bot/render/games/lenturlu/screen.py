"""Screens of Мушка-Лентюрлю (RULES.md §3): the table, the hand, the words; the ends of the
deal in :mod:`.results`.

``LENTURLU_UI`` is the family's :class:`~bot.render.games.game_ui.GameUI` over the engine's
:class:`~engine.lenturlu.view.LenturluView`; what a press means is :mod:`.lenturlu_press`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Final

from bot.callbacks import PressCodec
from bot.game_names import game_name
from bot.i18n import Translator
from bot.markup import esc
from bot.numbers import signed
from bot.presses import lenturlu as lp
from bot.presses.lenturlu import LenturluAct
from bot.presses.meaning import HandUI, ModeKind
from bot.render.cards import card_name, card_names
from bot.render.games.game_ui import GameUI
from bot.render.games.hand_head import hand_button, hand_head, plays_own_turn
from bot.render.games.lenturlu import options as lenturlu_options
from bot.render.games.lenturlu.results import (
    deal_result,
    event_lines,
    match_result,
    run_of,
    where_stakes_went,
    winner_line,
)
from bot.render.games.over import over_lines
from bot.render.table_context import TableContext, my_cards_button, to_play_line
from bot.rendered import Button, Rendered, keyboard
from engine.actions import Buy
from engine.cards import Card, Rank
from engine.core import Line
from engine.events import End, first_of
from engine.lenturlu.events import (
    BOOK,
    LenturluDealEnd,
    StakeTaken,
)
from engine.lenturlu.rules import ACE_OF_SPADES
from engine.lenturlu.view import LenturluView

OPTION_STEPS: Final[dict[str, tuple[int, ...]]] = {
    "rate": (1, 2, 5, 10, 0),
    "unit": (1, 2, 5, 10),
    "refill_units": (1, 2, 3, 0),
}


def stakes_line(view: LenturluView, tr: Translator) -> str:
    """What each layout card holds now; in Manner A, once the first lead is made, the A♠'s
    money can no longer be taken: it waits for the deal's winner (§3.4.6, §3.5.1)."""
    parts = []
    for c, v in view.layout:
        part = f"{card_name(c, tr.locale)} {v}"
        if c == ACE_OF_SPADES and v and not view.as_stake_open:
            part += " " + tr("(to the winner)")
        parts.append(part)
    return tr("Stakes: {list}", list=" · ".join(parts))


def stakes_taken_line(ctx: TableContext, view: LenturluView, tr: Translator) -> str:
    """``💰 Вера takes the 7♦ stake: 8; the others refill it, 1 each``: the stakes the pile's
    last run took (§3.4.4, §3.4.5), said while that run is the pile's last."""
    if not view.runs:
        return ""
    seat, cards = view.runs[-1]
    ran = set(cards)
    took = [(c, n) for s, c, n in view.takes if s == seat and c in ran]
    if not took:
        return ""
    listed = ", ".join(f"{card_name(c, tr.locale)} {n}" for c, n in took)
    line = tr("💰 {name} takes the stake: {list}", name=esc(ctx.names[seat]), list=listed)
    each = view.refill_units * view.unit
    if each and view.to_act is not None:
        line += " · " + tr("the others refill it, {n} each", n=each)
    return line


def turns_line(ctx: TableContext, view: LenturluView, tr: Translator) -> str:
    """``Глеб покупает 2 · Дина пасует``: the buys and passes since the last run (§3.3)."""
    parts = []
    for seat, action in view.turns:
        name = esc(ctx.names[seat])
        if isinstance(action, Buy):
            parts.append(tr.n("{name} buys {n} card", "{name} buys {n} cards", action.k, name=name))
        else:
            parts.append(tr("{name} passes", name=name))
    return " · ".join(parts)


def rules_line(view: LenturluView, ctx: TableContext, tr: Translator) -> str:
    manner = tr("a covering king wins") if view.manner == "king" else tr("the first one out wins")
    rate = ctx.options.get("rate", 1)
    if view.payment == "fixed":
        pay = tr("{n} from each loser", n=rate)
    elif view.payment == "cards":
        pay = tr("{n} per card left", n=rate)
    else:
        pay = tr("{n} per point left", n=rate)
    return tr("Manner: {manner} · payment: {pay}", manner=manner, pay=pay)


def pile_line(ctx: TableContext, view: LenturluView, tr: Translator) -> str:
    """``Pile: Аня 6♣ 7♠ · Борис 8♣ 9♥ · top: 9♥``: who played which run (§3.2)."""
    if not view.pile:
        return tr("Pile: — (a new pile is led)")
    runs = view.runs or ((None, view.pile),)
    listed = " · ".join(
        (f"{esc(ctx.names[s])} " if s is not None else "") + card_names(cards, tr.locale)
        for s, cards in runs
    )
    return tr("Pile: {cards} · top: {top}", cards=listed, top=card_name(view.pile[-1], tr.locale))


def pile_end_line(how: str, name: str, tr: Translator) -> str:
    """Who set the last pile aside (RULES.md §3.4.1 a stop, §3.4.2 a closing K); he leads."""
    if how == "stop":
        return tr("Stop: {name} — nobody went on, the pile is set aside", name=name)
    return tr("Closed with a king: {name} — the pile is set aside", name=name)


def which_rank(rank: Rank, tr: Translator) -> str:
    """The middle-rank question, naming the rank (a run's middle is never an ace)."""
    questions = {
        Rank.TWO: tr("which 2?"),
        Rank.THREE: tr("which 3?"),
        Rank.FOUR: tr("which 4?"),
        Rank.FIVE: tr("which 5?"),
        Rank.SIX: tr("which 6?"),
        Rank.SEVEN: tr("which 7?"),
        Rank.EIGHT: tr("which 8?"),
        Rank.NINE: tr("which 9?"),
        Rank.TEN: tr("which 10?"),
        Rank.JACK: tr("which jack?"),
        Rank.QUEEN: tr("which queen?"),
    }
    return questions.get(rank, tr("which card of this rank?"))


def table(
    ctx: TableContext,
    view: LenturluView,
    tr: Translator,
    ended: str | None = None,
    stakes: Sequence[str] | None = None,
) -> Rendered:
    """The group's table message (public view only): stakes, pile, cards held, whose turn."""
    lines = [
        tr(
            "🃏 <b>{game}</b> · «{chat}» · deal {deal}",
            game=game_name(ctx.game, tr.locale),
            chat=esc(ctx.chat_title),
            deal=ctx.match_no,
        ),
        rules_line(view, ctx, tr),
        *(stakes if stakes is not None else [stakes_line(view, tr)]),
        pile_line(ctx, view, tr),
    ]
    taken = stakes_taken_line(ctx, view, tr) if not ended else ""
    if taken:
        lines.append(taken)
    turns = turns_line(ctx, view, tr) if not ended else ""
    if turns:
        lines.append(turns)
    extra = [tr("Stock: {n}", n=view.stock), tr("set aside: {n}", n=view.set_aside)]
    if view.pile and not ended:
        extra.append(tr("passes: {n} of {m}", n=view.passes, m=view.players - 1))
    lines.append(" · ".join(extra))
    if not ended and view.leading and view.to_act is not None and view.pile_end:
        lines.append(pile_end_line(view.pile_end, esc(ctx.names[view.to_act]), tr))
    lines.append("")
    for seat, player in enumerate(ctx.names):
        dealer = " " + tr("(dlr)") if seat == view.dealer else ""
        held = view.hand_sizes[seat] if seat < len(view.hand_sizes) else 0
        parts = [tr.n("{n} card", "{n} cards", held)]
        if seat < len(view.money) and view.money[seat]:
            parts.append(tr("money: {n}", n=signed(view.money[seat])))
        if seat < len(ctx.away) and ctx.away[seat]:
            parts.append(tr("🤖 the computer plays"))
        lines.append(f"{seat + 1}. {esc(player)}{dealer} — {' · '.join(parts)}")
    lines.append("")
    if ended:
        lines.append(ended)
        return Rendered("\n".join(lines))
    if view.to_act is not None:
        how = tr("a new pile") if view.leading else tr("follows")
        lines.append(to_play_line(ctx, view.to_act, tr, how))
    button = my_cards_button(ctx, tr)
    return Rendered("\n".join(lines), keyboard([[button]]))


def ended_table(
    ctx: TableContext, before: LenturluView, events: Sequence[Line], tr: Translator
) -> Rendered:
    """The table as the deal ended: the winning run on the pile, where the stakes went."""
    pile = list(before.pile)
    runs = list(before.runs)
    sizes = list(before.hand_sizes)
    takes = list(before.takes)
    typed = BOOK.read(events)
    for ln in typed:
        if isinstance(ln, StakeTaken):
            takes.append((ln.seat, ln.card, ln.amount))
        run = run_of(ln)
        if run is None:
            continue
        seat, cards = run
        if before.leading:
            pile, runs = [], []
        pile.extend(cards)
        runs.append((seat, cards))
        if seat < len(sizes):
            sizes[seat] -= len(cards)
    end = first_of(typed, LenturluDealEnd)
    money = before.money
    final = first_of(typed, End)
    if final is not None:
        money = final.net
    view = dataclasses.replace(
        before,
        pile=tuple(pile),
        runs=tuple(runs),
        turns=(),
        top=pile[-1] if pile else None,
        to_act=None,
        legal=(),
        hand_sizes=tuple(sizes),
        money=money,
    )
    text = tr("The deal is over.")
    stakes: list[str] | None = None
    if end is not None:
        text = winner_line(ctx, end, typed, tr)
        stakes = where_stakes_went(ctx, tuple(takes), end, tr)
    return table(ctx, view, tr, ended=text, stakes=stakes)


def hand(
    ctx: TableContext, view: LenturluView, ui: HandUI, tr: Translator, codec: PressCodec
) -> Rendered:
    """One seat's private hand (its own view): the cards by rank, the taps of a run."""
    assert view.seat is not None
    seat = view.seat
    loc = tr.locale
    lines = [hand_head(ctx, ctx.match_no, seat, tr)]
    if view.to_act is not None:  # once over, the layout is empty: the result says the rest
        lines.append(stakes_line(view, tr))
    lines.append(pile_line(ctx, view, tr))
    taken = stakes_taken_line(ctx, view, tr) if view.to_act is not None else ""
    if taken:
        lines.append(taken)
    turns = turns_line(ctx, view, tr) if view.to_act is not None else ""
    if turns:
        lines.append(turns)
    if view.to_act is not None:  # what decides buy or pass (§3.3.2, §3.4.1)
        state = [tr("Stock: {n}", n=view.stock)]
        if view.pile:
            state.append(tr("passes: {n} of {m}", n=view.passes, m=view.players - 1))
        lines.append(" · ".join(state))
    cards = lp.order(view.hand)
    # the cards whose play takes money now (§3.4.4; §3.4.6: in Manner A the A♠ only first)
    stakes = {c for c, v in view.layout if v and (view.as_stake_open or c != ACE_OF_SPADES)}
    listed = " ".join(card_name(c, loc) + ("💰" if c in stakes else "") for c in cards)
    lines.append(tr("Your cards: {cards}", cards=listed or "—"))

    button = hand_button(ctx, seat, codec)

    def label(c: Card) -> str:
        return card_name(c, loc) + ("💰" if c in stakes else "")

    my_turn = plays_own_turn(ctx, view.to_act, seat)
    marks = lp.marked(view, ui) if my_turn else None
    rows: list[list[Button]] = []
    tail: list[Button] = []
    if not my_turn:
        if view.to_act is None:
            lines.extend(_over_lines(ctx, view, tr))
        elif view.to_act != seat:  # his own turn the computer plays: no line of his
            lines.append(tr("Waiting for: {name}", name=esc(ctx.names[view.to_act])))
        rows = _card_rows([button(label(c), LenturluAct.FIRST, str(c)) for c in cards])
    elif marks is not None and ui.mode.kind is ModeKind.RUN:
        row = lp.open_rank(view.hand, marks) or []
        lines.append(
            tr(
                "Run {first} … {last}: {which}",
                first=card_name(marks[0], loc),
                last=card_name(marks[1], loc),
                which=which_rank(row[0].rank, tr) if row else tr("which card of this rank?"),
            )
        )
        if marks[2:]:
            lines.append(tr("Chosen: {cards}", cards=card_names(marks[2:], loc)))
        rows = [[button(label(c), LenturluAct.MIDDLE, str(c)) for c in row]]
        tail.append(button(tr("↩️ Back"), LenturluAct.BACK))
    elif marks is not None:
        first = marks[0]
        ends = set(lp.lasts(view.hand, first))
        lines.append(
            tr(
                "Run from {card}: tap its last card ({card} again: that card alone).",
                card=card_name(first, loc),
            )
        )
        buttons = []
        for c in cards:
            text = label(c) + ("◀" if c == first else "")
            buttons.append(button(text, LenturluAct.LAST, str(c), playable=c in ends))
        rows = _card_rows(buttons)
        tail.append(button(tr("↩️ Back"), LenturluAct.BACK))
    else:
        lines.append(_turn_line(view, tr))
        can = set(lp.starts(view))
        rows = _card_rows(
            [button(label(c), LenturluAct.FIRST, str(c), playable=c in can) for c in cards]
        )
        buys, may_pass = lp.legal_kinds(view.legal)
        actions = [button(tr("🛒 Buy {n}", n=k), LenturluAct.BUY, str(k)) for k in buys]
        if may_pass:
            actions.append(button(tr("🙅 Pass"), LenturluAct.PASS))
        rows.append(actions)
    tail.append(button(tr("↻ Refresh"), LenturluAct.REFRESH))
    return Rendered("\n".join(lines), keyboard([*rows, tail]))


def _card_rows(buttons: list[Button]) -> list[list[Button]]:
    return [buttons[i : i + 8] for i in range(0, len(buttons), 8)]


def _turn_line(view: LenturluView, tr: Translator) -> str:
    """What the seat to act may do now, and what a tap does (RULES.md §3.3.2)."""
    if view.leading:
        return tr("Your lead: tap the first card of a run (any rank).")
    top = card_name(view.top, tr.locale) if view.top else "—"
    buys, may_pass = lp.legal_kinds(view.legal)
    if lp.may_run(view):
        if buys:
            return tr("Go on from {card}: tap a run's first card, or buy, or pass.", card=top)
        if may_pass:
            return tr("Go on from {card}: tap a run's first card, or pass.", card=top)
        return tr("Go on from {card}: the stock is empty, so you must play.", card=top)
    if len(buys) > 1:
        return tr("You can't go on from {card}: buy 1 or 2 cards.", card=top)
    if buys:
        return tr("You can't go on from {card}: buy a card.", card=top)
    return tr("You can't go on from {card}: pass.", card=top)


def _over_lines(ctx: TableContext, view: LenturluView, tr: Translator) -> list[str]:
    """Who won the deal, this seat's place (by money) and its money (§3.5.4)."""
    assert view.seat is not None
    ranks = [(n,) for n in view.money]
    stopped = tr("The deal was stopped; nothing is paid.")
    return over_lines(ctx, view.seat, view.result, ranks, tr("The deal is over"), stopped, tr)


def rules_summary(game: str, tr: Translator) -> str:
    return tr(
        "Lenturlu: 3–8 players, 52 cards, A low and K high, suits free. Each player stakes 5 "
        "units on the layout cards 7♦ K♥ J♣ A♠ Q♠. Play runs of consecutive ranks onto the "
        "pile, each going on one rank above its top; who can't go on must buy 1 or 2 from the "
        "stock, then may pass. Playing a layout card takes its stake (the others refill it). "
        "When everyone else passes, the last runner leads a new pile. A covering king (manner "
        "king) or playing out your last card wins the layout, and each loser pays the winner."
    )


def option_label(name: str, tr: Translator) -> str:
    labels = {
        "manner": tr("manner"),
        "payment": tr("payment scheme"),
        "rate": tr("rate"),
        "unit": tr("unit"),
        "refill_units": tr("refill units"),
    }
    return labels.get(name, name)


LENTURLU_UI: Final = GameUI[LenturluView](
    table=table,
    ended_table=ended_table,
    hand=hand,
    deal_result=deal_result,
    match_result=match_result,
    rules_summary=rules_summary,
    option_label=option_label,
    option_value=lenturlu_options.option_value,
    option_steps=OPTION_STEPS.get,
    match_word=lambda tr: tr("deal"),
    events=event_lines,
)
"""Лентюрлю's :class:`~bot.render.games.game_ui.GameUI`."""
