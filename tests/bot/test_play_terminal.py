"""``python -m bot play``: every game played to its end through a real subprocess (stdin piped,
no token, no database), an illegal action refused with the rule, the record replayed."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from bot.terminal.play import computers, parse_args, play_main
from engine.core import State
from engine.errors import IllegalAction, InvalidNotation, Refusal
from engine.games import new_game
from engine.record import read_jsonl, replay

ROOT = Path(__file__).resolve().parents[2]
GAMES = {  # small targets: a whole pulka or game in a few deals
    "mushka": ["--option", "target=5"],
    "pamfil": ["--option", "target=5"],
    "shutikha": ["--option", "target=5"],
    "mistigri": ["--option", "target=5"],
    "kopilka": [],
    "lenturlu": [],
    "konchinka": ["--option", "target=5"],
}
ANSWERS = 3000  # "1" lines: far more than any of these games asks for (checked: rc 0, end)
CARDS = ("AS", "6D", "JC", "QH", "10S", "7C", "KD", "JS")
VERBS = ("card", "play 1", "run", "trail", "sweep", "capture")


def run_play(args: list[str], stdin: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("BOT_")}  # no token at all
    env["PYTHONPATH"] = str(ROOT)
    return subprocess.run(
        [sys.executable, "-m", "bot", "play", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=cwd,  # no .env here
        env=env,
        timeout=240,
        check=False,
    )


def first_turn(args: list[str]) -> tuple[State, int]:
    """The state at the person's first turn, as the session's own computers bring it there."""
    setup = parse_args(args)
    state = new_game(setup.game, setup.players, setup.seed, setup.options)
    players = computers(setup)
    for _ in range(500):
        seat = state.to_act
        if seat == setup.seat or seat is None:
            break
        policy, rng = players[seat]
        state.apply(seat, policy(state.view(seat), rng))
    assert state.to_act == setup.seat
    return state, setup.seat


def illegal_text(state: State, seat: int) -> tuple[str, Refusal]:
    """A notation the engine reads but refuses now, a rule's code rather than ``not_now``."""
    legal = {str(a) for a in state.legal_actions(seat)}
    found: list[tuple[str, Refusal]] = []
    for text in ["pass", "buy 1", *(f"{v} {c}" for v in VERBS for c in CARDS)]:
        try:
            action = state.parse_action(text)
        except InvalidNotation:
            continue
        if str(action) in legal:
            continue
        try:
            state.clone().apply(seat, action)
        except IllegalAction as error:
            found.append((text, error.code))
    assert found, "no illegal action among the candidates"
    return next((f for f in found if f[1] is not Refusal.NOT_NOW), found[0])


@pytest.mark.parametrize("game", list(GAMES))
def test_a_whole_game_in_the_terminal(game: str, tmp_path: Path) -> None:
    args = [game, "--level", "easy", "--seed", "3", "--lang", "en", *GAMES[game]]
    state, seat = first_turn(args)
    text, code = illegal_text(state, seat)
    record = tmp_path / "game.jsonl"
    done = run_play([*args, "--record", str(record)], text + "\n" + "1\n" * ANSWERS, tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stderr == ""
    out = done.stdout
    refusal = next(line for line in out.splitlines() if "Not allowed:" in line)
    assert f"({code.value}" in refusal  # the rule named
    assert "Your cards" in out or "Your hand" in out  # the hand was shown
    assert "  1. " in out  # the legal actions, numbered
    assert "<b>" not in out and "&lt;" not in out  # Telegram HTML stripped
    # another seat's exchange shows as the group sees it: how many cards, never which
    assert not re.search(r"^🤖[^:\n]+: play [1-5] (?!🂠)", out, re.MULTILINE)
    lines = read_jsonl(record.read_text(encoding="utf-8"))
    assert lines[-1]["t"] == "end" and lines[-1].get("reason") != "abandoned"
    assert replay(lines).record() == lines  # replays unchanged
    acts = [ln for ln in lines if ln["t"] == "act" and ln["seat"] == seat]
    assert acts and acts[0]["a"] != str(state.parse_action(text))  # the refusal changed nothing
    assert "Record written" in out


def test_stopping_leaves_an_abandoned_record(tmp_path: Path) -> None:
    record = tmp_path / "stopped.jsonl"
    args = ["мушка", "--players", "4", "--seat", "2", "--level", "easy", "--seed", "5"]
    done = run_play([*args, "--record", str(record)], "1\n7777\nq\n", tmp_path)
    assert done.returncode == 1, done.stderr
    assert "Хода 7777 нет" in done.stdout  # Russian by default, the number refused
    assert "брошенная" in done.stdout
    lines = read_jsonl(record.read_text(encoding="utf-8"))
    assert lines[0]["players"] == 4
    assert lines[-1]["t"] == "end" and lines[-1]["reason"] == "abandoned"
    assert replay(lines).record() == lines


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["chess"], "unknown game 'chess'"),
        (["kopilka", "--players", "3"], "kopilka is played by 4 players, not 3"),
        (["mushka", "--seat", "9"], "--seat must be 1 to 3"),
        (["mushka", "--lang", "en", "--option", "nonsense=1"], "Unknown option nonsense."),
        (["mushka", "--lang", "en", "--option", "target=1"], "target=1 is not allowed: from"),
    ],
)
def test_bad_arguments_get_one_line_and_exit_2(
    args: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    out, err = io.StringIO(), io.StringIO()
    assert play_main(args, io.StringIO(""), out, err) == 2
    said_err = err.getvalue() + capsys.readouterr().err  # argparse writes to sys.stderr
    assert said in said_err.strip().splitlines()[-1]  # argparse's usage, then the one line
    assert "Traceback" not in said_err
    assert out.getvalue() == ""
