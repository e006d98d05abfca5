"""Fit :mod:`engine.players.trick_kept_odds`: how the hands of the trick family's playing seats look
at their first trick when the seats are ``normal`` computers, against how the unweighted
sampler deals them (docs/computers.md, ``hard``'s inference)::

    python bench/trick_kept_fit.py --games mushka mistigri --seats 3 --obs 1500 \
        > engine/players/trick_kept_odds.py

For every game and seat count, tables of ``normal`` seats only play pulkas from seed 1000 on
(at most ``--deals`` deals each). At every first lead, each playing seat's hand is read by its
feature (:func:`engine.players.trick_kept.feature`: its strong cards, and whether it holds the
privileged card), counted by the number of cards it exchanged (``P``); and ``--draws`` deals of
the unseen cards drawn by another playing seat's unweighted sampler count the same seat's
feature (``Q``). The odds a sampled hand is kept with are ``P / Q`` (each with one
pseudo-count, ``Q`` scaled to ``P``'s total), divided by the ratio above which a tenth of
the measured hands lie (:data:`CLIP`) and clipped at 1 (:func:`_top`): rejection sampling by
these odds deals the playing seats' hands nearly as ``normal`` seats really hold them. Each
table's ``P`` / ``Q`` shares go to stderr; ``--counts FILE`` keeps the counts (read again if
the file exists).
"""

from __future__ import annotations

import argparse
import json
import os
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
from engine.players.trick_kept import CELLS, EXCHANGES, feature, strong_table  # noqa: E402
from engine.players.trick_sample import CODE, knowledge, sample_codes  # noqa: E402
from engine.trick.rules import TrickPhase  # noqa: E402
from engine.trick.view import TrickView  # noqa: E402

GAMES = ("mushka", "pamfil", "shutikha", "mistigri")
SEATS = (3, 4, 5, 6, 7)
Table = tuple[tuple[float, ...], ...]
CLIP = 0.1
"""The share of the measured hands whose cells are kept with odds 1 (:func:`_top`): at 0.5 the
samples closed only 40% of the gap to the real hands (tests/engine/test_trick_kept.py)."""


def observe(
    game: str, players: int, obs: int, deals: int, draws: int
) -> tuple[list[Counter[int]], list[Counter[int]]]:
    """``P`` and ``Q`` per number of cards exchanged, by feature (``Q`` in draws)."""
    policy = player("computer:normal", game)
    code = CODE[game]
    seen: list[Counter[int]] = [Counter() for _ in range(EXCHANGES)]
    drawn: list[Counter[int]] = [Counter() for _ in range(EXCHANGES)]
    rng = random.Random(f"kept:{game}:{players}")
    count = 0
    seed = 1000
    while count < obs:
        rngs = [random.Random(f"kept:{seed}:{s}") for s in range(players)]
        state = new_game(game, players, seed, {})
        seed += 1
        while (seat := state.to_act) is not None:
            view = state.view(seat)
            assert isinstance(view, TrickView)
            if view.deal_no > deals:
                break
            if view.phase == TrickPhase.PLAY and view.trick_no == 1 and not view.trick:
                strong = strong_table(view)
                playing = [s for s in range(players) if view.declared[s] == "play"]
                for other in playing:
                    k = view.exchanged[other]
                    me = next((s for s in playing if s != other), None)
                    if k is None or me is None:
                        continue
                    hand = [code[c] for c in state.view(other).hand]
                    seen[min(k, EXCHANGES - 1)][feature(hand, strong)] += 1
                    count += 1
                    mine = state.view(me)
                    assert isinstance(mine, TrickView)
                    know = knowledge(mine)
                    for _ in range(draws):
                        hands, _rest = sample_codes(know, rng)
                        drawn[min(k, EXCHANGES - 1)][feature(hands[other], strong)] += 1
            state.apply(seat, policy(view, rngs[seat]))
    return seen, drawn


