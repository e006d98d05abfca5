"""What the table knows of the hands it cannot see, in a Лентюрлю deal (RULES.md §3.3).

Nothing here decides anything: the state tells it what happened and the views show it (anyone
who watched the deal knows as much). Ranks are values 1 … 13 (§3.1.1), kept as bitmasks
(bit v for value v). With the top at r, ``need`` is r + 1 (§3.2.4).

* **Holds** (certain): a follower who *passes* without having bought while the stock still has
  cards was able (§3.3.2: one unable, with cards in the stock, must buy) — he holds a card of
  ``need``. Known until he plays a card of that value (he may have had only one).
* **Lacks** (certain): a follower who passes when the stock is empty was unable (§3.3.2: one
  able with the stock empty may only run) — he has no card of ``need``. Cleared by a draw.
* **Unlikely** (a player's habit, not a rule): a follower who passes after buying, with cards
  left in the stock, may pass by choice, but a player who runs whenever he can — the simple
  player does — was unable: most likely no card of ``need``. Cleared by a draw. Only the
  ``hard`` computer weighs it (:mod:`engine.players.lenturlu`).
* **Stopped** (a habit too): a run is played to the end of the hand's stretch and a lead from its
  start — a player sheds all the cards he can at once — so the seat most likely has no card of
  the value after its run's end (unless it ended on the K) nor, after a lead, of the value
  before its start. Among ``normal`` computers at 6 seats (150 deals) a follower held the value
  after its run 9% of the time, a leader the value after its lead 18% and the one before 2%,
  where any other seat held such a value 56%. Cleared by a draw; a value played is no longer
  assumed lacked. Only ``hard`` weighs it.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.core import Seat

from .rules import KING_VALUE


class LenturluKnowledge:
    """The table's inferences about the hands, for one deal."""

    __slots__ = ("_holds", "_lacks", "_stopped", "_unlikely")

    def __init__(self, players: int) -> None:
        self._holds = [0] * players
        self._lacks = [0] * players
        self._unlikely = [0] * players
        self._stopped = [0] * players

    def passed(self, seat: Seat, need: int, *, stock: int, bought: bool) -> None:
        """§3.3.2: ``seat`` passed with ``stock`` cards left, having bought this turn or not."""
        bit = 1 << need
        if stock and not bought:
            self._holds[seat] |= bit
        elif not stock:
            self._lacks[seat] |= bit
        else:
            self._unlikely[seat] |= bit

    def drew(self, seat: Seat) -> None:
        """§3.3.3: unknown cards came to ``seat`` from the stock."""
        self._lacks[seat] = 0
        self._unlikely[seat] = 0
        self._stopped[seat] = 0

    def ran(self, seat: Seat, values: Iterable[int], *, lead: bool = False) -> None:
        """``seat`` played a run of these values (ascending; a ``lead`` or a follow): a value it
        was known to hold may be gone, one it was thought to lack was held; the values just
        outside the run are most likely lacked (a lead's below, any run's above but the K's)."""
        played = 0
        for v in values:
            played |= 1 << v
        if not played:
            return
        self._holds[seat] &= ~played
        self._unlikely[seat] &= ~played
        below = played & -played  # the run's first value's bit
        above = 1 << played.bit_length()  # the value after its last
        stopped = self._stopped[seat] & ~played
        if above <= 1 << KING_VALUE:  # a run ending on the K leaves nothing above
            stopped |= above
        if lead and below > 2:
            stopped |= below >> 1
        self._stopped[seat] = stopped

    def holds(self) -> tuple[int, ...]:
        return tuple(self._holds)

    def lacks(self) -> tuple[int, ...]:
        return tuple(self._lacks)

    def unlikely(self) -> tuple[int, ...]:
        return tuple(self._unlikely)

    def stopped(self) -> tuple[int, ...]:
        return tuple(self._stopped)


__all__ = ["LenturluKnowledge"]
