"""Fit the trick searches' model of the seats yet to declare to the computers' own play
(``engine/players/trick_declare_table.py``; docs/computers.md, "How each level plays")::

    python bench/fit_declare.py --deals 8 --seeds 1 2 --write

Pulkas of ``normal`` seats only, for each trick game and seat count 3–7, their first
``--deals`` deals per seed (seed s deals pulka s): every declaration in which the seat could
pass or play (not an announcement, not the bound privileged card nor the defending dealer,
§1.3.3) is one example — what the seat saw (its hand's worth as the simple player reads it,
the seats already in, the seats to declare after it, how far its count is from zero, the seat
count) and whether it played. Per game a logistic regression on those features
(:data:`~engine.players.trick_declare_table.FEATURES`), ridge-damped, by Newton's method;
``--damp`` mixes the new coefficients with the module's current ones (the model changes
``normal``'s own play, so it is refitted until the play rates settle). Prints each game's rate
of play, the model's mean chance over the same examples and the coefficients; ``--write``
rewrites the module.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from engine.cards import rank_index  # noqa: E402
from engine.duel import player  # noqa: E402
from engine.games import new_game  # noqa: E402
from engine.players.trick_declare_table import COEFFICIENTS, features  # noqa: E402
from engine.players.trick_model import worth_table  # noqa: E402
from engine.players.trick_reading import from_left, table_of  # noqa: E402
from engine.players.trick_sample import CODE  # noqa: E402
from engine.trick.actions import PASS, Exchange  # noqa: E402
from engine.trick.rules import TrickPhase  # noqa: E402
from engine.trick.variant import VARIANTS  # noqa: E402
from engine.trick.view import TrickView  # noqa: E402

GAMES = ("mushka", "pamfil", "shutikha", "mistigri")
RIDGE = 1.0
"""The ridge penalty on every coefficient but the intercept (in examples' units)."""

Example = tuple[tuple[float, ...], bool]
MODULE = ROOT / "engine" / "players" / "trick_declare_table.py"


def worth(view: TrickView) -> int:
    """The hand's worth as the simple player reads it (:func:`.trick_model.worth_table`)."""
    table = table_of(view)
    order = VARIANTS[view.game].order
    top = rank_index(order)[order[1]]
    values = worth_table(table.priv, table.trump, top)
    code = CODE[view.game]
    return sum(values[code[c]] for c in view.hand)


def example(view: TrickView) -> tuple[float, ...] | None:
    """What the seat saw, as the model's features; None where it had no choice to model."""
    assert view.seat is not None
    if PASS not in view.legal or len(view.legal) == 1:
        return None
    seats = from_left(view)
    plays = sum(d == "play" for d in view.declared)
    if view.seat == view.dealer and plays == 1:  # §1.3.3 b: modelled as forced
        return None
    later = len(seats) - 1 - seats.index(view.seat)
    return features(worth(view), plays, later, view.counts[view.seat], view.players)


def collect(game: str, players: int, deals: int, seeds: Sequence[int]) -> list[Example]:
    policy = player("computer:normal", game)
    out: list[Example] = []
    for seed in seeds:
        rngs = [random.Random(f"fit:{seed}:{s}") for s in range(players)]
        state = new_game(game, players, seed, {})
        while (seat := state.to_act) is not None:
            view = state.view(seat)
            assert isinstance(view, TrickView)
            if view.deal_no > deals:
                break
            action = policy(view, rngs[seat])
            if view.phase == TrickPhase.DECLARE:
                x = example(view)
                if x is not None:
                    out.append((x, isinstance(action, Exchange)))
            state.apply(seat, action)
    return out


def chance(coef: Sequence[float], x: Sequence[float]) -> float:
    z = sum(c * v for c, v in zip(coef, x, strict=True))
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


def _objective(examples: Sequence[Example], coef: Sequence[float]) -> float:
    """The ridge-penalized log-likelihood."""
    total = -0.5 * RIDGE * sum(c * c for c in coef[1:])
    for x, y in examples:
        p = min(max(chance(coef, x), 1e-12), 1 - 1e-12)
        total += math.log(p if y else 1 - p)
    return total


def fit(examples: Sequence[Example], start: Sequence[float]) -> list[float]:
    """Ridge logistic regression by Newton's method from ``start``, each step halved until the
    penalized likelihood rises (a saturated start would overshoot)."""
    k = len(start)
    coef = list(start)
    best = _objective(examples, coef)
    for _ in range(30):
        grad = [0.0] * k
        hess = [[0.0] * k for _ in range(k)]
        for x, y in examples:
            p = chance(coef, x)
            w = p * (1 - p)
            for i in range(k):
                grad[i] += (y - p) * x[i]
                for j in range(k):
                    hess[i][j] += w * x[i] * x[j]
        for i in range(1, k):
            grad[i] -= RIDGE * coef[i]
            hess[i][i] += RIDGE
        hess[0][0] += 1e-3
        step = _solve(hess, grad)
        scale = 1.0
        while scale > 1e-4:
            trial = [c + scale * s for c, s in zip(coef, step, strict=True)]
            value = _objective(examples, trial)
            if value >= best:
                break
            scale /= 2
        else:
            break
        moved = max(abs(scale * s) for s in step)
        coef, best = trial, value
        if moved < 1e-5:
            break
    return coef


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting (``a`` is small and positive definite)."""
    n = len(b)
    m = [[*row, b[i]] for i, row in enumerate(a)]
    for col in range(n):
        piv = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[piv] = m[piv], m[col]
        for r in range(n):
            if r != col:
                f = m[r][col] / m[col][col]
                m[r] = [v - f * w for v, w in zip(m[r], m[col], strict=True)]
    return [m[i][n] / m[i][i] for i in range(n)]


def render(coefficients: dict[str, tuple[float, ...]], note: str) -> str:
    rows = "\n".join(
        f'    "{g}": ({", ".join(f"{c:.3f}" for c in coefficients[g])}),' for g in coefficients
    )
    text = MODULE.read_text()
    head, _, rest = text.partition("COEFFICIENTS: Final[Mapping[str, tuple[float, ...]]] = {\n")
    _, _, tail = rest.partition("\n}\n")
    head = head.replace(head[head.index("Fitted:") : head.index('"""\n')], f"Fitted: {note}\n")
    return f"{head}COEFFICIENTS: Final[Mapping[str, tuple[float, ...]]] = {{\n{rows}\n}}\n{tail}"


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="+", default=list(GAMES))
    parser.add_argument("--players", type=int, nargs="+", default=[3, 4, 5, 6, 7])
    parser.add_argument("--deals", type=int, default=8)
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--damp", type=float, default=0.0, help="share of the old coefficients")
    parser.add_argument("--note", default="", help="how this fit was made, for the docstring")
    parser.add_argument("--write", action="store_true")
    parser.add_argument("--save", type=Path, help="append the examples to this JSON-lines file")
    args = parser.parse_args(argv)
    new = dict(COEFFICIENTS)
    for game in args.games:
        examples: list[Example] = []
        for players in args.players:
            got = collect(game, players, args.deals, args.seeds)
            rate = sum(y for _, y in got) / max(1, len(got))
            model = sum(chance(COEFFICIENTS[game], x) for x, _ in got) / max(1, len(got))
            print(
                f"{game} {players}: {len(got)} declarations, played {rate:.2f}, model {model:.2f}"
            )
            examples.extend(got)
            if args.save:
                with args.save.open("a") as out:
                    for x, y in got:
                        out.write(json.dumps([game, players, x, y]) + "\n")
        coef = fit(examples, COEFFICIENTS[game])
        d = args.damp
        new[game] = tuple(
            d * o + (1 - d) * c for o, c in zip(COEFFICIENTS[game], coef, strict=True)
        )
        fitted = sum(chance(new[game], x) for x, _ in examples) / max(1, len(examples))
        print(f"{game}: {len(examples)} declarations, fitted mean {fitted:.2f}, {new[game]}")
        sys.stdout.flush()
    if args.write:
        MODULE.write_text(render(new, args.note or " ".join(sys.argv[1:])))


if __name__ == "__main__":
    main()
