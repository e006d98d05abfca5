"""``ResumedChance`` (STYLE.md §6): a game stopped mid-way and rebuilt from the outcomes its
record wrote out goes on as it would have — with a seeded source followed in its shadow, the
same deals as without the stop; with a live source, the stored ones and then new ones."""

from __future__ import annotations

import random

import pytest

from engine.chance import ResumedChance, SeededChance, StackedChance
from engine.core import Line, State
from engine.games import new_game
from engine.record import chance_of, is_chance_line


def played(game: str, players: int, seed: int, moves: int) -> tuple[State, list[tuple[int, str]]]:
    state = new_game(game, players, seed)
    rng = random.Random(seed)
    log: list[tuple[int, str]] = []
    while not state.is_over and len(log) < moves:
        seat = state.to_act
        assert seat is not None
        action = str(rng.choice(list(state.legal_actions(seat))))
        state.apply(seat, action)
        log.append((seat, action))
    return state, log


def chance_lines(record: list[Line]) -> list[Line]:
    return [line for line in record if is_chance_line(line)]


@pytest.mark.parametrize(("game", "players"), [("mushka", 3), ("kopilka", 4), ("konchinka", 2)])
def test_a_seeded_game_resumed_from_its_outcomes_deals_on_as_without_the_stop(
    game: str, players: int
) -> None:
    whole, log = played(game, players, 11, 3000)
    cut = len(log) // 2
    stopped, _ = played(game, players, 11, cut)
    given = chance_of(stopped.record())
    resumed = new_game(
        game, players, 11, chance=ResumedChance(given, SeededChance.from_seed(11), shadow=True)
    )
    for seat, action in log:
        resumed.apply(seat, action)
    assert resumed.record() == whole.record()
    assert sum(line["t"] == "deal" for line in whole.record()) > sum(
        line["t"] == "deal" for line in stopped.record()
    )  # deals drawn after the stop, too


def test_a_live_source_answers_once_the_stored_outcomes_run_out() -> None:
    stopped, log = played("mushka", 3, 5, 60)
    given = chance_of(stopped.record())
    decks = len(given.decks)
    live = SeededChance(random.Random(99))  # stands for the cryptographic source
    resumed = new_game("mushka", 3, 5, chance=ResumedChance(given, live))
    for seat, action in log:
        resumed.apply(seat, action)
    assert resumed.record() == stopped.record()  # the stored outcomes, in order
    assert not given.decks and decks >= 2
    rng = random.Random(1)
    while sum(line["t"] == "deal" for line in resumed.record()) <= decks - 1:
        turn = resumed.to_act
        assert turn is not None
        resumed.apply(turn, rng.choice(list(resumed.legal_actions(turn))))
    fresh = chance_lines(resumed.record())[len(chance_lines(stopped.record())) :]
    assert fresh and all(line["t"] == "deal" for line in fresh)


def test_stacked_alone_waits_where_the_resumed_chance_deals() -> None:
    assert not StackedChance().ready()
    assert ResumedChance(StackedChance(), SeededChance.from_seed(1)).ready()
