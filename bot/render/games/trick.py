"""Screens of the trick family (Мушка, Памфил, Шутиха, Мистигри): PRODUCT.md §5.2–§5.4, §6.3."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any, Final

from aiogram.types import InlineKeyboardButton

from bot.callbacks import Kind, Press, PressCodec
from bot.i18n import Translator
from bot.render.cards import SUIT_SYMBOL, card_name, card_names, hand_by_suit, suit_rows
from bot.render.common import Rendered, esc, keyboard
from bot.render.context import HandUI, TableContext, game_name
from bot.render.games.base import Interpretation
from bot.render.games.trick_press import discardable, exchange_limit, interpret, n_of
from engine.cards import A_HIGH, K_HIGH, Card, RankOrder, Suit
from engine.core import Line, View

ORDERS: Final[dict[str, RankOrder]] = {
    "mushka": A_HIGH,
    "pamfil": A_HIGH,
    "shutikha": K_HIGH,
    "mistigri": K_HIGH,
}
PRIVILEGED: Final = {"mushka": "AS", "pamfil": "JC", "shutikha": "QS", "mistigri": "KC"}
_DECLARED: Final = {"played": "play", "passed": "pass", "walkover": "walkover"}
"""A seat's ``status`` in the ``deal_end`` line → its declaration as views give it."""


def _get(view: View[Any], name: str, default: Any = None) -> Any:
    return getattr(view, name, default)


def _legal(view: View[Any]) -> list[str]:
    return [str(a) for a in view.legal]


def _privileged_name(game: str, tr: Translator) -> str:
    names = {
        "mushka": tr("mushka"),
        "pamfil": tr("pamfil"),
        "shutikha": tr("shutikha"),
        "mistigri": tr("mistigri"),
    }
    return names.get(game, game)


def _trump_text(view: View[Any], tr: Translator) -> str:
    trump: Suit | None = _get(view, "trump")
    if trump is None:
        return tr("Trump: not yet named")
    symbol = SUIT_SYMBOL[Suit(trump)]
    turn_up = _get(view, "turn_up")
    if turn_up is not None:
        return tr("Trump: {suit} (turned {card})", suit=symbol, card=card_name(turn_up, tr.locale))
    return tr("Trump: {suit}", suit=symbol)


def _trick_line(
    ctx: TableContext, view: View[Any], tr: Translator, *, pending: bool = False
) -> str | None:
    """``Trick 4: Vera A♠ · Anya 10♠`` (+ ``· Boris …`` for the seat to play, if ``pending``)."""
    trick: Sequence[tuple[int, Card]] = _get(view, "trick", ()) or ()
    if view.phase != "play":
        return None
    parts = [f"{esc(ctx.names[s])} {card_name(c, tr.locale)}" for s, c in trick]
    if pending and view.to_act is not None:
        parts.append(f"{esc(ctx.names[view.to_act])} …")
    no = _get(view, "trick_no", 0) or 0
    return tr("Trick {no}: {plays}", no=no, plays=" · ".join(parts) or "…")


def _last_trick_line(ctx: TableContext, view: View[Any], tr: Translator) -> str | None:
    """``Last trick: Vera (K♥ beats Q♠ 8♠)``: the winner, his card, the others in play order."""
    last: Sequence[tuple[int, Card]] = _get(view, "last_trick", ()) or ()
    winner = _get(view, "last_winner")
    if not last or winner is None:
        return None
    loc = tr.locale
    won = next((c for s, c in last if s == winner), None)
    others = [c for s, c in last if s != winner]
    if won is None or not others:
        cards = card_names((c for _, c in last), loc)
        return tr("Last trick: {name} ({cards})", name=esc(ctx.names[winner]), cards=cards)
    trump = _get(view, "trump")
    led = last[0][1].suit
    verb = tr("trumps") if won.suit == trump and led != trump else tr("beats")
    return tr(
        "Last trick: {name} ({card} {verb} {others})",
        name=esc(ctx.names[winner]),
        card=card_name(won, loc),
        verb=verb,
        others=card_names(others, loc),
    )


def _exchanges(ctx: TableContext) -> dict[int, Mapping[str, Any]]:
    """This deal's ``exchange`` events by seat (private: a hand shows only its own cards)."""
    return {ln["seat"]: ln for ln in ctx.deal_lines if ln.get("e") == "exchange"}


