"""What a person types at the terminal, read into its parts: the verbs his words name, a count,
the cards (in either alphabet, any case, suit letters or symbols), ranks said without a suit.

Reading is lenient and never guesses: a word it does not know is kept as unknown (the session
then says so), and a rank without its suit is kept apart (the session asks which card).

>>> words = Vocabulary.of(lambda msgid: {"typed: pass": "пас"}.get(msgid, msgid), "ru")
>>> typed = read("play 2 7c 7♦", words)
>>> sorted(typed.verbs or ()), typed.number, [str(c) for c in typed.cards]
(['play'], 2, ['7C', '7D'])
>>> [str(c) for c in read("Тп вч", words).cards], read("в", words).ranks
(['AS', 'JH'], (<Rank.JACK: 'J'>,))
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType
from typing import Final

from bot.render.action_words import Verb
from engine.cards import Card, Rank, Suit


class Particle(StrEnum):
    """Words that are no verb: the turn-up, "keep all", words that only join others."""

    UP = "up"
    NOTHING = "nothing"
    FILLER = "filler"


Meaning = Verb | Particle

_SUITS: Final = MappingProxyType(
    {
        "♠": Suit.SPADES, "♤": Suit.SPADES, "s": Suit.SPADES, "п": Suit.SPADES,
        "♣": Suit.CLUBS, "♧": Suit.CLUBS, "c": Suit.CLUBS, "с": Suit.CLUBS,
        "т": Suit.CLUBS, "к": Suit.CLUBS,
        "♦": Suit.DIAMONDS, "♢": Suit.DIAMONDS, "d": Suit.DIAMONDS, "б": Suit.DIAMONDS,
        "♥": Suit.HEARTS, "♡": Suit.HEARTS, "h": Suit.HEARTS, "ч": Suit.HEARTS, "н": Suit.HEARTS,
    }
)  # fmt: skip
"""Suit symbols and letters: RECORD.md's (S C D H), Russian (пики, трефы/крести, бубны,
черви) and the Cyrillic letters that look like Latin ones (с, н)."""

_RANKS: Final = MappingProxyType(
    {
        "a": Rank.ACE, "k": Rank.KING, "q": Rank.QUEEN, "j": Rank.JACK,
        "т": Rank.ACE, "а": Rank.ACE, "к": Rank.KING, "д": Rank.QUEEN, "в": Rank.JACK,
        "b": Rank.JACK,  # the Latin look-alike of «В»
        **{r.value: r for r in Rank if r.value.isdigit()},
    }
)  # fmt: skip
"""Rank letters of both alphabets (ru: Т К Д В) and the numbers 2–10."""

_LATIN_T: Final = {"ru": Rank.ACE, "en": Rank.TEN}
"""Latin «T»: in ru the look-alike of «Т» (the ace, as the screen writes it); in en a ten."""

_SPLIT: Final = re.compile(r"[\s,;:=+→()\[\]«»\"'.!?]+")
_CARD: Final = re.compile(r"^(10|[2-9]|[a-zа-я])(.)$")
_SUIT_WORDS: Final = re.compile(r"^(пик[аи]?|треф[аы]?|крест[иы]?|бубн[аыи]?|черв[иейь]|черва)$")


@dataclass(frozen=True, slots=True)
class Vocabulary:
    """The words of one language: each phrase (one or more words, lower case) and what it
    names; the RECORD.md verbs are always among them."""

    phrases: Mapping[tuple[str, ...], Meaning]
    locale: str

    @classmethod
    def of(cls, tr: Callable[[str], str], locale: str) -> Vocabulary:
        found: dict[tuple[str, ...], Meaning] = {(v.value,): v for v in Verb}
        found[("up",)] = Particle.UP
        for meaning, text in _phrases(tr).items():
            for phrase in text.split("|"):
                key = tuple(normal(phrase).split())
                if key:
                    found.setdefault(key, meaning)
        return cls(MappingProxyType(found), locale)

    @property
    def longest(self) -> int:
        return max(len(k) for k in self.phrases)


def _phrases(tr: Callable[[str], str]) -> dict[Meaning, str]:
    """Each meaning's words in the catalogue: phrases separated by ``|``."""
    return {
        Verb.PASS: tr("typed: pass"),
        Verb.PLAY: tr("typed: play"),
        Verb.ANNOUNCE: tr("typed: announce"),
        Verb.RETRUMP: tr("typed: retrump"),
        Verb.DISCARD: tr("typed: discard"),
        Verb.CARD: tr("typed: card"),
        Verb.RUN: tr("typed: run"),
        Verb.BUY: tr("typed: buy"),
        Verb.CAPTURE: tr("typed: capture"),
        Verb.SWEEP: tr("typed: sweep"),
        Verb.TRAIL: tr("typed: trail"),
        Particle.UP: tr("typed: up"),
        Particle.NOTHING: tr("typed: keep all"),
        Particle.FILLER: tr("typed: filler"),
    }


