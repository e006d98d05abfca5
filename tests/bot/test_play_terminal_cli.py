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
    # every card of a full deck typed in turn: some are not in the hand (refused), others play
    stdin = "".join(f"{code}\n" for code in EVERY_CARD)
    # (each game to its default target: more than these lines can finish)
    done = run_play([game, "--level", "easy", "--lang", "en"], stdin, tmp_path)
    assert "Traceback" not in done.stderr, done.stderr[-2000:]
    assert done.stderr == ""
    assert done.returncode == 1  # the input ended before the game did
    assert any(line.startswith(REFUSED["en"]) for line in done.stdout.splitlines())
    assert "Seed: " not in done.stdout  # no seed was given: none to play again