def _deck_size(ctx: TableContext) -> int | None:
    deal = next((ln for ln in ctx.deal_lines if ln.get("t") == "deal"), None)
    size = deal.get("deck_size") if deal else None
    return size if isinstance(size, int) else None


def _declarations_line(ctx: TableContext, view: View[Any], tr: Translator) -> str | None:
    """``Declarations: Vera plays · Fyodor passed · Anya …`` in declaring order."""
    declared: Sequence[str | None] = _get(view, "declared", ()) or ()
    if view.phase != "declare" or view.dealer is None or not declared:
        return None
    n = len(ctx.names)
    parts = []
    for k in range(1, n + 1):
        seat = (view.dealer + k) % n
        state = declared[seat] if seat < len(declared) else None
        if state == "play":
            parts.append(f"{esc(ctx.names[seat])} {tr('plays')}")
        elif state == "pass":
            parts.append(f"{esc(ctx.names[seat])} {tr('passed')}")
        elif seat == view.to_act:
            parts.append(f"{esc(ctx.names[seat])} …")
    return tr("Declarations: {list}", list=" · ".join(parts)) if parts else None


def _exchange_line(ctx: TableContext, seat: int, tr: Translator) -> str | None:
    """The seat's own exchange this deal: what left and what came (§8: actor only)."""
    event = _exchanges(ctx).get(seat)
    if event is None:
        return None
    loc = tr.locale
    out: list[str] = list(event.get("discarded", []))
    came: list[str] = list(event.get("drawn", []))
    if event.get("up"):
        trump = next(
            (ln for ln in reversed(ctx.deal_lines) if ln.get("e") == "trump" and ln.get("card")),
            None,
        )
        if trump is not None:
            came.append(str(trump["card"]))
    if not out:
        return tr("You kept all your cards.")
    return tr(
        "Exchanged: {out} → {came}",
        out=card_names(out, loc),
        came=card_names(came, loc) or "—",
    )


def _status(view: View[Any], seat: int, tr: Translator) -> str:
    declared: Sequence[str | None] = _get(view, "declared", ()) or ()
    state = declared[seat] if seat < len(declared) else None
    if state == "play":
        return tr("plays")
    if state == "pass":
        return tr("passed")
    if state == "walkover":
        return tr("walkover")
    if view.phase == "declare":
        return tr("thinking…") if view.to_act == seat else tr("waiting")
    return ""


