"""The rollout policy of Копилка's ``hard`` player: a table of weights, not the simple rule.

``normal`` plays every legal action out by the simple rule (:func:`engine.players.kopilka.pick`)
and keeps the best; what it plays is therefore near the best reply *to the simple rule*, and it
differs from that rule at most leads and half the follows. ``hard`` plays its worlds out with a
policy that plays like ``normal``, for every seat: its own later actions and its opponents'
(who, in a duel, *are* ``normal``).

The policy scores each legal action by a linear function of a few features of the action and
the seat's hand (RULES.md §2) and plays the best score, ties to the first legal action. The
weights were fitted by least squares to ``normal``'s own values of its candidates (the mean
money of each candidate over its sampled worlds, centred per decision) over about 10,000
decisions of games among ``normal`` players (``bench/kopilka_fit.py``): ``normal``'s judgement
without its sampling noise, at a few dozen operations a card. What the weights say:

* **lead** (§2.4.1): a card no unseen card beats (a *master*; the more so in the dearer suits,
  §2.6.1) and the top of a suit of two or more; not a singleton; never a suit nobody else can
  hold (every follower passes and the card comes back, §2.4.7).
* **follow** holding the led suit (§2.4.3 a): take the trick when possible (more so on the dear
  suits and as the last to play), with the lowest card that takes it; else the lowest card;
  the AS not on spades and clubs.
* **void** (§2.4.3 b): pass with few cards; buy two with many cards and a pair (for a lay-out,
  §2.3, which hands three cards to the opponents); the AS with few cards left, the more so
  on the dear suits.

Only what the seat may know is read: its hand, the trick, the stock's size, the cards gone in
completed tricks. Pure and deterministic: no generator is drawn.
"""

from __future__ import annotations

from typing import Final

from engine.kopilka.rules import DEALS

from .determinized import Work
from .kopilka_sim import AS, BUY_1, PASS, KopilkaSim

FULL: Final = (1 << 32) - 1

SHARE: Final = 0.25
"""The seat's chance, as :func:`worth` counts it, to win the fourth deal and with it the bank's
rest (§2.6.5 a): one in four."""

# lead: per card of suit s (0 … 3 = S C D H) and strength r (0 … 7 = 7 … A)
LEAD_RANK: Final = -0.10
LEAD_SUIT: Final = -0.07
LEAD_SINGLE: Final = -0.45
LEAD_PAIR: Final = 0.25
LEAD_LONG: Final = 0.21
LEAD_TOP: Final = 0.49  # the highest of a suit of two or more
LEAD_BOTTOM: Final = 0.06  # the lowest of a suit of two or more
LEAD_MASTER: Final = 0.89
LEAD_MASTER_SUIT: Final = 0.70  # times s
LEAD_HIGHER: Final = 0.14  # per unseen higher card of the suit
LEAD_UNSEEN: Final = -0.24  # per unseen card of the suit
LEAD_NONE_OUT: Final = -1.77  # no unseen card of the suit: every follower passes (§2.4.7)
LEAD_AS: Final = -0.63
LEAD_SINGLE_SUIT: Final = 0.06  # times s
LEAD_SHORT_RANK: Final = 0.13  # times r, with two cards or fewer in hand

# follow, holding the led suit s
TAKE: Final = 1.62
TAKE_SUIT: Final = 0.71  # times s
TAKE_LAST: Final = 0.77
FOLLOW_RANK: Final = -0.17
FOLLOW_AS: Final = 0.21
FOLLOW_AS_CHEAP: Final = -2.68  # the AS on spades or clubs
FOLLOW_TOP: Final = 0.29
FOLLOW_BOTTOM: Final = 0.26
HOLD_PASS: Final = -2.0  # §2.4.3 a: a pass with the suit in hand pays a fine

# void of the led suit s (§2.4.3 b): the AS, buy 1, buy 2 scored against a pass (0), each as
# bias + a·[stock ≥ 2] + b·(cards in hand) + c·[a pair or more] + d·s + e·[a card followed]
# + f·[the last to act] + g·[bought this turn]
VOID_AS: Final = (3.40, -0.24, -1.19, 2.22, 1.59, -0.11, 0.45, 0.57)
VOID_BUY_1: Final = (-3.61, 0.93, 0.59, 1.67, 0.22, 0.58, -0.39, 0.0)
VOID_BUY_2: Final = (-3.18, 0.0, 0.98, 1.71, 0.28, 0.27, -0.18, 0.0)


def gone_of(sim: KopilkaSim) -> int:
    """The cards of the deal's completed tricks (a mask): in no hand, the stock or the trick."""
    mask = FULL
    for hand in sim.hands:
        for c in hand:
            mask &= ~(1 << c)
    for c in sim.stock:
        mask &= ~(1 << c)
    for c in sim.plays:
        mask &= ~(1 << c)
    return mask


