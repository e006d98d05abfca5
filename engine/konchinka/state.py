"""The Кончинка game state (RULES.md §4; RECORD.md §R9)."""

from __future__ import annotations

import copy
from typing import Any, ClassVar, Final

from engine.cards import ACE_LOW, DECK_52, Card, Rank, canonical, canonical_codes, codes
from engine.chance import Chance
from engine.core import EndReason, Places, Result, Seat, deal_hands
from engine.errors import IllegalAction, Refusal
from engine.skeleton import StateBase, owners

from . import rules
from .actions import Capture, KonchinkaAction, Sweep, Trail, parse_action
from .options import KonchinkaOptions
from .rules import KonchinkaPhase as KonchinkaPhase  # re-exported: the state's phases
from .view import KonchinkaView

HAND_SIZE: Final = 4  # §4.2.1
TABLE_SIZE: Final = 4  # §4.2.1


class KonchinkaState(StateBase[KonchinkaOptions, KonchinkaAction, KonchinkaView, KonchinkaPhase]):
    """One game of Кончинка to ``target`` points: deals until a winner (§4.4)."""

    ACTIONS: ClassVar = (Capture, Sweep, Trail)
    PHASES: ClassVar = KonchinkaPhase
    DECK: ClassVar = DECK_52  # §4.1.1
    ORDER: ClassVar = ACE_LOW  # §R1.8; the first-dealer draw (§0.5.2)

    __slots__ = (
        "_captured",
        "_last_capturer",
        "_moves",
        "_stock",
        "_table",
        "_totals",
        "_trailed",
    )

    def __init__(
        self, game: str, players: int, options: KonchinkaOptions, seed: int, chance: Chance
    ) -> None:
        super().__init__(game, players, options, seed, chance)
        self._stock: list[Card] = []
        self._table: list[Card] = []
        self._captured: list[list[Card]] = [[] for _ in range(players)]
        self._last_capturer: Seat | None = None
        self._totals = [0] * players
        self._moves: tuple[tuple[Seat, KonchinkaAction], ...] = ()  # this deal's (views only)
        self._trailed: tuple[tuple[tuple[Card, ...], int], ...] = tuple(
            ((), 0) for _ in range(players)
        )  # per seat (views only)

    # --- the standard API ----------------------------------------------------------------

    def parse_action(self, text: str) -> KonchinkaAction:
        return parse_action(text)

    def view(self, seat: Seat | None) -> KonchinkaView:
        hauls = [rules.haul(c) for c in self._captured]
        return KonchinkaView(
            **self._view_base(seat),
            legal=() if seat is None else self.legal_actions(seat),
            table=tuple(self._table),
            captured=tuple(h.cards for h in hauls),
            clubs=tuple(h.clubs for h in hauls),
            konchinki=tuple(self._konchinki(s) for s in range(self.players)),
            totals=tuple(self._totals),
            target=self.options.target,
            stock=len(self._stock),
            last_capturer=self._last_capturer,
            court_values=self.options.court_values,
            taken=tuple(tuple(c) for c in self._captured),
            moves=self._moves[-self.players :],
            trailed=self._trailed,
            result=self._result,
        )

    def clone(self) -> KonchinkaState:
        """A cheap independent copy (computer players search on clones)."""
        other = copy.copy(self)
        other._record = list(self._record)  # lines are never changed once written
        other._hands = [list(h) for h in self._hands]
        other._stock = list(self._stock)
        other._table = list(self._table)
        other._captured = [list(c) for c in self._captured]
        other._totals = list(self._totals)
        other._chance = copy.deepcopy(self._chance)
        return other

    # --- the skeleton's hooks ------------------------------------------------------------

    def _list_legal(self, seat: Seat) -> tuple[KonchinkaAction, ...]:
        """§4.3.6: every capture set of every capturing card and the sweep; else every trail."""
        moves: list[KonchinkaAction] = []
        ordered = canonical(self._hands[seat], ACE_LOW)
        for card in ordered:
            if self._can_sweep(card):
                moves.append(Sweep(card))
            else:
                moves.extend(self._captures_of(card))
        if moves:
            return tuple(moves)
        return tuple(Trail(card) for card in ordered)  # §4.3.5

    def _is_legal(self, seat: Seat, action: KonchinkaAction) -> bool:
        """Among the legal moves; a capture's written groups must each be valid too (§R4.3)."""
        if not super()._is_legal(seat, action):
            return False
        return not isinstance(action, Capture) or self._groups_valid(action)

    def _groups_valid(self, action: Capture) -> bool:
        """§R4.3: each written group is valid by itself, and no card is written twice."""
        court = self.options.court_values
        listed = [c for group in action.groups for c in group]
        return len(set(listed)) == len(listed) and all(
            rules.is_valid_group(action.card, g, court) for g in action.groups
        )

    def _refusal(self, seat: Seat, action: KonchinkaAction) -> IllegalAction:
        """Why ``action`` is not among the legal moves (most specific reason first)."""
        card = action.card
        if card not in self._hands[seat]:
            return IllegalAction(Refusal.NOT_IN_HAND, card=str(card))
        if self._can_sweep(card) and not isinstance(action, Sweep):  # §4.3.4
            return IllegalAction(Refusal.JACK_MUST_SWEEP, card=str(card))
        match action:
            case Sweep():
                return IllegalAction(Refusal.NO_SWEEP, card=str(card))
            case Capture():
                listed = [c for group in action.groups for c in group]
                if len(set(listed)) != len(listed):
                    return IllegalAction(Refusal.DUPLICATE_CARDS)
                away = next((c for c in listed if c not in self._table), card)
                return IllegalAction(Refusal.INVALID_CAPTURE, card=str(away))  # §4.3.2, §R4.3
            case Trail():
                return IllegalAction(Refusal.MUST_CAPTURE, card=str(card))  # §4.3.5

    def _perform(self, seat: Seat, action: KonchinkaAction) -> None:
        self._move(seat, action)

    def _places(self) -> Places:
        return {
            **owners(self.players, "hand", self._hands),
            "stock": tuple(self._stock),
            "table": tuple(self._table),
            **owners(self.players, "taken", self._captured),
        }

    def _deal(self, dealer: Seat) -> None:
        """§4.2.1: 4 cards each (§0.6), 4 to the table, the rest the stock; §4.2.2; §4.3.1."""
        n = self.players
        deck = self._open_deal(dealer)
        dealt = HAND_SIZE * n
        self._hands = deal_hands(deck, dealer, n, HAND_SIZE)
        self._table = list(deck[dealt : dealt + TABLE_SIZE])
        self._stock = list(deck[dealt + TABLE_SIZE :])
        self._captured = [[] for _ in range(n)]
        self._last_capturer = None
        self._moves = ()
        self._trailed = tuple(((), 0) for _ in range(n))
        self._fix_table()
        self._event("table", cards=codes(self._table))
        self._phase = KonchinkaPhase.PLAY
        self._to_act = (dealer + 1) % n

    # --- the deal (§4.2) -----------------------------------------------------------------

    def _fix_table(self) -> None:
        """No pairs, no jacks on the initial table (§4.2.2)."""
        while True:
            place = next((i for i in range(len(self._table)) if self._is_unfit(i)), None)
            if place is None:
                return
            removed = self._table[place]
            at = len(self._stock) // 2
            self._stock.insert(at, removed)
            self._table[place] = self._stock.pop(0)
            self._event(
                "table_fix",
                place=place + 1,
                card=str(removed),
                insert_at=at,
                replacement=str(self._table[place]),
            )

    def _is_unfit(self, place: int) -> bool:
        card = self._table[place]
        return card.rank is Rank.JACK or any(c.rank is card.rank for c in self._table[:place])

    # --- legal moves (§4.3) --------------------------------------------------------------

    def _can_sweep(self, card: Card) -> bool:
        return card.rank is Rank.JACK and not self.options.court_values and bool(self._table)

    def _captures_of(self, card: Card) -> list[Capture]:
        if card.rank is Rank.JACK and not self.options.court_values:
            return []
        table = self._table
        found = rules.captures(card, table, self.options.court_values)
        return [Capture(card, tuple(tuple(table[i] for i in g) for g in gs)) for gs in found]

    # --- a move and its consequences (§4.3.7–§4.4.4) --------------------------------------

    def _move(self, seat: Seat, move: KonchinkaAction) -> None:
        if isinstance(move, Trail) and self._table:  # §4.3.5: nothing in the hand captured
            self._trail_seen(seat, (tuple(self._table), 0))
        self._hands[seat].remove(move.card)
        self._moves = (*self._moves, (seat, move))
        match move:
            case Trail(card):
                self._table.append(card)
            case Sweep(card) | Capture(card):
                taken = set(self._table) if isinstance(move, Sweep) else move.taken
                self._captured[seat].append(card)
                self._captured[seat].extend(c for c in self._table if c in taken)
                self._table = [c for c in self._table if c not in taken]
                self._last_capturer = seat
        if self._stock:
            drawn = self._stock.pop(0)
            self._hands[seat].append(drawn)
            table, since = self._trailed[seat]
            if table:  # one more card the fact does not cover
                self._trail_seen(seat, (table, since + 1))
            self._event("draw", seat=seat, card=str(drawn))
        if self._stock or any(self._hands):
            self._to_act = (seat + 1) % self.players
            self._check_certain()
        else:
            self._end_deal()

    def _trail_seen(self, seat: Seat, fact: tuple[tuple[Card, ...], int]) -> None:
        """What a trail tells (the view's ``trailed``): the table then, and the cards drawn
        since."""
        self._trailed = (*self._trailed[:seat], fact, *self._trailed[seat + 1 :])

    def _check_certain(self) -> None:
        """The automatic early finish (§4.4.4)."""
        hauls = [rules.haul(c) for c in self._captured]
        guaranteed, possible = rules.bounds(hauls)
        target = self.options.target
        winner = rules.certain_winner(self._totals, guaranteed, possible, target)
        if winner is None:
            return
        self._event("certain", seat=winner, guaranteed=guaranteed, possible=possible)
        self._score(guaranteed, early=True)
        self._settle(EndReason.CERTAIN, winner)

    def _end_deal(self) -> None:
        """The last capturer takes the table (§4.3.8); score; end or deal again (§4.4.3)."""
        taker = self._last_capturer
        left = canonical_codes(self._table, ACE_LOW)
        if taker is not None:
            self._captured[taker].extend(self._table)
        self._table = []
        self._event("last_take", seat=taker, cards=left)
        self._score(rules.deal_points([rules.haul(c) for c in self._captured]), early=False)
        winner = rules.target_winner(self._totals, self.options.target)
        if winner is not None:
            self._settle(EndReason.TARGET, winner)
        else:
            self._deal_next((self._dealer + 1) % self.players)  # §4.4.2: the deal passes left

    def _konchinki(self, seat: Seat) -> tuple[Card, ...]:
        return tuple(canonical((c for c in self._captured[seat] if c in rules.KONCHINKI), ACE_LOW))

    def _score(self, points: list[int], *, early: bool) -> None:
        seats: list[dict[str, Any]] = []
        for s in range(self.players):
            self._totals[s] += points[s]
            h = rules.haul(self._captured[s])
            seats.append(
                {
                    "seat": s,
                    "cards": h.cards,
                    "clubs": h.clubs,
                    "konchinki": codes(self._konchinki(s)),
                    "points": points[s],
                    "total": self._totals[s],
                }
            )
        self._write({"t": "deal_end", "no": self._deal_no, "early": early, "seats": seats})

    def _settle(self, reason: EndReason, winner: Seat) -> None:
        """§4.4.5: the money, and the ``end`` line."""
        o = self.options
        net = rules.settle(self._totals, winner, o.payment, o.target, o.point_value, o.stake)
        self._write(
            {
                "t": "end",
                "reason": reason.value,
                "winner": winner,
                "totals": list(self._totals),
                "deals": self._deal_no,
                "payment": o.payment,
                "net": net,
            }
        )
        self._finish(Result(reason, winner, tuple(net), tuple(self._totals)))
