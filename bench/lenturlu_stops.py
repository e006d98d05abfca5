"""How often a Лентюрлю seat holds the value just outside its run, next to any other seat
(``engine/lenturlu/knowledge.py``'s ``stopped``; the odds behind
``engine.players.lenturlu_infer.STOPPED``)::

    python bench/lenturlu_stops.py --players 6 --deals 150

Seats all ``normal`` (deal seeds 1000 …; seat s draws from ``Random("a:{deal}:{s}")``). After
every run that leaves the deal going, the runner's hand is checked for the value after the run's
end (unless it ended on the K) and, after a lead, the value before its start; "any seat" is the
same check of the value after the run's end in every other hand.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from engine.cards import RANK_VALUE  # noqa: E402
from engine.duel import player  # noqa: E402
from engine.games import new_game  # noqa: E402
from engine.lenturlu import LenturluState, LenturluView  # noqa: E402
from engine.lenturlu.actions import Run  # noqa: E402
from engine.lenturlu.rules import KING_VALUE  # noqa: E402


def count(players: int, deals: int) -> Counter[tuple[str, bool]]:
    policy = player("computer:normal", "lenturlu")
    seen: Counter[tuple[str, bool]] = Counter()
    for deal in range(deals):
        rngs = [random.Random(f"a:{deal}:{s}") for s in range(players)]
        state = new_game("lenturlu", players, 1000 + deal, {})
        assert isinstance(state, LenturluState)
        while (seat := state.to_act) is not None:
            view = state.view(seat)
            assert isinstance(view, LenturluView)
            action = policy(view, rngs[seat])
            state.apply(seat, action)
            if not isinstance(action, Run) or state.to_act is None:
                continue
            first = RANK_VALUE[action.cards[0].rank]
            last = RANK_VALUE[action.cards[-1].rank]
            hands = [{RANK_VALUE[c.rank] for c in state._hands[s]} for s in range(players)]
            kind = "lead" if view.leading else "follow"
            if last < KING_VALUE:
                seen[f"{kind}: the value after", last + 1 in hands[seat]] += 1
                for other in range(players):
                    if other != seat:
                        seen["any other seat: the value after", last + 1 in hands[other]] += 1
            if view.leading and first > 1:
                seen["lead: the value before", first - 1 in hands[seat]] += 1
    return seen


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--deals", type=int, default=150)
    args = parser.parse_args()
    seen = count(args.players, args.deals)
    for what in sorted({w for w, _ in seen}):
        held, lacked = seen[what, True], seen[what, False]
        print(f"{what}: held {held} of {held + lacked} ({held / (held + lacked):.0%})")


if __name__ == "__main__":
    main()
