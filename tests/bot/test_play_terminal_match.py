"""Every game's whole match played in the terminal through a pipe (the real ``python -m bot
play``, stdin piped, no token, no database), each move chosen by card names or the screen's
words, never a number: every deal's result and the game's end are in what the person saw; an
illegal move is refused with the rule (``--explain``) and changes nothing; the record replays."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine.record import read_jsonl, replay
from tests.bot.terminal_driver import drive, run_play
from tests.bot.test_play_terminal import GAMES, first_turn, illegal_text

MATCHES = GAMES  # a whole pulka, partia or game each, in a few deals
DEAL = {"ru": "Сдача", "en": "Deal"}
REFUSED = {"ru": "Так нельзя", "en": "Not allowed"}
UNKNOWN = {"ru": "Непонятный ход", "en": "Unknown action"}
RECORDED = {"ru": "Запись игры: ", "en": "Record written: "}


@pytest.mark.parametrize("lang", ["ru", "en"])
@pytest.mark.parametrize("game", list(MATCHES))
def test_a_whole_match_by_card_names_through_a_pipe(game: str, lang: str, tmp_path: Path) -> None:
    args = [game, "--level", "easy", "--seed", "3", "--lang", lang, *MATCHES[game]]
    state, seat = first_turn(args)
    text, code = illegal_text(state, seat)  # first an illegal move, in RECORD.md notation
    played = drive([*args, "--explain"], first=(text,))  # the lines a person types, in-process
    assert played.finished
    assert not any(line.strip().isdigit() for line in played.lines)  # names, never numbers
    record = tmp_path / "match.jsonl"
    stdin = "".join(f"{ln}\n" for ln in played.lines)
    done = run_play([*args, "--explain", "--record", str(record)], stdin, tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stderr == ""
    out = done.stdout
    assert out.split("\n", 1)[1].startswith(played.out)  # what the in-process game showed
    refusal = next(ln for ln in out.splitlines() if ln.startswith(REFUSED[lang]))
    assert f"({code.value}" in refusal  # --explain: the rule named
    assert "<b>" not in out and "&lt;" not in out  # Telegram HTML stripped
    # another seat's exchange shows as the group sees it: how many cards, never which
    assert not re.search(r"^🤖[^:\n]+: play [1-5] (?!🂠)", out, re.MULTILINE)
    lines = read_jsonl(record.read_text(encoding="utf-8"))
    assert replay(lines).record() == lines
    acts = [ln for ln in lines if ln["t"] == "act" and ln["seat"] == seat]
    assert acts and acts[0]["a"] != str(state.parse_action(text))  # the refusal changed nothing
    deals = [ln["no"] for ln in lines if ln["t"] == "deal_end"]
    assert deals
    for no in deals:  # every deal's result, by its number
        assert re.search(rf"^📋 {DEAL[lang]} {no}\b", out, re.MULTILINE), f"deal {no}"
    end = lines[-1]
    assert end["t"] == "end" and end.get("reason") != "abandoned"
    assert out.count("\n🏁 ") == 1  # the game's end, once, after the last deal's result
    assert out.rindex("\n🏁 ") > out.rindex(f"\n📋 {DEAL[lang]} {deals[-1]}")
    assert UNKNOWN[lang] not in out
    assert "нажм" not in out.lower() and " tap " not in out.lower()  # terminal words only
    assert RECORDED[lang] in out
