"""``hard``'s rollout policy in Лентюрлю: the table as ``normal`` plays it (RULES.md §3).

``easy``'s rule (:func:`engine.players.lenturlu_sim.playout`) runs whenever it can and buys one
card only when it must; ``normal`` — what ``hard`` meets at the table — buys two cards far more
often, passes, and keeps its king out of its leads. A play-out by a rule closer to that is a
better forecast of the deal for ``hard`` (its own later turns included):

* **follow**: a run that reaches the king (§3.4.2 a: the deal is won) whenever held; else, while
  the stock lasts and nothing was bought this turn, buy (two cards while two are left,
  §3.3.2) — the king may come; else the longest run from r + 1 (Lenturlu cards wherever held);
  unable, pass;
* **lead**: the longest stretch of held values (the lowest of equals, Lenturlu cards wherever
  held), the king kept back (Manner A) unless nothing else is held.

Each step is one legal action applied by :func:`engine.players.lenturlu_sim.apply`, so the
rules are the simulator's (checked against the engine in ``tests/engine/test_lenturlu_sim.py``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from . import lenturlu_sim as sim
from .determinized import Work

KING_BIT: Final = 1 << sim.KING
VALUES: Final = ((1 << (sim.KING + 1)) - 1) & ~1
"""Bits 1 … 13: every value (§3.1.1)."""


@dataclass(frozen=True, slots=True)
class Style:
    """The switches of the rollout rule (:func:`pick`); :data:`HARD_STYLE` is ``hard``'s. Each
    was switched alone in 1,200-game duplicate duels against ``normal`` (4 seats): none moved
    ``hard``'s mean measurably (every change within ±2 kopecks a deal)."""

    buy_able: bool = True  # an able follower who cannot reach the king buys first
    buy_two: bool = True  # buys take two cards while two are left
    keep_king: bool = True  # a lead keeps the king back (Manner A)
    shortest: bool = False  # a follow that cannot reach the king plays one card


HARD_STYLE: Final = Style()


def pick(g: sim.LenturluSim, style: Style = HARD_STYLE) -> sim.Action:
    """The rollout rule's legal action for the seat to act (§3.3.2)."""
    seat = g.to_act
    assert seat is not None
    m = g.msk[seat]
    stk = g.stk[seat]
    if not g.top:  # §3.2.3: a lead
        pool = m
        if style.keep_king and g.king_wins and m & ~KING_BIT:
            pool = m & ~KING_BIT
        start, length = sim.longest_stretch(pool)
        return start, length, stk & ((1 << (start + length)) - (1 << start))
    need = g.top + 1
    t = m >> need
    length = (t ^ (t + 1)).bit_length() - 1 if t & 1 else 0
    left = len(g.stock) - g.sp
    if length and need + length - 1 == sim.KING and g.king_wins:
        return need, length, stk & ((1 << (need + length)) - (1 << need))
    if left and not g.bought and (style.buy_able or not length):
        return 0, 2 if style.buy_two and left >= 2 else 1, 0
    if length:
        if style.shortest:
            length = 1
        return need, length, stk & ((1 << (need + length)) - (1 << need))
    return sim.PASS_ACTION


def playout(g: sim.LenturluSim, work: Work, style: Style = HARD_STYLE) -> None:
    """Play the deal to its end by :func:`pick`; every action is counted in ``work``."""
    done = 0
    while g.winner is None:
        sim.apply(g, pick(g, style))
        done += 1
    work.done += done


__all__ = ["HARD_STYLE", "Style", "pick", "playout"]
