"""The skeleton every game state derives from: :class:`StateBase` (see :mod:`engine.core`).

Written once for every game: the record, the opening of ``apply`` (game over, notation, wrong
game, not your turn, legality), the legal-action cache, the base view, the draw for seats (§0.5,
§0.8), the shuffle and the deal line (§0.6), ``places()``, the end and ``abandon`` (§0.11). A
game fills in the hooks below ``# --- the game's hooks``; :mod:`engine.kopilka` is the shortest
example of a whole game.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Sequence
from enum import StrEnum
from typing import Any, ClassVar, Final, Generic, Self, TypeVar

from engine.cards import Card, RankOrder, canonical, codes
from engine.chance import Chance
from engine.core import (
    A,
    EndReason,
    Line,
    Places,
    Result,
    Seat,
    View,
    ViewBase,
    abandoned_line,
    copy_lines,
    game_line,
    seats_line,
)
from engine.errors import IllegalAction, Refusal
from engine.options import options_dict

OptT = TypeVar("OptT")
"""A game's options type."""
ViewT = TypeVar("ViewT", bound="View[Any, Any]")
"""A game's view type."""
PhaseT = TypeVar("PhaseT", bound=StrEnum)
"""A game's ``Phase``: its own phases, and the skeleton's ``seats`` and ``over``."""

# --- the skeleton ------------------------------------------------------------------------------

PHASE_SEATS: Final = "seats"  # waiting for the draw for the first dealer (§0.5)
PHASE_OVER: Final = "over"  # the record has its end line
_DEAL = "deal"  # waiting for the next deal's shuffle (§0.6)
_SMALL_LEGAL = 8  # up to this many legal actions, a tuple scan beats building a set


class StateBase(Generic[OptT, A, ViewT, PhaseT]):
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
    PHASES: ClassVar[type[StrEnum]]
    """The game's ``Phase`` (the class of ``PhaseT``), with the members :data:`PHASE_SEATS` and
    :data:`PHASE_OVER` that the skeleton sets."""

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
        self._phase = self._skeleton_phase(PHASE_SEATS)
        self._dealer: Seat = 0
        self._deal_no = 0
        self._hands: list[list[Card]] = [[] for _ in range(players)]
        self._awaiting: str | None = PHASE_SEATS
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
    def phase(self) -> PhaseT:
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
        self._finish(Result(EndReason.ABANDONED, None, (0,) * self.players))
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

    def _skeleton_phase(self, value: str) -> PhaseT:
        """The game's member for a phase the skeleton sets (``seats``, ``over``)."""
        phase: PhaseT = self.PHASES(value)  # type: ignore[assignment]  # PHASES is PhaseT
        return phase

    def _view_base(self, seat: Seat | None) -> ViewBase[PhaseT]:
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
        if self._awaiting == PHASE_SEATS:
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
        self._phase = self._skeleton_phase(PHASE_OVER)
        self._awaiting = None


def owners(players: int, name: str, piles: Iterable[Sequence[Card]]) -> Places:
    """``{name0: …, name1: …}`` for per-seat piles (hands, taken cards) in :data:`Places`."""
    out: Places = {f"{name}{seat}": tuple(pile) for seat, pile in enumerate(piles)}
    assert len(out) == players
    return out
