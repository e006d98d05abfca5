"""/rules in private: a game's whole rules as a person explains them — the paragraphs of
:mod:`bot.render.how_to_play` (one source with the terminal's ``rules``), then what a table may
change and one short worked example — as few messages as fit Telegram's limits."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

from bot.i18n import N_, Translator
from bot.markup import Html, esc
from bot.message_limits import pages
from bot.render.how_to_play import TRICK_GAMES, rules_paragraphs, rules_title

TRICK_CHOICES: Final = N_(
    "Your choices. Play or pass: who plays tries to take tricks — each brings his count down, "
    "none costs a remise; who passes sits the deal out, his count unchanged. The dealer may "
    "not pass when only one other player plays; when everyone else passes, the dealer writes "
    "off 5 without playing. Exchange: discard the cards that won't take a trick and draw as "
    "many from the stock — the dealer may take the turned-up card, where there is one, instead "
    "of one of them."
)
"""The trick family's decisions, and what each means."""

CHOICES: Final[Mapping[str, str]] = MappingProxyType(
    {
        **dict.fromkeys(TRICK_GAMES, TRICK_CHOICES),
        "kopilka": N_(
            "Your choices. Lead: any card but the suit of the last trick — a low card of a "
            "cheap suit risks little; a high card of a dear suit brings points but may be "
            "beaten. Follow: holding the suit led, you must play it (or the A♠) — high to take "
            "the trick and its points, low to keep your high cards for later. Without the "
            "suit: the A♠, or buy 1 or 2 cards (a chance to follow, but more cards to shed), "
            "or pass. A good player weighs a trick's worth against being the first with no "
            "cards: the deal's winner pays no fee, and a deal without a trick costs a fine."
        ),
        "lenturlu": N_(
            "Your choices. Lead: any run of your cards — a long run sheds many cards at once, "
            "a run with a lenturlu card takes its money, a king at its end closes the pile and "
            "you lead again. Follow: go on from one rank above the top, or buy 1 or 2 cards, "
            "or pass; who can't go on must buy while the stock lasts. A king played onto "
            "another player's pile wins the deal: a good player keeps his kings for that, "
            "sheds long runs and takes the money on the lenturlu cards when he can."
        ),
        "konchinka": N_(
            "Your choices. A move is one card. If any of your cards can take, you must take — "
            "but which card and what it takes is yours to choose: more cards count toward the "
            "most cards, clubs toward the most clubs, and the 2♣ and the 10♦ are a point each. "
            "Taking the whole table leaves the next player only a card to lay down. If nothing "
            "can take, you lay a card on the table: a good player lays one that gives little — "
            "no club, no konchinka, none that adds up with the table's cards to an easy take."
        ),
    }
)
"""Each game's decisions, what each means and what a good player weighs."""

TRICK_OPTIONS: Final = N_(
    "What a table may change: the starting count (25, often 30; lower — shorter pulkas), the "
    "price of a point of count (1), a fixed pulka fee each loser pays on top (0), and «must "
    "trump»: without the suit led you must play a trump if you hold one (off by default)."
)

OPTIONS: Final[Mapping[str, tuple[str, ...]]] = MappingProxyType(
    {
        "mushka": (TRICK_OPTIONS,),
        "pamfil": (
            TRICK_OPTIONS,
            N_("The pamfil bonus (5) is what each other player pays for an announced J♣."),
        ),
        "shutikha": (TRICK_OPTIONS,),
        "mistigri": (
            TRICK_OPTIONS,
            N_("The flush bonus (5) is what each other player pays to the best shown flush."),
        ),
        "kopilka": (
            N_(
                "What a table may change: the payment into the bank (20), what the bank pays "
                "per point (1), the fine for a deal without a trick (5), the fee of every "
                "player but the deal's winner (5), and whether one holding the suit led may "
                "pass for a fine (off; the fine 5)."
            ),
        ),
        "lenturlu": (
            N_(
                "What a table may change: how a deal ends — by a king played onto another "
                "player's pile, or only by the first to play out his cards (then a king just "
                "closes the pile); what the others pay the winner — a fixed sum, per card left "
                "in hand, or per hand point (A 1, 2–10 their value, J Q K 10, the lenturlu "
                "cards double); the rate (1), the stake on each card (1) and the refill of a "
                "taken card (1)."
            ),
        ),
        "konchinka": (
            N_(
                "What a table may change: the target (15); «court values» — K 13, Q 12, J 11 "
                "take by sums too, and the jack no longer sweeps; and the money — the losers "
                "pay per point short of the target (1 a point), or everyone stakes into a pot "
                "(10) the winner takes."
            ),
        ),
    }
)
"""Each game's options, said where they matter (the defaults in brackets)."""

