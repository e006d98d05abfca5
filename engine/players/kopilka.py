"""The computer player of Копилка (RULES.md §2; levels ``easy``, ``normal`` and ``hard``).

``easy`` is greedy: it leads its lowest card (the dearer suit among equals), follows with its
highest card of the suit (to take the trick: its points, §2.6.1, and no fine for a deal without
one, §2.6.2), plays the AS on the dear suits (hearts, diamonds) and, void, buys one card (for the
suit, or for a lay-out, which hands three cards to the opponents, §2.3) while it may, else
passes. Of 27 such rule sets tried against random play this one did best. ``normal`` is Perfect-
Information Monte Carlo (:mod:`engine.players.determinized`): the unseen cards are dealt at
random to the other hands and the stock as far as the seat's knowledge allows (§2.3.4, §2.4:
known voids, cards seen taken back, its own laid-out cards out in opponents' hands;
:mod:`engine.kopilka.knowledge`, :meth:`~engine.players.kopilka_sim.KopilkaTable.consistent`), every
legal action is played out to the end of the deal
by ``easy`` on the fast simulator of :mod:`engine.players.kopilka_sim`, and the action with the
best mean of this seat's money is chosen — partia points at the point rate minus everything paid
into the bank (fines and fees, §2.6), the partia's net after the fourth deal. The same search on
the engine's own path (:func:`world`, :func:`rollout_value`) is what the simulator is checked
against (``tests/engine/test_kopilka_sim.py``). ``hard`` is the same search at four times the
budget on worlds weighted by the follows (:mod:`engine.players.kopilka_infer`), every world played
out by a policy fitted to ``normal``'s own judgement (:mod:`engine.players.kopilka_rollout`: the
seats play as ``normal`` plays, not as ``easy``) and valued with its share of the bank's rest
(:func:`~engine.players.kopilka_rollout.worth`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

from engine.actions import PASS, Buy, Pass, PlayCard
from engine.cards import A_HIGH, DECK_32, Card, Suit, rank_index
from engine.kopilka.actions import KopilkaAction
from engine.kopilka.rules import ACE_OF_SPADES, PLAYERS, KopilkaPhase
from engine.kopilka.state import KopilkaState
from engine.kopilka.view import KopilkaView
from engine.players import kopilka_rollout
from engine.players.determinized import ScoredMoves, Work, WorldChance, deal_unseen, step
from engine.players.kopilka_infer import caps, likely_world
from engine.players.kopilka_sim import KopilkaSim, KopilkaTable, code

MOVE_BUDGET: Final = 4000
"""Rollout cards per decision (the budget, never a clock): the worlds sampled are this budget
over the cards left in play times the legal actions, at least :data:`MIN_SAMPLES`."""
MIN_SAMPLES: Final = 4
HARD_BUDGET: Final = 4 * MOVE_BUDGET
HARD_SAMPLES: Final = 4 * MIN_SAMPLES
MAX_ACTIONS: Final = 1000
BUY_1: Final = Buy(1)
DEAR: Final = frozenset({Suit.HEARTS, Suit.DIAMONDS})
_STRENGTH: Final = rank_index(A_HIGH)  # the higher number beats the lower


def pick(
    legal: Sequence[KopilkaAction],
    hand: Sequence[Card],
    trick: Sequence[tuple[int, Card]],
    led: Suit | None,
) -> KopilkaAction:
    """The easy rule on the legal actions, the hand and the trick so far."""
    cards = [a.card for a in legal if isinstance(a, PlayCard)]
    if led is None:  # a lead: the lowest card, the dearer suit among equals
        return PlayCard(min(cards, key=lambda c: (_STRENGTH[c.rank], -_suit_value(c.suit))))
    suited = [c for c in cards if c.suit is led]
    taken_by_as = any(c == ACE_OF_SPADES for _, c in trick[1:])
    if suited:  # the highest card of the suit, to take the trick
        return PlayCard(max(suited, key=lambda c: _STRENGTH[c.rank]))
    if ACE_OF_SPADES in cards and led in DEAR and not taken_by_as:
        return PlayCard(ACE_OF_SPADES)
    if BUY_1 in legal:
        return BUY_1  # void: buy for the suit (or a lay-out, which hands three cards out)
    if PASS in legal:
        return PASS
    return legal[0]


def _suit_value(suit: Suit) -> int:
    return {Suit.SPADES: 1, Suit.CLUBS: 2, Suit.DIAMONDS: 3, Suit.HEARTS: 4}[suit]


def easy(view: KopilkaView, rng: random.Random) -> KopilkaAction:
    """Lead low, follow high, the AS on dear suits, buy one when void, else pass."""
    return pick(view.legal, view.hand, view.trick, view.led_suit)


def world(view: KopilkaView, rng: random.Random) -> KopilkaState:
    """A full state consistent with ``view``: the unseen cards dealt at random (§2.2)."""
    me = view.seat
    assert me is not None and view.to_act == me
    seen = set(view.hand) | set(view.gone) | {c for _, c in view.trick}
    unseen = [c for c in DECK_32 if c not in seen]
    others = [s for s in range(PLAYERS) if s != me]
    piles = deal_unseen(unseen, [view.hand_sizes[s] for s in others] + [view.stock_size], rng)
    state = KopilkaState(view.game, PLAYERS, view.options, 0, WorldChance(rng))
    hands: list[list[Card]] = [[] for _ in range(PLAYERS)]
    hands[me] = list(view.hand)
    for s, pile in zip(others, piles, strict=False):
        hands[s] = pile
    state._hands = hands
    state._stock = piles[-1]
    state._gone = list(view.gone)
    # only how many tricks and how many points each seat has won matter to the fines and payout
    state._tricks = [
        [(Suit.SPADES, points if k == 0 else 0) for k in range(won)]
        for won, points in zip(view.tricks_won, view.deal_points, strict=True)
    ]
    state._partia = [p - d for p, d in zip(view.partia_points, view.deal_points, strict=True)]
    state._bank = view.bank
    state._paid_in = list(view.fines)
    state._last_suit = view.last_suit
    state._free = view.forbidden_suit is None
    state._leader = view.leader
    state._led = view.led_suit
    state._plays = list(view.trick)
    state._bought = view.bought
    state._takebacks = view.takebacks
    empty = [s for s in range(PLAYERS) if not hands[s]]
    state._empty = {s: k + 1 for k, s in enumerate(empty)}
    state._tick = len(empty)
    if view.leader is not None and view.phase == KopilkaPhase.FOLLOW:
        state._turns = (me - view.leader - 1) % PLAYERS
        state._phase = KopilkaPhase.FOLLOW
    else:
        state._phase = KopilkaPhase.LEAD
    state._dealer = view.dealer if view.dealer is not None else 0
    state._deal_no = view.deal_no
    state._to_act = me
    state._awaiting = None
    return state


def money(state: KopilkaState, me: int) -> float:
    """This seat's money as the engine has it: the net once the partia is over, else partia
    points at the point rate minus everything paid in (§2.6.5 a, the usual case)."""
    result = state.result
    if result is not None:
        return float(result.net[me])
    return float(state._partia[me] * state.options.point_rate - state._paid_in[me])


def rollout_value(state: KopilkaState, me: int, work: Work) -> float:
    """Play ``state`` on with the easy rule to the end of this deal; this seat's money."""
    for _ in range(MAX_ACTIONS):
        seat = state.to_act
        if seat is None:  # the deal is over (a world deals no next deal) or the partia
            break
        hand = state._hands[seat]
        led = state._led if state._phase == KopilkaPhase.FOLLOW else None
        step(state, seat, pick(state.legal_actions(seat), hand, state._plays, led))
        work.done += 1
    return money(state, me)


