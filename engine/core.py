"""The one skeleton every game shares: specs, the state protocol, views, results, the deal.

A game is created by :func:`engine.new_game` from (game, players, seed, options) and then driven
only by ``apply(seat, action)``. Every state keeps its RECORD.md record: ``apply`` returns copies
of the record lines it appended (its ``act`` line first), which are the game's events.

Every game state derives from :class:`engine.skeleton.StateBase`, which is written once for
every game; this module holds the types and the record lines, draws and deals it uses.

Rules every game shares live here: §0.1 seats and turns to the left (``(seat + 1) % n``), §0.4
all chance through one :class:`~engine.chance.Chance`, §0.5 the first dealer, §0.6 the deal, §0.8
series, §0.9 obligations enforced by legality (an action the rules forbid is simply not among
:meth:`StateBase.legal_actions`), §0.10 a forced action is still an action (the machine waits for
it), §0.11 abandonment. §0.7 (integer money, nets summing to zero) is kept by each game's
settlement and checked by the contract test.

Chance steps wait until chance can answer them: a record's replay (RECORD.md §R5.7) that ends
after a ``deal_end`` has no deck for a next deal, so the next deal is started only when the
:class:`~engine.chance.Chance` has one (``StateBase._run_chance``). With a seeded chance
that is always at once, inside the ``apply`` that ended the previous deal.
"""

from __future__ import annotations

import marshal
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Generic, Protocol, TypedDict, TypeVar

from engine.cards import Card, Rank, RankOrder, rank_index
from engine.chance import Chance

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
P = TypeVar("P", bound=StrEnum)
"""A game's ``Phase`` (its ``seats`` and ``over`` are the skeleton's, engine/skeleton.py)."""


class EndReason(StrEnum):
    """Why a record ended: its ``end`` line's ``reason`` (RECORD.md §R5.7, §R6.4 … §R9.5)."""

    ABANDONED = "abandoned"  # §R5.7, any game: stopped unsettled (RULES.md §0.11)
    ZERO = "zero"  # §R6.4: a count reached zero (§1.5.8)
    INSTANT = "instant"  # §R6.4: an instant win at the deal (§1.6.4)
    PARTIA = "partia"  # §R7.5: Копилка's four deals played
    DEAL = "deal"  # §R8.6: Лентюрлю's one deal played
    TARGET = "target"  # §R9.5: Кончинка's target reached (§4.4.3)
    CERTAIN = "certain"  # §R9.5: Кончинка's early finish (§4.4.4)


@dataclass(frozen=True, slots=True)
class Result:
    """How a game ended: RECORD.md ``end`` reason, winner (if any), net money per seat, and
    the game's own points per seat where it scores points beside money (Копилка's partia points
    §2.6, Кончинка's totals §4.4; None elsewhere and for an abandoned game)."""

    reason: EndReason
    winner: Seat | None
    net: tuple[int, ...]
    points: tuple[int, ...] | None = None

    def places(self) -> tuple[int, ...] | None:
        """Each seat's place in the game (1 best; equal places share a number, the next place
        counts them: 1, 2, 2, 4), for ratings; None for an abandoned game (§0.11: it has no
        standing). The winner alone is first — the trick family's pulka winner (§1.6.1), the
        partia's winner by §2.6.7's tie-breaks, Лентюрлю's winner (§3.5), Кончинка's (§4.4.3) —
        then the others by money (what every game is played for: §1.6.5, §2.6.6, §3.5, §4.4.5),
        among equal money by the game's own points (Копилка's partia points, Кончинка's totals)."""
        if self.reason is EndReason.ABANDONED:
            return None
        points = self.points or (0,) * len(self.net)

        def key(seat: Seat) -> tuple[bool, int, int]:
            return (seat == self.winner, self.net[seat], points[seat])

        return tuple(
            1 + sum(key(o) > key(s) for o in range(len(self.net))) for s in range(len(self.net))
        )


@dataclass(frozen=True, slots=True, kw_only=True)
class View(Generic[A, P]):
    """What one seat (or, with ``seat`` None, the public) may know. Each game extends it, with
    its actions and its phases."""

    game: str
    players: int
    seat: Seat | None
    version: int  # actions applied so far
    to_act: Seat | None
    phase: P
    dealer: Seat | None
    deal_no: int
    hand: tuple[Card, ...]  # this seat's hand in the game's canonical order; () for the public
    hand_sizes: tuple[int, ...]
    legal: tuple[A, ...]  # this seat's legal actions now, in the game's deterministic order


class ViewBase(TypedDict, Generic[P]):
    """The fields of :class:`View` every game fills the same way (:meth:`StateBase._view_base`)."""

    game: str
    players: int
    seat: Seat | None
    version: int
    to_act: Seat | None
    phase: P
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
    def phase(self) -> StrEnum:
        """The game's phase now (its ``Phase``)."""
        ...

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

    def view(self, seat: Seat | None) -> View[Any, Any]:
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
    return {"t": "end", "reason": EndReason.ABANDONED.value, "net": [0] * players}


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
