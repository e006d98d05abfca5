"""Each game's rules in a player's words: the deck, what a deal is, how it is counted, the
special cards — a few short paragraphs from RULES.md, no clause numbers (``rules`` at the
terminal's prompt; the bot's /rules may show the same). Plain text: escape it for HTML."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

from bot.game_names import game_name
from bot.i18n import N_, Translator

TRICK_FAMILY: Final = (
    N_(
        "Deck: 32 cards for 3 players, 36 for 4, 52 for 5 to 7. Every deal gives each player "
        "5 cards; the rest is the stock."
    ),
    N_(
        "A deal: in turn from the dealer's left, each player plays or passes. Who plays may "
        "exchange up to 5 cards from the stock (the discards are out of the deal). Then five "
        "tricks: follow the suit led if you can, else play any card; the highest trump wins, "
        "else the highest card of the suit led. The trick's winner leads the next."
    ),
    N_(
        "The count: everyone starts the pulka at the target. The tricks you take are written "
        "off your count; playing and taking none adds a remise (5) to it. Who brings the count "
        "to exactly zero wins the pulka; below zero, it goes back to the target. The others "
        "pay the winner what is left on their counts."
    ),
)

OWN: Final[Mapping[str, tuple[str, ...]]] = MappingProxyType(
    {
        "mushka": (
            N_(
                "Ranks, high to low: A K Q J 10 9 8 7 6 … 2. Trump: the card turned up after "
                "the deal."
            ),
            N_(
                "The mushka is the A♠. Its holder may not pass. Played to a trick someone else "
                "led, it wins it. Held, the first trick writes off 6 and each more 1 (10 and 2 "
                "with spades trump); taking no trick with it, the remise is 10."
            ),
        ),
        "pamfil": (
            N_(
                "Ranks, high to low: A K Q J 10 9 8 7 6 … 2. Trump: the card turned up after "
                "the deal."
            ),
            N_(
                "The pamfil is the J♣: the highest trump, whatever the trump; it may be played "
                "to any trick and always wins it. Its holder may not pass; dealt it, you may "
                "announce it and everyone pays you. If the J♣ is turned up, the dealer takes "
                "it, discards a card and names the trump. Every trick writes off 1."
            ),
        ),
        "shutikha": (
            N_(
                "Ranks, high to low: K Q J A 10 9 8 7 6 … 2 (the ace below the jack). Spades "
                "are always trump; nothing is turned up."
            ),
            N_(
                "The shutikha is the Q♠. A trick it wins writes off 8; beaten by the K♠, that "
                "trick writes off 5 for the K♠ and 4 for the Q♠. Every other trick: 1. Its "
                "holder may pass and never gets a remise. Five spades with the Q♠ win the "
                "pulka at once."
            ),
        ),
        "mistigri": (
            N_(
                "Ranks, high to low: K Q J A 10 9 8 7 6 … 2 (the ace below the jack). Trump: "
                "the card turned up after the deal."
            ),
            N_(
                "The mistigri is the K♣, as the mushka (A♠) is in Mushka: its holder may not "
                "pass, it wins a trick someone else led, the first trick with it writes off 6 "
                "(10 with clubs trump). Five cards of one suit are shown for a bonus; the K♣ "
                "with four cards of one suit wins the pulka at once."
            ),
        ),
        "kopilka": (
            N_(
                "4 players, 32 cards (A high), no trumps. A partia is 4 deals; everyone first "
                "pays into the bank. 5 cards each; the rest is the stock."
            ),
            N_(
                "Three or more cards of one suit in a hand are laid out: each other player "
                "takes one at random, and their holder draws three from the stock."
            ),
            N_(
                "Lead any card, but not the suit of the last trick. Follow the suit led if you "
                "can; if you can't, buy 1 or 2 from the stock, or pass. The A♠ wins any trick "
                "it is played to. If nobody follows, the leader takes his card back and the "
                "next player leads. The first to have no cards left wins the deal."
            ),
            N_(
                "A trick is worth its suit: ♠ 1, ♣ 2, ♦ 3, ♥ 4, doubled when that suit's ace "
                "or the A♠ wins it. Fines (no trick in a deal, not winning it) go to the "
                "bank; at the end the bank is shared by points, the rest to the last deal's "
                "winner."
            ),
        ),
        "lenturlu": (
            N_(
                "3 to 8 players, 52 cards; suits don't matter: A is 1, 2–10 their value, J 11, "
                "Q 12, K 13. A game is one deal. Everyone stakes on the five lenturlu cards: "
                "7♦ K♥ J♣ A♠ Q♠."
            ),
            N_(
                "The leader starts a pile with a run: cards of consecutive ranks, any suits "
                "(6 7 8), or one card. The next player goes on from one rank higher, or buys 1 "
                "or 2 from the stock, or passes. When everyone else passes, the last to play "
                "leads a new pile; a king closes it. An ace only starts a run."
            ),
            N_(
                "Playing a lenturlu card takes the money on it. A king played onto another "
                "player's pile, or your last card, wins the deal: the winner takes the rest of "
                "the layout, and the others pay him."
            ),
        ),
        "konchinka": (
            N_(
                "2 to 4 players, 52 cards. A is 1, 2–10 their value; K, Q and J have none. 4 "
                "cards each and 4 face up on the table; the rest is the stock."
            ),
            N_(
                "A move plays one card. It takes table cards of its rank, or adding up to its "
                "value (an 8 takes an 8, or a 3 and a 5, or both at once); a K or a Q takes only "
                "its own rank; a J sweeps the whole table. Who can take must take; who can't "
                "lays a card on the table. After each move you draw from the stock."
            ),
            N_(
                "When all cards are played, the last taker gets the table. Points: most cards "
                "2, most clubs 1, each konchinka (2♣ and 10♦) 1. Who reaches the target with "
                "the highest total wins."
            ),
        ),
    }
)
"""Each game's own paragraphs (the trick family's games after :data:`TRICK_FAMILY`'s)."""

TRICK_GAMES: Final = frozenset({"mushka", "pamfil", "shutikha", "mistigri"})


def rules_title(game: str, tr: Translator) -> str:
    """«How to play Mushka»: the heading of the game's rules."""
    return tr("How to play {game}", game=game_name(game, tr.locale))


def rules_paragraphs(game: str, tr: Translator) -> list[str]:
    """The game's rules in a few short paragraphs (plain text), the deck first."""
    own = OWN.get(game, ())
    paragraphs = [*own[:1], *TRICK_FAMILY, *own[1:]] if game in TRICK_GAMES else [*own]
    return [tr(p) for p in paragraphs]


def rules_text(game: str, tr: Translator) -> str:
    """The game's rules in a few short paragraphs, its name first."""
    return "\n\n".join([rules_title(game, tr), *rules_paragraphs(game, tr)])
