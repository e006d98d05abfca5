"""Screens of Кончинка (RULES.md §4; PRODUCT.md §5.7, §6): the table message, the hand, the
results. ``KONCHINKA_UI`` is the family's :class:`~bot.render.games.game_ui.GameUI` over
:class:`~engine.konchinka.view.KonchinkaView`; presses are read in :mod:`.konchinka_press`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any, Final

from bot.callbacks import PressCodec
from bot.game_names import game_name
from bot.i18n import Translator
from bot.markup import esc
from bot.numbers import signed
from bot.presses import konchinka as konchinka_press
from bot.presses.konchinka import KonchinkaAct
from bot.presses.meaning import HandUI
from bot.render.cards import card_name, card_names
from bot.render.games.figures import by_seat
from bot.render.games.game_ui import GameUI
from bot.render.games.hand_head import hand_button, hand_head, plays_own_turn
from bot.render.games.konchinka import chart as konchinka_chart
from bot.render.games.over import over_lines
from bot.render.results import match_tail, signed_list
from bot.render.table_context import TableContext, my_cards_button, to_play_line
from bot.rendered import Button, Rendered, keyboard
from bot.runtime.scoreboard import Standings
from engine.cards import ACE_LOW, RANK_VALUE, Card, canonical
from engine.core import EndReason, Line, Seat
from engine.events import Act, first_of, of_type
from engine.konchinka.actions import Capture, KonchinkaAction, Sweep, Trail, parse_action
from engine.konchinka.events import (
    BOOK,
    Certain,
    KonchinkaDealEnd,
    KonchinkaEnd,
    LastTake,
    Payment,
    SeatHaul,
    TableLaid,
)
from engine.konchinka.rules import Haul, KonchinkaPhase, Scored, scored, sure
from engine.konchinka.view import KonchinkaView

OPTION_STEPS: Final[dict[str, tuple[int, ...]]] = {
    "target": (15, 20, 25, 30, 50, 100, 5, 10),
    "point_value": (1, 2, 5, 10, 0),
    "stake": (10, 20, 50, 100, 0, 5),
}


def cards_text(cards: Sequence[Card | str], tr: Translator) -> str:
    return card_names(cards, tr.locale) or "—"


def table_line(view: KonchinkaView, tr: Translator) -> str:
    """``Table: 3♣ 5♥ 8♦`` in place order (face up, §4.2.1)."""
    return tr("On the table: {cards}", cards=cards_text(view.table, tr))


def haul_text(view: KonchinkaView, seat: int, tr: Translator) -> str:
    """``total 3 · cards 12 · clubs 4 · кончинки: 2♣``: the seat's figures so far."""
    parts = [
        tr("points {n}", n=view.totals[seat]),
        tr("captured {n}", n=view.captured[seat]),
        tr("clubs {n}", n=view.clubs[seat]),
        tr("konchinki: {cards}", cards=cards_text(view.konchinki[seat], tr)),
    ]
    return " · ".join(parts)


def move_line(ctx: TableContext, seat: int, move: KonchinkaAction, tr: Translator) -> str:
    """``Борис: В♥ забирает всё`` · ``Вера: 10♥ берёт 6♥+4♠`` · ``Глеб: 5♣ на стол``."""
    loc = tr.locale
    name = esc(ctx.names[seat])
    card = card_name(move.card, loc)
    match move:
        case Sweep():
            return tr("{name}: {card} takes everything", name=name, card=card)
        case Capture():
            groups = ", ".join("+".join(card_name(c, loc) for c in g) for g in move.groups)
            return tr("{name}: {card} takes {cards}", name=name, card=card, cards=groups)
    return tr("{name}: {card} onto the table", name=name, card=card)


def moves_lines(ctx: TableContext, view: KonchinkaView, tr: Translator) -> list[str]:
    """The last round's moves, in order (each capture, sweep and trail told, §4.3)."""
    return [move_line(ctx, seat, move, tr) for seat, move in view.moves]


def sorted_hand(view: KonchinkaView) -> list[Card]:
    """The hand by value (A 1 … K 13), then suit: what captures what reads at a glance."""
    return sorted(view.hand, key=lambda c: (RANK_VALUE[c.rank], str(c.suit)))