def odds(seen: Sequence[Counter[int]], drawn: Sequence[Counter[int]]) -> Table:
    rows = []
    for p, q in zip(seen, drawn, strict=True):
        total_p, total_q = sum(p.values()), sum(q.values()) or 1
        ratio = [(p[f] + 1) / (q[f] * total_p / total_q + 1) for f in range(CELLS)]
        top = _top(ratio, [p[f] / (total_p or 1) for f in range(CELLS)])
        rows.append(tuple(round(min(1.0, r / top), 3) for r in ratio))
    return tuple(rows)


def _top(ratio: Sequence[float], share: Sequence[float]) -> float:
    """The ratio the odds are divided by: the one at which the cells of the highest ratios hold
    :data:`CLIP` of the measured hands (those above it are clipped to 1). The largest ratio
    would follow ``P`` exactly but accept few draws (a rare cell of ten times ``Q``'s share
    would divide every other by ten), and :mod:`.trick_infer` keeps the likeliest of a few
    draws when none is accepted."""
    held = 0.0
    for r, s in sorted(zip(ratio, share, strict=True), reverse=True):
        held += s
        if held >= CLIP:
            return r
    return max(ratio)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="+", default=list(GAMES))
    parser.add_argument("--seats", type=int, nargs="+", default=list(SEATS))
    parser.add_argument("--obs", type=int, default=3000)
    parser.add_argument("--deals", type=int, default=30)
    parser.add_argument("--draws", type=int, default=8)
    parser.add_argument("--counts", help="a JSON file of the counts: read if there, else written")
    args = parser.parse_args()
    counts: dict[str, list[list[list[int]]]] = {}
    if args.counts and os.path.exists(args.counts):
        with open(args.counts) as f:
            counts = json.load(f)
    tables: dict[tuple[str, int], Table] = {}
    for game in args.games:
        for players in args.seats:
            name = f"{game}:{players}"
            if name not in counts:
                seen, drawn = observe(game, players, args.obs, args.deals, args.draws)
                counts[name] = [
                    [[c[f] for f in range(CELLS)] for c in seen],
                    [[c[f] for f in range(CELLS)] for c in drawn],
                ]
            seen = [Counter(dict(enumerate(row))) for row in counts[name][0]]
            drawn = [Counter(dict(enumerate(row))) for row in counts[name][1]]
            tables[game, players] = odds(seen, drawn)
            print(game, players, file=sys.stderr)  # P / Q shares, to read
            for k, (p, q) in enumerate(zip(seen, drawn, strict=True)):
                tp, tq = sum(p.values()) or 1, sum(q.values()) or 1
                cells = " ".join(f"{p[f] / tp:.2f}/{q[f] / tq:.2f}" for f in range(CELLS))
                print(f"  k={k} n={tp}: {cells}", file=sys.stderr)
    if args.counts:
        with open(args.counts, "w") as f:
            json.dump(counts, f)
    print(render(tables, args))


def render(tables: dict[tuple[str, int], Table], args: argparse.Namespace) -> str:
    rows = []
    for (game, players), table in tables.items():
        rows.append(f'        ("{game}", {players}): (')
        rows.extend(f"            {row!r}," for row in table)
        rows.append("        ),")
    body = "\n".join(rows)
    return f'''"""The odds :mod:`.trick_infer` keeps a sampled hand of a playing seat with, by the
cards it exchanged and the hand's feature (:func:`.trick_kept.feature`), per game and seat
count.

Generated by ``python bench/trick_kept_fit.py --games {" ".join(args.games)} --seats \\
{" ".join(map(str, args.seats))} --obs {args.obs} --deals {args.deals} --draws {args.draws} \\
> engine/players/trick_kept_odds.py`` (tables of ``normal`` seats, pulkas from seed 1000 on, the
samplers' generators seeded by game and seat count: the same figures on any machine; made on
an AMD EPYC of 2 shared cores, 2026-12-08). Do not edit by hand.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

KEPT_ODDS: Final[Mapping[tuple[str, int], tuple[tuple[float, ...], ...]]] = MappingProxyType(
    {{
{body}
    }}
)
"""Per (game, seat count), per number of cards exchanged (0 … 5), per feature: the odds."""'''


if __name__ == "__main__":
    main()
