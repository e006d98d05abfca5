"""The one skeleton every game shares: specs, the state protocol, views, results, the deal.

A game is created by :func:`engine.new_game` from (game, players, seed, options) and then driven
only by ``apply(seat, action)``. Every state keeps its RECORD.md record: ``apply`` returns copies
of the record lines it appended (its ``act`` line first), which are the game's events.

:class:`StateBase` is written once for every game: the record, the opening of ``apply`` (game
over, notation, wrong game, not your turn, legality), the legal-action cache, the base view, the
draw for seats (§0.5, §0.8), the shuffle and the deal line (§0.6), the end and ``abandon``
(§0.11). A game fills in the hooks below ``# --- the game's hooks``; :mod:`engine.kopilka` is
the shortest example of a whole game.

Rules every game shares live here: §0.1 seats and turns to the left (``(seat + 1) % n``), §0.4
all chance through one :class:`~engine.chance.Chance`, §0.5 the first dealer, §0.6 the deal, §0.8
series, §0.9 obligations enforced by legality (an action the rules forbid is simply not among
:meth:`StateBase.legal_actions`), §0.10 a forced action is still an action (the machine waits for
it), §0.11 abandonment. §0.7 (integer money, nets summing to zero) is kept by each game's
settlement and checked by the contract test.

Chance steps wait until chance can answer them: a record's replay (RECORD.md §R5.7) that ends
after a ``deal_end`` has no deck for a next deal, so the next deal is started only when the
:class:`~engine.chance.Chance` has one (:meth:`StateBase._run_chance`). With a seeded chance
that is always at once, inside the ``apply`` that ended the previous deal.
"""

from __future__ import annotations

import copy
import marshal
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, Protocol, Self, TypedDict, TypeVar

from engine.cards import Card, Rank, RankOrder, canonical, codes, rank_index
from engine.chance import Chance
from engine.errors import IllegalAction, Refusal
from engine.options import options_dict

Seat = int
"""A seat, 0 … n−1 (RULES.md §0.1)."""

Line = dict[str, Any]
"""One RECORD.md line as a JSON object."""

Places = dict[str, tuple[Card, ...]]
"""Where every card of the deck is now, by place: ``hand0`` … (a seat's hand), ``stock``,
``turn_up``, ``trick`` (the trick in play), ``pile`` (Лентюрлю's open pile), ``table`` (Кончинка),
``taken0`` … (what a seat has won or captured this deal), ``out`` (out of play: discards, closed
piles, completed tricks nobody keeps), ``deck`` (not dealt yet)."""

A = TypeVar("A")
"""A game's action type."""
OptT = TypeVar("OptT")
"""A game's options type."""
ViewT = TypeVar("ViewT", bound="View[Any]")
"""A game's view type."""


@dataclass(frozen=True, slots=True)
class Result:
    """How a game ended: RECORD.md ``end`` reason, winner (if any), net money per seat."""

    reason: str
    winner: Seat | None
    net: tuple[int, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class View(Generic[A]):
    """What one seat (or, with ``seat`` None, the public) may know. Each game extends it."""

    game: str
    players: int
    seat: Seat | None
    version: int  # actions applied so far
    to_act: Seat | None
    phase: str
    dealer: Seat | None
    deal_no: int
    hand: tuple[Card, ...]  # this seat's hand in the game's canonical order; () for the public
    hand_sizes: tuple[int, ...]
    legal: tuple[A, ...]  # this seat's legal actions now, in the game's deterministic order


class ViewBase(TypedDict):
    """The fields of :class:`View` every game fills the same way (:meth:`StateBase._view_base`)."""

    game: str
    players: int
    seat: Seat | None
    version: int
    to_act: Seat | None
    phase: str
    dealer: Seat | None
    deal_no: int
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]


