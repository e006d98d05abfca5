"""``python -m bot play``: stopping, bad arguments, and what the other terminal tests share (a
game's first turn for the person, an illegal action there). Whole games through a real
subprocess are ``test_play_terminal_match.py``."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from bot.terminal.play import computers, parse_args, play_main
from engine.core import State
from engine.errors import IllegalAction, InvalidNotation, Refusal
from engine.games import new_game
from engine.record import read_jsonl, replay
from tests.bot.terminal_driver import run_play

GAMES = {  # small targets: a whole pulka or game in a few deals
    "mushka": ["--option", "target=5"],
    "pamfil": ["--option", "target=5"],
    "shutikha": ["--option", "target=5"],
    "mistigri": ["--option", "target=5"],
    "kopilka": [],
    "lenturlu": [],
    "konchinka": ["--option", "target=5"],
}
CARDS = ("AS", "6D", "JC", "QH", "10S", "7C", "KD", "JS")
VERBS = ("card", "play 1", "run", "trail", "sweep", "capture")


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


def test_stopping_leaves_an_abandoned_record(tmp_path: Path) -> None:
    record = tmp_path / "stopped.jsonl"
    args = ["мушка", "--players", "4", "--seat", "2", "--level", "easy", "--seed", "5"]
    stdin = "?\n7777\nв\nq\nn\nq\ny\n"  # the list asked for, a number out of it, «В», q
    done = run_play([*args, "--record", str(record)], stdin, tmp_path)
    assert done.returncode == 1, done.stderr
    out = done.stdout
    assert "  33. " in out  # ? lists every exchange
    assert "Хода 7777 нет" in out  # Russian by default, the number refused
    assert "Такой карты для хода сейчас нет." in out  # «В» is a jack (none here), not a stop
    assert out.count("Выйти из игры? (y — да):") == 2  # q asks; n goes on, y stops
    assert "брошенная" in out
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
        (["mushka", "--lang", "en", "--option", "target"], "--option target: write it as name"),
        (["mushka", "--option", "target"], "--option target: пишите имя=значение"),
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
