"""A fast inner simulator of the rest of one Копилка deal, for ``normal``'s rollouts (RULES.md §2).

The engine's :class:`~engine.kopilka.state.KopilkaState` writes a record, keeps views and checks
every action; a rollout needs none of that. Here a card is its index in ``DECK_32``
(``suit * 8 + strength``: suits S C D H = 0 1 2 3, strength 7 … A = 0 … 7), so ``c >> 3`` is its
suit, of two cards of one suit the higher index is the higher card (§2.1.1) and the AS is 7.
An action is a card, :data:`BUY_1`, :data:`BUY_2` or :data:`PASS`. A :class:`KopilkaSim` is one
world (every hand known) from the seat's view to the end of the deal: the deal's fines and
points and, after the fourth deal, the payout (§2.6) are the value it gives. The random takes
of a lay-out (§2.3.4) are drawn like the engine's (``choice`` over the laid-out cards in
canonical order), so that on the same generator both play the same deal —
``tests/engine/test_kopilka_sim.py`` plays both side by side and compares them at every step.
"""

from __future__ import annotations

import random
from typing import Final

from engine.actions import Buy, Pass, PlayCard
from engine.cards import DECK_32, SUIT_ORDER, Card
from engine.kopilka.actions import KopilkaAction
from engine.kopilka.options import KopilkaOptions
from engine.kopilka.rules import DEALS, PLAYERS, TAKEBACKS_TO_BLOCK, KopilkaPhase
from engine.kopilka.scoring import pay_out
from engine.kopilka.view import KopilkaView

from .determinized import Work

CODE: Final = {card: i for i, card in enumerate(DECK_32)}
"""A card's index in the sim."""
AS: Final = CODE[Card.parse("AS")]  # §2.4.4
BUY_1: Final = 32
BUY_2: Final = 33
PASS: Final = 34
SUIT: Final = {suit: i for i, suit in enumerate(SUIT_ORDER)}
ALL_SUITS: Final = frozenset(range(4))


def code(action: KopilkaAction) -> int:
    """The sim's action for an engine action."""
    match action:
        case PlayCard(card):
            return CODE[card]
        case Buy(k):
            return BUY_1 - 1 + k
        case Pass():
            return PASS
    raise AssertionError(action)


def _placeable(counts: list[int], room: list[int], allowed: list[frozenset[int]]) -> bool:
    """Whether cards of these counts per suit can fill every seat's room with suits it allows
    (the stock takes the rest): for every set of seats, the cards of the suits any of them
    allows cover their rooms (Hall's condition, which for such a transport is enough)."""
    seats = len(room)
    for mask in range(1, 1 << seats):
        need = 0
        suits: set[int] = set()
        for i in range(seats):
            if mask >> i & 1:
                need += room[i]
                suits |= allowed[i]
        if need and need > sum(counts[s] for s in suits):
            return False
    return True


def _canonical(card: int) -> int:
    """§R1.8 order (suits S C D H, then highest first): the engine's order of legal cards."""
    return card ^ 7


