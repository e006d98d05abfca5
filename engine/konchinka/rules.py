"""Кончинка's pure rules: card values, captures, deal points, certainty, money (RULES.md §4)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from engine.cards import RANK_VALUE, Card, Rank, Suit
from engine.skeleton import PHASE_OVER, PHASE_SEATS


class KonchinkaPhase(StrEnum):
    """The phases of a deal (``over`` at the end, ``seats`` before the first deal)."""

    SEATS = PHASE_SEATS  # set by the skeleton (§0.5)
    PLAY = "play"  # §4.3
    OVER = PHASE_OVER  # set by the skeleton at the end


KONCHINKI: Final[tuple[Card, ...]] = (Card(Rank.TWO, Suit.CLUBS), Card(Rank.TEN, Suit.DIAMONDS))
"""The 2C and the 10D (§4.1.3)."""

COURT: Final[frozenset[Rank]] = frozenset({Rank.JACK, Rank.QUEEN, Rank.KING})
DECK_SIZE: Final[int] = 52
CLUBS_IN_DECK: Final[int] = 13


def value(card: Card, court_values: bool) -> int | None:
    """A card's value for sums (§4.1.2); ``None`` for a court card of the standard game."""
    if card.rank in COURT and not court_values:
        return None
    return RANK_VALUE[card.rank]


# --- captures (§4.3.2–§4.3.3) ----------------------------------------------------------------

Groups = tuple[tuple[int, ...], ...]
"""A capture's groups as table indices (place order)."""


def captures(card: Card, table: Sequence[Card], court_values: bool) -> list[Groups]:
    """Every distinct set of table cards ``card`` can capture, each with one grouping.

    Sets are listed by their table indices (ascending, compared lexicographically); the groups
    of each set are ordered by their first index. The J of the standard game is not handled here
    (it sweeps, §4.3.4).
    """
    if card.rank in COURT and not court_values:
        same = [i for i, c in enumerate(table) if c.rank is card.rank]
        masks: dict[int, tuple[int, ...]] = {}
        for sub in range(1, 1 << len(same)):
            chosen = tuple(same[k] for k in range(len(same)) if sub >> k & 1)
            masks[_mask(chosen)] = tuple(_mask((i,)) for i in chosen)
        return _ordered(masks)
    target = value(card, court_values)
    assert target is not None
    values = [value(c, court_values) for c in table]
    return _ordered(_unions(_subset_sums(values, target)))


def _mask(indices: Sequence[int]) -> int:
    out = 0
    for i in indices:
        out |= 1 << i
    return out


def _subset_sums(values: Sequence[int | None], target: int) -> list[int]:
    """Every set of indices (as a bit mask) whose values sum to ``target`` (all values ≥ 1)."""
    items = [(i, v) for i, v in enumerate(values) if v is not None and v <= target]
    found: list[int] = []

    def walk(start: int, left: int, mask: int) -> None:
        if left == 0:
            found.append(mask)
            return
        for k in range(start, len(items)):
            i, v = items[k]
            if v <= left:
                walk(k + 1, left - v, mask | 1 << i)

    walk(0, target, 0)
    return found


def _unions(groups: Sequence[int]) -> dict[int, tuple[int, ...]]:
    """Every non-empty union of pairwise disjoint ``groups``, with one partition of each."""
    reach: dict[int, tuple[int, ...]] = {0: ()}
    for group in groups:
        for mask, parts in list(reach.items()):
            if mask & group == 0 and mask | group not in reach:
                reach[mask | group] = (*parts, group)
    del reach[0]
    return reach


def _indices(mask: int) -> tuple[int, ...]:
    return tuple(i for i in range(mask.bit_length()) if mask >> i & 1)


def _ordered(sets: dict[int, tuple[int, ...]]) -> list[Groups]:
    out: list[tuple[tuple[int, ...], Groups]] = []
    for mask, parts in sets.items():
        groups = tuple(sorted((_indices(p) for p in parts), key=lambda g: g[0]))
        out.append((_indices(mask), groups))
    out.sort(key=lambda item: item[0])
    return [groups for _, groups in out]


def is_valid_group(card: Card, group: Sequence[Card], court_values: bool) -> bool:
    """One group of a capture by ``card`` (§4.3.2, §4.3.3; RECORD.md §R4.3)."""
    if not group:
        return False
    if card.rank in COURT and not court_values:
        return card.rank is not Rank.JACK and len(group) == 1 and group[0].rank is card.rank
    target = value(card, court_values)
    values = [value(c, court_values) for c in group]
    if target is None or any(v is None for v in values):
        return False
    return sum(v for v in values if v is not None) == target


