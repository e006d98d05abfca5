"""The trick family's private hand message (PRODUCT.md §5.3, §6.3): one seat's view only."""

from __future__ import annotations

from collections.abc import Sequence

from bot.callbacks import PressCodec
from bot.i18n import Translator
from bot.presses.meaning import HandUI, ModeKind
from bot.presses.trick import (
    TrickAct,
    discard_count,
    discardable,
    exchange_limit,
    may_take_up,
)
from bot.render.cards import SUIT_SYMBOL, card_name
from bot.render.games.hand_head import hand_button, hand_head, plays_own_turn, waiting_for
from bot.render.games.over import over_lines
from bot.render.games.trick.events import HAND
from bot.render.games.trick.play_lines import (
    cards_text,
    exchange_line,
    privileged_name,
    trick_line,
    trump_rows,
    trump_text,
)
from bot.render.table_context import TableContext
from bot.rendered import Button, Rendered, keyboard
from engine.cards import Card, Suit
from engine.trick.actions import Announce, Exchange, Pass, PlayCard
from engine.trick.legal import may_pass as legal_may_pass
from engine.trick.options import PamfilOptions
from engine.trick.rules import TrickPhase
from engine.trick.variant import VARIANTS
from engine.trick.view import TrickView


def hand(
    ctx: TableContext, view: TrickView, ui: HandUI, tr: Translator, codec: PressCodec
) -> Rendered:
    assert view.seat is not None
    seat = view.seat
    loc = tr.locale
    my_turn = plays_own_turn(ctx, view.to_act, seat)
    legal = view.legal
    counts = view.counts
    tricks = view.tricks_won
    lines = [hand_head(ctx, view.deal_no, seat, tr)]
    head = trump_text(view, tr)
    if seat < len(counts):
        head += " · " + tr("your count {n}", n=counts[seat])
    if view.phase == TrickPhase.PLAY and seat < len(tricks):
        head += " · " + tr("tricks {n}", n=tricks[seat])
    lines.append(head)
    trick = trick_line(ctx, view, tr) if my_turn else None
    if trick and not view.trick:  # nothing on the table yet: he opens the trick
        lines.append(tr("Trick {no}: <b>your turn</b> — you lead", no=view.trick_no))
    elif trick:
        lines.append(trick + " → " + tr("<b>your turn</b>"))
    rows = trump_rows(ctx, view)
    over = view.phase == TrickPhase.OVER
    declared = view.declared[seat] if seat < len(view.declared) else None
    if declared == "pass" and not over and not view.hand:
        lines.append(tr("You passed this deal."))
    elif view.hand or not over:
        lines.append(tr("Your cards: {cards}", cards=cards_text(ctx, view, rows, tr)))
    exchange = view.exchange
    if (
        exchange is not None
        and not over
        and (exchange.discarded or view.phase == TrickPhase.DECLARE)
        and (view.phase == TrickPhase.DECLARE or view.trick_no <= 1)
    ):
        # what left and came is news while the others declare and through the first trick;
        # "No exchange" only while they declare
        exchanged = exchange_line(view, tr)
        if exchanged:
            lines.append(exchanged)
    may_pass = any(isinstance(a, Pass) for a in legal)
    declaring = my_turn and view.phase == TrickPhase.DECLARE
    holds = any(c == view.privileged for c in view.hand)
    if declaring and not may_pass:
        # §1.3.3: the privileged card bars the pass (not Шутиха's QS), else the dealer defends
        bound = not legal_may_pass(VARIANTS[view.game], view.hand)
        lines.append(_no_pass_line(ctx, view, bound, tr))
    elif holds:
        lines.append(
            tr(
                "You hold the {name} ({card}).",
                name=privileged_name(ctx.game, tr),
                card=card_name(view.privileged, loc),
            )
        )
    if declaring and any(isinstance(a, Announce) for a in legal):  # §1.3.7, on the hand itself
        lines.append(_announce_line(ctx, tr))
    if declaring and seat == view.dealer and view.turn_up is not None and _takes_up(legal):
        # §1.2.2: the dealer alone may take the turn-up, in his own exchange
        lines.append(
            tr(
                "Your deal: you may take the turn-up ({card}) in place of a card from the stock.",
                card=card_name(view.turn_up, loc),
            )
        )
    if _flush(ctx, view):  # §1.3.10.1: shown at once
        lines.append(tr("Your hand is a flush: shown to the table (the best one gets a bonus)."))

    button = hand_button(ctx, seat, codec)

    card_act = TrickAct.PLAY
    playable: set[str] = set()
    actions: list[Button] = []
    extra_rows: list[list[Button]] = []
    back: list[Button] = []
    marks = set(ui.marks)
    if not my_turn:
        # in private still (FamilyPresses.still_waiting): nothing here changes with the others'
        # moves, so it is edited only when the seat's own cards, count or tricks change; the
        # live trick and whose turn it is are on the group's table. In the group the hand may
        # stand in place of the table for him: it shows the trick so far and whom it waits for
        waiting = waiting_for(ctx, view.to_act, seat, tr)
        if waiting is not None and ctx.my_cards is not None:  # shown in the group
            so_far = trick_line(ctx, view, tr)
            if so_far is None:
                lines.append("⏳ " + waiting)
            elif view.trick:
                lines.append(f"{so_far} · … · {waiting}")
            else:  # "Trick 4: …"
                lines.append(f"{so_far} · {waiting}")
        elif view.to_act is not None and view.to_act != seat:
            lines.append(tr("⏳ Not your turn — the table is in the group."))
        elif over:
            lines.extend(_over_lines(ctx, view, tr))
    elif view.phase == TrickPhase.PLAY:
        playable = {str(a.card) for a in legal if isinstance(a, PlayCard)}
        lines.append(_playable_line(view, rows, playable, tr))
    elif view.phase == TrickPhase.RETRUMP:
        discard = ui.mode.card_of(ModeKind.RETRUMP)
        if discard is not None:
            lines.append(tr("Discard: {card}. Trump?", card=card_name(discard, loc)))
            suits = [button(SUIT_SYMBOL[s], TrickAct.RETRUMP, f"{s.value}.{discard}") for s in Suit]
            extra_rows.append(suits)
            extra_rows.append([button(tr("↩️ Another discard"), TrickAct.BACK)])
        else:
            lines.append(
                tr("The pamfil (J♣) was turned up — it's yours. Discard a card and name trump.")
            )
        card_act = TrickAct.RETRUMP
    elif view.phase == TrickPhase.DISCARD:
        need = discard_count(legal)
        lines.append(
            tr.n(
                "The Q♠ was dealt out of the stock: you received {n} more card. "
                "Discard {n} (never the Q♠). Marked: {k}",
                "The Q♠ was dealt out of the stock: you received {n} more cards. "
                "Discard {n} (never the Q♠). Marked: {k}",
                need,
                k=len(marks),
            )
        )
        card_act = TrickAct.MARK
        if len(marks) == need:  # the marks are stored: a long discard fits in 64 bytes
            label = tr("🗑 Discard {n}", n=need)
            actions.append(button(label, TrickAct.DISCARD, style="success"))
    elif view.phase == TrickPhase.DECLARE:
        card_act = TrickAct.MARK
        limit = exchange_limit(legal)
        if any(isinstance(a, Announce) for a in legal):
            extra_rows.append([button(tr("📣 Announce pamfil"), TrickAct.ANNOUNCE)])
        if ui.mode.kind is ModeKind.EXCHANGE or (not may_pass and limit):
            # marking; with no pass to choose, the declaration is only which cards to exchange
            lines.append(
                tr(
                    "Mark cards to exchange (up to {n}; stock {stock}). Marked: {k}",
                    n=limit,
                    stock=view.stock_size,
                    k=len(marks),
                )
            )
            arg = ".".join(str(c) for row in rows for c in row if str(c) in marks)
            if marks:
                label = tr("🔄 Exchange {n}", n=len(marks))
                actions.append(button(label, TrickAct.EXCHANGE, arg, style="success"))
                if may_take_up(legal, len(marks)):
                    label = tr("🔄 Exchange {n} with the turn-up", n=len(marks))
                    actions.append(button(label, TrickAct.EXCHANGE, arg + ".u"))
            actions.append(button(tr("Keep all"), TrickAct.EXCHANGE, ""))
            if may_pass:
                back.append(button(tr("↩️ Back"), TrickAct.BACK))
        else:
            if may_pass:
                lines.append(tr("Play or pass?"))
            if limit:  # a card tap marks it and opens the exchange (↩️ returns)
                lines.append(tr("To exchange cards, tap them."))
            if any(isinstance(a, Exchange) for a in legal):
                actions.append(button(tr("✅ Play"), TrickAct.PLAY_DEAL, style="success"))
            if may_pass:
                actions.append(button(tr("🙅 Pass"), TrickAct.PASS))

    can_give = discardable(legal) if card_act == TrickAct.MARK and my_turn else set()
    card_rows: list[list[Button]] = []
    for row in rows:
        buttons = []
        for c in row:
            code = str(c)
            if view.phase == TrickPhase.RETRUMP and c == view.privileged:
                continue
            label = card_name(c, loc)
            if code in marks:
                label = "✓" + label
            barred = (my_turn and view.phase == TrickPhase.PLAY and code not in playable) or (
                card_act == TrickAct.MARK and my_turn and code not in can_give
            )
            buttons.append(button(label, card_act, code, playable=not barred))
        card_rows.append(buttons)
    tail = [*back, button(tr("↻ Refresh"), TrickAct.REFRESH)]
    return Rendered("\n".join(lines), keyboard([*card_rows, *extra_rows, actions, tail]))