class State(Protocol):
    """The API every game state offers (OpenSpiel / PokerKit style, STYLE.md §1)."""

    game: str
    players: int
    seed: int
    deck: tuple[Card, ...]

    @property
    def to_act(self) -> Seat | None:
        """The seat whose decision the game waits for; ``None`` when the game is over."""
        ...

    @property
    def is_over(self) -> bool: ...

    @property
    def version(self) -> int:
        """How many actions have been applied."""
        ...

    @property
    def result(self) -> Result | None:
        """The result once the game is over."""
        ...

    @property
    def phase(self) -> str: ...

    def hand(self, seat: Seat) -> tuple[Card, ...]:
        """The cards in ``seat``'s hand now, in the game's canonical order."""
        ...

    def legal_actions(self, seat: Seat) -> tuple[Any, ...]:
        """The seat's legal actions now, in a deterministic order (empty if not his turn)."""
        ...

    def parse_action(self, text: str) -> Any:
        """Read an action in RECORD.md §R4 notation (raises ``InvalidNotation``)."""
        ...

    def apply(self, seat: Seat, action: object) -> tuple[Line, ...]:
        """Apply a legal action (typed or text); return the record lines it produced.

        Raises ``IllegalAction`` with a refusal code when the rules forbid it; nothing changes.
        """
        ...

    def view(self, seat: Seat | None) -> View[Any]:
        """What ``seat`` may know (``None``: the public)."""
        ...

    def places(self) -> Places:
        """Where every card of the deck is now (each card in exactly one place)."""
        ...

    def record(self) -> list[Line]:
        """The game's RECORD.md lines so far (copies)."""
        ...

    def abandon(self, *, at: int | None = None) -> tuple[Line, ...]:
        """Stop the game unsettled (RULES.md §0.11): append the ``abandoned`` end line."""
        ...

    def clone(self) -> State: ...


@dataclass(frozen=True, slots=True)
class GameSpec:
    """The static description of one game (OpenSpiel's ``Game``)."""

    name: str
    family: str  # "trick", "kopilka", "lenturlu", "konchinka"
    seat_counts: tuple[int, ...]
    options_type: type[Any]
    state_type: type[StateBase[Any, Any, Any]]

    def start(
        self, players: int, options: Any, seed: int, chance: Chance, prev_dealer: Seat | None
    ) -> StateBase[Any, Any, Any]:
        """The one way to start a game (after :func:`engine.new_game` checked the set-up)."""
        return self.state_type.start(self.name, players, options, seed, chance, prev_dealer)


# --- record lines shared by every game (RECORD.md §R5) ---------------------------------------


def copy_lines(lines: Sequence[Line]) -> list[Line]:
    """Deep copies of record lines, sharing nothing with them.

    Lines hold JSON values only (dicts, lists, str, int, bool, None), which :mod:`marshal`
    copies exactly — key order and ``True`` vs ``1`` included — in C, several times faster than
    :func:`copy.deepcopy` or a Python walk (``apply`` copies its lines on every action).
    """
    copied: list[Line] = marshal.loads(marshal.dumps(list(lines)))
    return copied


def game_line(game: str, players: int, seed: int, options: Mapping[str, object]) -> Line:
    """The record's first line (§R5.1)."""
    return {
        "t": "game",
        "v": 1,
        "game": game,
        "players": players,
        "seed": seed,
        "options": dict(options),
    }


def abandoned_line(players: int) -> Line:
    """The short end line of an abandoned game (§R5.7)."""
    return {"t": "end", "reason": "abandoned", "net": [0] * players}


# --- the first dealer (RULES.md §0.5, §0.8; RECORD.md §R5.2) ----------------------------------


def draw_first_dealer(
    chance: Chance, deck: Sequence[Card], draw_order: RankOrder, players: int
) -> tuple[list[list[str | None]], Seat]:
    """Draw for the first dealer: rounds of cards per seat (None: not drawing) and the dealer.

    §0.5.1: every seat in ascending order draws from a fresh shuffle (§0.3: the game's own
    deck); §0.5.2: the lowest card deals (``draw_order`` is highest first, so
    the lowest card is the last of it); §0.5.3: those tied for lowest draw again, alone.
    """
    strength = rank_index(draw_order)
    drawing = list(range(players))
    rounds: list[list[str | None]] = []
    while True:
        top = chance.shuffled(deck)
        row: list[str | None] = [None] * players
        drawn: dict[Seat, Rank] = {}
        for k, seat in enumerate(drawing):
            row[seat] = str(top[k])
            drawn[seat] = top[k].rank
        rounds.append(row)
        low = min(strength[r] for r in drawn.values())
        drawing = [s for s in drawing if strength[drawn[s]] == low]
        if len(drawing) == 1:
            return rounds, drawing[0]


