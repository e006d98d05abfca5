"""Fit the weights of Копилка's ``hard`` rollout policy (:mod:`engine.players.kopilka_rollout`).

    python bench/kopilka_fit.py [--games 150] [--first 5000]

Partias among four ``normal`` players (deal seeds ``first`` …). At every decision with a choice
the seat's ``normal`` search is rerun to give the mean money of *each* candidate over its worlds
(its values, not only its choice), and each candidate's features are those the policy scores
(the lead, the follow holding the led suit, the void follow: see the policy's docstring). Per
kind of decision, least squares on the values and the features centred per decision give the
weights; printed with how much, on average, their best candidate falls short of the
search's best (``regret``, kopecks), beside ``easy``'s choice and a random one. The policy's
weights are those of this fit, rounded, on ``--games 150 --first 5000`` (about 10,000 decisions),
as first run: its void feature "a card followed" then read "a follower has acted". Pure Python
(normal equations, Gaussian elimination).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from engine import new_game  # noqa: E402
from engine.kopilka.view import KopilkaView  # noqa: E402
from engine.players.determinized import Work  # noqa: E402
from engine.players.kopilka import MIN_SAMPLES, MOVE_BUDGET  # noqa: E402
from engine.players.kopilka_sim import AS, BUY_1, BUY_2, CODE, PASS, KopilkaSim, KopilkaTable, code  # noqa: E402

Sample = tuple[list[list[float]], list[float], int]  # features, values, easy's choice


def values(view: KopilkaView, rng: random.Random) -> tuple[list[int], list[float], KopilkaSim]:
    """``normal``'s search (:func:`engine.players.kopilka.scores`), every candidate's mean."""
    me = view.seat
    assert me is not None
    table = KopilkaTable(view)
    actions = [code(a) for a in view.legal]
    left = sum(view.hand_sizes) + view.stock_size
    samples = max(MIN_SAMPLES, MOVE_BUDGET // (left * len(actions)))
    totals = [0.0] * len(actions)
    work = Work()
    world = table.base
    for _ in range(samples):
        world = table.consistent(rng)
        seed = rng.getrandbits(64)
        for i, action in enumerate(actions):
            played = world.copy(seed)
            played.apply(action)
            played.rollout(work)
            totals[i] += played.value(me)
    return actions, [t / samples for t in totals], world


def features(a: int, sim: KopilkaSim, gone: int) -> tuple[str, list[float]]:
    """The kind of decision and candidate ``a``'s features, as the policy weighs them."""
    hand = sim.hands[sim.to_act]
    led, top = sim.led, sim.top
    if led < 0:
        s, r = a >> 3, a & 7
        mine = [c for c in hand if c >> 3 == s]
        n = len(mine)
        seen = gone | sum(1 << c for c in hand)
        higher = sum(1 for x in range(a + 1, s * 8 + 8) if not seen >> x & 1)
        unseen = sum(1 for x in range(s * 8, s * 8 + 8) if not seen >> x & 1)
        short = len(hand) <= 2
        flags = [n == 1, n == 2, n >= 3, a == max(mine) and n > 1, a == min(mine) and n > 1]
        lead = [r, s, *flags, higher == 0, (higher == 0) * s, higher, unseen, unseen == 0]
        return "lead", [float(x) for x in [*lead, a == AS, (n == 1) * s, short, r * short]]
    last = sim.turns == 2
    suited = [c for c in hand if c >> 3 == led]
    if suited:
        if a == PASS:
            return "follow", [0.0] * 8
        beats = a == AS or (top != AS and a > top)
        high = a == max(suited) if a >> 3 == led else False
        low = a == min(suited) if a >> 3 == led else False
        rank = 0 if a == AS else a & 7
        follow = [beats, beats * led, beats and last, rank, a == AS, a == AS and led < 2]
        return "follow", [float(x) for x in [*follow, high, low]]
    counts = [sum(1 for c in hand if c >> 3 == s) for s in range(4)]
    ctx = [1, len(sim.stock) >= 2, len(hand), max(counts) >= 2, led, len(sim.plays) > 1, last]
    ctx.append(sim.bought)
    row: list[float] = []
    for act in (AS, BUY_1, BUY_2):
        row += [float(x) if a == act else 0.0 for x in ctx]
    return "void", row


