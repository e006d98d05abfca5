"""Card names per locale (ru: Т К Д В; en: A K Q J) with the text suit symbols ♠ ♣ ♦ ♥."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from bot.i18n import Translator
from engine.cards import A_HIGH, SUIT_ORDER, Card, Rank, RankOrder, Suit, rank_index
from engine.errors import InvalidNotation

SUIT_SYMBOL: Final = {Suit.SPADES: "♠", Suit.CLUBS: "♣", Suit.DIAMONDS: "♦", Suit.HEARTS: "♥"}
_LETTERS: Final = {
    "ru": {Rank.ACE: "Т", Rank.KING: "К", Rank.QUEEN: "Д", Rank.JACK: "В"},
    "en": {Rank.ACE: "A", Rank.KING: "K", Rank.QUEEN: "Q", Rank.JACK: "J"},
}


def rank_name(rank: Rank, locale: str) -> str:
    return _LETTERS.get(locale, _LETTERS["en"]).get(rank, rank.value)


def card_name(card: Card | str, locale: str) -> str:
    """``Д♠`` / ``Q♠``; tens are ``10``."""
    c = Card.parse(card) if isinstance(card, str) else card
    return rank_name(c.rank, locale) + SUIT_SYMBOL[c.suit]


def card_names(cards: Iterable[Card | str], locale: str, sep: str = " ") -> str:
    return sep.join(card_name(c, locale) for c in cards)


def suit_rows(
    cards: Iterable[Card], order: RankOrder = A_HIGH, trump: Suit | None = None
) -> list[list[Card]]:
    """Cards per suit (trump first, then ♠ ♣ ♦ ♥), high → low, at most 8 per row (§6.1)."""
    strength = rank_index(order)
    suits = ([trump] if trump else []) + [s for s in SUIT_ORDER if s != trump]
    rows: list[list[Card]] = []
    hand = list(cards)
    for suit in suits:
        of_suit = sorted((c for c in hand if c.suit == suit), key=lambda c: -strength[c.rank])
        rows.extend(of_suit[i : i + 8] for i in range(0, len(of_suit), 8))
    return rows


def hand_by_suit(rows: Sequence[Sequence[Card]], locale: str) -> str:
    """``♠ Д 9 · ♥ 7 · ♣ В`` (rows of one suit are joined)."""
    parts: list[str] = []
    last: Suit | None = None
    for row in rows:
        ranks = " ".join(rank_name(c.rank, locale) for c in row)
        if row and row[0].suit == last:
            parts[-1] += " " + ranks
        elif row:
            parts.append(f"{SUIT_SYMBOL[row[0].suit]} {ranks}")
            last = row[0].suit
    return " · ".join(parts) or "—"


def notation_words(text: str, locale: str) -> str:
    """An action's notation with its card codes as card names (``play QS`` → ``play Д♠``)."""
    return " ".join(notation_word(word, locale) for word in text.split())


def notation_word(word: str, locale: str) -> str:
    """One word of a notation: a card code as the card's name, any other word as it is."""
    try:
        return card_name(Card.parse(word), locale)
    except InvalidNotation:
        return word


RANK_WORDS: Final = {
    Rank.TWO: "two",
    Rank.THREE: "three",
    Rank.FOUR: "four",
    Rank.FIVE: "five",
    Rank.SIX: "six",
    Rank.SEVEN: "seven",
    Rank.EIGHT: "eight",
    Rank.NINE: "nine",
    Rank.TEN: "ten",
    Rank.JACK: "jack",
    Rank.QUEEN: "queen",
    Rank.KING: "king",
    Rank.ACE: "ace",
}
"""msgids of the ranks' full names (the settings catalogue): «дама» / "queen"."""
SUIT_WORDS: Final = {
    Suit.SPADES: "{rank} of spades",
    Suit.CLUBS: "{rank} of clubs",
    Suit.DIAMONDS: "{rank} of diamonds",
    Suit.HEARTS: "{rank} of hearts",
}
"""msgids of a card's full name from its rank's: «{rank} пик» / "{rank} of spades"."""


def card_words(cards: Iterable[Card | str], tr: Translator) -> str:
    """PRODUCT.md §12 «Cards in words»: «дама пик, девятка пик, семёрка червей»."""
    named = []
    for card in cards:
        c = Card.parse(card) if isinstance(card, str) else card
        named.append(tr(SUIT_WORDS[c.suit], rank=tr(RANK_WORDS[c.rank])))
    return ", ".join(named)


def with_card_words(text: str, cards: Sequence[Card], tr: Translator) -> str:
    """A hand message's text with its cards named in full on the line after "Your cards" (at
    the end if it has none): the same words whatever the family draws the hand like."""
    line = tr("🗣 {cards}", cards=card_words(cards, tr) or "—")
    lines = text.split("\n")
    mark = tr("Your cards: {cards}").split("{cards}")[0]
    at = next((i + 1 for i, ln in enumerate(lines) if mark and ln.startswith(mark)), len(lines))
    return "\n".join([*lines[:at], line, *lines[at:]])
