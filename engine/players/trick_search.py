"""Trick play of one determinized deal: a fast inner simulator, exact search and playouts
(RULES.md §1.4, §1.5).

A :class:`KnownDeal` is a deal whose every hand is known (one sample of :mod:`.trick_sample`), in
small integers: a card is ``suit * 16 + strength`` (suit by :data:`~engine.cards.SUIT_ORDER`,
strength by the game's rank order, §1.1.3, higher beats lower), so that following, winning and
scoring are integer compares and table look-ups. What a game does differently is read once
into a :class:`TrickTable` (one per game, trump and ``must_trump``). The simulator restates the
engine's rules of trick play (:mod:`engine.trick.legal`) and scoring (the variants' ``score``,
:func:`engine.trick.scoring.apply_count`); ``tests/engine/test_trick_search_sim.py`` plays it
against the engine step by step.

:func:`solve` is a paranoid alpha-beta search: the seat searching maximizes its own
:func:`utility`, the other playing seats minimize it, which makes the many-handed deal a
two-sided game that alpha-beta prunes well. It counts the nodes it visits and stops expanding
at ``budget`` nodes, finishing the remaining lines with :func:`playout` (an iteration budget,
never a clock).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from engine.core import Seat
from engine.trick.rules import HAND_SIZE

from .determinized import Work
from .trick_tables import (
    HELD_BONUS,
    PLAIN,
    TABLES,
    TRICK_VALUES,
    WINS,
    ZERO_BONUS_SHARE,
    TrickTable,
    suit_no,
    table_for,
)


class KnownDeal:
    """One deal in trick play, every hand known. Built by :func:`new_deal`; changed by
    :meth:`play` (and :meth:`retract`, for the search)."""

    __slots__ = (
        "counts",
        "done",
        "hands",
        "held",
        "leader",
        "led",
        "nxt",
        "past",
        "players",
        "playing",
        "points",
        "rot",
        "seats",
        "table",
        "target",
        "total",
        "trick",
        "turn",
        "wkey",
        "won",
        "wseat",
    )

    table: TrickTable
    players: int
    playing: list[Seat]  # in turn from the dealer's left (§1.4.1)
    nxt: tuple[Seat, ...]  # per playing seat: the next one in turn
    rot: tuple[tuple[Seat, ...], ...]  # per playing seat: the playing seats in turn from it
    hands: list[list[int]]  # per seat; empty for seats not playing
    counts: Sequence[int]
    total: int  # the sum of the counts
    target: int
    held: Seat | None  # who holds the privileged card at the first lead (§1.5.1)
    trick: list[int]  # the cards of the trick in play
    seats: list[Seat]  # and who played them
    led: int  # the trick's led suit L (§1.4.3)
    wkey: int  # the trick's winning key so far (:func:`_table`) and its seat
    wseat: Seat
    leader: Seat
    turn: Seat
    done: int  # tricks completed
    won: list[int]  # per seat: tricks won (§1.5.2 t)
    points: list[int]  # per seat: Шутиха's trick values (§1.5.5)
    past: list[tuple[Seat, list[Seat], list[int], Seat, Seat]]  # leader, seats, cards, winner, QS

    def to_play(self) -> Seat:
        return self.turn

    @property
    def over(self) -> bool:
        return self.done == HAND_SIZE

    def legal(self, seat: Seat) -> list[int]:
        """§1.4.3, §1.4.4: the cards ``seat`` may play; the leader may lead any card."""
        hand = self.hands[seat]
        if not self.trick:
            return hand[:]
        cards = _follow(hand, self.led, self.table)
        return hand[:] if cards is hand else cards

    def play(self, seat: Seat, card: int) -> bool:
        """Play a card; True when it completed a trick."""
        self.hands[seat].remove(card)
        trick = self.trick
        t = self.table
        if trick:
            key = t.follow_key[self.led][card]
            if key > self.wkey:
                self.wkey, self.wseat = key, seat
        else:
            self.led = t.led_suit[card]
            self.wkey, self.wseat = t.lead_key[card], seat
        trick.append(card)
        self.seats.append(seat)
        if len(trick) < len(self.playing):
            self.turn = self.nxt[seat]
            return False
        # §1.4.5: the winner takes the trick and leads to the next (§1.4.8)
        winner = self.wseat
        self.won[winner] += 1
        qs = -1
        if t.scoring == TRICK_VALUES:
            qs = _trick_values(self.points, trick, self.seats, winner, t.priv)
        self.past.append((self.leader, self.seats, trick, winner, qs))
        self.trick, self.seats = [], []
        self.leader = self.turn = winner
        self.done += 1
        return True

    def retract(
        self, seat: Seat, card: int, completed: bool, led: int, wkey: int, wseat: Seat
    ) -> None:
        """Take back :meth:`play` (the card goes back to the end of the hand), the trick's
        ``led``, ``wkey`` and ``wseat`` as they were before it."""
        if completed:
            leader, seats, trick, winner, qs = self.past.pop()
            self.won[winner] -= 1
            if self.table.scoring == TRICK_VALUES:
                _untrick_values(self.points, winner, qs)
            self.leader = leader
            self.done -= 1
            self.trick, self.seats = trick[:-1], seats[:-1]
        else:
            self.trick.pop()
            self.seats.pop()
        self.hands[seat].append(card)
        self.turn = seat
        self.led, self.wkey, self.wseat = led, wkey, wseat

    def winners(self) -> list[Seat]:
        """The completed tricks' winners, in order."""
        return [p[3] for p in self.past]

    def copy(self) -> KnownDeal:
        new = object.__new__(KnownDeal)
        new.table, new.players, new.playing = self.table, self.players, self.playing
        new.nxt, new.rot = self.nxt, self.rot
        new.hands = [h[:] for h in self.hands]
        new.counts, new.total = self.counts, self.total
        new.target, new.held = self.target, self.held
        new.trick, new.seats = self.trick[:], self.seats[:]
        new.led, new.wkey, new.wseat = self.led, self.wkey, self.wseat
        new.leader, new.turn, new.done = self.leader, self.turn, self.done
        new.won, new.points, new.past = self.won[:], self.points[:], self.past[:]
        return new


