"""A fast inner simulator of Кончинка's deal for the ``normal`` player's rollouts (RULES.md §4).

The same rules as :mod:`engine.konchinka.state` for the rest of one deal, on small ints: a card
is its canonical position (suits S C D H, then K high to A low, §R1.8), so a sorted hand is in
the engine's order of legal moves. An action is ``(card, mask)``: the bit mask of the table
places it takes (§4.3.2–§4.3.4), ``0`` for a trail (§4.3.5). What a seat captured is one packed
int (cards, clubs << 8, кончинки << 16). No views, records or checks: the actions come from the
simulator itself or from the engine's legal moves (:func:`encode`).

The rollout policy is the easy player's (:func:`engine.players.konchinka.pick`), inlined: the
richest capture (first in the engine's order of legal moves on a tie), else the cheapest trail.
``tests/engine/test_konchinka_sim.py`` checks both against the engine.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Final

from engine.cards import ACE_LOW, DECK_52, SUIT_ORDER, Card, Rank, Suit
from engine.konchinka.actions import Capture, KonchinkaAction, Sweep
from engine.konchinka.rules import KONCHINKI
from engine.konchinka.view import KonchinkaView

CARDS: Final[tuple[Card, ...]] = tuple(Card(r, s) for s in SUIT_ORDER for r in ACE_LOW)
"""The card of each int (canonical order)."""
CODE: Final[dict[Card, int]] = {c: i for i, c in enumerate(CARDS)}
JACK: Final = 2  # rank position (card % 13) of the J; 0 K, 1 Q
COURT_VALUES: Final[tuple[int, ...]] = tuple(13 - c % 13 for c in range(52))
"""§4.1.2 with ``court_values``: A 1 … 10, J 11, Q 12, K 13."""
STANDARD_VALUES: Final[tuple[int, ...]] = tuple(
    0 if c % 13 <= JACK else v for c, v in enumerate(COURT_VALUES)
)
"""§4.1.2, standard game: K, Q, J have no value (0)."""
HAUL: Final[tuple[int, ...]] = tuple(
    1 + ((CARDS[c].suit is Suit.CLUBS) << 8) + ((CARDS[c] in KONCHINKI) << 16) for c in range(52)
)
"""One card in a packed haul: a card, a club, a кончинка (§4.4.1)."""
WORTH: Final[tuple[int, ...]] = tuple(
    100 + 40 * (CARDS[c].suit is Suit.CLUBS) + 300 * (CARDS[c] in KONCHINKI) for c in range(52)
)
"""The easy player's worth of a card, in hundredths (``konchinka._card_worth``)."""
_ENUM: Final = {r: i for i, r in enumerate(Rank)}
TRAIL: Final[tuple[int, ...]] = tuple(
    -WORTH[c] - (0 if CARDS[c].rank in (Rank.KING, Rank.QUEEN) else _ENUM[CARDS[c].rank])
    for c in range(52)
)
"""The easy player's score of trailing a card (``konchinka.move_score``)."""

STANDARD_CLASS: Final = tuple(
    v and v << 10 | w for v, w in zip(STANDARD_VALUES, WORTH, strict=True)
)
COURT_CLASS: Final = tuple(v << 10 | w for v, w in zip(COURT_VALUES, WORTH, strict=True))
"""What a table card is to a capture by sums: its value and worth (the memo's key; 0 for
none)."""

Action = tuple[int, int]


def encode(table: Sequence[Card], action: KonchinkaAction) -> Action:
    """The engine's action as ``(card, mask)`` on ``table`` (the place order)."""
    if isinstance(action, Sweep):
        return CODE[action.card], (1 << len(table)) - 1
    if isinstance(action, Capture):
        taken = action.taken
        return CODE[action.card], sum(1 << i for i, c in enumerate(table) if c in taken)
    return CODE[action.card], 0


# --- captures (§4.3.2, §4.3.3) ---------------------------------------------------------------