def table(ctx: TableContext, view: KonchinkaView, tr: Translator) -> Rendered:
    """The group's table message (public view)."""
    lines = [
        tr(
            "🃏 <b>{game}</b> · «{chat}» · game {no} · deal {deal}",
            game=game_name(ctx.game, tr.locale),
            chat=esc(ctx.chat_title),
            no=ctx.match_no,
            deal=view.deal_no,
        )
    ]
    head = tr("target {n}", n=view.target)
    if view.dealer is not None:
        head += " · " + tr("dealer {name}", name=esc(ctx.names[view.dealer]))
    head += " · " + tr("in the stock {n}", n=view.stock)
    lines.append(head)
    lines.append(table_line(view, tr))
    lines.append("")
    for seat, player in enumerate(ctx.names):
        dealer = " " + tr("(dlr)") if seat == view.dealer else ""
        detail = haul_text(view, seat, tr)
        if seat < len(view.hand_sizes) and view.to_act is not None:
            detail += " · " + tr("in hand {n}", n=view.hand_sizes[seat])
        if seat < len(ctx.away) and ctx.away[seat]:
            detail += " · " + tr("🤖 the computer plays")
        lines.append(f"{seat + 1}. {esc(player)}{dealer} — {detail}")
    lines.append("")
    lines.extend(moves_lines(ctx, view, tr))
    if view.last_capturer is not None:
        lines.append(tr("Last capture: {name}", name=esc(ctx.names[view.last_capturer])))
    if view.to_act is not None:
        lines.append(to_play_line(ctx, view.to_act, tr))
    button = my_cards_button(ctx, tr)
    return Rendered("\n".join(lines), keyboard([[button]]))


def capture_label(action: Capture, tr: Translator) -> str:
    """``8♠ → 8♦, 3♣+5♥``: the card, then each group it takes."""
    loc = tr.locale
    groups = ", ".join("+".join(card_name(c, loc) for c in g) for g in action.groups)
    return f"{card_name(action.card, loc)} → {groups}"


def hand(
    ctx: TableContext, view: KonchinkaView, ui: HandUI, tr: Translator, codec: PressCodec
) -> Rendered:
    """One seat's hand message: the table, its cards, a button per legal choice."""
    assert view.seat is not None
    seat = view.seat
    loc = tr.locale
    lines = [hand_head(ctx, view.deal_no, seat, tr)]
    if view.to_act is not None:
        lines.extend(moves_lines(ctx, view, tr))
    lines.append(table_line(view, tr))
    lines.append(tr("Your cards: {cards}", cards=cards_text(sorted_hand(view), tr)))
    # §4.4.1: the race for most cards, most clubs and the last capture needs everyone's
    for s, player in enumerate(ctx.names):
        lines.append(f"{esc(player)}: {haul_text(view, s, tr)}")
    if view.to_act is not None:
        stock = tr("in the stock {n}", n=view.stock)
        if view.last_capturer is not None:
            last = tr("last capture: {name}", name=esc(ctx.names[view.last_capturer]))
            stock += " · " + last
        lines.append(stock)

    button = hand_button(ctx, seat, codec)

    my_turn = plays_own_turn(ctx, view.to_act, seat) and bool(view.legal)
    legal = view.legal
    rows: list[list[Button]] = []
    chosen = konchinka_press.chosen(ui) if my_turn else None
    choices = [a for a in legal if chosen is not None and a.card == chosen]
    if not my_turn:
        if view.to_act is not None and view.to_act != seat:  # his own: the computer plays it
            lines.append(tr("Waiting for: {name}", name=esc(ctx.names[view.to_act])))
        elif view.phase == KonchinkaPhase.OVER:
            lines.extend(_over_lines(ctx, view, tr))
    elif len(choices) > 1 and chosen is not None:
        lines.append(tr("{card}: which cards to take?", card=card_name(chosen, loc)))
        for i, action in enumerate(legal):
            if isinstance(action, Capture) and action.card == chosen:
                rows.append([button(capture_label(action, tr), KonchinkaAct.CAPTURE, str(i))])
        rows.append([button(tr("↩️ Back"), KonchinkaAct.BACK)])
    else:
        trails = all(isinstance(a, Trail) for a in legal)
        if trails and not view.table:
            lines.append(tr("<b>Your move.</b> The table is empty: tap a card to lay it out."))
        elif trails:
            lines.append(tr("<b>Your move.</b> Nothing to capture: tap a card to lay it out."))
        else:
            lines.append(tr("<b>Your move.</b> You must capture: tap a card."))
        cards = []
        for card in sorted_hand(view):
            moves = [a for a in legal if a.card == card]
            label = card_name(card, loc)
            if any(isinstance(a, Sweep) for a in moves):
                label += " ⇒ " + tr("all")
            elif trails and moves:
                label = "⬇ " + label
            cards.append(button(label, KonchinkaAct.CARD, str(card), playable=bool(moves)))
        rows.extend(cards[i : i + 4] for i in range(0, len(cards), 4))
    rows.append([button(tr("↻ Refresh"), KonchinkaAct.REFRESH)])
    return Rendered("\n".join(lines), keyboard(rows))