def easy_choice(actions: list[int], sim: KopilkaSim) -> int:
    """``easy``'s action (:func:`engine.players.kopilka.pick`) among the sim's ``actions``."""
    hand, led = sim.hands[sim.to_act], sim.led
    if led < 0:
        return min(actions, key=lambda c: (c & 7) * 4 + 3 - (c >> 3))
    suited = [c for c in hand if c >> 3 == led]
    if suited:
        return max(suited)
    if led >= 2 and AS in hand and sim.top != AS:
        return AS
    return BUY_1 if BUY_1 in actions else PASS if PASS in actions else actions[0]


def solve(rows: list[list[float]], ys: list[float]) -> list[float]:
    """Least squares by the normal equations, a small ridge keeping unused features at 0."""
    n = len(rows[0])
    a = [
        [sum(r[i] * r[j] for r in rows) + (1e-6 if i == j else 0.0) for j in range(n)]
        for i in range(n)
    ]
    b = [sum(r[i] * y for r, y in zip(rows, ys, strict=True)) for i in range(n)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda k: abs(a[k][col]))
        a[col], a[pivot], b[col], b[pivot] = a[pivot], a[col], b[pivot], b[col]
        for k in range(n):
            if k != col and a[col][col]:
                f = a[k][col] / a[col][col]
                a[k] = [x - f * y for x, y in zip(a[k], a[col], strict=True)]
                b[k] -= f * b[col]
    return [b[i] / a[i][i] if a[i][i] else 0.0 for i in range(n)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=150)
    parser.add_argument("--first", type=int, default=5000)
    args = parser.parse_args()
    kinds: dict[str, list[Sample]] = {}
    for g in range(args.games):
        state = new_game("kopilka", 4, args.first + g)
        rngs = [random.Random(f"log{g}:{s}") for s in range(4)]
        while (seat := state.to_act) is not None:
            view = state.view(seat)
            assert isinstance(view, KopilkaView)
            if len(view.legal) == 1:
                state.apply(seat, view.legal[0])
                continue
            actions, qs, world = values(view, random.Random(rngs[seat].getrandbits(64)))
            gone = sum(1 << CODE[c] for c in view.gone)
            scored = [features(a, world, gone) for a in actions]
            easy = actions.index(easy_choice(actions, world))
            kinds.setdefault(scored[0][0], []).append(([r for _, r in scored], qs, easy))
            state.apply(seat, view.legal[max(range(len(qs)), key=lambda i: (qs[i], -i))])
    for kind, samples in kinds.items():
        xs: list[list[float]] = []
        ys: list[float] = []
        for rows, qs, _ in samples:
            mean_q = statistics.fmean(qs)
            means = [statistics.fmean(col) for col in zip(*rows, strict=True)]
            xs += [[x - m for x, m in zip(r, means, strict=True)] for r in rows]
            ys += [q - mean_q for q in qs]
        w = solve(xs, ys)
        regret: list[float] = []
        easy_regret: list[float] = []
        random_regret: list[float] = []
        for rows, qs, easy in samples:
            scores = [sum(x * y for x, y in zip(r, w, strict=True)) for r in rows]
            best = max(range(len(qs)), key=lambda i: scores[i])
            regret.append(max(qs) - qs[best])
            easy_regret.append(max(qs) - qs[easy])
            random_regret.append(max(qs) - statistics.fmean(qs))
        print(f"{kind}: {len(samples)} decisions; regret {statistics.fmean(regret):.2f}, ", end="")
        easy_mean, random_mean = statistics.fmean(easy_regret), statistics.fmean(random_regret)
        print(f"easy {easy_mean:.2f}, random {random_mean:.2f}")
        print("  weights", " ".join(f"{x:+.2f}" for x in w))


if __name__ == "__main__":
    main()
