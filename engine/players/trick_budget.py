"""The trick family's search budgets (:mod:`.trick_normal`): counts of simulated work, never a
clock, per level — and what ``hard`` reads differently in a game (:data:`HARD_BY_GAME`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

PLAY_SAMPLES = 20
"""Deals sampled for a card to play, at most."""

PLAY_WORK = 10_000
"""Cards played (searched or played out) by one decision, after which no further deal is
sampled (but never fewer than :data:`MIN_SAMPLES`): the budget that bounds a decision's time
at the big tables."""

MIN_SAMPLES = 2
"""Deals sampled whatever the work."""

PLAY_NODES = 80
"""Search nodes per sample and candidate card before the playouts take over."""

DECLARE_SAMPLES = 48
"""Deals sampled for a declaration (each candidate is played out on every one), at most."""

DECLARE_WORK = 8_000
"""Actions simulated by one declaration, after which no further deal is sampled."""

DISCARD_SAMPLES = 40
"""Deals sampled for Шутиха's discard."""

EAGER = 10
"""Шутиха (``hard``): a seat whose count is above this plays whatever its hand. Every trick is
written off (§1.5.5) and a remise costs only 5, so far from zero playing pays; ``normal`` plays
every hand there (and about half of them at counts of 10 or less, Шутиха at 3 seats), which the
simple player's threshold on the hand's worth does not see."""


@dataclass(frozen=True, slots=True)
class Budget:
    """One level's search: its counts (never a clock) and whether its deals are inferred."""

    play_samples: int = PLAY_SAMPLES
    play_work: int = PLAY_WORK
    play_nodes: int = PLAY_NODES
    declare_samples: int = DECLARE_SAMPLES
    declare_work: int = DECLARE_WORK
    discard_samples: int = DISCARD_SAMPLES
    infer: bool = False  # deals weighted by the declarations (:mod:`.trick_infer`)
    kept: bool = False  # ... as ``normal`` seats hold their hands, measured (:mod:`.trick_kept`)
    queen: bool = False  # Шутиха's QS dealt only where the rules leave it (:mod:`.trick_queen`),
    # and the other receivers of its deal-out dropping their weakest cards (§1.3.12)
    eager: int | None = None  # a seat whose count is above this is modelled to play any hand
    guard: bool = False  # Шутиха's hard tables (:data:`.trick_tables.GUARDED`): playouts keep
    # the QS and KS apart on leads; a deal valued with the pulka it leaves, a pass played out


NORMAL = Budget()
HARD = Budget(
    play_samples=128,
    play_work=108_000,
    play_nodes=400,
    declare_samples=480,
    declare_work=84_000,
    discard_samples=360,
    infer=True,
    queen=True,
    kept=True,
)
"""``hard``: the deals sampled as the declarations and exchanges make them likely
(:mod:`.trick_infer`), and about twelve times ``normal``'s work (three times the first
``hard``'s: Памфил at 3 seats went from +2.7 ± 2.9 to +6.0 ± 2.7 against ``normal``, 300
duplicate pulkas, seed 100; its slowest decision 0.15 s of CPU). ``kept``: where the tables
of ``normal`` seats were measured (Мушка and Мистигри at three seats), the playing seats are
read as ``normal`` seats hold their hands (:mod:`.trick_kept`): +2.2 ± 7.3 and +1.9 ± 4.1
against ``normal`` (60 and 120 duplicate pulkas, seeds 100 and 100 + 120), too few to tell it
from the threshold's reading; slowest decision 0.20 s of CPU."""


HARD_BY_GAME: Mapping[str, Budget] = {
    "shutikha": replace(HARD, eager=EAGER, guard=True, kept=False)
}
"""``hard`` where a game asks more of it. Шутиха: the seats yet to declare, far from zero, are
modelled to play whatever their hand (:data:`EAGER`); the playouts keep the QS and KS apart on
leads, a deal is valued with the pulka it leaves (another seat reaching zero ends it,
:func:`.trick_search.future`) and so a pass is played out too (:data:`Budget.guard`). Against
``normal``, Шутиха at 3 seats, 300 duplicate pulkas, seed 100: −0.5 ± 1.7 before; +1.2 ± 1.4
with the QS placed; +2.0 ± 1.6 with the eager seats too; +2.9 ± 1.7 with all (slowest decision
0.23 s of CPU). (The
inference keeps the simple player's reading of a play: weighing those seats' plays by nothing
but their exchange placed the cards less well, 0.226 of the opponents' cards in the right hand
against 0.231, 280 first tricks.)"""


__all__ = ["EAGER", "HARD", "HARD_BY_GAME", "MIN_SAMPLES", "NORMAL", "Budget"]
