"""Мушка-Копилка: the partia of 4 deals, the bank, the same-suit rule, tricks (RULES.md §2).

The state is a mutable slotted machine driven only by ``apply(seat, action)``; everything the
rules make happen (deals, lay-outs and random takes, draws, passing leads, take-backs, fines,
the payout) runs inside ``start`` and ``apply`` and is written to the RECORD.md §R7 record.
"""

from __future__ import annotations

from typing import ClassVar

from engine.actions import BUYS, PASS, PLAY_CARD, Buy, Pass, PlayCard
from engine.cards import A_HIGH, DECK_32, Card, Suit, canonical, codes
from engine.chance import Chance
from engine.core import EndReason, Places, Result, Seat, deal_hands
from engine.errors import IllegalAction, Refusal
from engine.skeleton import StateBase, owners

from .actions import ACTIONS, KopilkaAction, parse_action
from .knowledge import KopilkaKnowledge
from .options import KopilkaOptions
from .rules import (
    ACE_OF_SPADES,
    DEALS,
    HAND_SIZE,
    PLAYERS,
    TAKEBACKS_TO_BLOCK,
    TAKERS,
    lay_out_suit,
)
from .rules import KopilkaPhase as KopilkaPhase  # re-exported: the state's phases
from .scoring import deal_rows, judge_trick, partia_winner, pay_out
from .view import KopilkaView, LayOutLog


