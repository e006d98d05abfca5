"""The trick family's ``hard`` reads the playing seats as ``normal`` seats hold their hands
(engine/players/trick_kept.py, measured by bench/trick_kept_fit.py): its samples deal a playing
seat strong cards about as often as ``normal``'s real hands hold them at the first trick, where
a uniform deal of the unseen cards gives far fewer (RULES.md §1.3.4)."""

from __future__ import annotations

import random
import statistics

from engine import new_game
from engine.players import computer
from engine.players.trick_budget import HARD, HARD_BY_GAME
from engine.players.trick_infer import sample_likely, weigher
from engine.players.trick_kept import CELLS, EXCHANGES, STRONG, feature, kept_odds, strong_table
from engine.players.trick_kept_odds import KEPT_ODDS
from engine.players.trick_sample import CODE, knowledge, sample_codes
from engine.trick.state import TrickState
from engine.trick.view import TrickView
from tests.engine.players_common import first_trick_view


def _strong(cells: int) -> int:
    return cells % STRONG


def test_every_table_is_odds_with_a_certain_cell_per_row() -> None:
    assert set(KEPT_ODDS) == {("mushka", 3), ("mistigri", 3)}
    for table in KEPT_ODDS.values():
        assert len(table) == EXCHANGES
        for row in table:
            assert len(row) == CELLS
            assert all(0 < p <= 1 for p in row)
            assert max(row) == 1.0


def test_a_count_not_measured_keeps_the_simple_players_reading() -> None:
    assert kept_odds("mushka", 3) is KEPT_ODDS["mushka", 3]
    assert kept_odds("mushka", 5) is None
    assert kept_odds("shutikha", 3) is None
    assert HARD.kept and not HARD_BY_GAME["shutikha"].kept  # Шутиха keeps its measured reading
    view = _first_lead_with_a_player("mushka", 5)
    know = knowledge(view)
    plain, measured = weigher(view, know), weigher(view, know, measured=True)
    assert plain is not None and measured is not None
    rng = random.Random(1)
    for _ in range(20):
        hands = sample_codes(know, rng)[0]
        assert plain(hands) == measured(hands)


def _first_lead_with_a_player(game: str, players: int) -> TrickView:
    """The first lead of a table of ``normal`` seats where another seat than the leader plays."""
    normal = computer(game, "normal")
    for seed in range(20):
        state = new_game(game, players, seed)
        rngs = [random.Random(f"{seed}:{s}") for s in range(players)]
        while (seat := state.to_act) is not None:
            view = state.view(seat)
            assert isinstance(view, TrickView)
            if view.phase == "play":
                if sum(d == "play" for d in view.declared) >= 2:
                    return view
                break
            state.apply(seat, normal(view, rngs[seat]))
    raise AssertionError("no table of two players in twenty deals")


def test_nothing_to_infer_before_anyone_else_plays() -> None:
    view = first_trick_view("mushka", 3, 2)
    assert weigher(view, knowledge(view), measured=True) is None


def test_samples_deal_playing_seats_strong_cards_as_normal_seats_hold_them() -> None:
    """Tables of ``normal`` seats (seeds apart from the fit's): at each first lead, every
    other playing seat's strong cards — its real hand, the uniform samples, the kept ones."""
    normal = computer("mushka", "normal")
    real: list[int] = []
    plain: list[float] = []
    kept: list[float] = []
    rng = random.Random(3)
    for seed in range(2000, 2008):
        state = new_game("mushka", 3, seed)
        assert isinstance(state, TrickState)
        rngs = [random.Random(f"{seed}:{s}") for s in range(3)]
        while (seat := state.to_act) is not None:
            view = state.view(seat)
            assert isinstance(view, TrickView)
            if view.deal_no > 4:
                break
            if view.phase == "play" and view.trick_no == 1 and not view.trick:
                know = knowledge(view)
                weigh = weigher(view, know, measured=True)
                strong = strong_table(view)
                code = CODE["mushka"]
                for other in range(3):
                    if other == seat or view.declared[other] != "play" or weigh is None:
                        continue
                    hand = [code[c] for c in state.view(other).hand]
                    real.append(_strong(feature(hand, strong)))
                    draws = [sample_codes(know, rng)[0][other] for _ in range(40)]
                    plain.append(statistics.fmean(_strong(feature(h, strong)) for h in draws))
                    likely = [sample_likely(know, weigh, rng)[0][other] for _ in range(40)]
                    kept.append(statistics.fmean(_strong(feature(h, strong)) for h in likely))
            state.apply(seat, normal(view, rngs[seat]))
    assert len(real) >= 30
    truth = statistics.fmean(real)
    gap_plain = truth - statistics.fmean(plain)
    gap_kept = truth - statistics.fmean(kept)
    assert gap_plain > 0.4, (truth, gap_plain)
    assert abs(gap_kept) < 0.5 * gap_plain, (truth, gap_plain, gap_kept)
