"""The terminal's own words for the hand screens' Telegram instructions («нажмите на них»):
the screens are drawn with a translator whose catalogue has, under those msgids, the
terminal's texts (keyed by the msgid, so no screen's code changes)."""

from __future__ import annotations

import dataclasses

from bot.i18n import Translator


def terminal_words(tr: Translator) -> Translator:
    """``tr`` with each tap-and-press instruction of the hand screens said for a keyboard (the
    same placeholders as the text it stands for)."""
    instead = {
        "To exchange cards, tap them.": tr(
            "To exchange cards, type them (together or one by one), then Enter."
        ),
        "Mark cards to exchange (up to {n}; stock {stock}). Marked: {k}": tr(
            "Type the cards to exchange (up to {n}; stock {stock}), then Enter."
        ),
        "The Q♠ was dealt out of the stock: you received {n} more. "
        "Discard {n} (never the Q♠). Marked: {k}": tr(
            "The Q♠ was dealt out of the stock: you received {n} more. "
            "Discard {n} (never the Q♠): type them, then Enter."
        ),
        "<b>Your move.</b> Nothing to capture: tap a card to lay it out.": tr(
            "<b>Your move.</b> Nothing to capture: type a card to lay it out."
        ),
        "<b>Your move.</b> The table is empty: tap a card to lay it out.": tr(
            "<b>Your move.</b> The table is empty: type a card to lay it out."
        ),
        "<b>Your move.</b> You must capture: tap a card.": tr(
            "<b>Your move.</b> You must capture: type your card (and the cards it takes)."
        ),
        "Lead any card: tap it.": tr("Lead any card: type it."),
        "Your lead: tap the first card of a run (any rank).": tr(
            "Your lead: type a run's cards (any rank), together or one by one, then Enter."
        ),
        "Go on from {card}: tap a run's first card, or buy, or pass.": tr(
            "Go on from {card}: type a run's cards, or buy 1 or 2, or pass."
        ),
        "Go on from {card}: tap a run's first card, or pass.": tr(
            "Go on from {card}: type a run's cards, or pass."
        ),
    }
    return dataclasses.replace(tr, messages={**tr.messages, **instead})  # plurals kept