def _over_lines(ctx: TableContext, view: KonchinkaView, tr: Translator) -> list[str]:
    """Who won the game, this seat's place (by total, then money) and its money (§4.4.5)."""
    assert view.seat is not None
    result = view.result
    net = result.net if result is not None else (0,) * len(view.totals)
    ranks = [(t, n) for t, n in zip(view.totals, net, strict=False)]
    stopped = tr("The game was stopped; nothing is paid.")
    return over_lines(ctx, view.seat, result, ranks, tr("The game is over"), stopped, tr)


def ended_view(before: KonchinkaView, events: Sequence[Line]) -> KonchinkaView:
    """The public view as the deal ended: the hauls and totals of the ``deal_end`` line, the
    table taken (§4.3.8), nobody to act."""
    changes: dict[str, Any] = {"to_act": None, "legal": ()}
    typed = BOOK.read(events)
    moves = list(before.moves)
    moves.extend(  # the deal's last move, told with the round's others
        (act.seat, parse_action(act.a)) for act in of_type(typed, Act)
    )
    changes["moves"] = tuple(moves[-before.players :])
    end = first_of(typed, KonchinkaDealEnd)
    if end is not None:
        seats = by_seat(end.seats)
        changes.update(
            captured=tuple(s.cards for s in seats),
            clubs=tuple(s.clubs for s in seats),
            konchinki=tuple(s.konchinki for s in seats),
            totals=tuple(s.total for s in seats),
            table=(),
            hand_sizes=tuple(0 for _ in seats) if not end.early else before.hand_sizes,
        )
    return dataclasses.replace(before, **changes)


def deal_result(
    ctx: TableContext, events: Sequence[Line], view: KonchinkaView, tr: Translator
) -> str:
    """The group's result of the deal that just ended (RULES.md §4.4.1–§4.4.4)."""
    typed = BOOK.read(events)
    end = first_of(typed, KonchinkaDealEnd)
    if end is None:
        return ""
    names = ctx.names
    out = [tr("📋 <b>Deal {no}</b>", no=end.no)]
    certain = first_of(typed, Certain)
    take = first_of(typed, LastTake)
    if certain is not None:
        out.append(
            tr(
                "Early finish, the win is certain: {name}. The deal is not played out.",
                name=esc(names[certain.seat]),
            )
        )
    elif take is not None and take.cards:
        cards = canonical(take.cards, ACE_LOW)
        if take.seat is None:
            out.append(tr("Left on the table, to nobody: {cards}", cards=cards_text(cards, tr)))
        else:
            out.append(
                tr(
                    "Left on the table, to the last capture ({name}): {cards}",
                    name=esc(names[take.seat]),
                    cards=cards_text(cards, tr),
                )
            )
    seats = by_seat(end.seats)
    hauls = [Haul(s.cards, s.clubs, len(s.konchinki)) for s in seats]
    items = sure(hauls) if certain is not None else scored(hauls)
    out.extend(seat_score(names[s.seat], s, item, tr) for s, item in zip(seats, items, strict=True))
    target = ctx.options.get("target")
    if end.no == 1 and isinstance(target, int) and not isinstance(target, bool):
        out.append(tr("The game is to {n} points.", n=target))  # once: the table's head has it
    if view.phase != KonchinkaPhase.OVER and view.dealer is not None and certain is None:
        out.append(tr("Next deal: {name} deals", name=esc(names[view.dealer])))
    return "\n".join(out)


def seat_score(name: str, haul: SeatHaul, item: Scored, tr: Translator) -> str:
    """``Аня +4 → всего 4: больше всех карт (34) +2 · кончинка 10♦ +1 · 6 треф``: what each of
    the deal's points was for (§4.4.1), then what scored nothing."""
    loc = tr.locale
    won, rest = [], []
    if item.cards == 2:
        won.append(tr("most cards ({n}) +2", n=haul.cards))
    elif item.cards:
        won.append(tr("cards tied for most ({n}) +1", n=haul.cards))
    else:
        rest.append(tr.n("{n} card", "{n} cards", haul.cards))
    if item.clubs:
        won.append(tr("most clubs ({n}) +1", n=haul.clubs))
    else:
        rest.append(tr.n("{n} club", "{n} clubs", haul.clubs))
    won.extend(tr("konchinka {card} +1", card=card_name(c, loc)) for c in haul.konchinki)
    return tr(
        "{name} {points} → total {total}: {items}",
        name=esc(name),
        points=signed(haul.points),
        total=haul.total,
        items=" · ".join(won + rest),
    )


