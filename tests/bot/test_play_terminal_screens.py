"""What ``python -m bot play`` shows around the person's moves (ru and en): one order for the
«Playable» line and the list, a single legal move played and said, the hand's instructions in
terminal words, refusals in words (the rule with ``--explain``), stopping, a closed pipe."""

from __future__ import annotations

import io
import re
import subprocess
import sys
from pathlib import Path

import pytest

from bot.i18n import Catalogues
from bot.terminal.hints import terminal_words
from bot.terminal.play import LOCALES, play_main
from tests.bot.golden import assert_golden
from tests.bot.terminal_driver import ROOT, drive
from tests.bot.test_play_terminal import first_turn, illegal_text
from tests.bot.test_play_terminal_input import scripted

PLAYABLE = {"ru": "Можно: ", "en": "Playable: "}
ONLY = {"ru": "(единственный ход)", "en": "(the only move)"}


@pytest.mark.parametrize("lang", ["ru", "en"])
@pytest.mark.parametrize("game", ["mushka", "kopilka"])
def test_the_playable_line_and_the_list_in_one_order(game: str, lang: str) -> None:
    options = ["--option", "target=5"] if game == "mushka" else []
    out = drive([game, "--seed", "3", "--level", "easy", "--lang", lang, *options]).out
    lines = out.splitlines()
    compared = 0
    for i, line in enumerate(lines):
        if not line.startswith(PLAYABLE[lang]):
            continue
        shown = re.findall(r"(?:10|[2-9AKQJТКДВ])[♠♣♦♥]", line.split(" (")[0].split(" —")[0])
        listed = []
        for item in lines[i + 1 :]:
            if not (m := re.match(r"  \d+\. (.*)$", item)):
                break
            listed.append(m.group(1))
        if not listed:
            continue
        cards = [x for x in listed if re.fullmatch(r"(?:10|[2-9AKQJТКДВ])[♠♣♦♥]", x)]
        assert cards == shown, (line, listed)
        compared += 1
    assert compared >= 5


@pytest.mark.parametrize("lang", ["ru", "en"])
@pytest.mark.parametrize("game", ["kopilka", "mushka"])
def test_a_single_legal_move_is_played_and_said(game: str, lang: str) -> None:
    options = ["--option", "target=5"] if game == "mushka" else []
    played = drive([game, "--seed", "3", "--level", "easy", "--lang", lang, *options])
    assert played.finished
    assert min(played.choices) > 1  # asked only when there was a choice
    you = {"ru": "Игрок: ", "en": "Player: "}[lang]
    only = [ln for ln in played.out.splitlines() if ln.startswith(you) and ln.endswith(ONLY[lang])]
    assert only  # and the moves played alone are said


@pytest.mark.parametrize("locale", ["ru", "en"])
def test_the_hands_tap_instructions_are_terminal_words(locale: str) -> None:
    tr = Catalogues.load(LOCALES).tr(locale)
    term = terminal_words(tr)
    changed = [(tr.messages[m], term.messages[m]) for m in tr.messages]
    changed += [  # and the texts whose forms follow a number, form by form
        pair for m in tr.plurals for pair in zip(tr.plurals[m], term.plurals[m], strict=True)
    ]
    changed = [(before, after) for before, after in changed if before != after]
    assert len(changed) == {"ru": 12, "en": 11}[locale]  # ten texts, one of them with its forms
    for before, after in changed:
        assert re.search(r"нажм|tap|Отмечено|Marked", before), before
        assert not re.search(r"нажм|tap|Отмечено|Marked|кнопк|button", after), after
        assert set(re.findall(r"{\w+}", after)) <= set(re.findall(r"{\w+}", before))
    args = ["konchinka", "--seed", "5", "--lang", locale]
    _, out = scripted(args, [])
    said = {"ru": "Нужно брать: введите свою карту", "en": "You must capture: type your card"}
    assert said[locale] in out


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_a_refusal_is_words_and_the_rule_only_when_asked(lang: str) -> None:
    args = ["mushka", "--seed", "3", "--level", "easy", "--lang", lang]
    state, seat = first_turn(args)
    text, code = illegal_text(state, seat)
    _, out = scripted(args, [text])
    refused = {"ru": "Так нельзя", "en": "Not allowed"}[lang]
    line = next(ln for ln in out.splitlines() if refused in ln)
    assert "(" not in line and code.value not in out
    _, explained = scripted([*args, "--explain"], [text])
    line = next(ln for ln in explained.splitlines() if refused in ln)
    assert line.endswith(")") and f"({code.value}" in line