# --- deal points (§4.4.1) and certainty (§4.4.4) ---------------------------------------------


@dataclass(frozen=True, slots=True)
class Haul:
    """What one seat has captured in a deal."""

    cards: int
    clubs: int
    konchinki: int


def haul(captured: Sequence[Card]) -> Haul:
    """Count a seat's captured cards, clubs and кончинки."""
    return Haul(
        len(captured),
        sum(1 for c in captured if c.suit is Suit.CLUBS),
        sum(1 for c in captured if c in KONCHINKI),
    )


@dataclass(frozen=True, slots=True)
class Scored:
    """What one seat's deal points are for (§4.4.1): most cards (2, or 1 each in a two-way
    tie), most clubs (1), its кончинки (1 each)."""

    cards: int
    clubs: int
    konchinki: int

    @property
    def points(self) -> int:
        return self.cards + self.clubs + self.konchinki


def scored(hauls: Sequence[Haul]) -> list[Scored]:
    """Each seat's deal points item by item (§4.4.1)."""
    most = max(h.cards for h in hauls)
    tied = [s for s, h in enumerate(hauls) if h.cards == most]
    clubs = max(h.clubs for h in hauls)
    leaders = [s for s, h in enumerate(hauls) if h.clubs == clubs]
    return [
        Scored(
            cards=2 // len(tied) if s in tied and len(tied) <= 2 else 0,
            clubs=1 if leaders == [s] else 0,
            konchinki=h.konchinki,
        )
        for s, h in enumerate(hauls)
    ]


def deal_points(hauls: Sequence[Haul]) -> list[int]:
    """Deal points per seat (§4.4.1)."""
    return [s.points for s in scored(hauls)]


def sure(hauls: Sequence[Haul]) -> list[Scored]:
    """The deal points each seat is sure of mid-deal, item by item (§4.4.4's G)."""
    r = DECK_SIZE - sum(h.cards for h in hauls)
    u = CLUBS_IN_DECK - sum(h.clubs for h in hauls)
    out = []
    for i, h in enumerate(hauls):
        others = [o for j, o in enumerate(hauls) if j != i]
        k_other = max(o.cards for o in others)
        c_other = max(o.clubs for o in others)
        out.append(
            Scored(
                cards=2 if h.cards > k_other + r else 0,
                clubs=1 if h.clubs > c_other + u else 0,
                konchinki=h.konchinki,
            )
        )
    return out


def bounds(hauls: Sequence[Haul]) -> tuple[list[int], list[int]]:
    """Guaranteed G and possible M deal points per seat, mid-deal (§4.4.4)."""
    r = DECK_SIZE - sum(h.cards for h in hauls)
    u = CLUBS_IN_DECK - sum(h.clubs for h in hauls)
    free = len(KONCHINKI) - sum(h.konchinki for h in hauls)
    guaranteed = [s.points for s in sure(hauls)]
    possible: list[int] = []
    for i, h in enumerate(hauls):
        others = [o for j, o in enumerate(hauls) if j != i]
        k_other = max(o.cards for o in others)
        c_other = max(o.clubs for o in others)
        if h.cards + r > k_other:
            m = 2
        elif h.cards + r == k_other:
            m = 1
        else:
            m = 0
        m += 1 if h.clubs + u > c_other else 0
        possible.append(m + h.konchinki + free)
    return guaranteed, possible


def certain_winner(
    totals: Sequence[int], guaranteed: Sequence[int], possible: Sequence[int], target: int
) -> int | None:
    """The seat whose win is certain now (§4.4.4), if any."""
    for i, (t, g) in enumerate(zip(totals, guaranteed, strict=True)):
        best = t + g
        if best >= target and all(
            best > totals[j] + possible[j] for j in range(len(totals)) if j != i
        ):
            return i
    return None


def target_winner(totals: Sequence[int], target: int) -> int | None:
    """The winner at the end of a deal (§4.4.3): the single highest total, if ≥ ``target``."""
    top = max(totals)
    leaders = [s for s, t in enumerate(totals) if t == top]
    return leaders[0] if top >= target and len(leaders) == 1 else None


# --- settlement (§4.4.5) ---------------------------------------------------------------------


def settle(
    totals: Sequence[int], winner: int, payment: str, target: int, point_value: int, stake: int
) -> list[int]:
    """Net money per seat (§4.4.5); sums to zero."""
    n = len(totals)
    if payment == "pot":
        return [(n - 1) * stake if s == winner else -stake for s in range(n)]
    net = [0] * n
    for s, t in enumerate(totals):
        if s != winner:
            owed = max(0, target - t) * point_value
            net[s] -= owed
            net[winner] += owed
    return net
