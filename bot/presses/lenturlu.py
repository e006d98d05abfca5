"""Лентюрлю's run picking (RULES.md §3.2.1, §3.3): what a press on a hand message means.

A run is picked by taps, carried in :class:`~bot.presses.meaning.HandUI`: ``marks`` holds the
card codes tapped so far, ``mode`` says what the next tap picks.

* mode ``""`` (no marks): a card tap (``f``) picks the run's first card; when only one run starts
  there (no card of the next rank), it is played at once.
* mode ``"r"`` (marks: the first card): a tap (``l``) picks the last card (the first card again: a
  run of one); when the hand holds one card of each rank in between, the run is played.
* mode ``"m"`` (marks: first, last, the middle cards chosen so far): one row (``c``) asks which card
  of the lowest middle rank still open where the hand holds two or more; the last answer plays.

``z`` undoes the last tap (↩️), ``b`` buys (arg ``1``/``2``), ``n`` passes, ``u`` refreshes.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum

from bot.presses.meaning import (
    UNKNOWN,
    Apply,
    Deny,
    HandMode,
    HandUI,
    Interpretation,
    ModeKind,
    SetUI,
    card_of,
)
from bot.refused import BotRefusal
from engine.actions import Buy, Pass
from engine.cards import RANK_VALUE, SUIT_ORDER, Card
from engine.lenturlu.actions import LenturluAction, Run
from engine.lenturlu.view import LenturluView


class LenturluAct(StrEnum):
    """What a Лентюрлю hand button does (its wire code)."""

    FIRST = "f"  # pick a run's first card
    LAST = "l"  # pick a run's last card
    MIDDLE = "c"  # pick a middle card of the run
    BACK = "z"  # undo the last tap
    BUY = "b"  # buy (arg ``1`` or ``2``)
    PASS = "n"  # pass
    REFRESH = "u"  # draw the hand again


def value(card: Card) -> int:
    return RANK_VALUE[card.rank]


def order(cards: Sequence[Card]) -> list[Card]:
    """Rank ascending (A low), then suits ♠ ♣ ♦ ♥: the order a Лентюрлю hand is shown in."""
    return sorted(cards, key=lambda c: (value(c), SUIT_ORDER.index(c.suit)))


def by_value(hand: Sequence[Card]) -> dict[int, list[Card]]:
    out: dict[int, list[Card]] = {}
    for c in order(hand):
        out.setdefault(value(c), []).append(c)
    return out


def may_run(view: LenturluView) -> bool:
    return any(isinstance(a, Run) for a in view.legal)


def need(view: LenturluView) -> int | None:
    """The rank value a follow must start at (None: a lead, any rank)."""
    return None if view.leading or view.top is None else value(view.top) + 1


def starts(view: LenturluView) -> list[Card]:
    """Cards a legal run may start with (§3.2.3, §3.2.4)."""
    if not may_run(view):
        return []
    start = need(view)
    return [c for c in order(view.hand) if start is None or value(c) == start]


def reach(hand: Sequence[Card], first: Card) -> int:
    """The highest rank value a run from ``first`` can reach (consecutive ranks held)."""
    values = {value(c) for c in hand}
    top = value(first)
    while top + 1 in values:
        top += 1
    return top


def lasts(hand: Sequence[Card], first: Card) -> list[Card]:
    """Cards a run from ``first`` may end on: ``first`` itself or any card up to its reach."""
    low, high = value(first), reach(hand, first)
    return [first] + [c for c in order(hand) if low < value(c) <= high]


def open_rank(hand: Sequence[Card], marks: Sequence[Card]) -> list[Card] | None:
    """The cards of the lowest middle rank still to choose (first, last = marks[0], marks[1];
    marks[2:] the middle cards chosen); None when every middle rank is settled."""
    groups = by_value(hand)
    chosen = {value(c) for c in marks[2:]}
    for v in range(value(marks[0]) + 1, value(marks[1])):
        cards = groups.get(v, [])
        if len(cards) > 1 and v not in chosen:
            return cards
    return None


def assemble(hand: Sequence[Card], marks: Sequence[Card]) -> Run:
    """The run of marks (first, last, middle choices): the only card of each other middle rank."""
    groups = by_value(hand)
    chosen = {value(c): c for c in marks[2:]}
    first, last = marks[0], marks[1]
    middle = [chosen.get(v) or groups[v][0] for v in range(value(first) + 1, value(last))]
    return Run((first, *middle, last) if last != first else (first,))


def marked(view: LenturluView, ui: HandUI) -> list[Card] | None:
    """The marks as cards, if they still make sense for this hand (else None: start over)."""
    cards = [card_of(m) for m in ui.marks]
    if any(c is None or c not in view.hand for c in cards):
        return None
    out = [c for c in cards if c is not None]
    if ui.mode.kind is ModeKind.RUN_FIRST and len(out) == 1 and out[0] in starts(view):
        return out
    if ui.mode.kind is not ModeKind.RUN or len(out) < 2 or out[0] not in starts(view):
        return None
    low, high = value(out[0]), value(out[1])
    middle = [value(c) for c in out[2:]]
    if out[1] not in lasts(view.hand, out[0]) or len(set(middle)) != len(middle):
        return None
    return out if all(low < v < high for v in middle) else None


def _play(view: LenturluView, run: Run) -> Interpretation:
    if run in view.legal:
        return Apply(run)
    return Deny(BotRefusal.RUN_NOT_NOW)


def _after_last(view: LenturluView, marks: list[Card]) -> Interpretation:
    if open_rank(view.hand, marks) is None:
        return _play(view, assemble(view.hand, marks))
    return SetUI(HandUI(tuple(str(c) for c in marks), HandMode(ModeKind.RUN)))


def interpret(view: LenturluView, act: str, arg: str | None, ui: HandUI) -> Interpretation:
    """What a press on a Лентюрлю hand means (see the module's note)."""
    match act:
        case LenturluAct.PASS:
            return Apply(Pass()) if Pass() in view.legal else Deny(BotRefusal.NO_PASS_NOW)
        case LenturluAct.BUY if arg in ("1", "2"):
            buy = Buy(int(arg))
            return Apply(buy) if buy in view.legal else Deny(BotRefusal.NO_BUY_NOW)
        case LenturluAct.BACK:
            marks = marked(view, ui) or []
            if len(marks) <= 1:
                return SetUI(HandUI())
            if len(marks) == 2:
                return SetUI(HandUI((str(marks[0]),), HandMode(ModeKind.RUN_FIRST)))
            return SetUI(HandUI(tuple(str(c) for c in marks[:-1]), HandMode(ModeKind.RUN)))
        case _:
            card = card_of(arg or "")
            if card is None or card not in view.hand:
                return UNKNOWN
            return _tap(view, act, card, ui)


def _tap(view: LenturluView, act: str, card: Card, ui: HandUI) -> Interpretation:
    """A card of the hand tapped: a run's first card, its last, or one of its middle cards."""
    picked = marked(view, ui)
    match act:
        case LenturluAct.FIRST:
            if card not in starts(view):
                return _no_start(view)
            if reach(view.hand, card) == value(card):
                return _play(view, Run((card,)))  # the only run that starts there
            return SetUI(HandUI((str(card),), HandMode(ModeKind.RUN_FIRST)))
        case LenturluAct.LAST if picked is not None and len(picked) == 1:
            if card not in lasts(view.hand, picked[0]):
                return Deny(BotRefusal.RUN_BY_ONE_RANK)
            return _after_last(view, [picked[0], card])
        case LenturluAct.MIDDLE if picked is not None and len(picked) >= 2:
            row = open_rank(view.hand, picked)
            if row is None or card not in row:
                return UNKNOWN
            return _after_last(view, [*picked, card])
        case _:
            return UNKNOWN


def _no_start(view: LenturluView) -> Deny:
    if not may_run(view) or view.top is None:
        return Deny(BotRefusal.NO_RUN_NOW)
    return Deny(BotRefusal.RUN_GOES_ON_FROM, {"card": str(view.top)})


def stale(last: object | None, act: str, arg: str | None) -> Deny | None:
    """A press repeating the presser's own last action."""
    if (
        act in (LenturluAct.FIRST, LenturluAct.LAST, LenturluAct.MIDDLE)
        and isinstance(last, Run)
        and arg in {str(c) for c in last.cards}
    ):
        return Deny(BotRefusal.ALREADY_PLAYED, {"card": arg})
    if act == LenturluAct.BUY and isinstance(last, Buy):
        return Deny(BotRefusal.BOUGHT_ALREADY, {"n": last.k})
    if act == LenturluAct.PASS and isinstance(last, Pass):
        return Deny(BotRefusal.ALREADY_PASSED)
    return None


def legal_kinds(legal: Sequence[LenturluAction]) -> tuple[list[int], bool]:
    """The legal buys' sizes and whether a pass is legal."""
    return [a.k for a in legal if isinstance(a, Buy)], any(isinstance(a, Pass) for a in legal)
