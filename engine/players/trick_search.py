"""Trick play of one determinized deal: exact search and fast playouts (RULES.md §1.4, §1.5).

A :class:`Deal` is a deal whose every hand is known (one sample of :mod:`.trick_sample`). The
legal cards are the engine's own (:func:`engine.trick.legal.playable`), the trick's winner is
:func:`engine.trick.legal.trick_winner` and the deal's figures are the variant's scoring
(:func:`engine.trick.scoring.trick_points`, :func:`engine.trick.scoring.apply_count`): nothing
of the rules is restated here.

:func:`solve` is a paranoid alpha-beta search: the seat searching maximizes its own
:func:`utility`, the other playing seats minimize it, which makes the many-handed deal a
two-sided game that alpha-beta prunes well. It counts the nodes it visits and stops expanding
at ``budget`` nodes, finishing the remaining lines with :func:`playout` (an iteration budget,
never a clock).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from engine.cards import Card, Rank, Suit
from engine.core import Seat
from engine.trick import legal, scoring
from engine.trick.rules import HAND_SIZE, Privilege, Trick, Variant

from .determinized import Work

ZERO_BONUS_SHARE = 1.0
"""Reaching zero wins the pulka: worth this share of the other counts (what the winner
collects, §1.6.1) on top of the points written off."""


@dataclass(slots=True)
class Deal:
    """One deal in trick play (or about to be), every hand known."""

    variant: Variant
    trump: Suit
    must_trump: bool
    strength: Mapping[Rank, int]
    players: int
    playing: list[Seat]  # in turn from the dealer's left (§1.4.1)
    hands: list[list[Card]]  # per seat; empty for seats not playing
    counts: Sequence[int]
    target: int
    held: Seat | None  # who holds the privileged card at the first lead (§1.5.1)
    trick: list[tuple[Seat, Card]] = field(default_factory=list)
    tricks: list[Trick] = field(default_factory=list)
    leader: Seat = 0

    def to_play(self) -> Seat:
        playing = self.playing
        if not self.trick:
            return self.leader
        last = self.trick[-1][0]
        return playing[(playing.index(last) + 1) % len(playing)]

    def legal(self, seat: Seat) -> list[Card]:
        return legal.playable(
            self.hands[seat], self.trick, self.trump, self.variant, self.must_trump
        )

    def play(self, seat: Seat, card: Card) -> bool:
        """Play a card; True when it completed a trick."""
        self.hands[seat].remove(card)
        self.trick.append((seat, card))
        if len(self.trick) < len(self.playing):
            return False
        plays = tuple(self.trick)
        winner = legal.trick_winner(plays, self.trump, self.variant, self.strength)
        self.tricks.append(Trick(len(self.tricks) + 1, self.leader, plays, winner))
        self.trick = []
        self.leader = winner
        return True

    def undo(self, seat: Seat, card: Card, completed: bool) -> None:
        if completed:
            done = self.tricks.pop()
            self.trick = list(done.plays)
            self.leader = done.leader
        self.trick.pop()
        self.hands[seat].append(card)

    @property
    def over(self) -> bool:
        return len(self.tricks) == HAND_SIZE

    def copy(self) -> Deal:
        return Deal(
            self.variant,
            self.trump,
            self.must_trump,
            self.strength,
            self.players,
            list(self.playing),
            [list(h) for h in self.hands],
            self.counts,
            self.target,
            self.held,
            list(self.trick),
            list(self.tricks),
            self.leader,
        )


def utility(deal: Deal, seat: Seat) -> float:
    """What the finished deal is worth to ``seat``: minus its count after the deal (an
    overshoot sets it back to ``target``, §1.5.7 b), plus the pulka's worth on reaching zero."""
    n = deal.players
    won, written, remise, _ = scoring.trick_points(
        deal.variant, deal.trump, deal.held, deal.tricks, n
    )
    r = remise[seat] if won[seat] == 0 else 0
    after, _ = scoring.apply_count(deal.counts[seat], written[seat], r, deal.target)
    value = -float(after)
    if after == 0:
        value += ZERO_BONUS_SHARE * sum(c for s, c in enumerate(deal.counts) if s != seat)
    return value


def _beats(deal: Deal, card: Card, best: Card, led: Suit) -> bool:
    """Whether ``card`` would beat ``best`` (the trick's winning card so far) — a rough
    reading for the playout policy only (the privileged card is treated as winning)."""
    variant, trump, strength = deal.variant, deal.trump, deal.strength
    if card == variant.privileged and variant.privilege is not Privilege.PLAIN:
        return True
    if best == variant.privileged and variant.privilege is not Privilege.PLAIN:
        return False
    if card.suit is trump and best.suit is not trump:
        return True
    if card.suit is best.suit:
        return strength[card.rank] > strength[best.rank]
    return False


def playout_card(deal: Deal, seat: Seat, cards: Sequence[Card]) -> Card:
    """The playout policy: lead the highest card; follow with the lowest card that takes the
    trick, else the lowest card (tricks are what every player writes off)."""
    strength = deal.strength
    if len(cards) == 1:
        return cards[0]
    if not deal.trick:
        return max(cards, key=lambda c: (c.suit is deal.trump, strength[c.rank]))
    plays = tuple(deal.trick)
    best_seat = legal.trick_winner(plays, deal.trump, deal.variant, strength)
    best = next(c for s, c in plays if s == best_seat)
    led = plays[0][1].suit
    winning = [c for c in cards if _beats(deal, c, best, led)]
    pool = winning or cards
    return min(pool, key=lambda c: (c.suit is deal.trump, strength[c.rank]))


def playout(deal: Deal, work: Work | None = None) -> Deal:
    """Play ``deal`` to its end with :func:`playout_card` (in place; returned)."""
    while not deal.over:
        seat = deal.to_play()
        deal.play(seat, playout_card(deal, seat, deal.legal(seat)))
        if work is not None:
            work.done += 1
    return deal


@dataclass(slots=True)
class _Search:
    me: Seat
    budget: int
    work: Work
    nodes: int = 0

    def value(self, deal: Deal, alpha: float, beta: float) -> float:
        if deal.over:
            return utility(deal, self.me)
        self.nodes += 1
        self.work.done += 1
        if self.nodes > self.budget:
            return utility(playout(deal.copy(), self.work), self.me)
        seat = deal.to_play()
        cards = deal.legal(seat)
        maximizing = seat == self.me
        if len(cards) > 1:  # the playout's card first: good lines early prune the rest
            first = playout_card(deal, seat, cards)
            cards = [first, *(c for c in cards if c != first)]
        best = -1e18 if maximizing else 1e18
        for card in cards:
            completed = deal.play(seat, card)
            v = self.value(deal, alpha, beta)
            deal.undo(seat, card, completed)
            if maximizing:
                if v > best:
                    best = v
                alpha = max(alpha, v)
            else:
                if v < best:
                    best = v
                beta = min(beta, v)
            if alpha >= beta:
                break
        return best


def solve(
    deal: Deal, me: Seat, cards: Sequence[Card], budget: int, work: Work | None = None
) -> list[float]:
    """The value to ``me`` (to play in ``deal``) of each of ``cards``: paranoid alpha-beta,
    at most ``budget`` nodes per card, then playouts; the cards played are added to ``work``."""
    values = []
    counter = work if work is not None else Work()
    for card in cards:
        search = _Search(me, budget, counter)
        line = deal.copy()
        line.play(me, card)
        values.append(search.value(line, -1e18, 1e18))
    return values


__all__ = ["Deal", "Work", "playout", "playout_card", "solve", "utility"]
