"""The computer player of Кончинка (RULES.md §4; levels ``easy`` and ``normal``).

``easy`` captures the most cards it can (кончинки and clubs break ties, seed 001: «брать одной
картой несколько очень выгодно»), else trails its least useful card. ``normal`` is
Perfect-Information Monte Carlo (:mod:`engine.players.determinized`): the unseen cards are dealt
at random to the other hands and the stock, every move is played out to the end of the deal by
``easy`` through the engine, and the move with the best mean of this seat's deal points against
the others' (the engine's own scoring) is chosen.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, Final

from engine.cards import DECK_52, Card, Rank, Suit
from engine.konchinka.actions import Capture, KonchinkaAction, Sweep, Trail
from engine.konchinka.options import KonchinkaOptions
from engine.konchinka.rules import KONCHINKI
from engine.konchinka.state import KonchinkaState
from engine.konchinka.view import KonchinkaView
from engine.players.determinized import Work, WorldChance, choose, deal_unseen, step

MOVE_BUDGET: Final = 700
"""Rollout moves per decision (the budget, never a clock): the worlds sampled are this budget
over the moves left in the deal times the candidates, at least :data:`MIN_SAMPLES`."""
MIN_SAMPLES: Final = 2
CANDIDATES: Final = 6
"""At most this many moves, the best by :func:`move_score`, are searched."""
WIN_BONUS: Final = 10.0
"""Added to a rollout that ends the game won by this seat (subtracted when another wins)."""
MAX_MOVES: Final = 400


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


def world(view: KonchinkaView, rng: random.Random) -> KonchinkaState:
    """A full state consistent with ``view``: the unseen cards dealt at random (§4.2)."""
    me = view.seat
    assert me is not None and view.to_act == me
    seen = set(view.hand) | set(view.table)
    for taken in view.taken:
        seen.update(taken)
    unseen = [c for c in DECK_52 if c not in seen]
    others = [s for s in range(view.players) if s != me]
    piles = deal_unseen(unseen, [view.hand_sizes[s] for s in others] + [view.stock], rng)
    options = KonchinkaOptions(target=view.target, court_values=view.court_values)
    state = KonchinkaState(view.game, view.players, options, 0, WorldChance(rng))
    hands: list[list[Card]] = [[] for _ in range(view.players)]
    hands[me] = list(view.hand)
    for s, pile in zip(others, piles, strict=False):
        hands[s] = pile
    state._hands = hands
    state._stock = piles[-1]
    state._table = list(view.table)
    state._captured = [list(t) for t in view.taken]
    state._last_capturer = view.last_capturer
    state._totals = list(view.totals)
    state._dealer = view.dealer if view.dealer is not None else 0
    state._deal_no = view.deal_no
    state._phase = "play"
    state._to_act = me
    state._awaiting = None
    return state


def rollout_value(state: KonchinkaState, me: int, before: Sequence[int], work: Work) -> float:
    """Play ``state`` on with the easy rule to the end of this deal; the seat's deal points
    minus the mean of the others' (and the game's win or loss if it ended)."""
    for _ in range(MAX_MOVES):
        seat = state.to_act
        if seat is None:  # the deal is over (a world deals no next deal) or the game
            break
        step(state, seat, pick(state.legal_actions(seat), state._table))
        work.done += 1
    gains = [t - b for t, b in zip(state._totals, before, strict=True)]
    others = [g for s, g in enumerate(gains) if s != me]
    value = gains[me] - sum(others) / len(others)
    result = state.result
    if result is not None and result.winner is not None:
        value += WIN_BONUS if result.winner == me else -WIN_BONUS
    return value


def candidates(view: KonchinkaView) -> list[KonchinkaAction]:
    """The moves worth searching: the best :data:`CANDIDATES` by the easy measure."""
    ranked = sorted(view.legal, key=lambda m: -move_score(m))
    return ranked[:CANDIDATES]


def normal(view: KonchinkaView, rng: random.Random) -> KonchinkaAction:
    """PIMC over the best moves, each played out to the end of the deal in sampled worlds."""
    moves = candidates(view)
    me = view.seat
    assert me is not None
    before = view.totals
    work = Work()

    def evaluate(state: KonchinkaState, move: Any) -> float:
        state.apply(me, move)
        work.done += 1
        return rollout_value(state, me, before, work)

    left = sum(view.hand_sizes) + view.stock
    samples = max(MIN_SAMPLES, MOVE_BUDGET // (left * len(moves)))
    chosen: KonchinkaAction = choose(moves, lambda r: world(view, r), evaluate, samples, rng)
    return chosen


LEVELS: Final[Mapping[str, Any]] = {"easy": easy, "normal": normal}