def normal(text: str) -> str:
    """Lower case, «ё» as «е», emoji variation selectors dropped."""
    return text.lower().replace("ё", "е").replace("\ufe0f", "")


@dataclass(frozen=True, slots=True)
class TypedLine:
    """One line read: ``verbs`` None when no verb was said."""

    verbs: frozenset[Verb] | None = None
    number: int | None = None
    up: bool = False
    nothing: bool = False
    suit: Suit | None = None
    cards: tuple[Card, ...] = ()
    ranks: tuple[Rank, ...] = ()  # ranks said without a suit, in order
    unknown: tuple[str, ...] = ()

    @property
    def empty(self) -> bool:
        return not (self.verbs or self.cards or self.ranks or self.up or self.nothing) and (
            self.suit is None and self.number is None
        )


def card_of(token: str, locale: str) -> Card | None:
    """One token as a card (``7c``, ``7♣``, ``Тп``, ``qh``, ``10♦``), None if it is none."""
    match = _CARD.match(token)
    if match is None:
        return None
    rank = rank_of(match.group(1), locale)
    suit = _SUITS.get(match.group(2))
    return None if rank is None or suit is None else Card(rank, suit)


def rank_of(token: str, locale: str) -> Rank | None:
    if token == "t":
        return _LATIN_T.get(locale, Rank.ACE)
    return _RANKS.get(token)


def suit_of(token: str) -> Suit | None:
    if token in _SUITS:
        return _SUITS[token]
    if _SUIT_WORDS.match(token):
        return _SUITS[token[0]]
    return None


def tokens(line: str) -> list[str]:
    """The line's words: separators and pictures (a button's ✅) dropped, a suit symbol split
    from a word it ends (``7♣7♦`` is two cards)."""
    spaced = re.sub(r"([♠♣♦♥♤♧♢♡])", r"\1 ", normal(line))
    return [t for t in _SPLIT.split(spaced) if any(c.isalnum() or c in _SUITS for c in t)]


def read(line: str, words: Vocabulary) -> TypedLine:
    """The line's parts (see :class:`TypedLine`)."""
    found = tokens(line)
    verbs: set[Verb] = set()
    cards: list[Card] = []
    ranks: list[Rank] = []
    unknown: list[str] = []
    number: int | None = None
    up = nothing = False
    suit: Suit | None = None
    i = 0
    while i < len(found):
        meaning, size = _phrase_at(found, i, words)
        token = found[i]
        if meaning is not None:
            if isinstance(meaning, Verb):
                verbs.add(meaning)
            elif meaning is Particle.UP:
                up = True
            elif meaning is Particle.NOTHING:  # «без замены»: a declaration to play
                nothing = True
                verbs.add(Verb.PLAY)
            i += size
            continue
        card = card_of(token, words.locale)
        rank = rank_of(token, words.locale)
        following = suit_of(found[i + 1]) if i + 1 < len(found) else None
        if card is not None:
            cards.append(card)
        elif rank is not None and following is not None:  # «7 ♣», «Т пик»
            cards.append(Card(rank, following))
            i += 1
        elif token.isdigit() and (verbs & {Verb.PLAY, Verb.BUY, Verb.DISCARD}) and number is None:
            number = int(token)  # the count after its verb: «play 2 …», «купить 1»
        elif rank is not None:
            ranks.append(rank)
        elif (s := suit_of(token)) is not None:
            suit = s
        elif token.isdigit() and number is None:
            number = int(token)
        else:
            unknown.append(token)
        i += 1
    return TypedLine(
        frozenset(verbs) if verbs else None,
        number,
        up,
        nothing,
        suit,
        tuple(dict.fromkeys(cards)),
        tuple(ranks),
        tuple(unknown),
    )


def _phrase_at(found: list[str], i: int, words: Vocabulary) -> tuple[Meaning | None, int]:
    """The longest phrase of the vocabulary that starts at ``found[i]``."""
    for size in range(min(words.longest, len(found) - i), 0, -1):
        meaning = words.phrases.get(tuple(found[i : i + size]))
        if meaning is not None:
            return meaning, size
    return None, 1
