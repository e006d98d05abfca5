"""The computer player of Кончинка (RULES.md §4; levels ``easy`` and ``normal``).

``easy`` captures the most cards it can (кончинки and clubs break ties, seed 001: «брать одной
картой несколько очень выгодно»), else trails its least useful card. ``normal`` is
Perfect-Information Monte Carlo (:mod:`engine.players.determinized`): the unseen cards are dealt
at random to the other hands and the stock, every move is played out to the end of the deal by
``easy`` on the fast simulator :mod:`engine.players.konchinka_sim` (the engine's rules on small
ints, checked against the engine by ``tests/engine/test_konchinka_sim.py``), and the move with
the best mean of this seat's deal points against the others' is chosen.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, Final

from engine.cards import Card, Rank, Suit
from engine.konchinka.actions import Capture, KonchinkaAction, Sweep, Trail
from engine.konchinka.rules import KONCHINKI
from engine.konchinka.view import KonchinkaView
from engine.players import konchinka_sim as sim
from engine.players.determinized import ScoredMoves, Work
from engine.players.konchinka_exact import NODES, NodeBudget, solve
from engine.players.konchinka_infer import facts, likely_world

MOVE_BUDGET: Final = 8000
"""Rollout moves per decision (the budget, never a clock): the worlds sampled are this budget
over the moves left in the deal times the candidates, at least :data:`MIN_SAMPLES`."""
MIN_SAMPLES: Final = 2
CANDIDATES: Final = 6
HARD_BUDGET: Final = 4 * MOVE_BUDGET
HARD_SAMPLES: Final = 4 * MIN_SAMPLES
HARD_CANDIDATES: Final = 10
"""At most this many moves, the best by :func:`move_score`, are searched."""
WIN_BONUS: Final = 10.0
"""Added to a rollout that ends the game won by this seat (subtracted when another wins)."""


def _card_worth(card: Card) -> int:
    """How much a card is worth to its captor, in hundredths: one card, more for clubs and
    кончинки (§4.4.1). Integers, so that ties are ties (the simulator scores alike)."""
    return 100 + (40 if card.suit is Suit.CLUBS else 0) + (300 if card in KONCHINKI else 0)


def move_score(move: KonchinkaAction) -> int:
    """The easy player's measure of a move: the worth of what it captures, minus, for a trail,
    the worth of the card given away (low cards and court cards are trailed first)."""
    match move:
        case Capture(card):
            return 1000 + _card_worth(card) + sum(_card_worth(c) for c in move.taken)
        case Sweep(card):
            return 1000 + _card_worth(card)  # the table's worth is counted by the caller
        case Trail(card):
            court = card.rank in (Rank.KING, Rank.QUEEN)
            return -_card_worth(card) - (0 if court else _rank_value(card))


_RANK_INDEX: Final = {r: i for i, r in enumerate(Rank)}


def _rank_value(card: Card) -> int:
    return _RANK_INDEX[card.rank]


def pick(legal: Sequence[KonchinkaAction], table: Sequence[Card]) -> KonchinkaAction:
    """The easy rule on the legal moves and the table: the richest capture, else a cheap trail
    (the first such move in the legal order on a tie)."""
    sweep_worth = sum(_card_worth(c) for c in table)

    def score(move: KonchinkaAction) -> int:
        return move_score(move) + (sweep_worth if isinstance(move, Sweep) else 0)

    best = legal[0]
    best_score = score(best)
    for move in legal[1:]:
        s = score(move)
        if s > best_score:
            best, best_score = move, s
    return best


def easy(view: KonchinkaView, rng: random.Random) -> KonchinkaAction:
    """Capture the most (clubs and кончинки first), else trail the least useful card."""
    return pick(view.legal, view.table)


def candidates(view: KonchinkaView, width: int = CANDIDATES) -> list[KonchinkaAction]:
    """The moves worth searching: the best ``width`` by the easy measure."""
    ranked = sorted(view.legal, key=lambda m: -move_score(m))
    return ranked[:width]


def normal(view: KonchinkaView, rng: random.Random) -> KonchinkaAction:
    """PIMC over the best :data:`CANDIDATES` moves at :data:`MOVE_BUDGET`."""
    return search(view, rng, MOVE_BUDGET, MIN_SAMPLES, CANDIDATES)


def hard(view: KonchinkaView, rng: random.Random) -> KonchinkaAction:
    """The same search over more moves (:data:`HARD_CANDIDATES`) at :data:`HARD_BUDGET`; at
    two seats the last round searched exactly (:mod:`.konchinka_exact`)."""
    return hard_scores(view, rng).best()


def hard_scores(
    view: KonchinkaView, rng: random.Random, extra: KonchinkaAction | None = None
) -> ScoredMoves[KonchinkaAction]:
    """``hard``'s search, every candidate with its summed value (the hints' figures); ``extra``
    searched too where the candidates leave it out (the review's action taken)."""
    return scores(view, rng, HARD_BUDGET, HARD_SAMPLES, HARD_CANDIDATES, extra, exact=True)


def search(
    view: KonchinkaView, rng: random.Random, budget: int, least: int, width: int
) -> KonchinkaAction:
    """:func:`scores`' best candidate."""
    return scores(view, rng, budget, least, width).best()


def scores(
    view: KonchinkaView,
    rng: random.Random,
    budget: int,
    least: int,
    width: int,
    extra: KonchinkaAction | None = None,
    *,
    exact: bool = False,
) -> ScoredMoves[KonchinkaAction]:
    """PIMC over the best ``width`` moves, each played out to the end of the deal in sampled
    worlds (``budget`` moves, at least ``least`` worlds); with ``exact``, at two seats once the
    stock is empty, the one world there is (the other hand is the unseen cards) searched
    exactly instead (:func:`.konchinka_exact.solve`).

    Every candidate meets the same worlds (common samples reduce the variance of the
    comparison); the best mean wins, ties to the earlier candidate."""
    moves = tuple(candidates(view, width))
    if extra is not None and extra not in moves:  # the review's action taken, searched too
        moves = (*moves, extra)
    if len(moves) == 1:
        return ScoredMoves.only(moves[0])
    me = view.seat
    assert me is not None
    work = Work()
    seen = sim.Seen(view)
    known = facts(view, frozenset(seen.unseen))
    actions = [sim.encode(view.table, m) for m in moves]
    left = sum(view.hand_sizes) + view.stock
    samples = max(least, budget // (left * len(moves)))
    totals = [0.0] * len(moves)
    won = [0] * len(moves)
    lost = [0] * len(moves)

    def add(ends: Sequence[sim.KonchinkaSim]) -> None:
        """One world's finished deals, one a candidate, into the sums."""
        for i, state in enumerate(ends):
            totals[i] += state.value(me, WIN_BONUS)
            if state.winner is not None:  # the game ended with the deal: ±WIN_BONUS
                won[i] += state.winner == me
                lost[i] += state.winner != me

    if exact and view.players == 2 and view.stock == 0:  # the one world: the other hand
        nodes = NodeBudget()
        solved = solve(likely_world(seen, known, rng), tuple(actions), WIN_BONUS, nodes)
        work.done += NODES - max(0, nodes.left)
        if solved is not None:  # else (the search's bound met) played out as below
            add(solved)
            return ScoredMoves(moves, tuple(totals), 1, tuple(won), tuple(lost))
    memo: sim.Memo = {}
    for _ in range(samples):
        base = likely_world(seen, known, rng)
        ends = []
        for card, mask in actions:
            state = base.copy()
            state.play(card, mask)
            work.done += 1 + sim.rollout(state, memo)
            ends.append(state)
        add(ends)
    return ScoredMoves(moves, tuple(totals), samples, tuple(won), tuple(lost))


LEVELS: Final[Mapping[str, Any]] = {"easy": easy, "normal": normal, "hard": hard}