def groups(table: Sequence[int], v: int, values: Sequence[int]) -> list[tuple[int, int]]:
    """Every set of table places whose values sum to ``v`` (a group, §4.3.2), as
    ``(mask, worth)``; the cards without a value (0) are in none."""
    found: list[tuple[int, int]] = []
    items: list[tuple[int, int, int]] = []  # the smaller cards, for groups of several
    bit = 1
    for c in table:
        x = values[c]
        if x == v:
            found.append((bit, WORTH[c]))  # a card of the same value is a group by itself
        elif 0 < x < v:
            items.append((bit, x, WORTH[c]))
        bit <<= 1
    m = len(items)
    if m == 2:
        (b1, x1, w1), (b2, x2, w2) = items
        if x1 + x2 == v:
            found.append((b1 | b2, w1 + w2))
    elif m > 2:
        stack = [(k + 1, v - x, b, w) for k, (b, x, w) in enumerate(items)]
        while stack:
            start, left, mask, worth = stack.pop()
            for k in range(start, m):
                b, x, w = items[k]
                if x == left:
                    found.append((mask | b, worth + w))
                elif x < left:
                    stack.append((k + 1, left - x, mask | b, worth + w))
    return found


def unions(found: Sequence[tuple[int, int]]) -> dict[int, int]:
    """Every non-empty union of pairwise disjoint groups (a capture set, §4.3.2) and its worth."""
    reach = {0: 0}
    for g, w in found:
        for mask, worth in list(reach.items()):
            if mask & g == 0 and mask | g not in reach:
                reach[mask | g] = worth + w
    del reach[0]
    return reach


def places(mask: int) -> tuple[int, ...]:
    """The table places of ``mask``, ascending (the engine orders capture sets by them)."""
    return tuple(i for i in range(mask.bit_length()) if mask >> i & 1)


def best_sum(table: Sequence[int], v: int, values: Sequence[int]) -> tuple[int, int]:
    """The richest capture set by sums for a card of value ``v`` and its worth, the first in
    the engine's order on a tie; ``(0, -1)`` when there is none."""
    found = groups(table, v, values)
    if not found:
        return 0, -1
    if len(found) == 1:
        return found[0]
    union = worth = 0
    for g, w in found:
        if union & g:
            break
        union |= g
        worth += w
    else:
        return union, worth  # disjoint groups: all of them is the richest (worths are > 0)
    reach = unions(found)
    top = max(reach.values())
    return min((m for m, w in reach.items() if w == top), key=places), top


def capture_sets(table: Sequence[int], card: int, court: bool) -> list[int]:
    """Every capture set of ``card`` (§4.3.2–§4.3.4) in the engine's order (§4.3.6)."""
    r = card % 13
    if not court and r <= JACK:
        if r == JACK:  # §4.3.4: the J sweeps a non-empty table
            return [(1 << len(table)) - 1] if table else []
        same = [1 << i for i, c in enumerate(table) if c % 13 == r]  # §4.3.3
        masks = [
            sum(b for k, b in enumerate(same) if sub >> k & 1) for sub in range(1, 1 << len(same))
        ]
    else:
        values = COURT_VALUES if court else STANDARD_VALUES
        masks = list(unions(groups(table, values[card], values)))
    return sorted(masks, key=places)


# --- the deal --------------------------------------------------------------------------------


