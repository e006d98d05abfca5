"""Every game's whole match played in the terminal through a pipe (the real ``python -m bot
play``, stdin piped), each move chosen by card names or the screen's words, never a number:
every deal's result and the game's end are in what the person saw."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine.record import read_jsonl, replay
from tests.bot.terminal_driver import drive, run_play
from tests.bot.test_play_terminal import GAMES

MATCHES = GAMES  # a whole pulka, partia or game each, in a few deals
DEAL = {"ru": "Сдача", "en": "Deal"}


@pytest.mark.parametrize("lang", ["ru", "en"])
@pytest.mark.parametrize("game", list(MATCHES))
def test_a_whole_match_by_card_names_through_a_pipe(game: str, lang: str, tmp_path: Path) -> None:
    args = [game, "--level", "easy", "--seed", "3", "--lang", lang, *MATCHES[game]]
    played = drive(args)  # the lines a person types, found by playing in-process
    assert played.finished
    assert played.lines and not any(line.strip().isdigit() for line in played.lines)
    record = tmp_path / "match.jsonl"
    done = run_play(
        [*args, "--record", str(record)], "".join(f"{ln}\n" for ln in played.lines), tmp_path
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stderr == ""
    out = done.stdout
    assert out.split("\n", 1)[1].startswith(played.out)  # what the in-process game showed
    lines = read_jsonl(record.read_text(encoding="utf-8"))
    assert replay(lines).record() == lines
    deals = [ln["no"] for ln in lines if ln["t"] == "deal_end"]
    assert deals
    for no in deals:  # every deal's result, by its number
        assert re.search(rf"^📋 {DEAL[lang]} {no}\b", out, re.MULTILINE), f"deal {no}"
    end = lines[-1]
    assert end["t"] == "end" and end.get("reason") != "abandoned"
    assert out.count("\n🏁 ") == 1  # the game's end, once, after the last deal's result
    assert out.rindex("\n🏁 ") > out.rindex(f"\n📋 {DEAL[lang]} {deals[-1]}")
    unknown = {"ru": "Непонятный ход", "en": "Unknown action"}[lang]
    assert unknown not in out
    assert "нажм" not in out.lower() and " tap " not in out.lower()  # terminal words only
