"""What the terminal game says between its screens, through a pipe (a fixed deal; the record
written to check against): who deals
first and why, a header where each deal begins (before its first move), who took each trick,
one's own moves told as everyone's are; ``--explain`` names no clause a player can't open."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from bot.game_names import GAME_NAMES, game_name
from bot.i18n import Catalogues
from bot.render.how_to_play import rules_text
from bot.terminal.play import LOCALES, play_main
from engine.cards import Card, Rank, Suit
from engine.events import Deal, Seats
from engine.lines import LineKind, is_kind
from engine.record import read_jsonl
from tests.bot.terminal_driver import run_play

RULE = "─" * 40
CATALOGUES = Catalogues.load(LOCALES)
# each card of a full deck, then Enter (a marked card confirmed) and 1 (the first of a list, if
# one is asked), and a pass now and then: the game goes on through deals whatever was dealt
BLIND = "".join(f"{Card(rank, suit)}\n\n1\n" for suit in Suit for rank in Rank) + "pass\n"
WORDS = {
    "en": {
        "draw": "Draw (lowest card deals): ",
        "deal": "Deal {no} · {name} deals",
        "trick": "→ {name} takes trick {no} ({card})",
        "you": "Player",
    },
    "ru": {
        "draw": "Жребий (сдаёт младшая карта): ",
        "deal": "Сдача {no} · сдаёт {name}",
        "trick": "→ взятку {no} берёт {name} ({card})",
        "you": "Игрок",
    },
}
LABELS = {  # one's own move said as the button's label (an infinitive), not as a move told
    # (ru «пас» is both: the others' passes are told so too)
    "en": re.compile(r"^Player: (?:play, |lay out |take |sweep |run |discard|buy |pass$)"),
    "ru": re.compile(r"^Игрок: (?:играю|выложить |взять |смести |ряд |сбросить|купить )"),
}


def played(game: str, lang: str, tmp_path: Path) -> tuple[list[str], list[dict[str, object]]]:
    record = tmp_path / "game.jsonl"
    # a fixed deal, so what is checked is the narration, not which deals chance gave
    args = [game, "--level", "easy", "--lang", lang, "--seed", "3", "--record", str(record)]
    done = run_play(args, BLIND * 8, tmp_path)
    assert done.stderr == "", done.stderr[-2000:]
    lines = done.stdout.splitlines()
    assert lines[0].endswith(": 3")  # «Seed: 3» comes first with a seed
    return lines[1:], read_jsonl(record.read_text(encoding="utf-8"))


@pytest.mark.parametrize(
    ("game", "lang"), [("mushka", "en"), ("mushka", "ru"), ("kopilka", "en"), ("konchinka", "en")]
)
def test_the_draw_each_deal_and_each_trick_are_said_where_they_happen(
    game: str, lang: str, tmp_path: Path
) -> None:
    out, record = played(game, lang, tmp_path)
    words = WORDS[lang]
    seats = Seats.of(next(ln for ln in record if is_kind(ln, LineKind.SEATS)))
    names = _names(out, seats.players, words["you"])
    if seats.draw:  # the first line: the draw, every seat's card
        assert out[0].startswith(words["draw"])
        for seat, card in enumerate(seats.draw[0]):
            assert card is not None and f"{names[seat]} {_card(card, lang)}" in out[0]
    deals = [Deal.of(ln) for ln in record if is_kind(ln, LineKind.DEAL)]
    assert len(deals) >= 2  # a deal ended and the next began
    at = 0
    for deal in deals:
        header = words["deal"].format(no=deal.no, name=names[deal.dealer])
        at = out.index(header, at)
        assert out[at - 1] == RULE
        before = out[at - 2] if at >= 2 else ""
        assert not _is_move(before, names), before  # nothing of this deal above its header
    tricks = [ln for ln in record if ln.get("e") == "trick"]
    said = [ln for ln in out if ln.startswith("→ ")]
    assert len(said) == len(tricks)
    for line, trick in zip(said, tricks, strict=True):
        winner = int(str(trick["winner"]))
        card = next(Card.parse(str(c)) for s, c in trick["plays"] if s == winner)  # type: ignore[attr-defined]
        shown = words["trick"].format(name=names[winner], no=trick["no"], card=_card(card, lang))
        assert line.startswith(shown), (line, shown)
    assert not [ln for ln in out if LABELS[lang].match(ln)]  # one's own moves told, not labels


def _card(card: Card, lang: str) -> str:
    from bot.render.cards import card_name

    return card_name(card, lang)


def _names(out: list[str], players: int, you: str) -> list[str]:
    """The seats' names as the table lists them (``1. Player — …``, ``2. 🤖 Fyodor (dlr) …``)."""
    found: dict[int, str] = {}
    for line in out:
        match = re.match(r"^(\d)\. (.+?)(?: \([^)]*\))? — ", line)
        if match is not None:
            found.setdefault(int(match.group(1)) - 1, match.group(2))
    assert found[0] == you
    return [found[s] for s in range(players)]


