"""Мушка-Лентюрлю (RULES.md §3; RECORD.md §R8): 3–8 players, 52 cards, one record = one deal.

Runs of consecutive ranks (A=1 … K=13, suits free) go onto a pile; the five Lenturlu cards carry
stakes from the layout; a covering K (Manner A, ``manner=king``) or running out of cards
(both manners) ends the deal, and the losers pay the winner (§3.5).
"""

from __future__ import annotations

import copy
import itertools
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Final

from engine.cards import (
    ACE_LOW,
    DECK_52,
    RANK_VALUE,
    SUIT_ORDER,
    Card,
    Rank,
    canonical,
    canonical_codes,
    codes,
)
from engine.chance import Chance
from engine.core import (
    GameSpec,
    Line,
    Result,
    Seat,
    StateBase,
    View,
    game_line,
    seats_line,
)
from engine.errors import IllegalAction, InvalidNotation, Refusal
from engine.options import enum_option, int_option, options_dict

GAME: Final = "lenturlu"

# --- options (§3.6) -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Options:
    """The options of Лентюрлю (RULES.md §3.6)."""

    manner: str = enum_option("king", "king", "out")
    payment: str = enum_option("points", "fixed", "cards", "points")
    rate: int = int_option(1, 0, 1_000_000)
    unit: int = int_option(1, 1, 1_000_000)
    refill_units: int = int_option(1, 0, 1000)


# --- constants (§3.1, §3.5.3) ---------------------------------------------------------------

LENTURLU_CARDS: Final[tuple[Card, ...]] = tuple(
    Card.parse(code) for code in ("7D", "KH", "JC", "AS", "QS")
)
"""The five Lenturlu cards in layout order (§3.1.2); stakes n+2 … n−2 units (§3.1.3)."""

LAYOUT_OFFSETS: Final[tuple[int, ...]] = (2, 1, 0, -1, -2)

DEAL_TABLE: Final[Mapping[int, int]] = MappingProxyType({3: 15, 4: 12, 5: 9, 6: 8, 7: 7, 8: 6})
"""Cards dealt to each player by player count (§3.1.4); the rest is the stock."""

STAKE_UNITS_EACH: Final = 5
"""Each player pays 5 × ``unit`` onto the layout (§3.1.3)."""

KING_VALUE: Final = RANK_VALUE[Rank.KING]


def layout_units(players: int) -> tuple[int, ...]:
    """Units on 7D KH JC AS QS at the start of the deal (§3.1.3)."""
    return tuple(players + offset for offset in LAYOUT_OFFSETS)


def card_points(card: Card) -> int:
    """Hand points of one card (§3.5.3): A 1, 2–10 face, J Q K 10; Lenturlu cards double."""
    value = RANK_VALUE[card.rank]
    points = min(value, 10)
    return 2 * points if card in LENTURLU_CARDS else points


def hand_points(cards: Iterable[Card]) -> int:
    """Points of a hand left at the end (§3.5.3)."""
    return sum(card_points(c) for c in cards)


# --- actions (RECORD.md §R4, §R8.3) ---------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Run:
    """Play consecutive ranks in ascending order as one action (§3.2.1): ``run 6D 7S 8H``."""

    cards: tuple[Card, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "cards", tuple(self.cards))  # a list given is kept as a tuple

    def __str__(self) -> str:
        return " ".join(["run", *codes(self.cards)])


@dataclass(frozen=True, slots=True)
class Buy:
    """Draw ``k`` (1 or 2) cards from the stock (§3.3.3): ``buy 2``."""

    k: int

    def __str__(self) -> str:
        return f"buy {self.k}"


@dataclass(frozen=True, slots=True)
class Pass:
    """Decline to play on the pile (§3.3.2): ``pass``."""

    def __str__(self) -> str:
        return "pass"


Action = Run | Buy | Pass


def parse_action(text: str) -> Action:
    """Read a Лентюрлю action in RECORD.md §R4 notation.

    >>> str(parse_action("run 6d 7S 8H")), parse_action("buy 2"), parse_action("pass")
    ('run 6D 7S 8H', Buy(k=2), Pass())
    """
    if not isinstance(text, str):
        raise InvalidNotation("action", repr(text))
    words = text.split()
    match [w.lower() if i == 0 else w for i, w in enumerate(words)]:
        case ["run", *cards] if cards:
            return Run(tuple(Card.parse(c) for c in cards))
        case ["buy", ("1" | "2") as k]:
            return Buy(int(k))
        case ["pass"]:
            return Pass()
        case _:
            raise InvalidNotation("action", text)