def choose(sim: KopilkaSim, gone: int) -> int:
    """The policy's action for the seat to act (one of ``sim.legal()``); ``gone``: the mask of
    the cards of completed tricks."""
    legal = sim.legal()
    if len(legal) == 1:
        return legal[0]
    best, score = legal[0], -1e9
    hand = sim.hands[sim.to_act]
    led = sim.led
    if led < 0:
        seen = gone
        for c in hand:
            seen |= 1 << c
        short = len(hand) <= 2
        for a in legal:
            if (v := _lead(a, hand, seen, short)) > score:
                best, score = a, v
        return best
    suited = [c for c in hand if c >> 3 == led]
    if suited:
        top = sim.top
        last = sim.turns == 2
        high, low = max(suited), min(suited)
        for a in legal:
            v = HOLD_PASS if a == PASS else _follow(a, led, top, last, high, low)
            if v > score:
                best, score = a, v
        return best
    counts = [0, 0, 0, 0]
    for c in hand:
        counts[c >> 3] += 1
    ctx = (
        1.0,
        float(len(sim.stock) >= 2),
        float(len(hand)),
        float(max(counts) >= 2),
        float(led),
        float(len(sim.plays) > 1),  # a card followed: the trick will be complete
        float(sim.turns == 2),
        float(sim.bought),
    )
    for a in legal:
        if a == PASS:
            v = 0.0
        else:
            w = VOID_AS if a == AS else VOID_BUY_1 if a == BUY_1 else VOID_BUY_2
            v = sum(x * y for x, y in zip(w, ctx, strict=True))
        if v > score:
            best, score = a, v
    return best


def _lead(card: int, hand: list[int], seen: int, short: bool) -> float:
    s, r = card >> 3, card & 7
    mine = [c for c in hand if c >> 3 == s]
    n = len(mine)
    higher = sum(1 for x in range(card + 1, s * 8 + 8) if not seen >> x & 1)
    unseen = higher + sum(1 for x in range(s * 8, card) if not seen >> x & 1)
    v = LEAD_RANK * r + LEAD_SUIT * s + LEAD_HIGHER * higher + LEAD_UNSEEN * unseen
    if n == 1:
        v += LEAD_SINGLE + LEAD_SINGLE_SUIT * s
    else:
        v += LEAD_PAIR if n == 2 else LEAD_LONG
        if card == max(mine):
            v += LEAD_TOP
        if card == min(mine):
            v += LEAD_BOTTOM
    if higher == 0:
        v += LEAD_MASTER + LEAD_MASTER_SUIT * s
    if unseen == 0:
        v += LEAD_NONE_OUT
    if card == AS:
        v += LEAD_AS
    if short:
        v += LEAD_SHORT_RANK * r
    return v


def _follow(card: int, led: int, top: int, last: bool, high: int, low: int) -> float:
    take = TAKE + TAKE_SUIT * led + (TAKE_LAST if last else 0.0)
    if card == AS:  # it takes the trick (§2.4.4); on spades it is the suit's top card too
        v = FOLLOW_AS + take + (FOLLOW_AS_CHEAP if led < 2 else 0.0)
        if led == 0:
            v += (FOLLOW_TOP if card == high else 0.0) + (FOLLOW_BOTTOM if card == low else 0.0)
        return v
    v = FOLLOW_RANK * (card & 7)
    if card == high:
        v += FOLLOW_TOP
    if card == low:
        v += FOLLOW_BOTTOM
    if top != AS and card > top:
        v += take
    return v


def worth(sim: KopilkaSim, seat: int) -> float:
    """``seat``'s money at the end of a deal: :meth:`KopilkaSim.value`, and before the fourth deal
    :data:`SHARE` of what the bank would keep over the points so far (§2.6.5 a: the winner of
    the fourth deal takes it). So a fine another seat pays (§2.6.2, §2.6.3) is worth a quarter
    of it to this seat and a point another seat wins costs a quarter; this seat's own fines
    and points count three quarters of their face once its share of the rest is netted."""
    value = float(sim.value(seat))
    if sim.deal_no < DEALS:
        value += SHARE * max(0, sim.bank - sim.options.point_rate * sum(sim.partia))
    return value


def rollout(sim: KopilkaSim, work: Work) -> None:
    """Play ``sim`` to the end of the deal by :func:`choose` for every seat."""
    gone = gone_of(sim)
    done = 0
    while sim.to_act >= 0:
        plays = sim.plays
        sim.apply(choose(sim, gone))
        done += 1
        if sim.plays is not plays and len(plays) > 1:  # a trick completed (§2.4.6)
            for c in plays:
                gone |= 1 << c
    work.done += done


__all__ = ["SHARE", "choose", "gone_of", "rollout", "worth"]