class KopilkaState(StateBase[KopilkaOptions, KopilkaAction, KopilkaView, KopilkaPhase]):
    """One partia of Копилка (one record)."""

    ACTIONS: ClassVar = ACTIONS
    PHASES: ClassVar = KopilkaPhase
    DECK: ClassVar = DECK_32  # §2.1.1
    ORDER: ClassVar = A_HIGH  # §2.1.1

    __slots__ = (
        "_bank",
        "_bought",
        "_buys",
        "_counted",
        "_deal_fines",
        "_empty",
        "_free",
        "_gone",
        "_known",
        "_last_points",
        "_last_suit",
        "_last_trick",
        "_last_winner",
        "_layouts",
        "_lead_freed",
        "_lead_passed",
        "_leader",
        "_led",
        "_paid_in",
        "_partia",
        "_plays",
        "_stock",
        "_takeback",
        "_takebacks",
        "_tick",
        "_trick_log",
        "_tricks",
        "_turns",
    )

    def __init__(
        self, game: str, players: int, options: KopilkaOptions, seed: int, chance: Chance
    ) -> None:
        assert players == PLAYERS
        super().__init__(game, players, options, seed, chance)
        self._bank = 0
        self._paid_in = [0] * PLAYERS
        self._partia = [0] * PLAYERS
        self._reset_deal()

    def _reset_deal(self) -> None:
        self._hands = [[] for _ in range(PLAYERS)]
        self._stock: list[Card] = []
        self._gone: list[Card] = []  # cards of completed tricks
        self._deal_fines = [0] * PLAYERS
        self._counted = False  # the deal's points are in the partia's (its deal_end written)
        self._tricks: list[list[tuple[Suit, int]]] = [[] for _ in range(PLAYERS)]
        self._last_suit: Suit | None = None
        self._free = True
        self._leader: Seat | None = None
        self._led: Suit | None = None
        self._plays: list[tuple[Seat, Card]] = []
        self._turns = 0  # followers who have finished their turn in this trick
        self._bought = False
        self._takebacks = 0
        self._empty: dict[Seat, int] = {}  # seat → when its hand became empty (§2.5.1 order)
        self._tick = 0
        # for the views only (§2.3, §2.4.7 on the screens); the record does not depend on them
        self._layouts: list[LayOutLog] = []
        self._trick_log: list[tuple[Seat, KopilkaAction]] = []
        self._buys: tuple[tuple[Seat, tuple[Card, ...]], ...] = ()  # this trick's, with cards
        self._last_trick: tuple[tuple[Seat, Card], ...] = ()
        self._last_winner: Seat | None = None
        self._last_points = 0
        self._takeback: Seat | None = None
        self._lead_passed: tuple[Seat, ...] = ()
        self._lead_freed = False
        self._known = KopilkaKnowledge(
            PLAYERS
        )  # what the table may infer of the hands (views only)

    # --- the standard API ------------------------------------------------------------------

    def parse_action(self, text: str) -> KopilkaAction:
        return parse_action(text)

    def view(self, seat: Seat | None) -> KopilkaView:
        deal_points = tuple(sum(p for _, p in won) for won in self._tricks)
        return KopilkaView(
            **self._view_base(seat),
            legal=() if seat is None else self.legal_actions(seat),
            bank=self._bank,
            partia_points=tuple(
                p + (0 if self._counted else d)
                for p, d in zip(self._partia, deal_points, strict=True)
            ),
            deal_points=deal_points,
            tricks_won=tuple(len(won) for won in self._tricks),
            trick_no=sum(len(won) for won in self._tricks),
            trick=tuple(self._plays),
            led_suit=self._led,
            leader=self._leader,
            last_suit=self._last_suit,
            forbidden_suit=(
                self._last_suit if self._phase == KopilkaPhase.LEAD and not self._free else None
            ),
            stock_size=len(self._stock),
            bought=self._bought,
            takebacks=self._takebacks,
            fines=tuple(self._paid_in),
            layouts=tuple(lay.seen_by(seat) for lay in self._layouts),
            trick_log=tuple(self._trick_log),
            last_trick=self._last_trick,
            last_winner=self._last_winner,
            last_points=self._last_points,
            takeback=self._takeback,
            lead_passed=self._lead_passed if self._phase == KopilkaPhase.LEAD else (),
            lead_freed=self._lead_freed and self._phase == KopilkaPhase.LEAD,
            gone=tuple(self._gone),
            options=self.options,
            voids=self._known.voids(),
            shown=self._known.shown(),
            laid=self._known.laid_by(seat),
            ducked=self._known.ducked_under(),
            bought_cards=tuple(c for s, cards in self._buys if s == seat for c in cards),
            result=self._result,
        )

    # --- the skeleton's hooks ----------------------------------------------------------------

    def _list_legal(self, seat: Seat) -> tuple[KopilkaAction, ...]:
        """Leads in canonical card order; follows: cards, ``buy 1``, ``buy 2``, ``pass``."""
        hand = canonical(self._hands[seat], A_HIGH)
        if self._phase == KopilkaPhase.LEAD:  # §2.4.1, §2.4.2
            banned = None if self._free else self._last_suit
            return tuple(PLAY_CARD[c] for c in hand if c.suit is not banned)
        led = self._led
        assert led is not None
        if not hand:
            return (PASS,)  # §2.4.3 d
        playable: list[KopilkaAction] = [
            PLAY_CARD[c]
            for c in hand
            if c.suit is led or c == ACE_OF_SPADES  # §2.4.4
        ]
        if self._holds(seat, led):  # §2.4.3 a
            return (*playable, PASS) if self.options.hold_pass else tuple(playable)
        if not self._bought:  # §2.4.3 b, c
            playable.extend(b for b in BUYS if b.k <= len(self._stock))
        return (*playable, PASS)

    def _refusal(self, seat: Seat, action: KopilkaAction) -> IllegalAction:
        """Say why ``action`` is not legal, most specific reason first."""
        hand = self._hands[seat]
        if isinstance(action, PlayCard) and action.card not in hand:
            return IllegalAction(Refusal.NOT_IN_HAND, card=str(action.card))
        if self._phase == KopilkaPhase.LEAD:
            if isinstance(action, PlayCard) and self._last_suit is not None:
                return IllegalAction(Refusal.LEAD_SUIT_REPEATED, suit=self._last_suit.value)
            return IllegalAction(Refusal.LEADER_MUST_LEAD)
        led = self._led
        assert led is not None
        holds = self._holds(seat, led)
        match action:
            case PlayCard():
                code = Refusal.MUST_FOLLOW_SUIT if holds else Refusal.OTHER_SUIT_FORBIDDEN
                return IllegalAction(code, suit=led.value)
            case Buy() if holds:
                return IllegalAction(Refusal.NO_BUY_HOLDING_SUIT, suit=led.value)
            case Buy() if self._bought:
                return IllegalAction(Refusal.ALREADY_BOUGHT)
            case Buy(k) if k > len(self._stock):
                return IllegalAction(Refusal.STOCK_TOO_SMALL, stock=len(self._stock))
            case Pass() if holds:
                return IllegalAction(Refusal.NO_PASS_HOLDING_SUIT, suit=led.value)
        return IllegalAction(Refusal.NOT_NOW, action=str(action))

    def _perform(self, seat: Seat, action: KopilkaAction) -> None:
        if self._phase == KopilkaPhase.LEAD:
            self._trick_log = []
            self._buys = ()
        self._trick_log.append((seat, action))
        match action:
            case PlayCard(card) if self._phase == KopilkaPhase.LEAD:
                self._lead(seat, card)
            case PlayCard(card):
                self._known.followed(seat, card, self._led, self._plays)
                self._take_from_hand(seat, card)
                self._plays.append((seat, card))
                self._next_follower()
            case Buy(k):
                self._buy(seat, k)
            case Pass():
                self._pass(seat)

    def _places(self) -> Places:
        return {
            **owners(PLAYERS, "hand", self._hands),
            "stock": tuple(self._stock),
            "trick": tuple(c for _, c in self._plays),
            "out": tuple(self._gone),  # §2.6.1: tricks score points; their cards leave play
        }

    def _after_seats(self) -> None:
        # §2.1.3; §2.6.8: every partia is a record of its own with its own ante
        for seat in range(PLAYERS):
            self._pay(seat, self.options.ante)
        self._event("ante", amount=self.options.ante, bank=self._bank)

    def _deal(self, dealer: Seat) -> None:
        """§2.2: shuffle, 5 each (§0.6), the same-suit rule in turn (§2.2.2), the first lead."""
        self._reset_deal()
        deck = self._open_deal(dealer)
        self._hands = deal_hands(deck, dealer, PLAYERS, HAND_SIZE)
        self._stock = list(deck[HAND_SIZE * PLAYERS :])
        for i in range(1, PLAYERS + 1):  # §2.3.7
            seat = (dealer + i) % PLAYERS
            if self._same_suit(seat) and self._ended_by_out():
                return
        self._open_lead((dealer + 1) % PLAYERS)

    # --- the same-suit rule (§2.3) -----------------------------------------------------------

    def _same_suit(self, seat: Seat) -> bool:
        """Apply §2.3 to ``seat``'s hand until it no longer applies; whether anything was laid."""
        laid = False
        while (suit := lay_out_suit(self._hands[seat])) is not None:
            laid = True
            hand = self._hands[seat]
            # §2.3.3: all k cards of the suit are laid out, the AS too
            lying = canonical([c for c in hand if c.suit is suit], A_HIGH)
            hand[:] = [c for c in hand if c.suit is not suit]
            self._known.laid(seat, lying)
            self._event("lay_out", seat=seat, suit=suit.value, cards=codes(lying))
            shown = LayOutLog(seat, suit, len(lying))
            self._layouts.append(shown)
            for i in range(1, TAKERS + 1):  # §2.3.4
                taker = (seat + i) % PLAYERS
                card = self._chance.choice(tuple(lying))
                lying.remove(card)
                self._hands[taker].append(card)
                self._touch(taker)
                self._known.received(taker, suit)
                self._event("take", seat=taker, **{"from": seat}, card=str(card))
                shown.takes.append((taker, card))
            shown.returned = len(lying)
            if lying:  # §2.3.5
                hand.extend(lying)
                self._event("return", seat=seat, cards=codes(lying))
            drawn = self._stock[:TAKERS]  # §2.3.6
            del self._stock[:TAKERS]
            hand.extend(drawn)
            self._known.drew(seat)
            self._event("draw", seat=seat, cards=codes(drawn), why="replace")
            shown.drawn = len(drawn)
            self._touch(seat)
        return laid

    # --- leading (§2.4.1, §2.4.2) --------------------------------------------------------------

    def _open_lead(self, leader: Seat) -> None:
        """Give the lead to ``leader``, or pass it on, or lift the restriction (§2.4.2)."""
        self._phase = KopilkaPhase.LEAD
        self._leader = None
        self._led = None
        self._plays = []
        self._free = self._last_suit is None
        self._lead_passed = ()
        self._lead_freed = False
        last = self._last_suit
        if last is not None and not self._free:
            able = [
                s
                for s in ((leader + i) % PLAYERS for i in range(PLAYERS))
                if any(c.suit is not last for c in self._hands[s])
            ]
            if not able:
                self._free = True
                self._lead_freed = True
                self._known.only(range(PLAYERS), last)
                self._event("lead_free", seat=leader)
            elif able[0] != leader:
                self._event("lead_passes", **{"from": leader, "to": able[0]})
                skipped = (able[0] - leader) % PLAYERS
                self._lead_passed = tuple((leader + i) % PLAYERS for i in range(skipped))
                self._known.only(self._lead_passed, last)
                leader = able[0]
        self._to_act = leader

    def _lead(self, seat: Seat, card: Card) -> None:
        self._take_from_hand(seat, card)
        self._leader = seat
        self._led = card.suit
        self._plays = [(seat, card)]
        self._turns = 0
        self._phase = KopilkaPhase.FOLLOW
        self._bought = False
        self._to_act = (seat + 1) % PLAYERS

    # --- following (§2.4.3–§2.4.5) -------------------------------------------------------------

    def _buy(self, seat: Seat, k: int) -> None:
        """§2.4.5: draw the top k cards, then the same-suit rule (§2.3.1)."""
        drawn = self._stock[:k]
        del self._stock[:k]
        self._hands[seat].extend(drawn)
        self._touch(seat)
        self._known.drew(seat)  # he had no card of the led suit (§2.4.3 b): new ones now
        self._bought = True
        self._buys = (*self._buys, (seat, tuple(drawn)))
        self._event("draw", seat=seat, cards=codes(drawn), why="buy")
        self._same_suit(seat)  # §2.4.5; he acts again (§2.4.3 c)

    def _pass(self, seat: Seat) -> None:
        led = self._led
        assert led is not None
        if self._holds(seat, led):  # §2.4.3 a, hold_pass: the fine at once (§2.6.4)
            self._fine(seat, "hold_pass", self.options.hold_pass_fine)
        elif not self.options.hold_pass or self.options.hold_pass_fine:
            self._known.lacks(seat, led)  # a pass with no fine seen: no card of the led suit
        self._next_follower()

    def _next_follower(self) -> None:
        self._turns += 1
        self._bought = False
        if self._turns < PLAYERS - 1:
            assert self._to_act is not None
            self._to_act = (self._to_act + 1) % PLAYERS
            return
        self._close_trick()

    def _close_trick(self) -> None:
        """Complete the trick (§2.4.6) or take the card back (§2.4.7); then out or next lead."""
        leader, led = self._leader, self._led
        assert leader is not None and led is not None
        if len(self._plays) > 1:
            outcome = judge_trick(led, self._plays)
            self._tricks[outcome.winner].append((led, outcome.points))
            self._event(
                "trick",
                no=sum(len(won) for won in self._tricks),
                leader=leader,
                suit=led.value,
                plays=[[s, str(c)] for s, c in self._plays],
                winner=outcome.winner,
                points=outcome.points,
                double=outcome.double,
            )
            self._gone.extend(c for _, c in self._plays)
            self._last_trick = tuple(self._plays)
            self._last_winner = outcome.winner
            self._last_points = outcome.points
            self._takeback = None
            self._layouts = []
            self._plays = []
            self._last_suit = led
            self._takebacks = 0
            if not self._ended_by_out():
                self._open_lead(outcome.winner)
            return
        _, card = self._plays[0]
        self._plays = []
        self._hands[leader].append(card)
        self._touch(leader)
        self._known.took_back(leader, card)
        self._event("takeback", seat=leader, card=str(card))
        self._takeback = leader
        self._layouts = []
        self._takebacks += 1
        if self._ended_by_out():
            return
        if self._takebacks >= TAKEBACKS_TO_BLOCK:  # §2.5.2
            order = [(self._dealer + i) % PLAYERS for i in range(1, PLAYERS + 1)]
            winner = min(order, key=lambda s: len(self._hands[s]))
            self._event("blocked", winner=winner)
            self._end_deal(winner, blocked=True)
            return
        self._open_lead((leader + 1) % PLAYERS)

    # --- the end of a deal and of the partia (§2.5, §2.6) --------------------------------------

    def _ended_by_out(self) -> bool:
        """§2.5.1: if anyone is out, write them in the order they emptied and end the deal."""
        out = sorted(self._empty, key=self._empty.__getitem__)
        for seat in out:
            self._event("out", seat=seat)
        if out:
            self._end_deal(out[0], blocked=False)
        return bool(out)

    def _end_deal(self, winner: Seat, *, blocked: bool) -> None:
        self._phase = KopilkaPhase.LEAD
        self._to_act = None
        self._leader = None
        self._led = None
        for seat in range(PLAYERS):  # §2.6.2, §R7.3: no_trick fines first, in seat order
            if not self._tricks[seat]:
                self._fine(seat, "no_trick", self.options.no_trick_fine)
        for seat in range(PLAYERS):  # §2.6.3
            if seat != winner:
                self._fine(seat, "deal_fee", self.options.deal_fee)
        points = [sum(p for _, p in won) for won in self._tricks]
        for seat, p in enumerate(points):
            self._partia[seat] += p
        self._counted = True
        cards_left = [len(h) for h in self._hands]
        rows = deal_rows(self._tricks, points, self._partia, cards_left, self._deal_fines)
        self._write(
            {
                "t": "deal_end",
                "no": self._deal_no,
                "winner": winner,
                "blocked": blocked,
                "seats": rows,
                "bank": self._bank,
            }
        )
        if self._deal_no < DEALS:  # §2.1.2
            self._deal_next((self._dealer + 1) % PLAYERS)
        else:
            self._settle(winner)

    def _settle(self, last_winner: Seat) -> None:
        """§2.6.5–§2.6.6: empty the bank; net = payout − everything paid in; §2.6.7 the winner."""
        bank = self._bank
        paid = pay_out(bank, self._partia, self.options.point_rate, last_winner)
        net = [p - q for p, q in zip(paid.payout, self._paid_in, strict=True)]
        self._bank = 0
        self._write(
            {
                "t": "end",
                "reason": EndReason.PARTIA.value,
                "last_winner": last_winner,
                "points": list(self._partia),
                "bank_before": bank,
                "shortfall": paid.shortfall,
                "payout": list(paid.payout),
                "paid_in": list(self._paid_in),
                "net": net,
                "bank": 0,
            }
        )
        first_dealer = (self._dealer - (DEALS - 1)) % PLAYERS  # §2.1.2: the deal passes left
        winner = partia_winner(net, self._partia, last_winner, first_dealer)  # §2.6.7
        self._finish(Result(EndReason.PARTIA, winner, tuple(net), tuple(self._partia)))

    # --- small helpers -------------------------------------------------------------------------

    def _holds(self, seat: Seat, suit: Suit) -> bool:
        return any(c.suit is suit for c in self._hands[seat])

    def _take_from_hand(self, seat: Seat, card: Card) -> None:
        self._hands[seat].remove(card)
        self._known.played(seat, card)
        self._touch(seat)

    def _touch(self, seat: Seat) -> None:
        """Keep the order in which hands became empty (§2.5.1; §2.3.8: a lay-out can empty one)."""
        if self._hands[seat]:
            self._empty.pop(seat, None)
        elif seat not in self._empty:
            self._tick += 1
            self._empty[seat] = self._tick

    def _pay(self, seat: Seat, amount: int) -> None:
        self._bank += amount
        self._paid_in[seat] += amount

    def _fine(self, seat: Seat, kind: str, amount: int) -> None:
        if amount == 0:  # §R7.3: a fine whose option is 0 is not written
            return
        self._pay(seat, amount)
        self._deal_fines[seat] += amount
        self._event("fine", seat=seat, kind=kind, amount=amount, bank=self._bank)
