"""The shared shape of every game: specs, the state protocol, views, results, the draw.

A game is created by :func:`engine.new_game` from (game, players, seed, options) and then driven
only by ``apply(seat, action)``. Every state also keeps its RECORD.md record: ``apply`` returns
the record lines it appended (its ``act`` line first), which are the game's events.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from engine.cards import Card, Rank, RankOrder, rank_index
from engine.chance import Chance

Seat = int
"""A seat, 0 … n−1 (RULES.md §0.1)."""

Line = dict[str, Any]
"""One RECORD.md line as a JSON object."""


@dataclass(frozen=True, slots=True)
class Result:
    """How a game ended: RECORD.md ``end`` reason, winner (if any), net money per seat."""

    reason: str
    winner: Seat | None
    net: tuple[int, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class View:
    """What one seat (or, with ``seat`` None, the public) may know. Games extend it."""

    game: str
    players: int
    seat: Seat | None
    version: int  # actions applied so far
    to_act: Seat | None
    phase: str
    dealer: Seat | None
    deal_no: int
    hand: tuple[Card, ...]  # this seat's hand; () for the public view
    hand_sizes: tuple[int, ...]
    legal: tuple[Any, ...]  # this seat's legal actions now (typed actions of the game)


class State(Protocol):
    """The API every game state offers (OpenSpiel / PokerKit style, STYLE.md §1)."""

    game: str
    players: int
    seed: int

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

    def view(self, seat: Seat | None) -> View:
        """What ``seat`` may know (``None``: the public)."""
        ...

    def record(self) -> list[Line]:
        """The game's RECORD.md lines so far (copies)."""
        ...

    def abandon(self) -> tuple[Line, ...]:
        """Stop the game unsettled (RULES.md §0.11): append the ``abandoned`` end line."""
        ...

    def clone(self) -> State: ...


Starter = Callable[[int, Any, int, Chance, "Seat | None"], State]
"""``start(players, options, seed, chance, prev_dealer)``."""


@dataclass(frozen=True, slots=True)
class GameSpec:
    """The static description of one game (OpenSpiel's ``Game``)."""

    name: str
    family: str  # "trick", "kopilka", "lenturlu", "konchinka"
    seat_counts: tuple[int, ...]
    options_type: type[Any]
    start: Starter


# --- the first dealer (RULES.md §0.5, RECORD.md §R5.2) -------------------------------------


def draw_first_dealer(
    chance: Chance, deck: Sequence[Card], draw_order: RankOrder, players: int
) -> tuple[list[list[str | None]], Seat]:
    """Draw for the first dealer: rounds of cards per seat (None: not drawing) and the dealer.

    ``draw_order`` is highest first, so the lowest card is the last of it (§0.5.2).
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
    """The ``seats`` line and the first dealer: drawn (§0.5) or continuing a series (§0.8)."""
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


class StateBase:
    """The bookkeeping every game state shares: the record, the version, whose turn, the result.

    A game's state class derives from it (single inheritance) and declares only its own
    ``__slots__``. Subclasses set ``_to_act`` and ``_result`` as their machine moves.
    """

    __slots__ = ("_record", "_result", "_to_act", "_version", "game", "players", "seed")

    def __init__(self, game: str, players: int, seed: int) -> None:
        self.game = game
        self.players = players
        self.seed = seed
        self._record: list[Line] = []
        self._version = 0
        self._to_act: Seat | None = None
        self._result: Result | None = None

    # --- the standard API --------------------------------------------------------------------

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

    def record(self) -> list[Line]:
        return copy.deepcopy(self._record)

    # --- writing the record --------------------------------------------------------------------

    def _write(self, line: Line) -> None:
        self._record.append(line)

    def _event(self, name: str, **keys: Any) -> None:
        self._record.append({"t": "event", "e": name, **keys})

    def _act(self, seat: Seat, action: object) -> int:
        """Count an accepted action and write its ``act`` line; where its lines start."""
        start = len(self._record)
        self._version += 1
        self._record.append({"t": "act", "seat": seat, "a": str(action)})
        return start

    def _abandon(self) -> Line:
        """§0.11: write the ``abandoned`` end line and end the game; the line written."""
        line = abandoned_line(self.players)
        self._record.append(line)
        self._result = Result("abandoned", None, (0,) * self.players)
        self._to_act = None
        return line
