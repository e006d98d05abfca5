"""The simulator (``python -m engine simulate``) and its players."""

from __future__ import annotations

import io
import random
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

from engine import GAMES, new_game, replay
from engine.__main__ import main
from engine.players import policy_for
from engine.record import read_jsonl, split_records, write_jsonl
from engine.simulate import playout


def _run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("game", sorted(GAMES))
def test_simulate_prints_valid_records_for_every_game(game: str) -> None:
    players = max(GAMES[game].seat_counts)
    code, out, _ = _run("simulate", "--game", game, "--players", str(players), "--games", "2")
    assert code == 0
    records = list(split_records(read_jsonl(out)))
    assert len(records) == 2
    assert records[0][0]["seed"] == 0 and records[1][0]["seed"] == 1
    for record in records:
        assert record[0]["game"] == game and record[0]["players"] == players
        assert record[-1]["t"] == "end" and record[-1]["reason"] != "abandoned"
        assert replay(record).record() == record


def test_simulate_sets_options_and_refuses_bad_ones() -> None:
    code, out, _ = _run(
        "simulate", "--game", "mushka", "--players", "5", "--seed", "7", "--option", "target=30"
    )
    assert code == 0
    head = read_jsonl(out)[0]
    assert head["options"] == {"target": 30, "pulka_fee": 0, "point_value": 1, "must_trump": False}
    assert head["seed"] == 7
    code, out, err = _run("simulate", "--game", "mushka", "--players", "3", "--option", "target=1")
    assert code == 2 and out == "" and "option_out_of_range" in err
    code, _, err = _run("simulate", "--game", "mushka", "--players", "9")
    assert code == 2 and "seat_count" in err


def test_replay_command_reports_each_record(tmp_path: Path) -> None:
    _, out, _ = _run("simulate", "--game", "kopilka", "--players", "4", "--games", "2")
    path = tmp_path / "k.jsonl"
    path.write_text(out, encoding="utf-8")
    code, report, _ = _run("replay", str(path))
    assert code == 0 and report.count("same") == 2
    lines = read_jsonl(out)
    lines[-1]["net"] = [1, -1, 0, 0]  # a figure no rule produces
    path.write_text(write_jsonl(lines), encoding="utf-8")
    code, report, _ = _run("replay", str(path))
    assert code == 1 and "DIFFERENT" in report


@pytest.mark.parametrize("game", ["mushka", "pamfil", "shutikha", "mistigri"])
@pytest.mark.parametrize("players", [3, 5, 7])
def test_simulated_pulkas_end_at_the_default_target(game: str, players: int) -> None:
    for seed in range(8):
        state = playout(new_game(game, players, seed), random.Random(seed))
        assert state.is_over
        assert state.record()[-1]["reason"] in ("zero", "instant")


@pytest.mark.parametrize("game", sorted(GAMES))
def test_simulated_players_only_choose_legal_actions(game: str) -> None:
    players = GAMES[game].seat_counts[0]
    state = new_game(game, players, 3)
    policy = policy_for(GAMES[game].family)
    rng = random.Random(3)
    for _ in range(200):
        seat = state.to_act
        if seat is None:
            break
        action = policy(state.view(seat), rng)
        assert action in state.legal_actions(seat)
        state.apply(seat, action)
