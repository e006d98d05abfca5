"""A trick game's rules of trick play as look-ups for :mod:`.trick_search`'s inner simulator
(RULES.md §1.4.2–§1.4.6, the scoring kind of §1.5.3–§1.5.5): one :class:`TrickTable` per game, trump
suit and ``must_trump``, built once at import from the engine's own variants."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import Final

from engine.cards import SUIT_ORDER, Suit, rank_index
from engine.trick.mushka import score_held_bonus
from engine.trick.pamfil import score_plain
from engine.trick.rules import Privilege, Score, Variant
from engine.trick.shutikha import score_trick_values
from engine.trick.variant import VARIANTS

ZERO_BONUS_SHARE = 1.0
"""Reaching zero wins the pulka: worth this share of the other counts (what the winner
collects, §1.6.1) on top of the points written off."""

HELD_BONUS, PLAIN, TRICK_VALUES = 0, 1, 2
"""How a game writes off its tricks: §1.5.3 (and Мистигри, §1.5.4), Памфил's t (§1.5.4),
Шутиха's trick values (§1.5.5)."""

_SCORING: Final[Mapping[Score, int]] = MappingProxyType(
    {score_held_bonus: HELD_BONUS, score_plain: PLAIN, score_trick_values: TRICK_VALUES}
)

WINS: Final = 200
"""The winning key of a privileged card that wins wherever it is (§1.4.5 a, b)."""


def suit_no(suit: Suit) -> int:
    return SUIT_ORDER.index(suit)


@dataclass(frozen=True, slots=True)
class TrickTable:
    """One game's rules of trick play, for one trump and ``must_trump``, as look-ups."""

    variant: Variant
    trump: int  # suit number
    must_trump: bool
    priv: int  # the privileged card's code (§1.1.4)
    wild: bool  # Памфил's JC (§1.4.2–§1.4.5 a)
    unled: bool  # Мушка's AS, Мистигри's KC (§1.4.4–§1.4.6)
    scoring: int  # HELD_BONUS, PLAIN or TRICK_VALUES
    priv_trump: bool  # the privileged card's suit is trump (§1.5.3: 2t+8)
    lead_key: tuple[int, ...]  # per code: the led card's key in its trick
    follow_key: tuple[tuple[int, ...], ...]  # per led suit, per code: a later card's key
    led_suit: tuple[int, ...]  # per code: the suit L it leads (§1.4.2)
    policy_key: tuple[int, ...]  # per code: the playout's order (trump, then strength)
    guard: int = -1  # Шутиха's KS when the playout keeps the QS and KS apart on leads, else -1
    future: bool = False  # the deal valued with the pulka after it (:func:`.trick_search.utility`)


def _table(variant: Variant, trump: int, must_trump: bool) -> TrickTable:
    """§1.4.5 as keys: the trick's winner is its card of the highest key. A privileged card
    that wins (a: the JC anywhere; b: the AS / KC not led) has :data:`WINS`; then trumps
    (c, 100 + strength), then the led suit (d, 50 + strength), else 0."""
    strength = rank_index(variant.order)
    priv = suit_no(variant.privileged.suit) * 16 + strength[variant.privileged.rank]
    wild = variant.privilege is Privilege.WILD
    unled = variant.privilege is Privilege.UNLED
    codes = range(64)

    def key(c: int, led: int, first: bool) -> int:
        if c == priv and (wild or (unled and not first)):
            return WINS
        if c >> 4 == trump:
            return 100 + (c & 15)
        return 50 + (c & 15) if c >> 4 == led else 0

    # §1.4.2: the Памфил JC is of the trump suit only; every other card of its printed suit
    led = tuple(trump if wild and c == priv else c >> 4 for c in codes)
    first = tuple(key(c, led[c], True) for c in codes)  # §1.4.6: a led AS / KC is ordinary
    then = tuple(tuple(key(c, suit, False) for c in codes) for suit in range(4))
    policy = tuple((16 if c >> 4 == trump else 0) + (c & 15) for c in codes)
    scoring, priv_trump = _SCORING[variant.score], priv >> 4 == trump
    return TrickTable(
        variant, trump, must_trump, priv, wild, unled, scoring, priv_trump, first, then, led, policy
    )


TABLES: Final = MappingProxyType(
    {
        (name, trump, must): _table(variant, trump, must)
        for name, variant in VARIANTS.items()
        for trump in range(4)
        for must in (False, True)
    }
)
"""Every game's :class:`TrickTable` by (game, trump suit number, ``must_trump``)."""


GUARDED: Final = MappingProxyType(
    {
        (name, trump, must): replace(table, guard=table.priv + 1, future=True)  # KS: one above
        for (name, trump, must), table in TABLES.items()
        if name == "shutikha"
    }
)
"""Шутиха's tables for ``hard``: the playout guards its QS and KS (:func:`.trick_search.lead_card`:
the QS is not led into a KS held by another seat, §1.4.7, §1.5.5: it would write off 4 instead of
8, and give the KS 5, nor the KS led while another seat holds the QS it could take), and a deal
is valued with the pulka it leaves (:func:`.trick_search.utility`: another seat reaching zero
ends it)."""


def table_for(game: str, trump: Suit, must_trump: bool, guard: bool = False) -> TrickTable:
    """The game's :class:`TrickTable`; ``guard``: Шутиха's guarded one (:data:`GUARDED`)."""
    key = (game, suit_no(trump), must_trump)
    return GUARDED[key] if guard and key in GUARDED else TABLES[key]


__all__ = [
    "GUARDED",
    "HELD_BONUS",
    "PLAIN",
    "TABLES",
    "TRICK_VALUES",
    "WINS",
    "ZERO_BONUS_SHARE",
    "TrickTable",
    "suit_no",
    "table_for",
]
