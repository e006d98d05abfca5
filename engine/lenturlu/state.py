"""Мушка-Лентюрлю: one deal of runs onto piles, the layout's stakes, the settlement (RULES.md §3).

Runs of consecutive ranks (A=1 … K=13, suits free) go onto a pile; the five Lenturlu cards carry
stakes from the layout; a covering K (Manner A, ``manner=king``) or running out of cards (both
manners) ends the deal, and the losers pay the winner (§3.5). The state is a mutable slotted
machine driven only by ``apply(seat, action)``; everything the rules make happen runs inside
``start`` and ``apply`` and is written to the RECORD.md §R8 record.
"""

from __future__ import annotations

import itertools
from typing import ClassVar

from engine.actions import BUYS, PASS, Buy, Pass
from engine.cards import ACE_LOW, DECK_52, RANK_VALUE, Card, Rank, canonical_codes, codes
from engine.chance import Chance
from engine.core import EndReason, Line, Places, Result, Seat, deal_hands
from engine.errors import IllegalAction, Refusal
from engine.skeleton import StateBase, owners

from .actions import LenturluAction, Run, parse_action
from .knowledge import LenturluKnowledge
from .options import LenturluOptions
from .rules import (
    ACE_OF_SPADES,
    DEAL_TABLE,
    KING_VALUE,
    LENTURLU_CARDS,
    STAKE_UNITS_EACH,
    able,
    follow_value,
    layout_units,
    runs,
)
from .rules import LenturluPhase as LenturluPhase  # re-exported: the state's phases
from .scoring import hand_points, loser_pays, nets
from .view import LenturluView