def _no_pass_line(ctx: TableContext, view: TrickView, bound: bool, tr: Translator) -> str:
    """Why the seat to declare may not pass (RULES.md §1.3.3): the privileged card that bars it
    (``bound``: a, the AS, JC or KC), or the dealer against a single player (b)."""
    if bound:
        return tr(
            "You hold the {name} ({card}), so you can't pass.",
            name=privileged_name(ctx.game, tr),
            card=card_name(view.privileged, tr.locale),
        )
    return tr("You deal against a single player, so you can't pass.")


def _playable_line(
    view: TrickView, rows: Sequence[Sequence[Card]], playable: set[str], tr: Translator
) -> str:
    """``Playable: K♣, 10♣ (must follow ♣)``: the legal cards and, when some are not, the rule
    that says so (RULES.md §1.4.3 a or b; the privileged card's own right aside, §1.4.4)."""
    names = ", ".join(card_name(c, tr.locale) for row in rows for c in row if str(c) in playable)
    led = view.led
    if led is None or len(playable) >= len(view.hand):
        return tr("Playable: {cards}", cards=names)
    ordinary = [c for c in view.hand if str(c) in playable and c != view.privileged]
    suit = SUIT_SYMBOL[led]
    if all(c.suit == led for c in ordinary):
        return tr("Playable: {cards} (must follow {suit})", cards=names, suit=suit)
    return tr("Playable: {cards} (no {suit}, so you must trump)", cards=names, suit=suit)


