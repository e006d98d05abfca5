"""``python -m bot play`` as a newcomer first runs it: without ``--seed`` (the deals the OS's
cryptographic source gives), a refused move answered in words in every game; Ctrl-C stops as
``q`` does; ``python -m bot -h`` lists the commands without asking for a token."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine.cards import Card, Rank, Suit
from tests.bot.terminal_driver import ROOT, run_play
from tests.bot.test_play_terminal import GAMES

EVERY_CARD = [str(Card(rank, suit)) for suit in Suit for rank in Rank]
REFUSED = {"ru": "Так нельзя: ", "en": "Not allowed: "}


@pytest.mark.parametrize("game", list(GAMES))
def test_a_refused_move_without_a_seed_is_answered_in_words(game: str, tmp_path: Path) -> None:
    # every card of a full deck typed in turn: some are not in the hand (refused), others play.
    # The deal is the OS's (no seed): which phase each card meets is chance, so a game is
    # played again (at most 4 times) until one of them has met the engine's refusal — every
    # one of them answered without a traceback.
    stdin = "".join(f"{code}\n" for code in EVERY_CARD)
    refused = 0
    for attempt in range(4):
        here = tmp_path / str(attempt)
        here.mkdir()
        done = run_play([game, "--level", "easy", "--lang", "en"], stdin, here)
        tail = done.stdout[-3000:]
        assert "Traceback" not in done.stderr, done.stderr[-2000:]
        assert done.stderr == ""
        # the input ends first (1), or the game does (0: Лентюрлю's one deal can)
        assert done.returncode in (0, 1), tail
        assert "Seed: " not in done.stdout, tail  # no seed was given: none to play again
        lines = done.stdout.splitlines()
        refused = sum(line.startswith(REFUSED["en"]) for line in lines)
        if refused:
            break
    assert refused, tail


def _without_token() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("BOT_")}
    env["PYTHONPATH"] = str(ROOT)
    return env


def test_ctrl_c_at_the_prompt_stops_like_the_end_of_the_input(tmp_path: Path) -> None:
    out = tmp_path / "out.txt"
    with out.open("w") as sink:
        proc = subprocess.Popen(
            [sys.executable, "-m", "bot", "play", "mushka", "--lang", "en"],
            stdin=subprocess.PIPE,
            stdout=sink,
            stderr=subprocess.PIPE,
            text=True,
            cwd=tmp_path,
            env=_without_token(),
        )
        try:
            deadline = time.monotonic() + 60
            while "Your move (q to stop): " not in out.read_text(encoding="utf-8"):
                assert proc.poll() is None and time.monotonic() < deadline
                time.sleep(0.05)
            proc.send_signal(signal.SIGINT)  # what Ctrl-C sends the terminal's process
            _, err = proc.communicate(timeout=60)
        finally:
            if proc.poll() is None:
                proc.kill()
    assert "Traceback" not in err and "KeyboardInterrupt" not in err
    assert err == ""
    assert proc.returncode == 1  # stopped before its end, as by Ctrl-D or q
    assert out.read_text(encoding="utf-8").rstrip().endswith("Stopped.")


@pytest.mark.parametrize("argv", [["-h"], ["--help"], ["help"]])
def test_help_lists_the_commands_and_needs_no_token(argv: list[str], tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "bot", *argv],
        capture_output=True,
        text=True,
        cwd=tmp_path,  # no .env here
        env=_without_token(),
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    assert "BOT_TOKEN is missing" not in done.stdout
    lines = done.stdout.splitlines()
    assert lines[0] == "usage: python -m bot [COMMAND]"
    no_token = lines.index("Commands that need no token:")
    with_token = lines.index("Commands that read the settings (BOT_TOKEN …):")
    listed = [line.split()[0] for line in lines if line.startswith("  ") and line[2] != " "]
    assert listed == ["play", "review", "export", "ratings", "check", "delete-webhook"]
    assert no_token < lines.index(next(ln for ln in lines if ln.startswith("  play GAME")))
    assert with_token > lines.index(next(ln for ln in lines if ln.startswith("  ratings")))


def test_check_help_says_what_it_checks_without_a_token(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "bot", "check", "--help"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=_without_token(),
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0] == "usage: python -m bot check [--quick]"
    assert "BOT_TOKEN is missing" not in done.stdout + done.stderr


def test_an_unknown_command_points_to_the_help_not_the_token(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "bot", "plya", "mushka"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=_without_token(),
        timeout=60,
        check=False,
    )
    assert done.returncode == 2
    assert done.stderr == "usage: python -m bot [COMMAND] (python -m bot -h: the commands)\n"
