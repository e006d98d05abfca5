"""The trick family's words outside the table: /rules, the lobby's option buttons, the name
of one game of a table (a pulka)."""

from __future__ import annotations

from typing import Final

from bot.i18n import Translator

OPTION_STEPS: Final[dict[str, tuple[int, ...]]] = {
    "target": (5, 10, 15, 20, 25, 30, 40, 50),
    "pulka_fee": (0, 5, 10, 20, 50, 100),
    "point_value": (1, 2, 5, 10, 0),
    "pamfil_bonus": (5, 10, 0, 1, 2),
    "flush_bonus": (5, 10, 0, 1, 2),
}
"""The values an integer option's lobby button steps through (PRODUCT.md §4.2)."""


def option_label(name: str, tr: Translator) -> str:
    labels = {
        "target": tr("count"),
        "pulka_fee": tr("pulka fee"),
        "point_value": tr("point"),
        "must_trump": tr("must trump"),
        "pamfil_bonus": tr("pamfil bonus"),
        "flush_bonus": tr("flush bonus"),
    }
    return labels.get(name, name)


def rules_summary(game: str, tr: Translator) -> str:
    texts = {
        "mushka": tr(
            "Mushka: 5 cards each, a trump is turned up. Declare play or pass, exchange up to 5 "
            "cards, then 5 tricks; each trick writes 1 off your count, the A♠ (mushka) more. "
            "A player who plays and takes no trick gets a remise. First to zero wins the pulka."
        ),
        "pamfil": tr(
            "Pamfil: like Mushka, but the J♣ (pamfil) is the privileged card; its holder may "
            "announce it for a side bonus, and a turned-up J♣ lets the dealer name the trump."
        ),
        "shutikha": tr(
            "Shutikha: spades are always trump and the Q♠ (shutikha) is privileged; five spades "
            "with the Q♠ win the pulka at once. Kings rank highest."
        ),
        "mistigri": tr(
            "Mistigri: the K♣ (mistigri) is privileged; flushes earn a side bonus, and the K♣ "
            "with four cards of one suit wins the pulka at once. Kings rank highest."
        ),
    }
    return texts.get(game, tr("Rules for this game come later."))