class KonchinkaSim:
    """One deal from a seat's move on: hands (sorted), the table, the stock (top last)."""

    __slots__ = (
        "court",
        "hands",
        "hauls",
        "last",
        "n",
        "near",
        "need",
        "over",
        "points",
        "stock",
        "table",
        "target",
        "to_act",
        "totals",
        "winner",
    )

    def __init__(
        self,
        hands: list[list[int]],
        table: list[int],
        stock: list[int],
        hauls: list[int],
        last: int | None,
        totals: Sequence[int],
        to_act: int,
        target: int,
        court: bool,
    ) -> None:
        self.hands = hands
        self.table = table
        self.stock = stock
        self.hauls = hauls
        self.last = last
        self.totals = totals  # before this deal; never changed
        self.to_act = to_act
        self.target = target
        self.court = court
        self.n = len(hands)
        self.need = [target - t for t in totals]  # the deal points that would win (§4.4.4)
        self.near = min(self.need) <= 5  # G ≤ 5: else no win can be certain yet
        self.over = False
        self.points: list[int] = []  # this deal's points once over
        self.winner: int | None = None

    def copy(self) -> KonchinkaSim:
        return KonchinkaSim(
            [list(h) for h in self.hands],
            list(self.table),
            list(self.stock),
            list(self.hauls),
            self.last,
            self.totals,
            self.to_act,
            self.target,
            self.court,
        )

    def legal(self) -> list[Action]:
        """§4.3.6: every capture set of every capturing card; else every trail (§4.3.5)."""
        out = [
            (c, m) for c in self.hands[self.to_act] for m in capture_sets(self.table, c, self.court)
        ]
        return out or [(c, 0) for c in self.hands[self.to_act]]

    def play(self, card: int, mask: int) -> None:
        """The seat to act plays ``card`` taking the places of ``mask`` (a trail if ``0``)."""
        seat = self.to_act
        hand = self.hands[seat]
        hand.remove(card)
        table = self.table
        if mask:  # §4.3.2–§4.3.4: the card and the taken cards to the captor
            haul = HAUL[card]
            if mask + 1 == 1 << len(table):
                haul += sum(map(HAUL.__getitem__, table))
                self.table = []
            else:
                kept = []
                for c in table:
                    if mask & 1:
                        haul += HAUL[c]
                    else:
                        kept.append(c)
                    mask >>= 1
                self.table = kept
            self.hauls[seat] += haul
            self.last = seat
        else:
            table.append(card)  # §4.3.5
        if self.stock:  # §4.3.7
            hand.append(self.stock.pop())
            hand.sort()
        elif not any(self.hands):
            self._end()
            return
        self.to_act = seat + 1 if seat + 1 < self.n else 0
        if self.near:  # a cheap bound first: G_i ≤ K_i + 2 [k_i > r] + [c_i > u] (§4.4.4)
            total = sum(self.hauls)
            r = 52 - (total & 255)
            u = 13 - (total >> 8 & 255)
            for h, need in zip(self.hauls, self.need, strict=True):
                if (h >> 16) + 2 * ((h & 255) > r) + ((h >> 8 & 255) > u) >= need:
                    self._check_certain()
                    return

    def _end(self) -> None:
        """§4.3.8: the last capturer takes the table; §4.4.1 deal points; §4.4.3."""
        if self.last is not None:
            for c in self.table:
                self.hauls[self.last] += HAUL[c]
        self.table = []
        self.points = deal_points(self.hauls)
        totals = [t + p for t, p in zip(self.totals, self.points, strict=True)]
        top = max(totals)
        if top >= self.target and totals.count(top) == 1:
            self.winner = totals.index(top)
        self.over = True
        self.to_act = -1

    def _check_certain(self) -> None:
        """§4.4.4: the win certain after this move ends the game, scored by the G bounds."""
        hauls = self.hauls
        cards = [h & 255 for h in hauls]
        clubs = [h >> 8 & 255 for h in hauls]
        kon = [h >> 16 for h in hauls]
        r = 52 - sum(cards)
        u = 13 - sum(clubs)
        free = 2 - sum(kon)
        g: list[int] = []
        p: list[int] = []
        for i in range(self.n):
            k_other = max(k for j, k in enumerate(cards) if j != i)
            c_other = max(c for j, c in enumerate(clubs) if j != i)
            k, c = cards[i], clubs[i]
            g.append((2 if k > k_other + r else 0) + (c > c_other + u) + kon[i])
            m = 2 if k + r > k_other else 1 if k + r == k_other else 0
            p.append(m + (c + u > c_other) + kon[i] + free)
        totals = self.totals
        for i in range(self.n):
            best = totals[i] + g[i]
            if best >= self.target and all(
                best > totals[j] + p[j] for j in range(self.n) if j != i
            ):
                self.points = g
                self.winner = i
                self.over = True
                self.to_act = -1
                return

    def value(self, me: int, bonus: float) -> float:
        """This seat's deal points minus the others' mean, ± ``bonus`` if the game ended."""
        pts = self.points
        value = pts[me] - (sum(pts) - pts[me]) / (self.n - 1)
        if self.winner is not None:
            value += bonus if self.winner == me else -bonus
        return value