def match_result(
    ctx: TableContext,
    end: Line,
    winner: Seat | None,
    standings: Standings,
    generation: int,
    tr: Translator,
    codec: PressCodec,
) -> Rendered:
    """The group's result of one game to the target (§4.4.3–§4.4.5), with its end buttons."""
    names = ctx.names
    typed = BOOK.end(end)
    settled = typed if isinstance(typed, KonchinkaEnd) else None
    reason = typed.reason
    if reason is EndReason.ABANDONED or winner is None:
        head = tr("🏁 <b>Game {no}</b> — stopped, nothing paid", no=ctx.match_no)
    elif reason is EndReason.CERTAIN:
        head = tr(
            "🏁 <b>Game {no}</b> — winner: {name} (early: nobody can catch up)",
            no=ctx.match_no,
            name=esc(names[winner]),
        )
    else:
        head = tr("🏁 <b>Game {no}</b> — winner: {name}", no=ctx.match_no, name=esc(names[winner]))
    lines = [head]
    if settled is not None and settled.totals:
        listed = " · ".join(f"{esc(n)} {t}" for n, t in zip(names, settled.totals, strict=False))
        lines.append(tr("Points: {list}", list=listed))
    if settled is not None and settled.deals:
        lines.append(tr("Deals played: {n}", n=settled.deals))
    net = signed_list(names, typed.net)
    payment = settled.payment if settled is not None else None
    stake = ctx.options.get("stake")
    point = ctx.options.get("point_value")
    if payment is Payment.POT and isinstance(stake, int):
        lines.append(tr("Settlement (the pot, stake {n}): {list}", n=stake, list=net))
    elif payment is Payment.MUSHKA and isinstance(point, int):
        lines.append(tr("Settlement (point {n}): {list}", n=point, list=net))
    else:
        lines.append(tr("Settlement: {list}", list=net))
    again = tr("🔁 Another game to the target")
    charted = winner is not None  # stopped: no chart
    return match_tail(ctx, lines, standings, generation, again, tr, codec, chart=charted)


def option_label(name: str, tr: Translator) -> str:
    labels = {
        "target": tr("target"),
        "court_values": tr("court cards count (J 11, Q 12, K 13)"),
        "payment": tr("payment"),
        "point_value": tr("per point (kop.)"),
        "stake": tr("stake (kop.)"),
    }
    return labels.get(name, name)


def option_value(name: str, value: str, tr: Translator) -> str | None:
    """§4.4.5's payment schemes in words."""
    if name == "payment":
        return {"mushka": tr("per missing point"), "pot": tr("the pot")}.get(value)
    return None


def rules_summary(tr: Translator) -> str:
    return tr(
        "Konchinka: 2–4 players, 52 cards; 4 cards each and 4 face up on the table. On "
        "your move play one card: capture table cards of its rank or groups summing to its "
        "value (A 1, 2–10 face value; K and Q take only their own rank, a J sweeps the whole "
        "table; with court values J 11, Q 12, K 13 and no sweep). You may lay a card out only "
        "when no card of yours can capture. Each deal: most cards 2 points, most clubs 1, "
        "the 2♣ and the 10♦ (konchinki) 1 each. The game is to the target (15); it ends "
        "early when a win is certain."
    )


def event_lines(ctx: TableContext, events: Sequence[Line], tr: Translator) -> list[str]:
    """What no move line shows: the deal's four table cards as they were laid (§4.2), before
    the first move, even one made with nothing to choose."""
    return [
        tr("Laid face up on the table: {cards}", cards=cards_text(laid.cards, tr))
        for laid in of_type(BOOK.read(events), TableLaid)
    ]


def _ended_table(
    ctx: TableContext, before: KonchinkaView, events: Sequence[Line], tr: Translator
) -> Rendered:
    return Rendered(table(ctx, ended_view(before, events), tr).text)


KONCHINKA_UI: Final = GameUI[KonchinkaView](
    table=table,
    ended_table=_ended_table,
    hand=hand,
    deal_result=deal_result,
    match_result=match_result,
    rules_summary=lambda game, tr: rules_summary(tr),
    option_label=option_label,
    option_steps=OPTION_STEPS.get,
    match_word=lambda tr: tr("game to the target"),
    points_label=lambda n, tr: tr("points {n}", n=n),
    option_value=option_value,
    events=event_lines,
    chart=konchinka_chart.plot,
)
"""Кончинка's :class:`~bot.render.games.game_ui.GameUI`."""
