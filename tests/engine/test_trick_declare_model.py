"""The trick searches' model of the seats yet to declare (engine/players/trick_declare.py
``Round.chance_of``, the table engine/players/trick_declare_table.py fitted by
bench/fit_declare.py): forced declarations stay forced, the table is the script's, the fit
recovers a known model, the model plays as often as ``normal`` really does, and a pulka of
``normal`` seats ends where it used to climb for ever (Памфил at 5 seats)."""

from __future__ import annotations

import random

from bench.fit_declare import MODULE, chance, example, fit, render
from engine import new_game
from engine.cards import Card
from engine.duel import player
from engine.players.trick_declare import Round
from engine.players.trick_declare_table import COEFFICIENTS, FEATURES, features, play_chance
from engine.players.trick_sample import CODE
from engine.trick.actions import Exchange
from engine.trick.rules import TrickPhase
from engine.trick.view import TrickView


def _first_view(game: str, players: int, seed: int = 4) -> TrickView:
    state = new_game(game, players, seed)
    seat = state.to_act
    assert seat is not None
    view = state.view(seat)
    assert isinstance(view, TrickView) and view.phase == TrickPhase.DECLARE
    return view


def _weak(game: str) -> list[int]:
    code = CODE[game]
    return [code[Card.parse(c)] for c in ("7H", "8H", "9D", "7C", "8D")]


def test_1_3_3_forced_declarations_are_modelled_as_played() -> None:
    view = _first_view("mushka", 4)
    ctx = Round.of(view)
    seat = next(s for s in ctx.later if s != view.dealer)
    weak = _weak("mushka")
    assert ctx.chance_of(seat, weak, 0) < 1.0
    bound = [*weak[:4], CODE["mushka"][view.privileged]]  # §1.3.3 a: the AS may not pass
    assert ctx.chance_of(seat, bound, 0) == 1.0
    assert view.dealer is not None and view.dealer in ctx.later
    assert ctx.chance_of(view.dealer, weak, 1) == 1.0  # §1.3.3 b: the defending dealer
    assert ctx.plays(seat, weak, 0, 0.0) and not ctx.plays(seat, weak, 0, 1.0)


def test_the_table_is_the_one_the_fit_script_writes() -> None:
    text = MODULE.read_text()
    note = text[text.index("Fitted: ") + len("Fitted: ") : text.index('\n"""\n')]
    assert render(dict(COEFFICIENTS), note) == text
    assert all(len(c) == len(FEATURES) for c in COEFFICIENTS.values())


def test_the_fit_recovers_a_known_model() -> None:
    rng = random.Random(3)
    truth = (-1.5, 0.8, -0.7, 0.1, -0.6, 1.2, 0.2)
    examples = []
    for _ in range(2_000):
        x = features(
            rng.randint(0, 6), rng.randint(0, 3), rng.randint(0, 4), rng.choice((3, 8, 25)), 3
        )
        examples.append((x, rng.random() < chance(truth, x)))
    got = fit(examples, (0.0,) * len(FEATURES))
    for name, want, have in zip(FEATURES, truth, got, strict=True):
        if name != "seats":  # zero in these examples (3 seats)
            assert abs(want - have) < 0.4, (name, want, have)


def test_a_stronger_hand_is_played_at_least_as_often() -> None:
    for game in COEFFICIENTS:
        for count in (3, 8, 25):
            row = [play_chance(game, features(w, 1, 2, count, 5)) for w in range(7)]
            assert row == sorted(row), (game, count, row)


def test_the_model_plays_as_often_as_normal_does() -> None:
    """Памфил at 5 seats, where the simple player's threshold played 142 of the 500
    declarations ``normal`` played 440 of: the table's expected plays match the real ones."""
    game, players = "pamfil", 5
    policy = player("computer:normal", game)
    played = 0
    expected = 0.0
    for seed in (11, 12):
        rngs = [random.Random(f"model:{seed}:{s}") for s in range(players)]
        state = new_game(game, players, seed)
        while (seat := state.to_act) is not None:
            view = state.view(seat)
            assert isinstance(view, TrickView)
            if view.deal_no > 3:
                break
            action = policy(view, rngs[seat])
            x = example(view) if view.phase == TrickPhase.DECLARE else None
            if x is not None:
                played += isinstance(action, Exchange)
                expected += play_chance(game, x)
            state.apply(seat, action)
    assert abs(played - expected) <= 0.2 * max(played, 1), (played, expected)


def test_a_pulka_of_five_normal_pamfil_seats_ends() -> None:
    """Counts from 10, seed 3: with the simple player's threshold as the model, this pulka
    stood unended after 40 deals (the counts climbing); with the table it ends in 9."""
    game, players, seed = "pamfil", 5, 3
    policy = player("computer:normal", game)
    rngs = [random.Random(f"pulka:{seed}:{s}") for s in range(players)]
    state = new_game(game, players, seed, {"target": 10})
    deals = 0
    while (seat := state.to_act) is not None and deals < 40:
        for line in state.apply(seat, policy(state.view(seat), rngs[seat])):
            deals += line.get("t") == "deal_end"
    assert state.to_act is None, deals