def normal(view: KopilkaView, rng: random.Random) -> KopilkaAction:
    """PIMC over every legal action, each played out to the end of the deal on the simulator."""
    return scores(view, rng, MOVE_BUDGET, MIN_SAMPLES, infer=False).best()


def hard(view: KopilkaView, rng: random.Random) -> KopilkaAction:
    """``normal``'s search on worlds weighted by the follows (:mod:`.kopilka_infer`), at
    :data:`HARD_BUDGET` rollout cards, at least :data:`HARD_SAMPLES` worlds, each played out by
    :func:`.kopilka_rollout.rollout` and valued by :func:`.kopilka_rollout.worth`."""
    return hard_scores(view, rng).best()


def hard_scores(view: KopilkaView, rng: random.Random) -> ScoredMoves[KopilkaAction]:
    """``hard``'s search, every candidate with its summed value (the hints' figures)."""
    return scores(
        view,
        rng,
        HARD_BUDGET,
        HARD_SAMPLES,
        infer=True,
        play=kopilka_rollout.rollout,
        value=kopilka_rollout.worth,
    )


def scores(
    view: KopilkaView,
    rng: random.Random,
    budget: int,
    least: int,
    *,
    infer: bool,
    play: Callable[[KopilkaSim, Work], None] | None = None,
    value: Callable[[KopilkaSim, int], float] | None = None,
) -> ScoredMoves[KopilkaAction]:
    """PIMC at ``budget`` rollout cards (at least ``least`` worlds); ``play`` plays a world
    out (the simple rule's rollout by default, ducking where ``infer``), ``value`` scores its
    end for the seat (:meth:`KopilkaSim.value` by default)."""
    me = view.seat
    assert me is not None
    moves = tuple(view.legal)
    if len(moves) == 1:
        return ScoredMoves.only(moves[0])
    work = Work()
    table = KopilkaTable(view)
    actions = [code(a) for a in moves]
    left = sum(view.hand_sizes) + view.stock_size
    samples = max(least, budget // (left * len(moves)))
    totals = [0.0] * len(moves)
    under = caps(view) if infer else None
    for _ in range(samples):
        base = table.consistent(rng) if under is None else likely_world(table, under, rng)
        seed = rng.getrandbits(64)  # every candidate meets the same takes (§2.3.4)
        for i, action in enumerate(actions):
            world = base.copy(seed)
            world.apply(action)
            work.done += 1
            if play is None:
                world.rollout(work, duck=infer)
            else:
                play(world, work)
            totals[i] += world.value(me) if value is None else value(world, me)
    return ScoredMoves(moves, tuple(totals), samples)


LEVELS: Final[Mapping[str, Any]] = {"easy": easy, "normal": normal, "hard": hard}
__all__ = ["LEVELS", "Buy", "Pass", "easy", "hard", "normal", "scores"]
