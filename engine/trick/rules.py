"""The trick family's fixed facts and the shape of a variant (RULES.md §1.1–§1.5).

:class:`Variant` says, field by field, what one game of the family does differently; the four
games fill it in :mod:`.mushka`, :mod:`.pamfil`, :mod:`.shutikha` and :mod:`.mistigri`. The
machine (:mod:`.state`) reads only these fields and never the game's name.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum, StrEnum
from typing import Final

from engine.cards import DECK_32, DECK_36, DECK_52, Card, Rank, RankOrder, Suit
from engine.core import Seat
from engine.skeleton import PHASE_OVER, PHASE_SEATS

from .options import MushkaOptions

SEATS: Final = (3, 4, 5, 6, 7)
"""§1.1.1: three to seven players."""

HAND_SIZE: Final = 5
"""§1.1.6: five cards to each player; five tricks (§1.4.1)."""

AS: Final = Card(Rank.ACE, Suit.SPADES)
JC: Final = Card(Rank.JACK, Suit.CLUBS)
QS: Final = Card(Rank.QUEEN, Suit.SPADES)
KS: Final = Card(Rank.KING, Suit.SPADES)
KC: Final = Card(Rank.KING, Suit.CLUBS)


class TrickPhase(StrEnum):
    """The phases of a deal (``over`` at the end, ``seats`` before the first deal)."""

    SEATS = PHASE_SEATS  # set by the skeleton (§0.5)
    RETRUMP = "retrump"  # §1.2.4
    DECLARE = "declare"  # §1.3
    DISCARD = "discard"  # §1.3.12
    PLAY = "play"  # §1.4
    OVER = PHASE_OVER  # set by the skeleton at the end


def deck_for(players: int) -> tuple[Card, ...]:
    """The deck by player count (§1.1.2)."""
    if players == 3:
        return DECK_32
    if players == 4:
        return DECK_36
    return DECK_52


Plays = tuple[tuple[Seat, Card], ...]
"""A trick's cards in play order, with who played them."""


@dataclass(frozen=True, slots=True)
class Trick:
    """A completed trick (RECORD.md §R6.2 ``trick``)."""

    no: int
    leader: Seat
    plays: Plays
    winner: Seat


@dataclass(frozen=True, slots=True)
class Flush:
    """A Мистигри flush shown (§1.3.10.1): five cards of one suit and their card points."""

    seat: Seat
    suit: Suit
    points: int


@dataclass(frozen=True, slots=True)
class Shown:
    """What a hand check found (§1.3.9–§1.3.11): flushes shown, then an instant win if any."""

    flushes: tuple[Flush, ...] = ()
    win: tuple[Seat, str] | None = None  # the winner's seat and the RECORD.md ``kind``


class Privilege(Enum):
    """How the privileged card (§1.1.4) plays in the tricks (§1.4.2–§1.4.7)."""

    WILD = "wild"
    """Памфил's JC: of the trump suit only (§1.4.2), read out of the hand for following and
    never forced (§1.4.3), playable to any trick (§1.4.4), winning any trick, led or not
    (§1.4.5 a)."""
    UNLED = "unled"
    """Мушка's AS, Мистигри's KC: follows its printed suit (§1.4.4); played by a holder void in
    the led suit it wins (§1.4.5 b), but led it is an ordinary card (§1.4.6)."""
    PLAIN = "plain"
    """Шутиха's QS: a spade like any other in play (§1.4.7)."""


Points = tuple[list[int], list[int], list[int], list[int]]
"""Per seat: tricks won t, written off W, remise R (for t = 0), last scoring trick (§1.5)."""

Score = Callable[[Sequence[Trick], Seat | None, Suit, Card, int], Points]
"""``score(tricks, holder, trump, privileged, players)``: a deal's :data:`Points`."""

HandCheck = Callable[[Sequence[tuple[Seat, Sequence[Card]]]], Shown]
"""The checks of the hands of the given seats, in the given order (§1.3.9–§1.3.11)."""

DealOut = Callable[[Sequence[Card], Sequence[Seat]], list[tuple[Seat, Card]]]
"""``deal_out(stock, playing)``: who receives which card of the stock's top (§1.3.12)."""

Bonus = Callable[[MushkaOptions], int]
"""An amount that each other seat pays on the side ledger (§1.6.3), read from the options."""

FlushAward = Callable[[Sequence[Flush], MushkaOptions], tuple[Seat, int]]
"""Who gets the flush bonus of the deal and how much (§1.3.10.2)."""


@dataclass(frozen=True, slots=True)
class Variant:
    """What sets one game of the family apart from the others (RULES.md §1)."""

    name: str
    order: RankOrder  # §1.1.3, also the first-dealer draw order (§0.5.2)
    privileged: Card  # §1.1.4
    options_type: type[MushkaOptions]  # §1.7
    trump: Suit | None  # a fixed trump (§1.2.3), or None: the turn-up decides (§1.2.1)
    privilege: Privilege  # how the privileged card plays (§1.4.2–§1.4.7)
    score: Score  # how a deal is written off (§1.5.3–§1.5.5)
    retrump: bool = False  # a turned-up privileged card lets the dealer re-trump (§1.2.4)
    announce_bonus: Bonus | None = None  # the privileged card dealt may be announced (§1.3.7)
    check: HandCheck | None = None  # hand checks after deal and exchanges (§1.3.9–§1.3.11)
    flush_award: FlushAward | None = None  # the deal's flush bonus (§1.3.10.2)
    deal_out: DealOut | None = None  # the privileged card dealt out of the stock (§1.3.12)
    holder_may_pass: bool = False  # the privileged card's holder may pass (§1.3.3 a: Шутиха)

    @property
    def turn_up(self) -> bool:
        """Whether a card is turned up for trump (§1.1.7, §1.2.1)."""
        return self.trump is None

    @property
    def privileged_suit(self) -> Suit:
        return self.privileged.suit
