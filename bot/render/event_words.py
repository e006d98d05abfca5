"""A record's events in words (PRODUCT.md §18): one short sentence per event class of the four
books, seats by name, cards and suits in the locale's notation — the transcript's and the replay
page's event lines."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

from bot.i18n import Translator
from bot.render.cards import SUIT_SYMBOL, card_name, card_names
from engine.cards import Card
from engine.events import Event
from engine.konchinka.events import CardDrawn, Certain, LastTake, TableFixed, TableLaid
from engine.kopilka.events import (
    Ante,
    Blocked,
    DrawWhy,
    Fined,
    FineKind,
    KopilkaTrickWon,
    LaidOut,
    LeadFreed,
    LeadPassed,
    Returned,
    StockDrawn,
    Taken,
    TookBack,
    WentOut,
)
from engine.lenturlu.events import Bought, PileClosed, Refilled, StakeTaken, Stopped
from engine.trick.events import (
    DealtOut,
    Exchanged,
    FlushBonus,
    FlushShown,
    InstantWin,
    PamfilBonus,
    TrickWon,
    TrumpSet,
    Walkover,
)


def event_words(event: Event, names: Sequence[str], tr: Translator) -> str | None:
    """``event`` in a short sentence (None: a class with no words yet)."""
    words = EVENT_WORDS.get(type(event))
    return None if words is None else words(event, names, tr)


def _cards(cards: Sequence[Card], tr: Translator) -> str:
    return card_names(cards, tr.locale)


def _plays(plays: Sequence[tuple[int, Card]], winner: int, tr: Translator) -> tuple[str, str]:
    """The trick's cards in play order, and the winner's card."""
    said = " ".join(card_name(card, tr.locale) for _, card in plays)
    won = next((card_name(card, tr.locale) for seat, card in plays if seat == winner), "")
    return said, won


# the trick family (RECORD.md §R6)


def _trump(e: TrumpSet, names: Sequence[str], tr: Translator) -> str:
    suit = SUIT_SYMBOL[e.suit]
    if e.card is None:
        return tr("Trump: {suit}", suit=suit)
    card = card_name(e.card, tr.locale)
    if e.retrump:
        return tr("Trump changed to {suit} ({card})", suit=suit, card=card)
    return tr("Trump: {suit} (turned up {card})", suit=suit, card=card)


def _exchange(e: Exchanged, names: Sequence[str], tr: Translator) -> str:
    name = names[e.seat]
    if e.discarded:
        said = tr(
            "{name} exchanges {discarded} for {drawn}",
            name=name,
            discarded=_cards(e.discarded, tr),
            drawn=_cards(e.drawn, tr),
        )
    else:
        said = tr("{name} keeps the hand", name=name)
    return f"{said} {tr('(takes the turn-up)')}" if e.up else said


def _pamfil(e: PamfilBonus, names: Sequence[str], tr: Translator) -> str:
    return tr(
        "{name} announces pamfil: {n} from each of the others", name=names[e.seat], n=e.amount
    )


def _flush(e: FlushShown, names: Sequence[str], tr: Translator) -> str:
    return tr.n(
        "{name} shows a {suit} flush: {cards}, {n} point",
        "{name} shows a {suit} flush: {cards}, {n} points",
        e.points,
        name=names[e.seat],
        suit=SUIT_SYMBOL[e.suit],
        cards=_cards(e.cards, tr),
    )


def _flush_bonus(e: FlushBonus, names: Sequence[str], tr: Translator) -> str:
    return tr("{name}: the best flush, {n} from each of the others", name=names[e.seat], n=e.amount)


def _instant(e: InstantWin, names: Sequence[str], tr: Translator) -> str:
    return tr(
        "{name} wins the pulka at once: {cards}", name=names[e.seat], cards=_cards(e.cards, tr)
    )


def _walkover(e: Walkover, names: Sequence[str], tr: Translator) -> str:
    return tr("Everyone passed: the deal is {name}'s", name=names[e.seat])


def _dealt_out(e: DealtOut, names: Sequence[str], tr: Translator) -> str:
    return tr(
        "{name} is dealt {card} from the stock",
        name=names[e.seat],
        card=card_name(e.card, tr.locale),
    )


def _trick(e: TrickWon, names: Sequence[str], tr: Translator) -> str:
    plays, won = _plays(e.plays, e.winner, tr)
    return tr(
        "Trick {no}: {plays} — {name} takes it ({card})",
        no=e.no,
        plays=plays,
        name=names[e.winner],
        card=won,
    )


# Копилка (RECORD.md §R7)


def _ante(e: Ante, names: Sequence[str], tr: Translator) -> str:
    return tr("Ante {n} each, the bank {bank}", n=e.amount, bank=e.bank)


def _laid_out(e: LaidOut, names: Sequence[str], tr: Translator) -> str:
    return tr("{name} lays out {cards}", name=names[e.seat], cards=_cards(e.cards, tr))


def _taken(e: Taken, names: Sequence[str], tr: Translator) -> str:
    return tr(
        "{name} takes {card} from {holder}",
        name=names[e.seat],
        card=card_name(e.card, tr.locale),
        holder=names[e.holder],
    )


def _returned(e: Returned, names: Sequence[str], tr: Translator) -> str:
    return tr("{name} takes back {cards}", name=names[e.seat], cards=_cards(e.cards, tr))


def _stock_drawn(e: StockDrawn, names: Sequence[str], tr: Translator) -> str:
    n = len(e.cards)
    if e.why is DrawWhy.BUY:
        said = tr.n("{name} buys {n} card", "{name} buys {n} cards", n, name=names[e.seat])
    else:
        said = tr.n("{name} draws {n} card", "{name} draws {n} cards", n, name=names[e.seat])
    return f"{said}: {_cards(e.cards, tr)}" if e.cards else said


def _lead_passed(e: LeadPassed, names: Sequence[str], tr: Translator) -> str:
    return tr("{name} can't lead: {to} leads", name=names[e.passer], to=names[e.to])


def _lead_freed(e: LeadFreed, names: Sequence[str], tr: Translator) -> str:
    return tr("Nobody can lead another suit: {name} leads any suit", name=names[e.seat])


def _took_back(e: TookBack, names: Sequence[str], tr: Translator) -> str:
    return tr(
        "Nobody follows: {name} takes {card} back",
        name=names[e.seat],
        card=card_name(e.card, tr.locale),
    )


def _kopilka_trick(e: KopilkaTrickWon, names: Sequence[str], tr: Translator) -> str:
    plays, _ = _plays(e.plays, e.winner, tr)
    trick = tr("Trick {no} · led {suit}: {list}", no=e.no, suit=SUIT_SYMBOL[e.suit], list=plays)
    won = tr.n(
        "{name} takes it: {n} point", "{name} takes it: {n} points", e.points, name=names[e.winner]
    )
    said = f"{trick} — {won}"
    return f"{said} {tr('(doubled by the ace)')}" if e.double else said


def _fined(e: Fined, names: Sequence[str], tr: Translator) -> str:
    name = names[e.seat]
    match e.kind:
        case FineKind.HOLD_PASS:
            return tr(
                "{name}: fine {n} for passing with the suit, the bank {bank}",
                name=name,
                n=e.amount,
                bank=e.bank,
            )
        case FineKind.NO_TRICK:
            return tr(
                "{name}: fine {n} for no trick, the bank {bank}", name=name, n=e.amount, bank=e.bank
            )
        case FineKind.DEAL_FEE:
            return tr(
                "{name}: fine {n} for the deal, the bank {bank}", name=name, n=e.amount, bank=e.bank
            )


def _went_out(e: WentOut, names: Sequence[str], tr: Translator) -> str:
    return tr("{name} is out of cards", name=names[e.seat])


def _blocked(e: Blocked, names: Sequence[str], tr: Translator) -> str:
    return tr(
        "Four take-backs in a row: the fewest cards, {name} wins the deal", name=names[e.winner]
    )


# Лентюрлю (RECORD.md §R8)


def _bought(e: Bought, names: Sequence[str], tr: Translator) -> str:
    said = tr.n("{name} buys {n} card", "{name} buys {n} cards", len(e.cards), name=names[e.seat])
    return f"{said}: {_cards(e.cards, tr)}" if e.cards else said


def _stake(e: StakeTaken, names: Sequence[str], tr: Translator) -> str:
    return tr(
        "{name} takes the stake on {card}: {n}",
        name=names[e.seat],
        card=card_name(e.card, tr.locale),
        n=e.amount,
    )


def _refill(e: Refilled, names: Sequence[str], tr: Translator) -> str:
    card = card_name(e.card, tr.locale)
    refilled = tr("{card} refilled: {n} from each of the others", card=card, n=e.each)
    return f"{refilled}, {tr('now {n} on it', n=e.amount)}"


def _closed(e: PileClosed, names: Sequence[str], tr: Translator) -> str:
    return tr(
        "{name} closes the pile with {card} and leads",
        name=names[e.seat],
        card=card_name(e.card, tr.locale),
    )


def _stopped(e: Stopped, names: Sequence[str], tr: Translator) -> str:
    return tr("Nobody can go on: {name} leads", name=names[e.seat])


# Кончинка (RECORD.md §R9)


def _table_fix(e: TableFixed, names: Sequence[str], tr: Translator) -> str:
    return tr(
        "Table place {place}: {card} back into the stock, {replacement} instead",
        place=e.place,
        card=card_name(e.card, tr.locale),
        replacement=card_name(e.replacement, tr.locale),
    )


def _table(e: TableLaid, names: Sequence[str], tr: Translator) -> str:
    return tr("On the table: {cards}", cards=_cards(e.cards, tr))


def _drawn(e: CardDrawn, names: Sequence[str], tr: Translator) -> str:
    return tr("{name} draws {card}", name=names[e.seat], card=card_name(e.card, tr.locale))


def _last_take(e: LastTake, names: Sequence[str], tr: Translator) -> str:
    cards = _cards(e.cards, tr)
    if e.seat is None:
        return tr("Left on the table, to nobody: {cards}", cards=cards)
    return tr(
        "Left on the table, to the last capture ({name}): {cards}", name=names[e.seat], cards=cards
    )


def _certain(e: Certain, names: Sequence[str], tr: Translator) -> str:
    said = tr("{name} wins whatever is left: the game ends early", name=names[e.seat])
    points = " · ".join(f"{n} {g}" for n, g in zip(names, e.guaranteed, strict=False))
    return f"{said} ({tr('points certain: {list}', list=points)})"


EVENT_WORDS: Final[Mapping[type[Event], Callable[[Any, Sequence[str], Translator], str]]] = {
    TrumpSet: _trump,
    Exchanged: _exchange,
    PamfilBonus: _pamfil,
    FlushShown: _flush,
    FlushBonus: _flush_bonus,
    InstantWin: _instant,
    Walkover: _walkover,
    DealtOut: _dealt_out,
    TrickWon: _trick,
    Ante: _ante,
    LaidOut: _laid_out,
    Taken: _taken,
    Returned: _returned,
    StockDrawn: _stock_drawn,
    LeadPassed: _lead_passed,
    LeadFreed: _lead_freed,
    TookBack: _took_back,
    KopilkaTrickWon: _kopilka_trick,
    Fined: _fined,
    WentOut: _went_out,
    Blocked: _blocked,
    Bought: _bought,
    StakeTaken: _stake,
    Refilled: _refill,
    PileClosed: _closed,
    Stopped: _stopped,
    TableFixed: _table_fix,
    TableLaid: _table,
    CardDrawn: _drawn,
    LastTake: _last_take,
    Certain: _certain,
}
"""Each event class's words, by class (the transcript falls back to the raw keys without)."""