def _follow(hand: list[int], led: int, t: TrickTable) -> list[int]:
    """§1.4.3, §1.4.4: the cards of ``hand`` that may follow to a trick led in suit ``led``
    (``hand`` itself when any card may)."""
    priv = t.priv
    if t.wild:  # §1.4.3: the hand read without the JC, which may always be played (§1.4.4)
        suited = [c for c in hand if c >> 4 == led and c != priv]
        if not suited and t.must_trump:
            suited = [c for c in hand if c >> 4 == t.trump and c != priv]
        if suited:
            if priv in hand:
                suited.append(priv)
            return suited
        return hand
    suited = [c for c in hand if c >> 4 == led]  # (a)
    if suited:
        return suited
    if t.must_trump:  # (b)
        trumps = [c for c in hand if c >> 4 == t.trump]
        if trumps:
            # §1.4.4: the AS / KC instead of the trump required (Шутиха's QS is a spade)
            if t.unled and priv >> 4 != t.trump and priv in hand:
                trumps.append(priv)
            return trumps
    return hand  # (c)


def _untrick_values(points: list[int], winner: Seat, qs: Seat) -> None:
    """Take back :func:`_trick_values`."""
    if qs < 0:
        points[winner] -= 1
    elif qs == winner:
        points[winner] -= 8
    else:
        points[winner] -= 5
        points[qs] -= 4


def _trick_values(
    points: list[int], trick: list[int], seats: list[Seat], winner: Seat, qs_card: int
) -> Seat:
    """§1.5.5: 8 for a trick won by the QS; one with the QS won by the KS (the only card that
    beats it, §1.4.7) 5 to its winner and 4 to the QS player; every other trick 1. The QS
    player's seat, or -1."""
    if qs_card not in trick:
        points[winner] += 1
        return -1
    qs = seats[trick.index(qs_card)]
    if qs == winner:
        points[winner] += 8
    else:
        points[winner] += 5
        points[qs] += 4
    return qs