def _over_lines(ctx: TableContext, view: TrickView, tr: Translator) -> list[str]:
    """How the pulka ended for this seat (RULES.md §1.5.8, §1.6): the winner, the seat's place
    (the winner first, then by the count left) and its money."""
    assert view.seat is not None
    ranks = [(-c,) for c in view.counts]
    stopped = tr("The pulka was stopped; nothing is paid.")
    return over_lines(ctx, view.seat, view.result, ranks, tr("The pulka is over"), stopped, tr)


def _flush(ctx: TableContext, view: TrickView) -> bool:
    """A Мистигри hand of five cards of one suit before the play (§1.3.10.1)."""
    early = view.phase in (TrickPhase.DECLARE, TrickPhase.DISCARD, TrickPhase.RETRUMP)
    suits = {c.suit for c in view.hand}
    return ctx.game == "mistigri" and early and len(view.hand) == HAND and len(suits) == 1


def _announce_line(ctx: TableContext, tr: Translator) -> str:
    """§1.3.7: the announcement offered with what it pays (the table's ``pamfil_bonus``)."""
    bonus = ctx.options.get("pamfil_bonus")
    if not isinstance(bonus, int) or isinstance(bonus, bool):
        bonus = PamfilOptions().pamfil_bonus
    return tr(
        "📣 You may announce the pamfil: +{n} from each on the side ledger.",
        n=bonus,
    )


def _takes_up(legal: Sequence[object]) -> bool:
    """Whether some legal exchange takes the turn-up (§1.2.2, §1.3.4)."""
    return any(isinstance(a, Exchange) and a.up for a in legal)
