"""Копилка's words outside the table: /rules, the lobby's option buttons (RULES.md §2.7)."""

from __future__ import annotations

from typing import Final

from bot.i18n import Translator

OPTION_STEPS: Final[dict[str, tuple[int, ...]]] = {
    "ante": (20, 50, 100, 200, 0, 10),
    "point_rate": (1, 2, 5, 10, 0),
    "no_trick_fine": (5, 10, 20, 0, 1, 2),
    "deal_fee": (5, 10, 20, 0, 1, 2),
    "hold_pass_fine": (5, 10, 20, 0, 1, 2),
}
"""The values an integer option's lobby button steps through (PRODUCT.md §4.2)."""


def option_label(name: str, tr: Translator) -> str:
    labels = {
        "ante": tr("ante"),
        "point_rate": tr("per point"),
        "no_trick_fine": tr("no-trick fine"),
        "deal_fee": tr("deal fee"),
        "hold_pass": tr("pass holding the suit"),
        "hold_pass_fine": tr("fine for that pass"),
    }
    return labels.get(name, name)


def rules_summary(tr: Translator) -> str:
    return tr(
        "Kopilka: 4 players, 32 cards, no trumps; a partia of 4 deals. Everyone pays the ante "
        "into the bank. 5 cards each, 12 in the stock. A hand with 3 or more cards of one suit "
        "lays them out: each opponent takes one at random, the rest come back, the holder draws "
        "3. The leader plays any card, but not the suit of the last trick. Followers must play "
        "the led suit or the A♠ (it wins any trick); without the suit, buy 1 or 2 from the "
        "stock, play the A♠ or pass. If all three pass, the leader takes the card back. The "
        "first to run out of cards wins the deal. A trick scores its suit: ♠1 ♣2 ♦3 ♥4, double "
        "when won by the suit's ace or the A♠. After each deal, a fine for no trick and a fee "
        "from everyone but the winner go into the bank. After deal 4 the bank pays each "
        "player's points, and the rest goes to the winner of deal 4."
    )
