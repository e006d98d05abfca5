"""What one decision of a trick-family player is worth against another's, with the cards of the
real deal (docs/computers.md, ``hard``'s reading of the seats)::

    python bench/trick_deviation.py --game mushka --players 3 --seeds 8 --phase declare \\
        --x hard --b normal --rollouts 2

Tables of ``normal`` seats play pulkas from seed 7000 on (their first ``--deals`` deals). At
every decision of the ``--phase`` (``declare`` or ``play``) with more than one legal action, both
``--x`` and ``--b`` choose (each its own generator); where they differ, each choice is played on
from the real state (every seat ``normal`` afterwards, the same generators for both) to the end
of the deal, ``--rollouts`` times, and the deciding seat's value compared: its count after the
deal as :func:`engine.players.trick_search.future` reads it (reaching zero collects the other
counts; another seat's zero costs the count; else (others − (n − 1)·count) / n). The mean gain of
``x``'s choice where they differ, with its 95 % interval, and per decision. A player is a level
(``easy``, ``normal``, ``hard``) or ``module.function`` (a policy). Only the decisions differ: the
luck of the cards and of the other decisions is shared, so far fewer decisions tell two players
apart than pulkas of the duel do; it measures one deviation at a time (the rest played by
``normal``), not a level's whole game.
"""

from __future__ import annotations

import argparse
import importlib
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from engine.core import Seat  # noqa: E402
from engine.duel import player  # noqa: E402
from engine.games import new_game  # noqa: E402
from engine.players import Policy  # noqa: E402
from engine.trick.rules import TrickPhase  # noqa: E402
from engine.trick.view import TrickView  # noqa: E402

PHASES = {"declare": TrickPhase.DECLARE, "play": TrickPhase.PLAY}


def load(name: str, game: str) -> Policy:
    if "." not in name:
        return player(f"computer:{name}", game)
    module, _, function = name.rpartition(".")
    policy: Policy = getattr(importlib.import_module(module), function)
    return policy


def value(view: TrickView, me: Seat) -> float:
    counts = view.counts
    mine, n = counts[me], len(counts)
    if mine == 0:
        return float(sum(counts))
    if any(c == 0 for s, c in enumerate(counts) if s != me):
        return -float(mine)
    return (sum(counts) - mine - (n - 1) * mine) / n


def play_on(
    game: str,
    players: int,
    seed: int,
    prefix: list[tuple[Seat, Any]],
    me: Seat,
    action: Any,
    r: int,
) -> float:
    normal = player("computer:normal", game)
    state = new_game(game, players, seed, {})
    for who, done in prefix:
        state.apply(who, done)
    deal = state.view(me).deal_no
    state.apply(me, action)
    rngs = [random.Random(f"ro:{r}:{s}:{len(prefix)}") for s in range(players)]
    while (seat := state.to_act) is not None:
        view = state.view(seat)
        if view.deal_no != deal:
            break
        state.apply(seat, normal(view, rngs[seat]))
    final = state.view(me)
    assert isinstance(final, TrickView)
    return value(final, me)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="mushka")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--seeds", type=int, default=8)
    parser.add_argument("--first", type=int, default=7000)
    parser.add_argument("--deals", type=int, default=12)
    parser.add_argument("--phase", choices=sorted(PHASES), default="declare")
    parser.add_argument("--x", default="hard")
    parser.add_argument("--b", default="normal")
    parser.add_argument("--rollouts", type=int, default=2)
    args = parser.parse_args()
    game, players, phase = args.game, args.players, PHASES[args.phase]
    normal = player("computer:normal", game)
    x, b = load(args.x, game), load(args.b, game)
    gains: list[float] = []
    decisions = 0
    slowest = 0.0
    for seed in range(args.first, args.first + args.seeds):
        rngs = [random.Random(f"cf:{seed}:{s}") for s in range(players)]
        state = new_game(game, players, seed, {})
        prefix: list[tuple[Seat, Any]] = []
        while (seat := state.to_act) is not None:
            view = state.view(seat)
            assert isinstance(view, TrickView)
            if view.deal_no > args.deals:
                break
            if view.phase == phase and len(view.legal) > 1:
                decisions += 1
                start = time.process_time()
                chosen = x(view, random.Random(f"x:{seed}:{len(prefix)}"))
                slowest = max(slowest, time.process_time() - start)
                other = b(view, random.Random(f"n:{seed}:{len(prefix)}"))
                if chosen != other:
                    diffs = [
                        play_on(game, players, seed, prefix, seat, chosen, r)
                        - play_on(game, players, seed, prefix, seat, other, r)
                        for r in range(args.rollouts)
                    ]
                    gains.append(statistics.fmean(diffs))
            action = normal(view, rngs[seat])
            prefix.append((seat, action))
            state.apply(seat, action)
    differ = len(gains)
    mean = statistics.fmean(gains) if gains else 0.0
    half = 1.96 * statistics.stdev(gains) / differ**0.5 if differ > 1 else float("nan")
    share = differ / max(decisions, 1)
    print(
        f"{game} {players} {args.phase}: {args.x} against {args.b}: {decisions} decisions, "
        f"{differ} differ; gain where they differ {mean:+.3f} ± {half:.3f}, "
        f"per decision {mean * share:+.4f} ± {half * share:.4f}; "
        f"slowest {args.x} decision {slowest * 1000:.0f} ms CPU"
    )


if __name__ == "__main__":
    main()