@pytest.mark.parametrize(
    ("lang", "ask", "stopped", "recorded"),
    [
        ("ru", "Выйти из игры? (y — да): ", "Игра прервана.", "брошенн"),
        ("en", "Stop the game? (y — yes): ", "Stopped.", "abandoned"),
    ],
)
def test_q_asks_before_stopping(lang: str, ask: str, stopped: str, recorded: str) -> None:
    args = ["mushka", "--seed", "3", "--lang", lang]
    stdout, stderr = io.StringIO(), io.StringIO()
    assert play_main(args, io.StringIO("В\nq\nn\nQ\ny\nпас\n"), stdout, stderr) == 1
    out = stdout.getvalue()
    assert stderr.getvalue() == ""
    assert out.count(ask) == 2  # «В» is a jack's letter, not a stop; n goes on; y stops
    assert out.rstrip().endswith(stopped)
    assert recorded not in out  # nothing was recorded without --record
    assert "пас\nИгрок: " not in out  # the line after the stop was never read


def test_a_closed_pipe_ends_quietly(tmp_path: Path) -> None:
    line = f"{sys.executable} -m bot play mushka --seed 3 | head -n 3"
    done = subprocess.run(
        ["bash", "-o", "pipefail", "-c", line],
        input="?\n" * 4000,  # 33 lines each: far more than a pipe holds
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        check=False,
    )
    assert len(done.stdout.splitlines()) == 3
    assert done.stderr == ""  # no BrokenPipeError traceback
    assert done.returncode == 1  # stopped before its end, said by the code alone


@pytest.mark.parametrize("lang", ["ru", "en"])
@pytest.mark.parametrize(
    ("name", "args", "lines"),
    [
        (
            "exchange",
            ["mushka", "--seed", "3"],
            ["?", "7♣", "play 2 10c", "10♠", "8h", "8♥", "8♦", ""],
        ),
        ("lenturlu_lead", ["lenturlu", "--seed", "4"], ["10", "К", "8♦ 9♣", "10s", "8♦", ""]),
        ("follow", ["kopilka", "--seed", "5"], ["Д♠", "кб", "2"]),
    ],
)
def test_golden_terminal_turns(name: str, args: list[str], lines: list[str], lang: str) -> None:
    """The terminal's own lines of one turn (from its hint line to the move played): the list or
    the count, the marks, the questions and refusals — the screens above them are the bot's."""
    _, out = scripted([*args, "--lang", lang], lines)
    shown = out.splitlines()
    hint = {"ru": ("введите", "Можно"), "en": ("type", "Playable")}[lang]
    start = next(i for i, ln in enumerate(shown) if any(h in ln for h in hint))
    you = {"ru": "Игрок: ", "en": "Player: "}[lang]
    end = next(i for i in range(start, len(shown)) if shown[i].startswith(you))
    assert_golden(f"terminal_{name}", lang, "\n".join(shown[start : end + 1]) + "\n")


SECOND_PERSON = {  # «Вы»/"You" put into a third-person sentence of the screens
    "ru": re.compile(
        r"(?:сдаёт|ходит|Ход:|победитель:?) Вы\b"
        r"|\bВы (?:играет|сдаёт|берёт|пасует|ходит)"
    ),
    "en": re.compile(r"\bYou (?:deals|plays|takes|passes|leads|wins|shows)\b"),
}


@pytest.mark.parametrize("lang", ["ru", "en"])
@pytest.mark.parametrize("game", ["mushka", "lenturlu", "kopilka"])
def test_the_person_is_named_so_that_every_sentence_agrees(game: str, lang: str) -> None:
    """The terminal's names: the person is «Игрок» / Player (or his --name) at the table,
    never a «Вы» put into «сдаёт …», "Next deal: … deals"."""
    options = ["--option", "target=5"] if game == "mushka" else []
    played = drive([game, "--seed", "3", "--level", "easy", "--lang", lang, *options])
    assert played.finished
    assert not SECOND_PERSON[lang].search(played.out)
    assert {"ru": "Игрок", "en": "Player"}[lang] in played.out
    named = drive(
        [game, "--seed", "3", "--level", "easy", "--lang", lang, "--name", "Ася", *options]
    )
    assert "Ася: " in named.out and not SECOND_PERSON[lang].search(named.out)


def test_a_name_too_long_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    code = play_main(["mushka", "--name", "x" * 65], io.StringIO(""), io.StringIO(), io.StringIO())
    assert code == 2 and "--name: 1 to 64" in capsys.readouterr().err