def _is_move(line: str, names: list[str]) -> bool:
    return any(line.startswith(f"{name}: ") for name in names)


@pytest.mark.parametrize(
    ("lang", "typed", "refused"),
    [
        ("ru", "пас", "Так нельзя: с Т♠ на руке не пасуют. (privileged_may_not_pass)"),
        ("en", "pass", "Not allowed: with A♠ you may not pass. (privileged_may_not_pass)"),
    ],
)
def test_explain_names_the_engines_code_and_no_clause(lang: str, typed: str, refused: str) -> None:
    # seed 6: the A♠ in hand at the declaration, a rule with a clause in the engine's comments
    args = ["mushka", "--players", "4", "--level", "easy", "--seed", "6", "--lang", lang]
    out, err = io.StringIO(), io.StringIO()
    assert play_main([*args, "--explain"], io.StringIO(f"{typed}\n"), out, err) == 1
    assert refused in out.getvalue().splitlines()
    assert "§" not in out.getvalue()


TITLE = {"ru": "Как играть: {game}", "en": "How to play {game}"}
UNKNOWN = {"ru": "Непонятный ход", "en": "Unknown action"}


@pytest.mark.parametrize("lang", ["ru", "en"])
@pytest.mark.parametrize("game", list(GAME_NAMES))
def test_rules_at_the_prompt_tell_the_game_in_words(game: str, lang: str) -> None:
    stdin = io.StringIO("rules\nq\ny\n" if lang == "en" else "Правила\nq\ny\n")
    out, err = io.StringIO(), io.StringIO()
    # a fixed deal: the person reaches a prompt of his own (the rules, not the deal, are tested)
    assert play_main([game, "--lang", lang, "--seed", "3"], stdin, out, err) == 1
    said = out.getvalue()
    assert err.getvalue() == ""
    assert UNKNOWN[lang] not in said
    title = TITLE[lang].format(game=game_name(game, lang))
    rules = said.split(title, 1)[1].split("\n\n")  # the title, then its paragraphs
    expected = rules_text(game, CATALOGUES.tr(lang)).split("\n\n")[1:]
    shown = [" ".join(p.split()) for p in rules[1 : len(expected) + 1]]
    assert shown == [" ".join(p.split()) for p in expected]  # wrapped, not changed
    assert all(len(line) <= 78 for p in rules[1 : len(expected) + 1] for line in p.splitlines())
    assert len(expected) >= 2 and "§" not in said


def test_rules_through_a_pipe_without_a_seed(tmp_path: Path) -> None:
    done = run_play(["kopilka", "--lang", "en"], "rules\n", tmp_path)
    assert done.stderr == "" and done.returncode == 1
    assert "How to play Kopilka" in done.stdout and "Unknown action" not in done.stdout
    assert "At your turn: “rules” tells the rules, ? lists your moves, q stops." in done.stdout


def test_a_bare_number_that_is_a_rank_in_hand_is_never_taken_for_the_list() -> None:
    # seed 1: 2♥ 9♣ J♠ Q♠ in hand, a list of 4 captures (the 2nd: 2♥ takes 2♠)
    args = ["konchinka", "--seed", "1", "--lang", "en"]
    out, err = io.StringIO(), io.StringIO()
    play_main(args, io.StringIO("9\n9♣\n2\n"), out, err)
    said = out.getvalue()
    assert "No action 9" not in said  # 9 is beyond the list: a rank, so which nine?
    assert "Which card: 9♣, 9♦? Name its suit too." in said
    assert "Player: takes 9♦ with 9♣" in said
    ru = io.StringIO()
    play_main([*args[:-1], "ru"], io.StringIO("2\n2.\n"), ru, err)
    lines = ru.getvalue().splitlines()
    asked = lines.index(  # 2 is both a card in hand and a move of the list: asked, not played
        "Ваш ход (q — выход): 2"
    )
    assert lines[asked + 1] == (
        "«2»: ваша карта или ход 2 из списка? Назовите карту с мастью, а ход из списка — "
        "номером с точкой: 2."
    )
    assert lines[asked + 2] == "Ваш ход (q — выход): 2."
    assert lines[asked + 3] == "Игрок: берёт картой 2♥: 2♠"  # «2.»: the list's, by its number