def deal_points(hauls: Sequence[int]) -> list[int]:
    """§4.4.1: 2 for most cards (1 each in a tie of two), 1 for most clubs (strictly), кончинки."""
    points = [h >> 16 for h in hauls]
    cards = [h & 255 for h in hauls]
    most = max(cards)
    tied = [s for s, k in enumerate(cards) if k == most]
    if len(tied) <= 2:
        for s in tied:
            points[s] += 2 // len(tied)
    clubs = [h >> 8 & 255 for h in hauls]
    top = max(clubs)
    if clubs.count(top) == 1:
        points[clubs.index(top)] += 1
    return points


# --- the rollout policy and the world ---------------------------------------------------------

Memo = dict[tuple[int, ...], list[tuple[int, int] | None]]
"""The richest capture by sums per table (its cards' classes) and value, kept through one
decision's rollouts."""
_UNSEEN: Final[tuple[None, ...]] = (None,) * 14


def choice(sim: KonchinkaSim, memo: Memo) -> Action:
    """The easy rule (``konchinka.pick`` on the legal moves): the richest capture, the first in
    the engine's order on a tie, else the cheapest trail."""
    table = sim.table
    hand = sim.hands[sim.to_act]
    if table:
        court = sim.court
        values = COURT_VALUES if court else STANDARD_VALUES
        key = tuple(map((COURT_CLASS if court else STANDARD_CLASS).__getitem__, table))
        row = memo.get(key)
        if row is None:
            row = memo[key] = list(_UNSEEN)
        best = -1
        best_score = 0
        best_mask = 0
        for c in hand:
            v = values[c]
            if v:
                got = row[v]
                if got is None:
                    got = row[v] = best_sum(table, v, values)
                mask, worth = got
                if not mask:
                    continue
            elif c % 13 == JACK:  # §4.3.4
                mask = (1 << len(table)) - 1
                worth = sum(map(WORTH.__getitem__, table))
            else:  # §4.3.3: all the cards of its rank are the richest set
                r = c % 13
                mask = worth = 0
                for i, t in enumerate(table):
                    if t % 13 == r:
                        mask |= 1 << i
                        worth += WORTH[t]
                if not mask:
                    continue
            score = WORTH[c] + worth
            if score > best_score:
                best, best_score, best_mask = c, score, mask
        if best >= 0:
            return best, best_mask
    best = hand[0]
    for c in hand:  # §4.3.5: nothing captures; trail
        if TRAIL[c] > TRAIL[best]:
            best = c
    return best, 0


def rollout(sim: KonchinkaSim, memo: Memo) -> int:
    """Play the deal out by :func:`choice`; the actions played."""
    done = 0
    while not sim.over:
        card, mask = choice(sim, memo)
        sim.play(card, mask)
        done += 1
    return done


class Seen:
    """What one seat's view fixes, to deal worlds from (the unseen cards at random, §4.2)."""

    __slots__ = ("base", "sizes", "unseen")

    def __init__(self, view: KonchinkaView) -> None:
        me = view.seat
        assert me is not None and view.to_act == me
        seen = set(view.hand) | set(view.table)
        for taken in view.taken:
            seen.update(taken)
        self.unseen = [CODE[c] for c in DECK_52 if c not in seen]
        self.sizes = [view.hand_sizes[s] for s in range(view.players) if s != me]
        hands: list[list[int]] = [[] for _ in range(view.players)]
        hands[me] = sorted(CODE[c] for c in view.hand)
        self.base = KonchinkaSim(
            hands,
            [CODE[c] for c in view.table],
            [],
            [sum(HAUL[CODE[c]] for c in taken) for taken in view.taken],
            view.last_capturer,
            tuple(view.totals),
            me,
            view.target,
            view.court_values,
        )

    def world(self, rng: random.Random) -> KonchinkaSim:
        """A world: the unseen cards shuffled and cut as ``determinized.deal_unseen`` does
        (the others' hands in seat order, then the stock; its top is the first card)."""
        cards = list(self.unseen)
        rng.shuffle(cards)
        sim = self.base.copy()
        at = 0
        others = [s for s in range(sim.n) if s != sim.to_act]
        for s, size in zip(others, self.sizes, strict=True):
            sim.hands[s] = sorted(cards[at : at + size])
            at += size
        sim.stock = cards[at:][::-1]
        return sim