class LenturluState(StateBase[LenturluOptions, LenturluAction, LenturluView, LenturluPhase]):
    """One deal of Лентюрлю, from the deal to the settlement (one record, §3.1.5)."""

    ACTIONS: ClassVar = (Run, Buy, Pass)
    PHASES: ClassVar = LenturluPhase
    DECK: ClassVar = DECK_52  # §3.1.1
    ORDER: ClassVar = ACE_LOW  # §3.1.1: K high, A low; the first-dealer draw (§0.5.2)

    __slots__ = (
        "_bought",
        "_known",
        "_last_runner",
        "_layout",
        "_passes",
        "_pile",
        "_pile_end",
        "_pile_leader",
        "_refills",
        "_runs",
        "_set_aside",
        "_staked",
        "_stock",
        "_taken",
        "_takes",
        "_turns",
    )

    def __init__(
        self, game: str, players: int, options: LenturluOptions, seed: int, chance: Chance
    ) -> None:
        super().__init__(game, players, options, seed, chance)
        self._stock: list[Card] = []
        self._layout: dict[Card, int] = dict.fromkeys(LENTURLU_CARDS, 0)
        self._pile: list[Card] = []  # §3.2.2: bottom first; the top is the last card played
        self._pile_leader: Seat | None = None
        self._pile_end = ""  # how the last pile was set aside: "stop" (§3.4.1), "close" (a K)
        self._set_aside: list[Card] = []  # stopped and closed piles (§3.4.1, §3.4.2)
        self._passes = 0
        self._last_runner: Seat | None = None
        self._bought = False
        self._staked = [0] * players
        self._refills = [0] * players
        self._taken = [0] * players
        # for the views only (who did what, on the screens); the record does not depend on them
        self._runs: tuple[tuple[Seat, tuple[Card, ...]], ...] = ()  # the pile's, by seat
        self._turns: tuple[tuple[Seat, LenturluAction], ...] = ()  # buys, passes since a run
        self._takes: tuple[tuple[Seat, Card, int], ...] = ()  # stakes taken (§3.4.4)
        self._known = LenturluKnowledge(
            players
        )  # what the table may infer of the hands (views only)

    # --- the standard API ------------------------------------------------------------------

    def parse_action(self, text: str) -> LenturluAction:
        return parse_action(text)

    def view(self, seat: Seat | None) -> LenturluView:
        return LenturluView(
            **self._view_base(seat),
            legal=() if seat is None else self.legal_actions(seat),
            layout=tuple(self._layout.items()),
            pile=tuple(self._pile),
            top=self._pile[-1] if self._pile else None,
            pile_leader=self._pile_leader,
            pile_end=self._pile_end,
            leading=self._phase == LenturluPhase.LEAD,
            passes=self._passes,
            stock=len(self._stock),
            bought=self._bought,
            set_aside=len(self._set_aside),
            manner=self.options.manner,
            payment=self.options.payment,
            money=self._money(),
            out=tuple(self._set_aside),
            rate=self.options.rate,
            unit=self.options.unit,
            refill_units=self.options.refill_units,
            as_stake_open=self._as_stake_open(),
            runs=self._runs,
            turns=self._turns,
            takes=self._takes,
            holds=self._known.holds(),
            lacks=self._known.lacks(),
            unlikely=self._known.unlikely(),
            stopped=self._known.stopped(),
            result=self._result,
        )

    def _money(self) -> tuple[int, ...]:
        """Each seat's money so far (§3.5.4): the net once settled, else what the layout has
        given and taken (all public: stakes, refills, takes)."""
        result = self.result
        if result is not None:
            return tuple(result.net)
        return tuple(
            t - s - r for t, s, r in zip(self._taken, self._staked, self._refills, strict=True)
        )

    def layout(self) -> dict[str, int]:
        """Money on each Lenturlu card now, in layout order (§3.1.3)."""
        return {str(c): v for c, v in self._layout.items()}

    # --- the skeleton's hooks ----------------------------------------------------------------

    def _list_legal(self, seat: Seat) -> tuple[LenturluAction, ...]:
        """Runs (by start, length, suits S C D H), then ``buy 1``, ``buy 2``, ``pass`` (§3.3.2)."""
        hand = self._hands[seat]
        if self._phase == LenturluPhase.LEAD:  # §3.2.3: the leader must lead, any rank
            return tuple(runs(hand, None))
        need = follow_value(self._pile[-1])
        can = able(hand, need)  # §3.3.1
        legal: list[LenturluAction] = list(runs(hand, need)) if can else []
        stock = len(self._stock)
        if stock and not self._bought:
            legal.extend(b for b in BUYS if b.k <= stock)  # §3.3.2: k ≤ stock size
            if can:
                legal.append(PASS)
        elif not can or stock:
            legal.append(PASS)  # §3.3.2: able with an empty stock may only run
        return tuple(legal)

    def _refusal(self, seat: Seat, action: LenturluAction) -> IllegalAction:
        """Say why ``action`` is not legal, most specific reason first."""
        match action:
            case Run():
                return self._run_refusal(seat, action)
            case Buy(k) if k not in (1, 2):
                return IllegalAction(Refusal.WRONG_GAME, action=str(action))
            case _ if self._phase == LenturluPhase.LEAD:
                return IllegalAction(Refusal.LEADER_MUST_LEAD)  # §3.2.3
            case Buy() if self._bought:
                return IllegalAction(Refusal.ALREADY_BOUGHT)  # §3.3.2
            case Buy(k) if k > len(self._stock):
                return IllegalAction(Refusal.STOCK_TOO_SMALL, stock=len(self._stock))
            case Pass():
                can = able(self._hands[seat], follow_value(self._pile[-1]))
                if can and not self._stock:
                    return IllegalAction(Refusal.MUST_PLAY)  # §3.3.2, seed 002 §14
                if not can and self._stock and not self._bought:
                    return IllegalAction(Refusal.MUST_BUY)  # §3.3.2, seed 002 §12
        return IllegalAction(Refusal.NOT_NOW, action=str(action))

    def _perform(self, seat: Seat, action: LenturluAction) -> None:
        match action:
            case Run(cards):
                self._play_run(seat, cards)
            case Buy(k):
                self._buy(seat, k)
            case Pass():
                self._pass(seat)

    def _places(self) -> Places:
        return {
            **owners(self.players, "hand", self._hands),
            "stock": tuple(self._stock),
            "pile": tuple(self._pile),
            "out": tuple(self._set_aside),
        }

    def _deal(self, dealer: Seat) -> None:
        """§3.1.3 the layout's stakes, §3.1.4 the deal (§0.6), §3.2.3 the first lead."""
        n = self.players
        unit = self.options.unit
        for c, units in zip(LENTURLU_CARDS, layout_units(n), strict=True):
            self._layout[c] = units * unit
        self._staked = [STAKE_UNITS_EACH * unit] * n
        deck = self._open_deal(dealer, layout=self.layout())
        each = DEAL_TABLE[n]
        self._hands = deal_hands(deck, dealer, n, each)
        self._stock = deck[n * each :]
        self._phase = LenturluPhase.LEAD
        self._to_act = (dealer + 1) % n  # §3.2.3: the player to the dealer's left leads

    # --- refusals -------------------------------------------------------------------------------

    def _run_refusal(self, seat: Seat, run: Run) -> IllegalAction:
        """What is wrong with a run (§3.2.1, §3.2.3, §3.2.4), most specific reason first."""
        cards = run.cards
        if not cards or not all(isinstance(c, Card) for c in cards):
            return IllegalAction(Refusal.NOT_A_RUN)
        if len(set(cards)) != len(cards):
            return IllegalAction(Refusal.DUPLICATE_CARDS)
        hand = self._hands[seat]
        for c in cards:
            if c not in hand:
                return IllegalAction(Refusal.NOT_IN_HAND, card=str(c))
        leading = self._phase == LenturluPhase.LEAD
        if not leading and any(c.rank is Rank.ACE for c in cards):
            return IllegalAction(Refusal.ACE_ONLY_LEADS)  # §3.2.3
        values = [RANK_VALUE[c.rank] for c in cards]
        if any(b != a + 1 for a, b in itertools.pairwise(values)):
            return IllegalAction(Refusal.NOT_A_RUN)  # §3.2.1: consecutive, ascending
        if not leading and values[0] != follow_value(top := self._pile[-1]):
            return IllegalAction(Refusal.RUN_MUST_CONTINUE, top=str(top))  # §3.2.4
        return IllegalAction(Refusal.NOT_NOW, action=str(run))

    # --- the phases (§3.2–§3.4) ---------------------------------------------------------------

    def _play_run(self, seat: Seat, cards: tuple[Card, ...]) -> None:
        """§3.4.7: place, take stakes, check the end, refill, then close or pass the turn."""
        hand = self._hands[seat]
        for c in cards:
            hand.remove(c)
        was_lead = self._phase == LenturluPhase.LEAD
        as_open = self._as_stake_open()
        self._pile_end = ""
        if was_lead:
            self._pile_leader = seat
        self._runs = (*self._runs, (seat, tuple(cards)))
        self._turns = ()
        self._known.ran(seat, (RANK_VALUE[c.rank] for c in cards), lead=was_lead)
        self._pile.extend(cards)  # §3.2.2: in ascending order; the last card is the top
        # §3.4.4: each Lenturlu card takes its stake; §3.4.6: the AS only while it is open
        emptied = [c for c in cards if c in self._layout and (as_open or c != ACE_OF_SPADES)]
        for c in emptied:
            amount = self._layout[c]
            self._layout[c] = 0
            self._taken[seat] += amount
            self._takes = (*self._takes, (seat, c, amount))
            self._event("stake", seat=seat, card=str(c), amount=amount)
        king = RANK_VALUE[cards[-1].rank] == KING_VALUE
        if king and not was_lead and self.options.manner == "king":
            self._settle(seat, "king")  # §3.4.2 a: a covering K wins
            return
        if not hand:
            self._settle(seat, "out")  # §3.4.3
            return
        each = self.options.refill_units * self.options.unit
        for c in emptied:  # §3.4.5: every other player, in turn from the taker's left
            for k in range(1, self.players):
                self._refills[(seat + k) % self.players] += each
                self._layout[c] += each
            self._event("refill", card=str(c), each=each, amount=self._layout[c])
        self._passes = 0
        self._last_runner = seat
        self._bought = False
        if king:  # §3.2.2, §3.4.2: the pile is closed and the same player leads
            self._set_pile_aside()
            self._event("close", seat=seat, card=str(cards[-1]))
            self._pile_end = "close"
            self._to_act = seat
            self._phase = LenturluPhase.LEAD
        else:
            self._to_act = (seat + 1) % self.players
            self._phase = LenturluPhase.FOLLOW

    def _as_stake_open(self) -> bool:
        """§3.4.6: in Manner B any lead of the AS takes its stake; in Manner A only the deal's
        first lead (no run played yet: no pile lies, none was set aside)."""
        return self.options.manner != "king" or not (self._pile or self._set_aside)

    def _buy(self, seat: Seat, k: int) -> None:
        """§3.3.3: draw the top k cards of the stock; he acts again (§3.3.2)."""
        drawn = self._stock[:k]
        del self._stock[:k]
        self._hands[seat].extend(drawn)
        self._bought = True
        self._known.drew(seat)
        self._turns = (*self._turns, (seat, Buy(k)))
        self._event("draw", seat=seat, cards=codes(drawn))

    def _pass(self, seat: Seat) -> None:
        need = follow_value(self._pile[-1])
        self._known.passed(seat, need, stock=len(self._stock), bought=self._bought)
        self._turns = (*self._turns, (seat, PASS))
        self._passes += 1
        self._bought = False
        if self._passes == self.players - 1:  # §3.4.1: a stop
            runner = self._last_runner
            assert runner is not None
            self._set_pile_aside()
            self._event("stop", seat=runner)
            self._pile_end = "stop"
            self._passes = 0
            self._to_act = runner
            self._phase = LenturluPhase.LEAD
        else:
            self._to_act = (seat + 1) % self.players

    def _set_pile_aside(self) -> None:
        self._set_aside.extend(self._pile)
        self._pile = []
        self._runs = ()
        self._pile_leader = None

    # --- the settlement (§3.5) ----------------------------------------------------------------

    def _settle(self, winner: Seat, reason: str) -> None:
        """§3.5: the winner takes the layout and the losers' payments; one deal is the game
        (§3.1.5), so the ``end`` line follows the ``deal_end`` at once."""
        n = self.players
        opts = self.options
        remainder = sum(self._layout.values())  # §3.5.1: the layout ends empty
        self._layout = dict.fromkeys(LENTURLU_CARDS, 0)
        pays = [0] * n
        seats: list[Line] = []
        for s in range(n):
            hand = self._hands[s]
            points = hand_points(hand)
            if s != winner:
                pays[s] = loser_pays(opts.payment, opts.rate, hand, points)  # §3.5.2
            seats.append(
                {
                    "seat": s,
                    "hand": canonical_codes(hand, ACE_LOW),
                    "cards": len(hand),
                    "points": points,
                    "pays": pays[s],
                }
            )
        self._write(
            {
                "t": "deal_end",
                "no": self._deal_no,
                "winner": winner,
                "reason": reason,
                "layout": remainder,
                "seats": seats,
            }
        )
        layout, payments, net = nets(
            winner, remainder, pays, self._taken, self._staked, self._refills
        )  # §3.5.4
        self._write(
            {
                "t": "end",
                "reason": EndReason.DEAL.value,
                "winner": winner,
                "staked": list(self._staked),
                "refills": list(self._refills),
                "taken": list(self._taken),
                "layout": layout,
                "payments": payments,
                "net": net,
                "bank": 0,
            }
        )
        self._finish(Result(EndReason.DEAL, winner, tuple(net)))
