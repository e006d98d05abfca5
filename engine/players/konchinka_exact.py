"""Кончинка's last cards solved exactly (``hard``; RULES.md §4.3.8, §4.4).

Once the stock is empty no card is drawn again: a world's rest of the deal is a game of
perfect information. With few moves left (:data:`EXACT_MOVES`) every line of play is searched
(max^n: the seat to act takes the move best for its own value — its deal points against the
others' mean, ± the win — the first in the engine's order on a tie), instead of a play-out by
the simple rule. At two seats the values are zero-sum, so this is minimax, and the world is
the one the view fixes (the unseen cards are the other hand): the search is exact; at three
and four seats each sampled world is searched so. Counts only: one decision's searches are
bounded by :data:`NODES` together; past it the worlds left fall back to the play-out.
"""

from __future__ import annotations

from typing import Final

from .konchinka_sim import Action, KonchinkaSim

EXACT_MOVES: Final = 12
"""At most this many moves left in the deal (the stock empty): the whole last round at two and
three seats, three cards a seat at four."""
NODES: Final = 40_000
"""Positions searched per decision at most (the whole last round at two seats is at most a few
thousand; a world of three cards a seat at four about a thousand, of four at three about five
thousand)."""

Values = tuple[float, ...]


def values(sim: KonchinkaSim, bonus: float) -> Values:
    """Every seat's value of a finished deal: its points less the others' mean, ± ``bonus``."""
    pts = sim.points
    total = sum(pts)
    n = sim.n
    out = []
    for i, p in enumerate(pts):
        v = p - (total - p) / (n - 1)
        if sim.winner is not None:
            v += bonus if sim.winner == i else -bonus
        out.append(v)
    return tuple(out)


def solvable(sim: KonchinkaSim) -> bool:
    """No card left to draw and at most :data:`EXACT_MOVES` moves to play."""
    return not sim.stock and sum(map(len, sim.hands)) <= EXACT_MOVES


class Budget:
    """Positions left to search (one per position played), shared by a decision's worlds."""

    __slots__ = ("left",)

    def __init__(self, nodes: int = NODES) -> None:
        self.left = nodes


class OutOfNodes(Exception):
    """The search met its bound."""


def _solve(sim: KonchinkaSim, bonus: float, budget: Budget) -> tuple[Values, KonchinkaSim]:
    """The values of ``sim`` under max^n play, and the finished deal reached."""
    if sim.over:
        return values(sim, bonus), sim
    budget.left -= 1
    if budget.left < 0:
        raise OutOfNodes
    seat = sim.to_act
    best: tuple[Values, KonchinkaSim] | None = None
    for card, mask in sim.legal():
        child = sim.copy()
        child.play(card, mask)
        got = _solve(child, bonus, budget)
        if best is None or got[0][seat] > best[0][seat]:
            best = got
    assert best is not None
    return best


def solve(
    sim: KonchinkaSim, actions: tuple[Action, ...], bonus: float, budget: Budget
) -> list[KonchinkaSim] | None:
    """Each root action of the seat to act in ``sim`` played, then the rest by max^n: the
    finished deals (read ``value``, ``winner``); ``None`` if the bound was met."""
    out: list[KonchinkaSim] = []
    try:
        for card, mask in actions:
            child = sim.copy()
            child.play(card, mask)
            out.append(_solve(child, bonus, budget)[1])
    except OutOfNodes:
        return None
    return out


__all__ = ["EXACT_MOVES", "NODES", "Budget", "OutOfNodes", "solvable", "solve", "values"]