def seats_line(
    chance: Chance,
    deck: Sequence[Card],
    draw_order: RankOrder,
    players: int,
    prev_dealer: Seat | None,
) -> tuple[Line, Seat]:
    """The ``seats`` line and the first dealer: drawn (§0.5) or continuing a series (§0.8).

    §0.5.4: the seats themselves are the table's (joining order); only the dealer is drawn.
    """
    if prev_dealer is not None:
        first = (prev_dealer + 1) % players
        line: Line = {
            "t": "seats",
            "players": players,
            "by": "series",
            "draw": [],
            "prev_dealer": prev_dealer,
            "first_dealer": first,
        }
        return line, first
    rounds, first = draw_first_dealer(chance, deck, draw_order, players)
    line = {"t": "seats", "players": players, "by": "draw", "draw": rounds, "first_dealer": first}
    return line, first


# --- dealing (RULES.md §0.6) -------------------------------------------------------------------


def deal_hands(deck: Sequence[Card], dealer: Seat, players: int, each: int) -> list[list[Card]]:
    """§0.6: ``deck[k]`` (k < each × players) goes to seat (dealer + 1 + k) mod n."""
    hands: list[list[Card]] = [[] for _ in range(players)]
    for k in range(each * players):
        hands[(dealer + 1 + k) % players].append(deck[k])
    return hands


# --- the skeleton ------------------------------------------------------------------------------

_SEATS = "seats"  # waiting for the draw for the first dealer (§0.5)
_DEAL = "deal"  # waiting for the next deal's shuffle (§0.6)
_SMALL_LEGAL = 8  # up to this many legal actions, a tuple scan beats building a set


