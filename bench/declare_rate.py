"""How often ``normal`` plays its hand in a trick game's declaration, next to how often the model
it assumes of the seats yet to declare would (docs/computers.md, Памфил at 5 seats)::

    python bench/declare_rate.py --game pamfil --players 5 --deals 60 --seeds 103 105

Seats all ``normal``; every declaration (play or pass) of the first ``--deals`` deals of a
pulka per seed is counted by the seat's count (far: above 10) and by what the model of the later
seats (``trick_declare.Round.chance_of``: the learned table) gives it — "model plays" where its
chance is at least one half — and the model's expected plays (the sum of its chances) is set
beside ``normal``'s real ones.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from engine.duel import player  # noqa: E402
from engine.games import new_game  # noqa: E402
from engine.players.trick_declare import Round  # noqa: E402
from engine.trick.actions import Exchange, Pass  # noqa: E402
from engine.trick.rules import TrickPhase  # noqa: E402
from engine.trick.view import TrickView  # noqa: E402

Key = tuple[str, str, str]


def count(game: str, players: int, deals: int, seeds: Sequence[int]) -> tuple[Counter[Key], float]:
    policy = player("computer:normal", game)
    seen: Counter[Key] = Counter()
    expected = 0.0
    for seed in seeds:
        rngs = [random.Random(f"declare:{seed}:{s}") for s in range(players)]
        state = new_game(game, players, seed, {})
        while (seat := state.to_act) is not None:
            view = state.view(seat)
            assert isinstance(view, TrickView)
            if view.deal_no > deals:
                break
            action = policy(view, rngs[seat])
            if view.phase == TrickPhase.DECLARE and isinstance(action, Exchange | Pass):
                ctx = Round.of(view)
                plays = sum(d == "play" for d in view.declared)
                chance = ctx.chance_of(seat, [ctx.code[c] for c in view.hand], plays)
                expected += chance
                model = chance >= 0.5
                far = "far" if view.counts[seat] > 10 else "near"
                real = "played" if isinstance(action, Exchange) else "passed"
                seen[far, "model plays" if model else "model passes", real] += 1
            state.apply(seat, action)
    return seen, expected


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="pamfil")
    parser.add_argument("--players", type=int, default=5)
    parser.add_argument("--deals", type=int, default=60)
    parser.add_argument("--seeds", type=int, nargs="+", default=[103, 105])
    args = parser.parse_args()
    seen, expected = count(args.game, args.players, args.deals, args.seeds)
    total = sum(seen.values())
    played = sum(v for (_, _, real), v in seen.items() if real == "played")
    model = sum(v for (_, m, _), v in seen.items() if m == "model plays")
    for key in sorted(seen):
        print(" · ".join(key), seen[key])
    print(
        f"declarations {total}: normal played {played}, the model would have played {model}"
        f" (expected {expected:.0f})"
    )


if __name__ == "__main__":
    main()