class KopilkaSim:
    """One world of a Копилка deal in progress, every hand known; ``to_act`` is −1 at its end."""

    __slots__ = (
        "bank",
        "bought",
        "deal_no",
        "dealer",
        "empty",
        "free",
        "hands",
        "last",
        "leader",
        "led",
        "options",
        "paid",
        "partia",
        "plays",
        "points",
        "rng",
        "seed",
        "stock",
        "takebacks",
        "to_act",
        "top",
        "top_seat",
        "turns",
        "winner",
        "won",
    )

    hands: list[list[int]]
    stock: list[int]  # top first
    won: list[int]  # tricks won this deal, per seat (§2.6.2)
    points: list[int]  # this deal's trick points (§2.6.1)
    partia: list[int]  # partia points before this deal; after it, once it has ended
    paid: list[int]  # everything paid into the bank this partia, ante included (§2.6.6)
    bank: int
    last: int  # led suit of the last completed trick, −1 before the first (§2.4.2)
    free: bool  # this lead is free of §2.4.2
    leader: int
    led: int  # the led suit; −1 while a lead is awaited
    plays: list[int]  # the current trick's cards, the lead first
    top: int  # the card winning the trick so far (§2.4.6) and its seat
    top_seat: int
    turns: int  # followers done in this trick (§2.4.3)
    bought: bool  # the follower to act has bought this turn (§2.4.3 c)
    takebacks: int  # in a row (§2.5.2)
    empty: list[int]  # seats with empty hands, in the order they emptied (§2.5.1)
    dealer: int
    deal_no: int
    to_act: int
    winner: int  # the deal's winner once it has ended
    options: KopilkaOptions
    rng: random.Random | None  # the takes' generator, made from ``seed`` at the first take
    seed: int

    def copy(self, seed: int) -> KopilkaSim:
        """An independent copy whose takes come from ``random.Random(seed)``."""
        other = KopilkaSim.__new__(KopilkaSim)
        other.hands = [list(h) for h in self.hands]
        other.stock = list(self.stock)
        other.won = list(self.won)
        other.points = list(self.points)
        other.partia = self.partia  # replaced, never changed in place (_end)
        other.paid = list(self.paid)
        other.bank = self.bank
        other.last = self.last
        other.free = self.free
        other.leader = self.leader
        other.led = self.led
        other.plays = list(self.plays)
        other.top = self.top
        other.top_seat = self.top_seat
        other.turns = self.turns
        other.bought = self.bought
        other.takebacks = self.takebacks
        other.empty = list(self.empty)
        other.dealer = self.dealer
        other.deal_no = self.deal_no
        other.to_act = self.to_act
        other.winner = self.winner
        other.options = self.options
        other.rng = None
        other.seed = seed
        return other

    # --- the legal actions and applying one ---------------------------------------------------

    def legal(self) -> list[int]:
        """The legal actions in the engine's order: cards canonically, ``buy 1``, ``buy 2``,
        ``pass``."""
        hand = sorted(self.hands[self.to_act], key=_canonical)
        led = self.led
        if led < 0:  # §2.4.1, §2.4.2
            banned = -1 if self.free else self.last
            return [c for c in hand if c >> 3 != banned]
        if not hand:
            return [PASS]  # §2.4.3 d
        cards = [c for c in hand if c >> 3 == led or c == AS]  # §2.4.4
        if any(c >> 3 == led for c in hand):  # §2.4.3 a
            return [*cards, PASS] if self.options.hold_pass else cards
        if not self.bought:  # §2.4.3 b, c
            cards += [BUY_1, BUY_2][: len(self.stock)]
        return [*cards, PASS]

    def apply(self, action: int) -> None:
        """Apply a legal action of the seat to act."""
        seat = self.to_act
        if self.led < 0:
            self._lead(seat, action)
        elif action == PASS:
            self._pass(seat)
        elif action >= BUY_1:
            self._buy(seat, action - BUY_1 + 1)
        else:
            self._play(seat, action)

    def rollout(self, work: Work, *, duck: bool = False) -> None:
        """Play to the end of the deal by the easy rule (:func:`engine.players.kopilka.pick`);
        ``duck``: a follower who cannot beat the card winning the trick plays his lowest card
        of the suit, keeping the higher ones (``hard``'s until :mod:`.kopilka_rollout`)."""
        hands = self.hands
        done = 0
        while (seat := self.to_act) >= 0:
            done += 1
            hand = hands[seat]
            led = self.led
            if led < 0:  # lead the lowest card, the dearer suit among equals
                banned = -1 if self.free else self.last
                best, key = -1, 99
                for c in hand:
                    if c >> 3 != banned and (k := (c & 7) * 4 + 3 - (c >> 3)) < key:
                        best, key = c, k
                self._lead(seat, best)
                continue
            best, low = -1, 99
            for c in hand:
                if c >> 3 == led:
                    best = max(best, c)
                    low = min(low, c)
            if best >= 0:  # the highest card of the suit (ducking: the lowest, if beaten)
                beaten = duck and (self.top == AS or self.top > best)
                self._play(seat, low if beaten else best)
            elif led >= 2 and AS in hand and self.top != AS:  # the AS on hearts, diamonds
                self._play(seat, AS)
            elif hand and not self.bought and self.stock:  # void: buy one (§2.4.3 b, d)
                self._buy(seat, 1)
            else:
                self._pass(seat)
        work.done += done

    def value(self, seat: int) -> int:
        """``seat``'s money at the end of the deal, as :func:`engine.players.kopilka.money` has
        it: partia points at the rate minus everything paid in; after deal 4 the net (§2.6.6)."""
        rate = self.options.point_rate
        if self.deal_no < DEALS:
            return self.partia[seat] * rate - self.paid[seat]
        payout = pay_out(self.bank, self.partia, rate, self.winner).payout  # §2.6.5
        return payout[seat] - self.paid[seat]

    # --- the rules ------------------------------------------------------------------------------

    def _lead(self, seat: int, card: int) -> None:
        hand = self.hands[seat]
        hand.remove(card)
        if not hand and seat not in self.empty:
            self.empty.append(seat)
        self.leader = seat
        self.led = card >> 3
        self.plays = [card]
        self.top = card
        self.top_seat = seat
        self.turns = 0
        self.bought = False
        self.to_act = (seat + 1) % PLAYERS

    def _play(self, seat: int, card: int) -> None:
        hand = self.hands[seat]
        hand.remove(card)
        if not hand and seat not in self.empty:
            self.empty.append(seat)
        self.plays.append(card)
        # §2.4.6: the AS wins any trick it is in (§2.4.4), else the highest card of the led suit
        top = self.top
        if card == AS or (card >> 3 == self.led and card > top and top != AS):
            self.top = card
            self.top_seat = seat
        self._next()

    def _buy(self, seat: int, k: int) -> None:
        """§2.4.5: the top k cards of the stock, then the same-suit rule (§2.3.1)."""
        stock = self.stock
        hand = self.hands[seat]
        hand += stock[:k]
        del stock[:k]
        if hand and self.empty and seat in self.empty:
            self.empty.remove(seat)
        self.bought = True
        if len(hand) >= 3:
            self._same_suit(seat)  # he acts again (§2.4.3 c)

    def _pass(self, seat: int) -> None:
        led = self.led
        if self.options.hold_pass:
            for c in self.hands[seat]:
                if c >> 3 == led:  # §2.4.3 a, §2.6.4: the fine at once
                    fine = self.options.hold_pass_fine
                    self.bank += fine
                    self.paid[seat] += fine
                    break
        self._next()

    def _next(self) -> None:
        self.turns += 1
        self.bought = False
        if self.turns < PLAYERS - 1:
            self.to_act = (self.to_act + 1) % PLAYERS
        else:
            self._close()

    def _close(self) -> None:
        """A complete trick (§2.4.6) or a take-back (§2.4.7); then the end (§2.5) or a lead."""
        leader, led = self.leader, self.led
        if len(self.plays) > 1:
            winner, top = self.top_seat, self.top
            self.won[winner] += 1
            # §2.6.1: the led suit's value (S 1 … H 4), doubled if won by its ace or the AS
            self.points[winner] += (led + 1) * (2 if top == AS or top == led * 8 + 7 else 1)
            self.last = led
            self.takebacks = 0
            if self.empty:  # §2.5.1
                self._end(self.empty[0])
            else:
                self._open_lead(winner)
            return
        hand = self.hands[leader]
        hand.append(self.plays[0])
        if self.empty and leader in self.empty:
            self.empty.remove(leader)
        self.takebacks += 1
        if self.empty:  # §2.5.1
            self._end(self.empty[0])
        elif self.takebacks >= TAKEBACKS_TO_BLOCK:  # §2.5.2: the fewest cards, from the left
            order = [(self.dealer + i) % PLAYERS for i in range(1, PLAYERS + 1)]
            self._end(min(order, key=lambda s: len(self.hands[s])))
        else:
            self._open_lead((leader + 1) % PLAYERS)

    def _open_lead(self, leader: int) -> None:
        """§2.4.2: the lead passes left past seats holding only the last suit; if no seat can
        lead another suit, the restriction is lifted and ``leader`` leads any card."""
        self.led = -1
        self.plays = []
        last = self.last
        self.free = last < 0
        self.to_act = leader
        if not self.free:
            for i in range(PLAYERS):
                s = (leader + i) % PLAYERS
                for c in self.hands[s]:
                    if c >> 3 != last:
                        self.to_act = s
                        return
            self.free = True

    def _same_suit(self, seat: int) -> None:
        """§2.3: lay out a suit of k ≥ 3 cards while there is one; three random takes (§2.3.4),
        k − 3 back (§2.3.5), min(3, stock) drawn (§2.3.6)."""
        hands = self.hands
        hand = hands[seat]
        while True:
            counts = [0, 0, 0, 0]
            for c in hand:
                counts[c >> 3] += 1
            suit, most = -1, 2
            for s in (3, 2, 1, 0):  # §2.3.2: more cards first, then H D C S
                if counts[s] > most:
                    suit, most = s, counts[s]
            if suit < 0:
                return
            # §2.3.3: every card of the suit, the AS too, in canonical order (the engine's)
            lying = sorted((c for c in hand if c >> 3 == suit), reverse=True)
            hand[:] = [c for c in hand if c >> 3 != suit]
            rng = self.rng
            if rng is None:
                rng = self.rng = random.Random(self.seed)
            for i in range(1, 4):  # §2.3.4: from the holder's left, uniformly
                taker = (seat + i) % PLAYERS
                card = rng.choice(lying)
                lying.remove(card)
                hands[taker].append(card)
                if self.empty and taker in self.empty:
                    self.empty.remove(taker)
            hand += lying  # §2.3.5
            hand += self.stock[:3]  # §2.3.6
            del self.stock[:3]
            if hand:
                if self.empty and seat in self.empty:
                    self.empty.remove(seat)
            elif seat not in self.empty:  # §2.3.8
                self.empty.append(seat)

    def _end(self, winner: int) -> None:
        """§2.6.2 (no trick), §2.6.3 (all but the winner pay the fee); the points (§2.6.1)."""
        options = self.options
        paid = self.paid
        for s in range(PLAYERS):
            fine = (0 if self.won[s] else options.no_trick_fine) + (
                0 if s == winner else options.deal_fee
            )
            paid[s] += fine
            self.bank += fine
        self.partia = [p + q for p, q in zip(self.partia, self.points, strict=True)]
        self.winner = winner
        self.to_act = -1