class StateBase(Generic[OptT, A, ViewT]):
    """What every game state shares; a game derives from it once (no mixins) and fills the hooks.

    The machine of a game moves ``_to_act``, ``_phase`` and its own fields; it writes the record
    with :meth:`_write` and :meth:`_event`; it asks for a deal with :meth:`_deal_next` and ends
    with :meth:`_finish`.
    """

    ACTIONS: ClassVar[tuple[type, ...]]
    """The game's action classes (anything else is ``wrong_game``)."""
    DECK: ClassVar[tuple[Card, ...]] = ()
    """The game's deck, where it does not depend on the seat count (§2.1.1, §3.1.1, §4.1.1)."""
    ORDER: ClassVar[RankOrder] = ()
    """Ranks highest first (the first-dealer draw, §0.5.2, and the record's order, §R1.8)."""

    __slots__ = (
        "_awaiting",
        "_chance",
        "_deal_no",
        "_dealer",
        "_hands",
        "_legal",
        "_legal_at",
        "_legal_set",
        "_next_dealer",
        "_phase",
        "_record",
        "_result",
        "_to_act",
        "_version",
        "deck",
        "game",
        "options",
        "order",
        "players",
        "seed",
    )

    def __init__(
        self,
        game: str,
        players: int,
        options: OptT,
        seed: int,
        chance: Chance,
        *,
        deck: tuple[Card, ...] | None = None,
        order: RankOrder | None = None,
    ) -> None:
        self.game = game
        self.players = players
        self.options = options
        self.seed = seed
        self.deck = self.DECK if deck is None else deck
        self.order = self.ORDER if order is None else order
        self._chance = chance
        self._record: list[Line] = []
        self._version = 0
        self._to_act: Seat | None = None
        self._result: Result | None = None
        self._phase = _SEATS
        self._dealer: Seat = 0
        self._deal_no = 0
        self._hands: list[list[Card]] = [[] for _ in range(players)]
        self._awaiting: str | None = _SEATS
        self._next_dealer: Seat | None = None  # the previous series' dealer, then the next one
        self._legal: tuple[A, ...] = ()
        self._legal_at = -1
        self._legal_set: frozenset[A] | None = None

    @classmethod
    def start(
        cls,
        game: str,
        players: int,
        options: OptT,
        seed: int,
        chance: Chance,
        prev_dealer: Seat | None,
    ) -> Self:
        """Write the ``game`` line, then seat the players and deal as far as chance allows."""
        state = cls(game, players, options, seed, chance)
        state._write(game_line(game, players, seed, options_dict(options)))
        state._next_dealer = prev_dealer
        state._run_chance()
        return state

    # --- the standard API (engine.core.State) -------------------------------------------------

    @property
    def to_act(self) -> Seat | None:
        return self._to_act

    @property
    def is_over(self) -> bool:
        return self._result is not None

    @property
    def version(self) -> int:
        return self._version

    @property
    def result(self) -> Result | None:
        return self._result

    @property
    def phase(self) -> str:
        """The game's phase now (each game names its own; ``over`` at the end)."""
        return self._phase

    @property
    def dealer(self) -> Seat:
        return self._dealer

    @property
    def deal_no(self) -> int:
        return self._deal_no

    def hand(self, seat: Seat) -> tuple[Card, ...]:
        """The cards in ``seat``'s hand now, in the game's canonical order."""
        return self._shown_hand(seat)

    def legal_actions(self, seat: Seat) -> tuple[A, ...]:
        """The seat's legal actions now, in the game's deterministic order (cached per action)."""
        if seat != self._to_act:
            return ()
        if self._legal_at != self._version:
            self._legal = self._list_legal(seat)
            self._legal_set = None
            self._legal_at = self._version
        return self._legal

    def apply(self, seat: Seat, action: object) -> tuple[Line, ...]:
        if self._result is not None:
            raise IllegalAction(Refusal.GAME_OVER)
        if isinstance(action, str):
            action = self.parse_action(action)
        if not isinstance(action, self.ACTIONS):
            raise IllegalAction(Refusal.WRONG_GAME, action=str(action))
        if seat != self._to_act:
            raise IllegalAction(Refusal.NOT_YOUR_TURN, seat=seat)
        typed: A = action  # type: ignore[assignment]  # isinstance of ACTIONS above
        if not self._is_legal(seat, typed):
            raise self._refusal(seat, typed)
        start = len(self._record)
        self._version += 1
        self._record.append({"t": "act", "seat": seat, "a": str(typed)})
        self._perform(seat, typed)
        self._run_chance()
        return tuple(copy_lines(self._record[start:]))

    def places(self) -> Places:
        """Where every card of the deck is now; each card is in exactly one place."""
        if self._deal_no == 0:
            return {"deck": self.deck}
        return self._places()

    def record(self) -> list[Line]:
        return copy_lines(self._record)

    def abandon(self, *, at: int | None = None) -> tuple[Line, ...]:
        """§0.11: stop unsettled — nothing is paid, stakes and fines go back; every net is 0.

        ``at`` (replay only) is where a record's ``abandoned`` line stands: RECORD.md §R5.7 lets
        it follow any line, so lines this machine wrote past that point in the same step (the
        events of a deal, a settlement) are withdrawn; the game ends there, even if the step
        had ended it.
        """
        if at is not None and at < len(self._record):
            del self._record[at:]
        elif self._result is not None:
            raise IllegalAction(Refusal.GAME_OVER)
        line = abandoned_line(self.players)
        self._write(line)
        self._finish(Result("abandoned", None, (0,) * self.players))
        return tuple(copy_lines([line]))

    def clone(self) -> Self:
        """An independent copy that plays on identically (immutable parts are shared)."""
        return copy.deepcopy(self, self._shared())

    # --- the game's hooks -----------------------------------------------------------------------

    def parse_action(self, text: str) -> A:
        """Read an action in RECORD.md §R4 notation (raises ``InvalidNotation``)."""
        raise NotImplementedError

    def view(self, seat: Seat | None) -> ViewT:
        """What ``seat`` may know: the game's view from :meth:`_view_base` and its own fields."""
        raise NotImplementedError

    def _list_legal(self, seat: Seat) -> tuple[A, ...]:
        """The legal actions of the seat to act: the one source of legality."""
        raise NotImplementedError

    def _refusal(self, seat: Seat, action: A) -> IllegalAction:
        """Why ``action`` (not among the legal actions) is refused, most specific reason first."""
        raise NotImplementedError

    def _perform(self, seat: Seat, action: A) -> None:
        """Carry out a legal action (its ``act`` line is written) and all it makes happen."""
        raise NotImplementedError

    def _places(self) -> Places:
        """Where every card is during a deal (see :data:`Places` for the names)."""
        raise NotImplementedError

    def _deal(self, dealer: Seat) -> None:
        """Deal with ``dealer`` dealing: :meth:`_open_deal`, the hands, up to the first decision."""
        raise NotImplementedError

    def _after_seats(self) -> None:
        """What comes between the ``seats`` line and the first deal (Копилка's ante)."""

    def _shown_hand(self, seat: Seat) -> tuple[Card, ...]:
        """A hand as views show it: canonical order (§R1.8)."""
        return tuple(canonical(self._hands[seat], self.order))

    def _shared(self) -> dict[int, object]:
        """Immutable parts :meth:`clone` shares rather than copies (a deep-copy memo)."""
        return {}

    # --- for the games -------------------------------------------------------------------------

    def _is_legal(self, seat: Seat, action: A) -> bool:
        """Membership in :meth:`legal_actions` (a set when the list is long)."""
        legal = self.legal_actions(seat)
        if len(legal) <= _SMALL_LEGAL:
            return action in legal
        if self._legal_set is None:
            self._legal_set = frozenset(legal)
        return action in self._legal_set

    def _view_base(self, seat: Seat | None) -> ViewBase:
        return ViewBase(
            game=self.game,
            players=self.players,
            seat=seat,
            version=self._version,
            to_act=self._to_act,
            phase=self.phase,
            dealer=self._dealer,
            deal_no=self._deal_no,
            hand=() if seat is None else self._shown_hand(seat),
            hand_sizes=tuple(len(h) for h in self._hands),
        )

    def _write(self, line: Line) -> None:
        self._record.append(line)

    def _event(self, name: str, **keys: Any) -> None:
        self._record.append({"t": "event", "e": name, **keys})

    def _open_deal(self, dealer: Seat, **keys: Any) -> list[Card]:
        """§0.6: the next deal's number and dealer, a shuffled deck and its ``deal`` line.

        ``keys`` are written after ``dealer`` and before ``deck`` (Лентюрлю's ``layout``).
        """
        self._dealer = dealer
        self._deal_no += 1
        deck = self._chance.shuffled(self.deck)
        self._write(
            {"t": "deal", "no": self._deal_no, "dealer": dealer, **keys, "deck": codes(deck)}
        )
        return deck

    def _deal_next(self, dealer: Seat) -> None:
        """Ask for the next deal with ``dealer`` dealing; it starts as soon as chance allows."""
        self._to_act = None
        self._awaiting = _DEAL
        self._next_dealer = dealer

    def _run_chance(self) -> None:
        """Run the chance steps that wait (§0.5 draw, §0.6 deal) while chance can answer them."""
        if self._awaiting == _SEATS:
            prev = self._next_dealer
            if prev is None and not self._chance.ready():
                return
            line, first = seats_line(self._chance, self.deck, self.order, self.players, prev)
            self._write(line)
            self._after_seats()
            self._deal_next(first)
        while self._awaiting == _DEAL and self._chance.ready():
            dealer = self._next_dealer
            assert dealer is not None
            self._awaiting = None
            self._next_dealer = None
            self._deal(dealer)

    def _finish(self, result: Result) -> None:
        """The game is over with ``result`` (its ``end`` line is written by the game)."""
        self._result = result
        self._to_act = None
        self._phase = "over"
        self._awaiting = None


def owners(players: int, name: str, piles: Iterable[Sequence[Card]]) -> Places:
    """``{name0: …, name1: …}`` for per-seat piles (hands, taken cards) in :data:`Places`."""
    out: Places = {f"{name}{seat}": tuple(pile) for seat, pile in enumerate(piles)}
    assert len(out) == players
    return out
