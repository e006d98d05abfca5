"""What an action costs: the engine, a naive playout (the floor of Python), and the search.

    python bench/engine_cost.py [--seconds 2.0] [--decisions 6]

* **naive**: a minimal hand-written 5-card trick playout — integer cards, follow suit or play
  any, the highest trump or led-suit card wins; no declarations, no record, no views. Its cost
  per card played is the floor of what Python costs for one action.
* **engine**: the random playout of :mod:`bench.engine_speed` (``State.apply`` with views and
  checks), per action.
* **search**: the computer players at level ``normal`` deciding in random positions; the time
  inside the policy divided by the actions it simulated — the trick family's cards played by
  its search and playouts (on the inner :class:`~engine.players.trick_search.Deal`), the
  other families' rollout actions. Every family's ``normal`` counts them in a
  :class:`~engine.players.determinized.Work` made through its module's name ``Work``, which the
  bench patches to read the counts. Sampling the worlds and valuing them is included: it is what a
  simulated action costs the search.

Every figure is also given as a multiple of the naive cost per action (the benchmarks' target
for the search is at most 5×).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from engine import GAMES, new_game  # noqa: E402
from engine.players import (  # noqa: E402  # noqa: E402
    computer,
    konchinka,
    kopilka,
    lenturlu,
    policy_for,
    trick_declare,
    trick_normal,
    trick_reading,
    trick_search,
)
from engine.players.determinized import Work  # noqa: E402
from engine.players.trick_sample import knowledge, sample  # noqa: E402
from engine.trick.view import TrickView  # noqa: E402

SEARCHERS: dict[str, tuple[Any, ...]] = {
    "trick": (trick_normal, trick_declare),
    "kopilka": (kopilka,),
    "lenturlu": (lenturlu,),
    "konchinka": (konchinka,),
}
"""Where each family's ``normal`` takes its name ``Work`` from (patched to count)."""

SEARCH_SEATS = {
    "mushka": 4,
    "pamfil": 4,
    "shutikha": 4,
    "mistigri": 4,
    "kopilka": 4,
    "lenturlu": 4,
    "konchinka": 2,
}


def naive_deal(rng: random.Random, players: int) -> int:
    """One deal of 5 cards each, random legal cards; the cards played."""
    deck = list(range(32))  # card = suit * 8 + rank
    rng.shuffle(deck)
    hands = [deck[5 * s : 5 * s + 5] for s in range(players)]
    trump = rng.randrange(4)
    leader = 0
    played = 0
    for _trick in range(5):
        led = -1
        best_seat, best_key = leader, -1
        for k in range(players):
            seat = (leader + k) % players
            hand = hands[seat]
            pool = [c for c in hand if c >> 3 == led] if led >= 0 else hand
            card = rng.choice(pool or hand)
            hand.remove(card)
            suit = card >> 3
            if led < 0:
                led = suit
            key = (card & 7) + (16 if suit == trump else 8 if suit == led else 0)
            if key > best_key:
                best_seat, best_key = seat, key
            played += 1
        leader = best_seat
    return played


def naive_us(seconds: float, players: int = 3) -> float:
    """Microseconds per card of the naive playout."""
    rng = random.Random(0)
    cards = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(100):
            cards += naive_deal(rng, players)
    return 1e6 * (time.perf_counter() - start) / cards


@dataclass
class EngineRow:
    game: str
    players: int
    deals_per_s: float
    us_per_action: float


def engine_row(game: str, players: int, seconds: float) -> EngineRow:
    policy = policy_for(GAMES[game].family)
    deals = actions = 0
    seed = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = new_game(game, players, seed)
        pick = random.Random(seed)
        while state.to_act is not None:
            seat = state.to_act
            state.apply(seat, policy(state.view(seat), pick))
        deals += sum(1 for line in state.record() if line["t"] == "deal")
        actions += state.version
        seed += 1
    took = time.perf_counter() - start
    return EngineRow(game, players, deals / took, 1e6 * took / max(actions, 1))


def seat_counts(game: str) -> list[int]:
    spec = GAMES[game]
    if spec.family == "trick":
        return [3, 7]
    return sorted({min(spec.seat_counts), max(spec.seat_counts)})


