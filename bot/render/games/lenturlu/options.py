"""Лентюрлю's enum options in words (RULES.md §3.6): the manner (§3.4.2) and the payment
scheme (§3.5.2), for the lobby's options line and buttons."""

from __future__ import annotations

from bot.i18n import Translator


def option_value(name: str, value: str, tr: Translator) -> str | None:
    if name == "manner":
        return {"king": tr("covering with a king wins"), "out": tr("first out wins")}.get(value)
    if name == "payment":
        words = {
            "fixed": tr("fixed"),
            "cards": tr("per card in hand"),
            "points": tr("per hand point"),
        }
        return words.get(value)
    return None
