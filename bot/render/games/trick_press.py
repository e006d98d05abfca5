"""What a press on a trick-family hand message means (PRODUCT.md §6.3, §7.2 step 7).

The screens of the family are :mod:`bot.render.games.trick`; this module only reads presses.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.render.context import HandUI
from bot.render.games.base import Apply, Deny, Interpretation, SetUI
from engine.core import View
from engine.errors import Refusal


def interpret(
    view: View[Any], legal: Sequence[str], act: str, arg: str | None, ui: HandUI
) -> Interpretation:
    """What a press on a trick-family hand means (PRODUCT.md §6.3): an engine action, a new
    mark or mode on the hand message, or a refusal before the engine sees it. ``legal`` is the
    view's legal actions as RECORD.md text."""
    cards = [c for c in (arg or "").split(".") if c]
    if act == "p" and len(cards) == 1:
        return Apply(f"card {cards[0]}")
    if act == "n":
        return Apply("pass")
    if act == "a":
        return Apply("announce")
    if act == "y":
        if any(a.startswith("play ") and n_of(a) > 0 for a in legal):
            return SetUI(HandUI((), "x"))
        return Apply("play 0")
    if act == "m" and len(cards) == 1:
        card = cards[0]
        marks = list(ui.marks)
        if card in marks:
            marks.remove(card)
        else:
            if card not in discardable(legal):
                return Deny("Not allowed: {reason}.", engine=Refusal.PRIVILEGED_NOT_DISCARDED)
            if view.phase == "discard":
                limit = max(
                    (len(a.split()) - 1 for a in legal if a.startswith("discard ")), default=1
                )
                if len(marks) >= limit:
                    return Deny("No more: discard {n}.", {"n": limit})
            else:
                limit = exchange_limit(legal)
                if len(marks) >= limit:
                    return Deny("No more: the stock has {n}.", {"n": limit})
            marks.append(card)
        mode = "q" if view.phase == "discard" else "x"
        return SetUI(HandUI(tuple(marks), mode))
    if act == "x":
        up = "u" in cards
        chosen = [c for c in cards if c != "u"]
        wanted = (frozenset(chosen), up)
        for action in legal:
            words = action.split()
            if words[0] == "play" and (frozenset(words[2:]) - {"up"}, "up" in words) == wanted:
                return Apply(action)
        text = " ".join(["play", str(len(chosen)), *chosen] + (["up"] if up else []))
        return Apply(text)
    if act == "q":
        chosen = cards or list(ui.marks)
        if not chosen:
            return Deny("Unknown button.")
        return Apply("discard " + " ".join(chosen))
    if act == "t" and len(cards) == 1:
        return SetUI(HandUI((), f"t:{cards[0]}"))
    if act == "t" and len(cards) == 2:
        return Apply(f"retrump {cards[0]} {cards[1]}")
    if act == "z":
        return SetUI(HandUI())
    if act == "u":
        return SetUI(ui)
    return Deny("Unknown button.")


def n_of(action: str) -> int:
    words = action.split()
    return int(words[1]) if len(words) > 1 and words[1].isdigit() else 0


def discardable(legal: Sequence[str]) -> set[str]:
    """Cards some legal ``play``/``discard`` action gives up (never the privileged card)."""
    return {
        word
        for a in legal
        if a.startswith(("play ", "discard "))
        for word in a.split()[1:]
        if word not in ("up",) and not word.isdigit()
    }


def exchange_limit(legal: Sequence[str]) -> int:
    return max((n_of(a) for a in legal if a.startswith("play ")), default=0)
