"""What Кончинка's exact last round gains, decision by decision (docs/computers.md)::

    python bench/konchinka_exact.py --players 2 --seeds 0 90
    python bench/konchinka_exact.py --players 4 --seeds 0 60

Each seed's first deal is played by ``normal`` seats (``easy`` once the stock is empty); at
every decision of the seat to act with the stock empty and at most 12 moves left, ``hard``'s
search is run with the last cards solved exactly and with them played out (the same generator
seed). Where the two choose differently, the deal is finished from the real cards after each
choice by ``normal`` seats, three times (generators ``1000 · seed + r``), and the seat's value
(its deal points less the others' mean, ± 10 for the game) compared: the mean difference per
changed decision, its 95% interval, and per decision. At two seats the exact search is
``hard``'s own (the one world there is); at three and four seats it solves at most 48 sampled
worlds within one bound of :data:`~engine.players.konchinka_exact.NODES` positions, the rest
played out — what ``hard`` would do there if it used the solver (it does not).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from engine.games import new_game  # noqa: E402
from engine.konchinka.actions import KonchinkaAction  # noqa: E402
from engine.konchinka.state import KonchinkaState  # noqa: E402
from engine.konchinka.view import KonchinkaView  # noqa: E402
from engine.players import konchinka_sim as sim  # noqa: E402
from engine.players.determinized import ScoredMoves  # noqa: E402
from engine.players.konchinka import (  # noqa: E402
    HARD_BUDGET,
    HARD_CANDIDATES,
    HARD_SAMPLES,
    WIN_BONUS,
    candidates,
    easy,
    hard_scores,
    normal,
    scores,
)
from engine.players.konchinka_exact import NodeBudget, solve  # noqa: E402
from engine.players.konchinka_infer import facts, likely_world  # noqa: E402

LEFT = 12
WORLDS = 48
REPEATS = 3


def sampled_exact(view: KonchinkaView, rng: random.Random) -> KonchinkaAction:
    """``hard``'s candidates, each world's rest solved (the bound shared), then played out."""
    moves = tuple(candidates(view, HARD_CANDIDATES))
    me = view.seat
    assert me is not None
    seen = sim.Seen(view)
    known = facts(view, frozenset(seen.unseen))
    actions = tuple(sim.encode(view.table, m) for m in moves)
    left = sum(view.hand_sizes) + view.stock
    samples = min(WORLDS, max(HARD_SAMPLES, HARD_BUDGET // (left * len(moves))))
    totals = [0.0] * len(moves)
    nodes = NodeBudget()
    memo: sim.Memo = {}
    solving = True
    for _ in range(samples):
        base = likely_world(seen, known, rng)
        ends = solve(base, actions, WIN_BONUS, nodes) if solving else None
        if ends is None:
            solving = False
            ends = []
            for card, mask in actions:
                state = base.copy()
                state.play(card, mask)
                sim.rollout(state, memo)
                ends.append(state)
        for i, state in enumerate(ends):
            totals[i] += state.value(me, WIN_BONUS)
    return ScoredMoves(moves, tuple(totals), samples).best()


def exact_choice(view: KonchinkaView, seed: int) -> KonchinkaAction:
    if view.players == 2:
        return hard_scores(view, random.Random(seed)).best()
    return sampled_exact(view, random.Random(seed))


def finished(state: KonchinkaState, seat: int, view: KonchinkaView) -> float:
    """The seat's value of the deal ``view`` was in, from the totals once it is over."""
    after = state.view(0)
    assert isinstance(after, KonchinkaView)
    pts = [a - b for a, b in zip(after.totals, view.totals, strict=True)]
    value = pts[seat] - (sum(pts) - pts[seat]) / (len(pts) - 1)
    winner = after.result.winner if after.result is not None else None
    if winner is not None:
        value += WIN_BONUS if winner == seat else -WIN_BONUS
    return value


def play_on(state: KonchinkaState, seat: int, action: KonchinkaAction, rng: random.Random) -> float:
    view = state.view(seat)
    assert isinstance(view, KonchinkaView)
    state = state.clone()
    state.apply(seat, action)
    while state.to_act is not None:
        s = state.to_act
        now = state.view(s)
        assert isinstance(now, KonchinkaView)
        if now.deal_no != view.deal_no:
            break
        state.apply(s, normal(now, rng))
    return finished(state, seat, view)


def measure(players: int, seeds: Sequence[int]) -> tuple[int, list[float]]:
    decisions = 0
    diffs: list[float] = []
    for seed in seeds:
        state = new_game("konchinka", players, seed)
        assert isinstance(state, KonchinkaState)
        rng = random.Random(seed)
        while state.to_act is not None:
            seat = state.to_act
            view = state.view(seat)
            assert isinstance(view, KonchinkaView)
            if view.stock == 0 and sum(view.hand_sizes) <= LEFT and len(view.legal) > 1:
                decisions += 1
                a = exact_choice(view, seed)
                b = scores(view, random.Random(seed), HARD_BUDGET, HARD_SAMPLES, HARD_CANDIDATES)
                if a != b.best():
                    diffs.append(
                        statistics.mean(
                            play_on(state, seat, a, random.Random(1000 * seed + r))
                            - play_on(state, seat, b.best(), random.Random(1000 * seed + r))
                            for r in range(REPEATS)
                        )
                    )
            state.apply(seat, normal(view, rng) if view.stock else easy(view, rng))
            if view.stock == 0 and sum(view.hand_sizes) == 1:
                break
    return decisions, diffs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seeds", type=int, nargs=2, default=(0, 90))
    args = parser.parse_args()
    decisions, diffs = measure(args.players, range(*args.seeds))
    mean = statistics.mean(diffs) if diffs else 0.0
    half = 1.96 * statistics.stdev(diffs) / len(diffs) ** 0.5 if len(diffs) > 1 else 0.0
    print(f"players {args.players} decisions {decisions} changed {len(diffs)}")
    print(f"exact less played out, per changed decision: {mean:+.2f} ± {half:.2f}")
    print(f"per decision: {mean * len(diffs) / max(1, decisions):+.3f}")


if __name__ == "__main__":
    main()