# --------------------------------------------------------------------------- the search


def _recording_work(works: list[Work]) -> type[Work]:
    """A ``Work`` that keeps every instance: the player's counts, read afterwards."""

    class RecordingWork(Work):
        __slots__ = ()

        def __init__(self, done: int = 0) -> None:
            super().__init__(done)
            works.append(self)

    return RecordingWork


@dataclass
class SearchRow:
    game: str
    players: int
    decisions: int
    simulated: int
    us_per_action: float
    ms_per_decision: float


def search_row(game: str, players: int, decisions: int, seed: int = 1) -> SearchRow:
    """The normal computer deciding ``decisions`` times (every seat, from the first action on,
    random play between); the time in the policy over the actions it simulated."""
    family = GAMES[game].family
    normal = computer(game, "normal")
    other = policy_for(family)
    works: list[Work] = []
    modules = SEARCHERS[family]
    original = modules[0].Work
    for module in modules:
        module.Work = _recording_work(works)  # the module's name, patched to count
    spent = 0.0
    made = 0
    rng = random.Random(seed)
    try:
        game_seed = seed
        while made < decisions:
            state = new_game(game, players, game_seed)
            game_seed += 1
            for _ in range(2_000):
                seat = state.to_act
                if seat is None or made >= decisions:
                    break
                view = state.view(seat)
                if len(view.legal) > 1 and rng.random() < 0.3:
                    t0 = time.perf_counter()
                    action = normal(view, rng)
                    spent += time.perf_counter() - t0
                    made += 1
                else:
                    action = other(view, rng)
                state.apply(seat, action)
    finally:
        for module in modules:
            module.Work = original
    simulated = sum(w.done for w in works)
    return SearchRow(
        game, players, made, simulated, 1e6 * spent / max(simulated, 1), 1e3 * spent / made
    )


def inner_playout_us(seconds: float, players: int = 3) -> float:
    """Microseconds per card of the trick search's inner playout (``trick_search.playout``)
    on deals built as the normal player builds them."""
    game = "mushka"
    cards = 0
    spent = 0.0
    seed = 0
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        state = new_game(game, players, seed)
        seed += 1
        pick = random.Random(seed)
        policy = policy_for("trick")
        for _ in range(200):  # to the first card of the trick play
            seat = state.to_act
            if seat is None:
                break
            view = state.view(seat)
            if view.phase == "play":
                break
            state.apply(seat, policy(view, pick))
        else:
            continue
        if state.to_act is None:
            continue
        at = state.view(state.to_act)
        assert isinstance(at, TrickView) and at.seat is not None
        playing = [s for s in trick_reading.from_left(at) if at.declared[s] == "play"]
        hands = [list(h) for h in sample(knowledge(at), at, pick)[0]]
        hands[at.seat] = list(at.hand)
        deal = trick_reading.known_deal(at, hands, playing)
        base = deal
        t0 = time.perf_counter()
        for _ in range(20):
            work = trick_search.Work()
            trick_search.playout(base.copy(), work)
            cards += work.done
        spent += time.perf_counter() - t0
    return 1e6 * spent / max(cards, 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="per engine row (default 2)")
    parser.add_argument("--decisions", type=int, default=6, help="search decisions per game")
    args = parser.parse_args()
    floor = naive_us(args.seconds)
    print(f"naive 5-card trick playout: {floor:.2f} µs per card")
    inner = inner_playout_us(args.seconds)
    print(f"trick search inner playout: {inner:.2f} µs per card ({inner / floor:.1f}×)")
    for game in GAMES:
        for n in seat_counts(game):
            row = engine_row(game, n, args.seconds)
            print(
                f"engine {game:<10} {n}: {row.deals_per_s:8.0f} deals/s "
                f"{row.us_per_action:6.1f} µs/action ({row.us_per_action / floor:.1f}×)"
            )
    for game in GAMES:
        s = search_row(game, SEARCH_SEATS[game], args.decisions)
        print(
            f"search {game:<10} {s.players}: {s.us_per_action:6.1f} µs/simulated action "
            f"({s.us_per_action / floor:.1f}×), {s.ms_per_decision:.0f} ms/decision"
        )


if __name__ == "__main__":
    main()