# --- the view ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class LenturluView(View):
    """A seat's (or the public) view of a Лентюрлю table."""

    layout: tuple[tuple[Card, int], ...]  # money on each Lenturlu card now, in layout order
    pile: tuple[Card, ...]  # the current pile, bottom first
    top: Card | None  # the pile's top card (None when a lead is due)
    pile_leader: Seat | None  # who led the current pile
    leading: bool  # the seat to act leads a new pile
    passes: int  # passes in a row since the last run
    stock: int  # cards left in the stock
    bought: bool  # the seat to act has bought this turn
    set_aside: int  # cards in stopped or closed piles
    manner: str
    payment: str


# --- the state ----------------------------------------------------------------------------------


class LenturluState(StateBase):
    """One deal of Лентюрлю, from the deal to the settlement (RULES.md §3)."""

    __slots__ = (
        "_bought",
        "_dealer",
        "_hands",
        "_last_runner",
        "_layout",
        "_leading",
        "_passes",
        "_pile",
        "_pile_leader",
        "_refills",
        "_set_aside",
        "_staked",
        "_stock",
        "_taken",
        "options",
    )

    def __init__(self, players: int, options: Options, seed: int) -> None:
        super().__init__(GAME, players, seed)
        self.options = options
        self._dealer: Seat = 0
        self._hands: list[list[Card]] = [[] for _ in range(players)]
        self._stock: list[Card] = []
        self._layout: dict[Card, int] = dict.fromkeys(LENTURLU_CARDS, 0)
        self._pile: list[Card] = []
        self._pile_leader: Seat | None = None
        self._set_aside: list[Card] = []
        self._leading = True
        self._passes = 0
        self._last_runner: Seat | None = None
        self._bought = False
        self._staked = [0] * players
        self._refills = [0] * players
        self._taken = [0] * players

    # --- the standard API (engine.core.State) ---------------------------------------------

    def legal_actions(self, seat: Seat) -> tuple[Action, ...]:
        """Runs (by start, length, suits S C D H), then ``buy 1``, ``buy 2``, ``pass`` (§3.3.2)."""
        if self._to_act is None or seat != self._to_act:
            return ()
        hand = self._hands[seat]
        if self._leading:
            return tuple(_runs(hand, None))
        need = self._need()
        able = any(RANK_VALUE[c.rank] == need for c in hand)
        out: list[Action] = list(_runs(hand, need)) if able else []
        stock = len(self._stock)
        if stock and not self._bought:
            out.extend(Buy(k) for k in (1, 2) if k <= stock)
            if able:
                out.append(Pass())
        elif not able or stock:
            out.append(Pass())
        return tuple(out)

    def parse_action(self, text: str) -> Action:
        return parse_action(text)

    def apply(self, seat: Seat, action: object) -> tuple[Line, ...]:
        """Apply a legal action (typed or RECORD.md text) and return the lines it appended."""
        if isinstance(action, str):
            action = parse_action(action)
        refusal = self._refusal(seat, action)
        if refusal is not None:
            raise refusal
        assert isinstance(action, Run | Buy | Pass)
        start = self._act(seat, action)
        match action:
            case Run(cards):
                self._play_run(seat, cards)
            case Buy(k):
                self._buy(seat, k)
            case Pass():
                self._pass(seat)
        return tuple(copy.deepcopy(self._record[start:]))

    def view(self, seat: Seat | None) -> LenturluView:
        hand = () if seat is None else tuple(canonical(self._hands[seat], ACE_LOW))
        phase = "over" if self._to_act is None else "lead" if self._leading else "follow"
        return LenturluView(
            game=self.game,
            players=self.players,
            seat=seat,
            version=self._version,
            to_act=self._to_act,
            phase=phase,
            dealer=self._dealer,
            deal_no=1,
            hand=hand,
            hand_sizes=tuple(len(h) for h in self._hands),
            legal=() if seat is None else self.legal_actions(seat),
            layout=tuple(self._layout.items()),
            pile=tuple(self._pile),
            top=self._pile[-1] if self._pile else None,
            pile_leader=self._pile_leader,
            leading=self._leading and self._to_act is not None,
            passes=self._passes,
            stock=len(self._stock),
            bought=self._bought,
            set_aside=len(self._set_aside),
            manner=self.options.manner,
            payment=self.options.payment,
        )

    def abandon(self) -> tuple[Line, ...]:
        """Stop the deal unsettled (§0.11): stakes return, every net is 0."""
        if self._to_act is None:
            raise IllegalAction(Refusal.GAME_OVER)
        return (copy.deepcopy(self._abandon()),)

    def clone(self) -> LenturluState:
        return copy.deepcopy(self)

    # --- the table facts ----------------------------------------------------------------------

    def hand(self, seat: Seat) -> tuple[Card, ...]:
        """The seat's hand in canonical order (§R1.8)."""
        return tuple(canonical(self._hands[seat], ACE_LOW))

    def places(self) -> list[Card]:
        """Every card of the deck where it lies now: hands, stock, pile, set-aside piles."""
        cards = [c for hand in self._hands for c in hand]
        return cards + self._stock + self._pile + self._set_aside

    def layout(self) -> dict[str, int]:
        """Money on each Lenturlu card now."""
        return {str(c): v for c, v in self._layout.items()}

    def _need(self) -> int:
        """The rank value a follower must start with (§3.2.4)."""
        return RANK_VALUE[self._pile[-1].rank] + 1

    # --- refusals (one reason, most specific first) -------------------------------------------

    def _refusal(self, seat: Seat, action: object) -> IllegalAction | None:
        if self._to_act is None:
            return IllegalAction(Refusal.GAME_OVER)
        if seat != self._to_act:
            return IllegalAction(Refusal.NOT_YOUR_TURN)
        match action:
            case Run(cards):
                return self._run_refusal(seat, cards)
            case Buy(k):
                if k not in (1, 2):
                    return IllegalAction(Refusal.WRONG_GAME, action=str(action))
                if self._leading:
                    return IllegalAction(Refusal.LEADER_MUST_LEAD)
                if self._bought:
                    return IllegalAction(Refusal.ALREADY_BOUGHT)
                if k > len(self._stock):
                    return IllegalAction(Refusal.STOCK_TOO_SMALL, stock=len(self._stock))
                return None
            case Pass():
                if self._leading:
                    return IllegalAction(Refusal.LEADER_MUST_LEAD)
                need = self._need()
                able = any(RANK_VALUE[c.rank] == need for c in self._hands[seat])
                if able and not self._stock:
                    return IllegalAction(Refusal.MUST_PLAY)
                if not able and self._stock and not self._bought:
                    return IllegalAction(Refusal.MUST_BUY)
                return None
            case _:
                return IllegalAction(Refusal.WRONG_GAME, action=str(action))

    def _run_refusal(self, seat: Seat, cards: tuple[Card, ...]) -> IllegalAction | None:
        if not cards or not all(isinstance(c, Card) for c in cards):
            return IllegalAction(Refusal.NOT_A_RUN)
        if len(set(cards)) != len(cards):
            return IllegalAction(Refusal.DUPLICATE_CARDS)
        hand = self._hands[seat]
        for c in cards:
            if c not in hand:
                return IllegalAction(Refusal.NOT_IN_HAND, card=str(c))
        if not self._leading and any(c.rank is Rank.ACE for c in cards):
            return IllegalAction(Refusal.ACE_ONLY_LEADS)
        values = [RANK_VALUE[c.rank] for c in cards]
        if any(b != a + 1 for a, b in itertools.pairwise(values)):
            return IllegalAction(Refusal.NOT_A_RUN)
        if not self._leading and values[0] != self._need():
            top = self._pile[-1]
            return IllegalAction(Refusal.RUN_MUST_CONTINUE, top=str(top))
        return None

    # --- the deal (§3.1) ----------------------------------------------------------------------

    def _deal(self, dealer: Seat, deck: list[Card]) -> None:
        n = self.players
        unit = self.options.unit
        self._dealer = dealer
        each = DEAL_TABLE[n]
        for k in range(n * each):
            self._hands[(dealer + 1 + k) % n].append(deck[k])
        self._stock = deck[n * each :]
        for c, units in zip(LENTURLU_CARDS, layout_units(n), strict=True):
            self._layout[c] = units * unit
        self._staked = [STAKE_UNITS_EACH * unit] * n
        self._write(
            {
                "t": "deal",
                "no": 1,
                "dealer": dealer,
                "layout": self.layout(),
                "deck": codes(deck),
            }
        )
        self._to_act = (dealer + 1) % n  # §3.2.3: the player to the dealer's left leads
        self._leading = True

    # --- the phases (§3.2–§3.4) ---------------------------------------------------------------

    def _play_run(self, seat: Seat, cards: tuple[Card, ...]) -> None:
        """§3.4.7: place, take stakes, check the end, refill, then close or pass the turn."""
        hand = self._hands[seat]
        for c in cards:
            hand.remove(c)
        was_lead = self._leading
        if was_lead:
            self._pile_leader = seat
        self._pile.extend(cards)
        emptied = [c for c in cards if c in self._layout]
        for c in emptied:  # §3.4.4, §3.4.6: every play of the AS is a lead
            amount = self._layout[c]
            self._layout[c] = 0
            self._taken[seat] += amount
            self._event("stake", seat=seat, card=str(c), amount=amount)
        king = RANK_VALUE[cards[-1].rank] == KING_VALUE
        if king and not was_lead and self.options.manner == "king":
            self._finish(seat, "king")  # §3.4.2 a: a covering K wins
            return
        if not hand:
            self._finish(seat, "out")  # §3.4.3
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
        if king:  # §3.4.2: the pile is closed and the same player leads
            self._set_pile_aside()
            self._event("close", seat=seat, card=str(cards[-1]))
            self._to_act = seat
            self._leading = True
        else:
            self._to_act = (seat + 1) % self.players
            self._leading = False

    def _buy(self, seat: Seat, k: int) -> None:
        drawn = self._stock[:k]
        del self._stock[:k]
        self._hands[seat].extend(drawn)
        self._bought = True
        self._event("draw", seat=seat, cards=codes(drawn))

    def _pass(self, seat: Seat) -> None:
        self._passes += 1
        self._bought = False
        if self._passes == self.players - 1:  # §3.4.1: a stop
            runner = self._last_runner
            assert runner is not None
            self._set_pile_aside()
            self._event("stop", seat=runner)
            self._passes = 0
            self._to_act = runner
            self._leading = True
        else:
            self._to_act = (seat + 1) % self.players

    def _set_pile_aside(self) -> None:
        self._set_aside.extend(self._pile)
        self._pile = []
        self._pile_leader = None

    # --- the settlement (§3.5) ----------------------------------------------------------------

    def _finish(self, winner: Seat, reason: str) -> None:
        n = self.players
        opts = self.options
        remainder = sum(self._layout.values())  # §3.5.1
        self._layout = dict.fromkeys(LENTURLU_CARDS, 0)
        pays = [0] * n
        seats: list[Line] = []
        for s in range(n):
            hand = self._hands[s]
            points = hand_points(hand)
            if s != winner:
                if opts.payment == "fixed":
                    pays[s] = opts.rate
                elif opts.payment == "cards":
                    pays[s] = opts.rate * len(hand)
                else:
                    pays[s] = opts.rate * points
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
                "no": 1,
                "winner": winner,
                "reason": reason,
                "layout": remainder,
                "seats": seats,
            }
        )
        layout = [remainder if s == winner else 0 for s in range(n)]
        payments = [sum(pays) if s == winner else -pays[s] for s in range(n)]
        net = [
            self._taken[s] + layout[s] + payments[s] - self._staked[s] - self._refills[s]
            for s in range(n)
        ]
        assert sum(net) == 0, net
        self._write(
            {
                "t": "end",
                "reason": "deal",
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
        self._to_act = None
        self._result = Result("deal", winner, tuple(net))


def _runs(hand: list[Card], start: int | None) -> Iterator[Run]:
    """Every run in ``hand`` (starting at rank value ``start``, or anywhere when leading).

    Order: start value ascending, then length, then suits S C D H per rank (deterministic).
    """
    by_value: dict[int, list[Card]] = {}
    for c in sorted(hand, key=lambda c: (RANK_VALUE[c.rank], SUIT_ORDER.index(c.suit))):
        by_value.setdefault(RANK_VALUE[c.rank], []).append(c)
    for first in sorted(by_value) if start is None else [start]:
        groups: list[list[Card]] = []
        value = first
        while value in by_value:
            groups.append(by_value[value])
            for combo in itertools.product(*groups):
                yield Run(combo)
            value += 1


def _start(
    players: int, options: Options, seed: int, chance: Chance, prev_dealer: Seat | None
) -> LenturluState:
    state = LenturluState(players, options, seed)
    state._write(game_line(GAME, players, seed, options_dict(options)))
    line, dealer = seats_line(chance, DECK_52, ACE_LOW, players, prev_dealer)
    state._write(line)
    state._deal(dealer, chance.shuffled(DECK_52))
    return state


SPEC: Final = GameSpec(GAME, "lenturlu", (3, 4, 5, 6, 7, 8), Options, _start)
"""Лентюрлю in the registry (RULES.md §3)."""
