"""The trick family's ``hard`` samples deals as the declarations make them likely
(engine/players/trick_infer.py): a seat that played and kept most of its cards holds strong
cards far more often than a uniform deal of the unseen cards gives it (RULES.md §1.3)."""

from __future__ import annotations

import random
import statistics

from engine import new_game
from engine.cards import rank_index
from engine.players import computer
from engine.players.trick_infer import sample_likely, weigher
from engine.players.trick_sample import CARD, knowledge, sample_codes
from engine.trick.state import TrickState
from engine.trick.variant import VARIANTS
from engine.trick.view import TrickView
from tests.engine.players_common import first_trick_view


def _first_trick_with_a_keeper(seed: int) -> tuple[TrickView, int] | None:
    """Easy play to the first lead of a deal where another seat played keeping 4 or 5 cards:
    the view of the seat to act and that seat."""
    state = new_game("mushka", 4, seed)
    assert isinstance(state, TrickState)
    easy = computer("mushka", "easy")
    rng = random.Random(seed)
    while state.to_act is not None:
        view = state.view(state.to_act)
        assert isinstance(view, TrickView)
        if view.phase == "play" and view.trick_no == 1 and not view.trick:
            keeper = next(
                (
                    s
                    for s in range(view.players)
                    if s != view.seat
                    and view.declared[s] == "play"
                    and view.exchanged[s] is not None
                    and view.exchanged[s] <= 1  # type: ignore[operator]
                ),
                None,
            )
            return (view, keeper) if keeper is not None else None
        state.apply(state.to_act, easy(view, rng))
    return None


def _strong(view: TrickView, codes: list[int]) -> int:
    variant = VARIANTS["mushka"]
    top = rank_index(variant.order)[variant.order[1]]
    strength = rank_index(variant.order)
    cards = [CARD["mushka"][c] for c in codes]
    return sum(
        1 for c in cards if c == view.privileged or c.suit is view.trump or strength[c.rank] >= top
    )


def test_1_3_4_a_seat_that_kept_its_cards_is_dealt_strong_ones() -> None:
    found = [f for seed in range(40) if (f := _first_trick_with_a_keeper(seed)) is not None]
    assert len(found) >= 3
    gains = []
    for view, keeper in found[:6]:
        know = knowledge(view)
        weigh = weigher(view, know)
        assert weigh is not None
        rng = random.Random(7)
        plain = [_strong(view, sample_codes(know, rng)[0][keeper]) for _ in range(300)]
        likely = [_strong(view, sample_likely(know, weigh, rng)[0][keeper]) for _ in range(300)]
        gains.append(statistics.fmean(likely) - statistics.fmean(plain))
        for _ in range(20):  # what is certain still holds: sizes, and no seen card dealt
            hands, rest = sample_likely(know, weigh, rng)
            assert [len(h) for h in hands] == list(know.needs)
            assert sorted([c for h in hands for c in h] + rest) == sorted(know.codes)
    assert min(gains) > 0.3, gains


def test_nothing_to_infer_before_anyone_else_plays() -> None:
    view = first_trick_view("mushka", 3, 2)
    assert all(d is None for d in view.declared)
    assert weigher(view, knowledge(view)) is None