TRICK_EXAMPLE: Final = N_(
    "An example. Counts start at 25. You play and take two tricks: 25 − 2 = 23. Next deal you "
    "play and take none: a remise, 23 + 5 = 28. Later, at 3, you take three tricks and win the "
    "pulka; a player left at 9 pays you 9 points."
)

EXAMPLES: Final[Mapping[str, str]] = MappingProxyType(
    {
        "mushka": N_(
            "An example. Counts start at 25. You hold the A♠ (spades not trump), play and take "
            "three tricks: 6 + 1 + 1 = 8, your count is 17. Next deal you play without the "
            "mushka and take none: a remise, 17 + 5 = 22. Who reaches zero first wins; a "
            "player left at 9 pays him 9 points."
        ),
        "pamfil": TRICK_EXAMPLE,
        "shutikha": N_(
            "An example. Counts start at 25. Your Q♠ wins a trick and two more tricks are "
            "yours: 8 + 1 + 1 = 10, your count is 15. If the K♠ had beaten your Q♠, that "
            "trick would write off 5 for its player and 4 for you. Who reaches zero first "
            "wins; a player left at 9 pays him 9 points."
        ),
        "mistigri": N_(
            "An example. Counts start at 25. You hold the K♣ (clubs not trump), play and take "
            "two tricks: 6 + 1 = 7, your count is 18. Dealt K♣ with four hearts, you would win "
            "the pulka at once. Who reaches zero first wins; a player left at 9 pays him 9 "
            "points."
        ),
        "kopilka": N_(
            "An example. A hearts trick is worth 4; won by the A♥ or the A♠, 8. In a deal you "
            "take a ♠ trick and a ♥ trick won by your A♥: 1 + 8 = 9 points. Another player "
            "plays out his cards first and wins the deal; you pay the fee 5 into the bank. "
            "After four deals the bank pays everyone by points, and the rest goes to the "
            "last deal's winner."
        ),
        "lenturlu": N_(
            "An example. On the pile 4 5 you play 6 7♦ 8: the 7♦ takes the money on it, and "
            "the next player goes on from 9. Everyone passes: you lead a new pile. Later "
            "you play a K onto another player's Q: you win the deal and the rest of the "
            "layout, and each other player pays you."
        ),
        "konchinka": N_(
            "An example. On the table: 3, 5, 8♦, K. You play an 8♣: it takes the 8♦ and the 3 "
            "with the 5 at once — four cards with your own. The K there waits for a K; a J "
            "would take the whole table. At the end: most cards 2, most clubs 1, the 2♣ and "
            "the 10♦ 1 each."
        ),
    }
)
"""Each game's worked example: one short deal or move, with its numbers."""


def rules_pages(game: str, tr: Translator) -> list[Html]:
    """The game's full rules (HTML) as few messages as fit: its name, the rules, what a table
    may change, an example — each a paragraph, none split while it fits a message."""
    title = Html(f"<b>{esc(rules_title(game, tr))}</b>")
    choices = [tr(CHOICES[game])] if game in CHOICES else []
    paragraphs = [*rules_paragraphs(game, tr), *choices, *(tr(o) for o in OPTIONS.get(game, ()))]
    if game in EXAMPLES:
        paragraphs.append(tr(EXAMPLES[game]))
    blocks = [[title, ""], *([str(esc(p)), ""] for p in paragraphs)]
    return pages(blocks)