def new_deal(
    table: TrickTable,
    players: int,
    playing: Sequence[Seat],
    hands: Sequence[Iterable[int]],
    counts: Sequence[int],
    target: int,
    held: Seat | None,
    past: Iterable[tuple[Seat, int]] = (),
) -> KnownDeal:
    """A deal at its first lead (§1.4.1), every hand known, then the cards ``past`` already
    played (seat and card, in order: they are put in the hand and played)."""
    deal = object.__new__(KnownDeal)
    deal.table, deal.players, deal.playing = table, players, list(playing)
    k = len(playing)
    nxt = [0] * players
    for i, s in enumerate(playing):
        nxt[s] = playing[(i + 1) % k]
    deal.nxt = tuple(nxt)
    rot: list[tuple[Seat, ...]] = [()] * players
    for i, s in enumerate(playing):
        rot[s] = tuple(playing[i:]) + tuple(playing[:i])
    deal.rot = tuple(rot)
    deal.hands = [list(h) for h in hands]
    deal.counts, deal.total, deal.target, deal.held = counts, sum(counts), target, held
    deal.trick, deal.seats = [], []
    deal.led = deal.wkey = 0
    deal.wseat = deal.leader = deal.turn = playing[0]
    deal.done = 0
    deal.won, deal.points = [0] * players, [0] * players
    deal.past = []
    for seat, card in past:
        assert seat == deal.turn
        deal.hands[seat].append(card)
        deal.play(seat, card)
    return deal


def after(deal: KnownDeal, seat: Seat) -> int:
    """``seat``'s count after the finished deal (§1.5.2–§1.5.5, §1.5.7)."""
    t = deal.won[seat]
    table = deal.table
    held = seat == deal.held
    written = remise = 0
    if table.scoring == HELD_BONUS:  # §1.5.3, Мистигри §1.5.4
        if t == 0:
            remise = 10 if held else 5
        elif held:
            written = 2 * t + 8 if table.priv_trump else t + 5
        else:
            written = t
    elif table.scoring == PLAIN:  # Памфил §1.5.4
        written = t
        remise = 5 if t == 0 else 0
    else:  # Шутиха §1.5.4, §1.5.5: no remise for the QS player
        written = deal.points[seat]
        remise = 5 if t == 0 and not held else 0
    count = deal.counts[seat] - written + remise
    return deal.target if count < 0 else count  # §1.5.7 b


def utility(deal: KnownDeal, seat: Seat) -> float:
    """What the finished deal is worth to ``seat``: minus its count after the deal (an
    overshoot sets it back to ``target``, §1.5.7 b), plus the pulka's worth on reaching zero;
    with a table valuing the future (:func:`future`), the pulka the deal leaves."""
    if deal.table.future:
        return future(deal, seat)
    count = after(deal, seat)
    if count == 0:
        return ZERO_BONUS_SHARE * (deal.total - deal.counts[seat])
    return -float(count)


def future(deal: KnownDeal, seat: Seat) -> float:
    """The finished deal's worth to ``seat`` as the pulka it leaves (§1.5.8, §1.6.1): reaching
    zero collects the other counts; another seat reaching zero ends the pulka with ``seat``
    paying its count; else the pulka goes on, each of the n seats its winner alike — the other
    counts collected one time in n, its own paid the other times: (others − (n − 1)·count) / n.
    (The count of a seat not playing stands, §1.5.2.)"""
    playing = deal.playing
    mine = after(deal, seat) if seat in playing else deal.counts[seat]
    if mine == 0:
        return ZERO_BONUS_SHARE * (deal.total - deal.counts[seat])
    others = 0
    for s in range(deal.players):
        if s != seat:
            count = after(deal, s) if s in playing else deal.counts[s]
            if count == 0:
                return -float(mine)
            others += count
    n = deal.players
    return (others - (n - 1) * mine) / n


def playout_card(deal: KnownDeal, seat: Seat, cards: Sequence[int]) -> int:
    """The playout policy: lead the highest card; follow with the lowest card that takes the
    trick, else the lowest card (tricks are what every player writes off)."""
    if len(cards) == 1:
        return cards[0]
    order = deal.table.policy_key
    if not deal.trick:
        return lead_card(deal.hands, cards, deal.rot[seat], deal.table)
    keys, best = deal.table.follow_key[deal.led], deal.wkey
    winning = [c for c in cards if keys[c] > best]
    return min(winning or cards, key=order.__getitem__)


def lead_card(
    hands: list[list[int]], cards: Sequence[int], seats: Sequence[Seat], t: TrickTable
) -> int:
    """The playout's lead: the highest of ``cards``; with a guarded table (Шутиха,
    :data:`~.trick_tables.GUARDED`) not the QS while another of ``seats`` (the trick's, from the
    leader) holds the KS, nor the KS while another holds the QS — the next highest instead."""
    order = t.policy_key.__getitem__
    card = max(cards, key=order)
    guard = t.guard
    if guard < 0 or len(cards) == 1 or (card != t.priv and card != guard):
        return card
    other = guard if card == t.priv else t.priv
    if any(other in hands[s] for s in seats[1:]):
        return max((c for c in cards if c != card), key=order)
    return card