class TrickUI:
    """The trick family's :class:`~bot.render.games.base.GameUI`."""

    def counts(self, view: View[Any]) -> tuple[int, ...] | None:
        counts = _get(view, "counts")
        return tuple(counts) if counts is not None else None

    # --- the group's table message ------------------------------------------------------

    def table(self, ctx: TableContext, view: View[Any], tr: Translator) -> Rendered:
        name = game_name(ctx.game, tr.locale)
        lines = [
            tr(
                "🃏 <b>{game}</b> · «{chat}» · pulka {pulka} · deal {deal}",
                game=name,
                chat=esc(ctx.chat_title),
                pulka=ctx.pulka_no,
                deal=view.deal_no,
            )
        ]
        head = _trump_text(view, tr)
        if view.dealer is not None:
            head += " · " + tr("dealer {name}", name=esc(ctx.names[view.dealer]))
        deck = _deck_size(ctx)
        if deck is not None:
            head += " · " + tr("deck {n}", n=deck)
        stock = _get(view, "stock_size")
        if stock is not None:
            head += " · " + tr("stock {n}", n=stock)
        lines.append(head)
        lines.append("")
        counts: Sequence[int] = _get(view, "counts", ()) or ()
        tricks: Sequence[int] = _get(view, "tricks_won", ()) or ()
        exchanges = _exchanges(ctx)
        for seat, player in enumerate(ctx.names):
            dealer = " " + tr("(dlr)") if seat == view.dealer else ""
            parts = [tr("count {n}", n=counts[seat]) if seat < len(counts) else ""]
            if view.phase in ("play", "over") and seat < len(tricks):
                parts.append(tr("tricks {n}", n=tricks[seat]))
            status = _status(view, seat, tr)
            exchange = exchanges.get(seat)
            if exchange is not None:
                n = len(exchange.get("discarded", []))
                status = ", ".join(x for x in (status, tr("exchanged {n}", n=n)) if x)
            if status:
                parts.append(status)
            if seat < len(ctx.away) and ctx.away[seat]:
                parts.append(tr("🤖 the computer plays"))
            detail = " · ".join(p for p in parts if p)
            lines.append(f"{seat + 1}. {esc(player)}{dealer} — {detail}")
        lines.append("")
        declarations = _declarations_line(ctx, view, tr)
        if declarations:
            lines.append(declarations)
        trick = _trick_line(ctx, view, tr, pending=True)
        if trick:
            lines.append(trick)
        if view.phase == "retrump":
            lines.append(tr("The dealer is choosing the trump…"))
        if view.to_act is not None:
            lines.append(tr("To play: <b>{name}</b>", name=esc(ctx.names[view.to_act])))
        last = _last_trick_line(ctx, view, tr)
        if last:
            lines.append(last)
        button = InlineKeyboardButton(text=tr("🂠 My cards"), url=ctx.link(f"h_{_b36(ctx)}"))
        return Rendered("\n".join(lines), keyboard([[button]]))

    def ended_table(
        self, ctx: TableContext, before: View[Any], lines: Sequence[Line], tr: Translator
    ) -> Rendered:
        """The deal as it ended (§4.6): the last trick complete, the declarations all made,
        nobody to act; frozen, without buttons. The engine's view is already the next deal's."""
        changes: dict[str, Any] = {"to_act": None, "legal": ()}
        trick = next((ln for ln in lines if ln.get("e") == "trick"), None)
        if trick is not None:
            changes.update(
                phase="over",
                trick=(),
                last_trick=tuple((seat, Card.parse(code)) for seat, code in trick["plays"]),
                last_winner=trick["winner"],
            )
        end = next((ln for ln in lines if ln.get("t") == "deal_end"), None)
        if end is not None:
            seats: Sequence[Mapping[str, Any]] = end.get("seats", [])
            tricks = list(_get(before, "tricks_won", ()) or ())
            declared = list(_get(before, "declared", ()) or ())
            for s in seats:
                seat = s["seat"]
                if seat < len(tricks):
                    tricks[seat] = s.get("tricks", tricks[seat])
                if seat < len(declared) and s.get("status") in _DECLARED:
                    declared[seat] = _DECLARED[s["status"]]
            changes.update(tricks_won=tuple(tricks), declared=tuple(declared))
        fields = {f.name for f in dataclasses.fields(before)}
        view = dataclasses.replace(before, **{k: v for k, v in changes.items() if k in fields})
        return Rendered(self.table(ctx, view, tr).text)

    # --- the private hand message -------------------------------------------------------

    def hand(
        self, ctx: TableContext, view: View[Any], ui: HandUI, tr: Translator, codec: PressCodec
    ) -> Rendered:
        assert view.seat is not None
        seat = view.seat
        loc = tr.locale
        my_turn = view.to_act == seat
        legal = _legal(view)
        counts: Sequence[int] = _get(view, "counts", ()) or ()
        tricks: Sequence[int] = _get(view, "tricks_won", ()) or ()
        trump: Suit | None = _get(view, "trump")
        lines = [
            tr(
                "🃏 {game} · «{chat}» · deal {deal} · seat {seat}",
                game=game_name(ctx.game, loc),
                chat=esc(ctx.chat_title),
                deal=view.deal_no,
                seat=seat + 1,
            )
        ]
        head = _trump_text(view, tr)
        if seat < len(counts):
            head += " · " + tr("your count {n}", n=counts[seat])
        if view.phase == "play" and seat < len(tricks):
            head += " · " + tr("tricks {n}", n=tricks[seat])
        lines.append(head)
        trick = _trick_line(ctx, view, tr) if my_turn else None
        if trick:
            lines.append(trick + " → " + tr("<b>your turn</b>"))
        rows = suit_rows(view.hand, ORDERS.get(ctx.game, A_HIGH), Suit(trump) if trump else None)
        lines.append(tr("Your cards: {cards}", cards=hand_by_suit(rows, loc)))
        exchanged = _exchange_line(ctx, seat, tr)
        if exchanged:
            lines.append(exchanged)
        privileged = PRIVILEGED.get(ctx.game)
        if privileged and any(str(c) == privileged for c in view.hand):
            lines.append(
                tr(
                    "You hold the {name} ({card}).",
                    name=_privileged_name(ctx.game, tr),
                    card=card_name(privileged, loc),
                )
            )

        def press(act: str, arg: str | None = None) -> str:
            return codec.pack(Press(Kind.HAND, ctx.table_id, seat, ctx.moves, act, arg))

        def button(text: str, act: str, arg: str | None = None) -> InlineKeyboardButton:
            return InlineKeyboardButton(text=text, callback_data=press(act, arg))

        card_act = "p"
        playable: set[str] = set()
        actions: list[InlineKeyboardButton] = []
        extra_rows: list[list[InlineKeyboardButton]] = []
        back: list[InlineKeyboardButton] = []
        marks = set(ui.marks)
        if not my_turn:
            waiting_trick = _trick_line(ctx, view, tr)
            if waiting_trick and view.to_act is not None:
                lines.insert(2, waiting_trick)
            if view.to_act is not None:
                lines.append(tr("Waiting for: {name}", name=esc(ctx.names[view.to_act])))
            elif view.phase == "over":
                lines.append(tr("The pulka is over."))
        elif view.phase == "play":
            playable = {a.split()[1] for a in legal if a.startswith("card ")}
            names = ", ".join(card_name(c, loc) for row in rows for c in row if str(c) in playable)
            lines.append(tr("Playable: {cards}", cards=names))
        elif view.phase == "retrump":
            if ui.mode.startswith("t:"):
                discard = ui.mode[2:]
                lines.append(tr("Discard: {card}. Trump?", card=card_name(discard, loc)))
                suits = [button(SUIT_SYMBOL[s], "t", f"{s.value}.{discard}") for s in Suit]
                extra_rows.append(suits)
                extra_rows.append([button(tr("↩️ Another discard"), "z")])
            else:
                lines.append(
                    tr("The pamfil (J♣) was turned up — it's yours. Discard a card and name trump.")
                )
            card_act = "t"
        elif view.phase == "discard":
            need = max((len(a.split()) - 1 for a in legal if a.startswith("discard ")), default=1)
            lines.append(tr("Discard {n} card(s). Marked: {k}", n=need, k=len(marks)))
            card_act = "m"
            if len(marks) == need:  # the marks are stored: a long discard fits in 64 bytes
                actions.append(button(tr("🗑 Discard {n}", n=need), "q"))
        elif view.phase == "declare":
            card_act = "m"
            if ui.mode == "x":
                limit = exchange_limit(legal)
                stock = _get(view, "stock_size", 0) or 0
                lines.append(
                    tr(
                        "Mark cards to exchange (up to {n}; stock {stock}). Marked: {k}",
                        n=limit,
                        stock=stock,
                        k=len(marks),
                    )
                )
                arg = ".".join(str(c) for row in rows for c in row if str(c) in marks)
                if marks:
                    actions.append(button(tr("🔄 Exchange {n}", n=len(marks)), "x", arg))
                    if any(a.endswith(" up") and n_of(a) == len(marks) for a in legal):
                        label = tr("🔄 Exchange {n} with the turn-up", n=len(marks))
                        actions.append(button(label, "x", arg + ".u"))
                actions.append(button(tr("Keep all"), "x", ""))
                back.append(button(tr("↩️ Back"), "z"))
            else:
                lines.append(tr("Play or pass?"))
                if "announce" in legal:
                    extra_rows.append([button(tr("📣 Announce pamfil"), "a")])
                if any(a.startswith("play ") for a in legal):
                    actions.append(button(tr("✅ Play"), "y"))
                if "pass" in legal:
                    actions.append(button(tr("🙅 Pass"), "n"))

        card_rows: list[list[InlineKeyboardButton]] = []
        for row in rows:
            buttons = []
            for c in row:
                code = str(c)
                if view.phase == "retrump" and code == PRIVILEGED.get(ctx.game):
                    continue
                label = card_name(c, loc)
                if code in marks:
                    label = "✓" + label
                if (my_turn and view.phase == "play" and code not in playable) or (
                    card_act == "m" and my_turn and code not in discardable(legal)
                ):
                    label = f"·{label}·"
                buttons.append(button(label, card_act, code))
            card_rows.append(buttons)
        tail = [*back, button(tr("🔄 Refresh"), "u")]
        return Rendered("\n".join(lines), keyboard([*card_rows, *extra_rows, actions, tail]))

    # --- what a hand press means ---------------------------------------------------------

    def interpret(self, view: View[Any], act: str, arg: str | None, ui: HandUI) -> Interpretation:
        return interpret(view, _legal(view), act, arg, ui)

    # --- the result of a deal ------------------------------------------------------------

    def deal_result(
        self, ctx: TableContext, lines: Sequence[Line], view: View[Any], tr: Translator
    ) -> str:
        end = next((ln for ln in reversed(lines) if ln.get("t") == "deal_end"), None)
        if end is None:
            return ""
        loc = tr.locale
        names = ctx.names
        trump = end.get("trump")
        out = [
            tr(
                "📋 <b>Deal {no}</b> · trump {suit}",
                no=end["no"],
                suit=SUIT_SYMBOL[Suit(trump)] if trump else "—",
            )
        ]
        seats: list[dict[str, Any]] = end.get("seats", [])
        result = end.get("result")
        if result == "walkover":
            lone = next((s for s in seats if s["status"] == "walkover"), None)
            if lone is not None:
                out.append(
                    tr(
                        "Walkover: everyone passed; {name} takes the deal.",
                        name=esc(names[lone["seat"]]),
                    )
                )
        if result == "instant":
            win = next((ln for ln in lines if ln.get("e") == "instant_win"), None)
            if win is not None:
                out.append(
                    tr(
                        "Instant win: {name} shows {cards}.",
                        name=esc(names[win["seat"]]),
                        cards=card_names(win["cards"], loc),
                    )
                )
        tricks = []
        for s in seats:
            who = esc(names[s["seat"]])
            if s["status"] == "passed":
                tricks.append(tr("{name} passed", name=who))
            else:
                tricks.append(f"{who} {s['tricks']}")
        out.append(tr("Tricks: {list}", list=" · ".join(tricks)))
        written = [
            f"{esc(names[s['seat']])} {s['before']}→{s['before'] - s['written_off']}"
            for s in seats
            if s["written_off"]
        ]
        out.append(tr("Written off: {list}", list=" · ".join(written) or "—"))
        remises = [
            tr("{name} +{r} → {after}", name=esc(names[s["seat"]]), r=s["remise"], after=s["after"])
            for s in seats
            if s["remise"]
        ]
        out.append(tr("Remises: {list}", list=" · ".join(remises) or "—"))
        over = [
            tr("{name} → back to {n}", name=esc(names[s["seat"]]), n=s["after"])
            for s in seats
            if s["overshoot"]
        ]
        out.append(tr("Overshoot: {list}", list=" · ".join(over) or "—"))
        for ln in lines:
            if ln.get("e") == "pamfil_bonus":
                out.append(
                    tr(
                        "Side ledger: {name} announced pamfil: +{n} from each",
                        name=esc(names[ln["seat"]]),
                        n=ln["amount"],
                    )
                )
            elif ln.get("e") == "flush_bonus":
                out.append(
                    tr(
                        "Side ledger: {name} has the best flush: +{n} from each",
                        name=esc(names[ln["seat"]]),
                        n=ln["amount"],
                    )
                )
        if view.phase != "over" and view.dealer is not None:
            out.append(tr("Next deal: {name} deals", name=esc(names[view.dealer])))
        return "\n".join(out)


def _b36(ctx: TableContext) -> str:
    from bot.callbacks import b36

    return b36(ctx.table_id)


class _Shim(TrickUI):  # temporary until the seam branch lands
    def match_result(self, ctx, end, standings, generation, tr, codec):  # type: ignore[no-untyped-def]
        from bot.render import results

        return results.pulka_result(
            ctx.table_id,
            ctx.game,
            ctx.pulka_no,
            generation,
            list(ctx.names),
            end,
            standings,
            tr,
            codec,
        )

    def stale(self, last, act, arg):  # type: ignore[no-untyped-def]
        from bot.render.games.base import Deny

        if act == "p" and str(last) == f"card {arg}":
            return Deny("Already played: {card}.", {"card": arg})
        return None

    def rules_summary(self, game, tr):  # type: ignore[no-untyped-def]
        return tr("Rules for this game come later.")