class KopilkaTable:
    """What one seat's view tells, in the sim's terms: :meth:`deal` makes worlds from it."""

    __slots__ = ("base", "me", "others", "out", "shown", "sizes", "unseen", "voids")

    def __init__(self, view: KopilkaView) -> None:
        me = view.seat
        assert me is not None and view.to_act == me
        self.me = me
        mine = [CODE[c] for c in view.hand]
        plays = [(s, CODE[c]) for s, c in view.trick]
        seen = {*mine, *(CODE[c] for c in view.gone), *(c for _, c in plays)}
        self.unseen = [c for c in range(len(DECK_32)) if c not in seen]  # in DECK_32 order
        self.others = [s for s in range(PLAYERS) if s != me]
        self.sizes = [view.hand_sizes[s] for s in self.others]
        # what the seat knows of the other hands (engine/kopilka/knowledge.py), in sim terms
        voids = view.voids or tuple(frozenset() for _ in range(PLAYERS))
        shown = view.shown or tuple(() for _ in range(PLAYERS))
        self.voids = [frozenset(SUIT[suit] for suit in voids[s]) for s in self.others]
        self.shown = [[CODE[c] for c in shown[s]] for s in self.others]
        unseen = set(self.unseen)
        # its own laid-out cards not in its hand nor played: in an opponent's hand (§2.3.4)
        self.out = [CODE[c] for c in view.laid if CODE[c] in unseen]
        base = KopilkaSim.__new__(KopilkaSim)
        base.hands = [[] for _ in range(PLAYERS)]
        base.hands[me] = mine
        base.stock = []
        base.won = list(view.tricks_won)
        base.points = list(view.deal_points)
        base.partia = [p - d for p, d in zip(view.partia_points, view.deal_points, strict=True)]
        base.paid = list(view.fines)
        base.bank = view.bank
        base.last = -1 if view.last_suit is None else SUIT[view.last_suit]
        base.free = view.forbidden_suit is None
        base.leader = -1 if view.leader is None else view.leader
        following = view.leader is not None and view.phase == KopilkaPhase.FOLLOW
        base.led = SUIT[view.led_suit] if following and view.led_suit is not None else -1
        base.plays = [c for _, c in plays]
        base.top, base.top_seat = -1, -1
        for s, c in plays:
            top = base.top
            if top < 0 or c == AS or (c >> 3 == base.led and c > top and top != AS):
                base.top, base.top_seat = c, s
        base.turns = (me - base.leader - 1) % PLAYERS if following else 0
        base.bought = view.bought
        base.takebacks = view.takebacks
        # which seat emptied first is not in the view: in seat order, as the engine's world
        base.empty = [s for s in range(PLAYERS) if not view.hand_sizes[s]]
        base.dealer = view.dealer if view.dealer is not None else 0
        base.deal_no = view.deal_no
        base.to_act = me
        base.winner = -1
        base.options = view.options
        base.rng = None
        base.seed = 0
        self.base = base

    def deal(self, rng: random.Random) -> KopilkaSim:
        """A world: the unseen cards shuffled by ``rng`` and cut, the other seats in turn then
        the stock — as :func:`engine.players.determinized.deal_unseen` cuts them."""
        cards = list(self.unseen)
        rng.shuffle(cards)
        sim = self.base.copy(0)
        at = 0
        for s, size in zip(self.others, self.sizes, strict=True):
            sim.hands[s] = cards[at : at + size]
            at += size
        sim.stock = cards[at:]
        return sim

    def consistent(self, rng: random.Random) -> KopilkaSim:
        """A world the seat's knowledge allows: each seat's shown cards in its hand, its own
        laid-out cards still out in an opponent's hand (never the stock), no seat given a suit
        it is known to lack. The unseen cards are shuffled by ``rng`` and placed one by one,
        each where a uniform deal would put it (a place with room, in proportion to its room)
        among the places that allow it and leave the rest placeable (:func:`_placeable`)."""
        cards = list(self.unseen)
        rng.shuffle(cards)
        hands: list[list[int]] = [list(shown) for shown in self.shown]
        placed = {c for shown in self.shown for c in shown}
        room = [size - len(hand) for size, hand in zip(self.sizes, hands, strict=True)]
        allowed = [ALL_SUITS - void for void in self.voids]
        counts = [0, 0, 0, 0]
        for c in cards:
            if c not in placed:
                counts[c >> 3] += 1
        stock: list[int] = []
        stock_room = len(cards) - len(placed) - sum(room)
        out = [c for c in self.out if c not in placed]
        rest = [c for c in cards if c not in placed and c not in out]
        for card, to_stock in [*((c, False) for c in out), *((c, True) for c in rest)]:
            suit = card >> 3
            counts[suit] -= 1
            places = [i for i in range(len(hands)) if room[i] > 0 and suit in allowed[i]]
            if to_stock and stock_room > 0:
                places.append(-1)
            while places:
                weights = [stock_room if i < 0 else room[i] for i in places]
                i = rng.choices(places, weights)[0]
                if i >= 0:
                    room[i] -= 1
                if _placeable(counts, room, allowed) or len(places) == 1:
                    break
                if i >= 0:
                    room[i] += 1
                places.remove(i)
            else:  # nothing allows it (never so for the true hands): wherever there is room
                i = next((k for k in range(len(hands)) if room[k] > 0), -1)
                if i >= 0:
                    room[i] -= 1
            if i < 0:
                stock.append(card)
                stock_room -= 1
            else:
                hands[i].append(card)
        sim = self.base.copy(0)
        for s, hand in zip(self.others, hands, strict=True):
            sim.hands[s] = hand
        sim.stock = stock
        return sim
