"""The Кончинка game state (RULES.md §4; RECORD.md §R9)."""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

from engine.cards import ACE_LOW, DECK_52, Card, Rank, canonical, canonical_codes, codes
from engine.chance import Chance
from engine.core import Line, Result, Seat, StateBase, View, game_line, seats_line
from engine.errors import IllegalAction, Refusal
from engine.konchinka import rules
from engine.konchinka.actions import Capture, KonchinkaAction, Sweep, Trail, parse_action
from engine.konchinka.options import KonchinkaOptions
from engine.options import options_dict

GAME = "konchinka"
HAND_SIZE = 4
TABLE_SIZE = 4


@dataclass(frozen=True, slots=True, kw_only=True)
class KonchinkaView(View):
    """A seat's (or the public's) view of a Кончинка table."""

    table: tuple[Card, ...]  # place order
    captured: tuple[int, ...]  # cards captured this deal, per seat
    clubs: tuple[int, ...]  # clubs captured this deal, per seat
    konchinki: tuple[tuple[Card, ...], ...]  # кончинки captured this deal, per seat
    totals: tuple[int, ...]  # points before this deal (after the last deal once over)
    target: int
    stock: int  # cards left in the stock
    last_capturer: Seat | None
    court_values: bool


class KonchinkaState(StateBase):
    """One game of Кончинка to ``target`` points: deals until a winner (§4.4)."""

    __slots__ = (
        "_captured",
        "_chance",
        "_deal_no",
        "_dealer",
        "_hands",
        "_last_capturer",
        "_legal",
        "_options",
        "_stock",
        "_table",
        "_totals",
    )

    def __init__(self, players: int, options: KonchinkaOptions, seed: int, chance: Chance) -> None:
        super().__init__(GAME, players, seed)
        self._options = options
        self._chance = chance
        self._dealer: Seat = 0
        self._deal_no = 0
        self._hands: list[list[Card]] = [[] for _ in range(players)]
        self._stock: list[Card] = []
        self._table: list[Card] = []
        self._captured: list[list[Card]] = [[] for _ in range(players)]
        self._last_capturer: Seat | None = None
        self._totals = [0] * players
        self._legal: tuple[int, tuple[KonchinkaAction, ...]] | None = None

    @classmethod
    def start(
        cls,
        players: int,
        options: KonchinkaOptions,
        seed: int,
        chance: Chance,
        prev_dealer: Seat | None,
    ) -> KonchinkaState:
        """Draw the first dealer (§0.5) or continue a series (§0.8), and deal (§4.2)."""
        state = cls(players, options, seed, chance)
        state._write(game_line(GAME, players, seed, options_dict(options)))
        seats, first = seats_line(chance, DECK_52, ACE_LOW, players, prev_dealer)
        state._write(seats)
        state._deal(first)
        return state

    # --- the standard API ----------------------------------------------------------------

    @property
    def options(self) -> KonchinkaOptions:
        return self._options

    def legal_actions(self, seat: Seat) -> tuple[KonchinkaAction, ...]:
        """Every legal move of ``seat`` now (§4.3.6); empty if it is not his turn."""
        if seat != self._to_act:
            return ()
        if self._legal is None or self._legal[0] != self._version:
            self._legal = (self._version, self._moves(self._hands[seat]))
        return self._legal[1]

    def parse_action(self, text: str) -> KonchinkaAction:
        return parse_action(text)

    def apply(self, seat: Seat, action: object) -> tuple[Line, ...]:
        """Apply one move (text or typed); return the record lines it produced."""
        if self._to_act is None:
            raise IllegalAction(Refusal.GAME_OVER)
        move = parse_action(action) if isinstance(action, str) else action
        refusal = self._refusal(seat, move)
        if refusal is not None:
            raise refusal
        assert isinstance(move, Capture | Sweep | Trail)
        start = self._act(seat, move)
        self._move(seat, move)
        return tuple(copy.deepcopy(self._record[start:]))

    def view(self, seat: Seat | None) -> KonchinkaView:
        hauls = [rules.haul(c) for c in self._captured]
        return KonchinkaView(
            game=GAME,
            players=self.players,
            seat=seat,
            version=self._version,
            to_act=self._to_act,
            phase="over" if self.is_over else "play",
            dealer=self._dealer,
            deal_no=self._deal_no,
            hand=() if seat is None else tuple(canonical(self._hands[seat], ACE_LOW)),
            hand_sizes=tuple(len(h) for h in self._hands),
            legal=() if seat is None else self.legal_actions(seat),
            table=tuple(self._table),
            captured=tuple(h.cards for h in hauls),
            clubs=tuple(h.clubs for h in hauls),
            konchinki=tuple(self._konchinki(s) for s in range(self.players)),
            totals=tuple(self._totals),
            target=self._options.target,
            stock=len(self._stock),
            last_capturer=self._last_capturer,
            court_values=self._options.court_values,
        )

    def abandon(self) -> tuple[Line, ...]:
        """Stop the game unsettled (§0.11)."""
        if self.is_over:
            return ()
        return (copy.deepcopy(self._abandon()),)

    def clone(self) -> KonchinkaState:
        other = copy.copy(self)
        other._record = copy.deepcopy(self._record)
        other._hands = [list(h) for h in self._hands]
        other._stock = list(self._stock)
        other._table = list(self._table)
        other._captured = [list(c) for c in self._captured]
        other._totals = list(self._totals)
        other._chance = copy.deepcopy(self._chance)
        return other

    # --- the deal (§4.2) -----------------------------------------------------------------

    def _deal(self, dealer: Seat) -> None:
        n = self.players
        self._dealer = dealer
        self._deal_no += 1
        deck = self._chance.shuffled(DECK_52)
        line = {"t": "deal", "no": self._deal_no, "dealer": dealer, "deck": codes(deck)}
        self._write(line)
        dealt = HAND_SIZE * n
        self._hands = [[] for _ in range(n)]
        for k, card in enumerate(deck[:dealt]):
            self._hands[(dealer + 1 + k) % n].append(card)
        self._table = list(deck[dealt : dealt + TABLE_SIZE])
        self._stock = list(deck[dealt + TABLE_SIZE :])
        self._captured = [[] for _ in range(n)]
        self._last_capturer = None
        self._fix_table()
        self._event("table", cards=codes(self._table))
        self._to_act = (dealer + 1) % n

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
        return card.rank is Rank.JACK and not self._options.court_values and bool(self._table)

    def _captures_of(self, card: Card) -> list[Capture]:
        if card.rank is Rank.JACK and not self._options.court_values:
            return []
        table = self._table
        found = rules.captures(card, table, self._options.court_values)
        return [Capture(card, tuple(tuple(table[i] for i in g) for g in gs)) for gs in found]

    def _moves(self, hand: list[Card]) -> tuple[KonchinkaAction, ...]:
        moves: list[KonchinkaAction] = []
        ordered = canonical(hand, ACE_LOW)
        for card in ordered:
            if self._can_sweep(card):
                moves.append(Sweep(card))
            else:
                moves.extend(self._captures_of(card))
        if moves:
            return tuple(moves)
        return tuple(Trail(card) for card in ordered)

    def _refusal(self, seat: Seat, move: object) -> IllegalAction | None:
        """Why ``move`` is not legal now (most specific reason first), or None if it is."""
        if self._to_act is None:
            return IllegalAction(Refusal.GAME_OVER)
        if seat != self._to_act:
            return IllegalAction(Refusal.NOT_YOUR_TURN)
        if not isinstance(move, Capture | Sweep | Trail):
            return IllegalAction(Refusal.WRONG_GAME)
        if move.card not in self._hands[seat]:
            return IllegalAction(Refusal.NOT_IN_HAND, card=str(move.card))
        if isinstance(move, Capture):
            return self._capture_refusal(seat, move)
        if move in self.legal_actions(seat):
            return None
        if isinstance(move, Sweep):
            return IllegalAction(Refusal.NO_SWEEP, card=str(move.card))
        if self._can_sweep(move.card):
            return IllegalAction(Refusal.JACK_MUST_SWEEP, card=str(move.card))
        return IllegalAction(Refusal.MUST_CAPTURE, card=str(move.card))

    def _capture_refusal(self, seat: Seat, move: Capture) -> IllegalAction | None:
        card = move.card
        if self._can_sweep(card):
            return IllegalAction(Refusal.JACK_MUST_SWEEP, card=str(card))
        listed = [c for group in move.groups for c in group]
        if len(set(listed)) != len(listed):
            return IllegalAction(Refusal.DUPLICATE_CARDS)
        court = self._options.court_values
        for c in listed:
            if c not in self._table:
                return IllegalAction(Refusal.INVALID_CAPTURE, card=str(c))
        if not all(rules.is_valid_group(card, g, court) for g in move.groups) or not listed:
            return IllegalAction(Refusal.INVALID_CAPTURE, card=str(card))
        assert move in self.legal_actions(seat), "a valid grouping is a legal capture"
        return None

    # --- a move and its consequences (§4.3.7–§4.4.4) --------------------------------------

    def _move(self, seat: Seat, move: KonchinkaAction) -> None:
        self._hands[seat].remove(move.card)
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
            self._event("draw", seat=seat, card=str(drawn))
        if self._stock or any(self._hands):
            self._to_act = (seat + 1) % self.players
            self._check_certain()
        else:
            self._end_deal()

    def _check_certain(self) -> None:
        """The automatic early finish (§4.4.4)."""
        hauls = [rules.haul(c) for c in self._captured]
        guaranteed, possible = rules.bounds(hauls)
        target = self._options.target
        winner = rules.certain_winner(self._totals, guaranteed, possible, target)
        if winner is None:
            return
        self._event("certain", seat=winner, guaranteed=guaranteed, possible=possible)
        self._score(guaranteed, early=True)
        self._finish("certain", winner)

    def _end_deal(self) -> None:
        """The last capturer takes the table (§4.3.8); score; end or deal again (§4.4.3)."""
        taker = self._last_capturer
        left = canonical_codes(self._table, ACE_LOW)
        if taker is not None:
            self._captured[taker].extend(self._table)
        self._table = []
        self._event("last_take", seat=taker, cards=left)
        self._score(rules.deal_points([rules.haul(c) for c in self._captured]), early=False)
        winner = rules.target_winner(self._totals, self._options.target)
        if winner is not None:
            self._finish("target", winner)
        else:
            self._deal((self._dealer + 1) % self.players)

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

    def _finish(self, reason: str, winner: Seat) -> None:
        o = self._options
        net = rules.settle(self._totals, winner, o.payment, o.target, o.point_value, o.stake)
        self._write(
            {
                "t": "end",
                "reason": reason,
                "winner": winner,
                "totals": list(self._totals),
                "deals": self._deal_no,
                "payment": o.payment,
                "net": net,
            }
        )
        self._to_act = None
        self._result = Result(reason, winner, tuple(net))