def playout(deal: KnownDeal, work: Work | None = None) -> KnownDeal:
    """Play ``deal`` to its end with :func:`playout_card` (in place; returned). The trick in
    play is finished card by card, then each trick is played in one go (the rules as in
    :meth:`KnownDeal.play`, §1.4.1–§1.4.8)."""
    played = 0
    while deal.trick:
        seat = deal.turn
        deal.play(seat, playout_card(deal, seat, deal.legal(seat)))
        played += 1
    t = deal.table
    hands, won, points, past = deal.hands, deal.won, deal.points, deal.past
    order = t.policy_key.__getitem__
    lead_key, follow_key, led_suit = t.lead_key, t.follow_key, t.led_suit
    values = t.scoring == TRICK_VALUES
    rot = deal.rot
    leader = deal.leader
    for _ in range(deal.done, HAND_SIZE):
        seats = rot[leader]
        hand = hands[leader]
        card = lead_card(hands, hand, seats, t) if t.guard >= 0 else max(hand, key=order)
        hand.remove(card)
        led = led_suit[card]
        wkey, wseat = lead_key[card], leader
        keys = follow_key[led]
        trick = [card]
        for seat in seats[1:]:
            hand = hands[seat]
            cards = _follow(hand, led, t)
            if len(cards) > 1:  # the lowest that takes the trick, else the lowest
                winning = [c for c in cards if keys[c] > wkey]
                card = min(winning or cards, key=order)
            else:
                card = cards[0]
            hand.remove(card)
            trick.append(card)
            if keys[card] > wkey:
                wkey, wseat = keys[card], seat
        won[wseat] += 1
        qs = _trick_values(points, trick, list(seats), wseat, t.priv) if values else -1
        past.append((leader, list(seats), trick, wseat, qs))
        played += len(seats)
        leader = wseat
    deal.leader = deal.turn = leader
    deal.done = HAND_SIZE
    if work is not None:
        work.done += played
    return deal


@dataclass(slots=True)
class _Search:
    me: Seat
    budget: int
    work: Work
    nodes: int = 0

    def value(self, deal: KnownDeal, alpha: float, beta: float) -> float:
        """The value of ``deal`` just after a card was played to it (counted here)."""
        self.work.done += 1
        if deal.done == HAND_SIZE:
            return utility(deal, self.me)
        self.nodes += 1
        if self.nodes > self.budget:
            return utility(playout(deal.copy(), self.work), self.me)
        seat = deal.turn
        cards = deal.legal(seat)
        maximizing = seat == self.me
        if len(cards) > 1:  # the playout's card first: good lines early prune the rest
            first = playout_card(deal, seat, cards)
            cards.remove(first)
            cards.insert(0, first)
        led, wkey, wseat = deal.led, deal.wkey, deal.wseat
        best = -1e18 if maximizing else 1e18
        for card in cards:
            completed = deal.play(seat, card)
            v = self.value(deal, alpha, beta)
            deal.retract(seat, card, completed, led, wkey, wseat)
            if maximizing:
                if v > best:
                    best = v
                    if v > alpha:
                        alpha = v
            elif v < best:
                best = v
                if v < beta:
                    beta = v
            if alpha >= beta:
                break
        return best


def solve(
    deal: KnownDeal, me: Seat, cards: Sequence[int], budget: int, work: Work | None = None
) -> list[float]:
    """The value to ``me`` (to play in ``deal``) of each of ``cards``: paranoid alpha-beta,
    at most ``budget`` nodes per card, then playouts; the cards played are added to ``work``.
    ``deal`` is left as it was."""
    values = []
    counter = work if work is not None else Work()
    was = deal.led, deal.wkey, deal.wseat
    for card in cards:
        search = _Search(me, budget, counter)
        completed = deal.play(me, card)
        values.append(search.value(deal, -1e18, 1e18))
        deal.retract(me, card, completed, *was)
    return values


__all__ = [
    "TABLES",
    "WINS",
    "KnownDeal",
    "TrickTable",
    "Work",
    "after",
    "future",
    "lead_card",
    "new_deal",
    "playout",
    "playout_card",
    "solve",
    "suit_no",
    "table_for",
    "utility",
]
