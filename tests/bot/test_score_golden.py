"""Goldens of /score's leaderboards, ru and en: a group's boards with names of every
length (one letter to Telegram's 64, emoji, markup characters), computer levels among the
people, a person not rated yet, how many of a person's rated games had other people in them (a
computer level's games alone), a game's own points; /score me with its place; a person's lines
across groups. Every page fits Telegram's limit and parses."""

from __future__ import annotations

import pytest

from bot.markup import Html
from bot.message_limits import MAX_TEXT
from bot.render.score import mine, score
from bot.runtime.scoreboard import Board, BoardLine
from tests.bot.golden import assert_golden
from tests.bot.test_text_limits import CATALOGUES, parsed
from tests.fakeapi.html import utf16_len

NAMES = ["Я", "Аня <b>&amp;</b>", "🦄" * 64, "Бо" * 32, "Vera Long-Name von Kessel-Trautmann"]


def boards() -> list[Board]:
    mushka = (
        BoardLine(101, NAMES[0], "", 41, 12, 12, 230),
        BoardLine(0, "", "hard", 33, 57, 37, 410),
        BoardLine(102, NAMES[1], "", 18, 9, 6, -45),
        BoardLine(103, NAMES[2], "", 0, 1, 0, -12),
        BoardLine(0, "", "easy", -7, 31, 0, -301),
        BoardLine(104, NAMES[3], "", -15, 4, 4, -272),
        BoardLine(105, NAMES[4], "", None, 2, 0, 0),
    )
    kopilka = (
        BoardLine(102, NAMES[1], "", 12, 3, 3, 95, 57),
        BoardLine(0, "", "normal", 4, 3, 2, -35),
        BoardLine(101, NAMES[0], "", -3, 2, 2, -60, 21),
    )
    return [Board("kopilka", kopilka), Board("mushka", mushka)]


def fits(pages: list[Html]) -> str:
    for page in pages:
        text, _ = parsed(page)
        assert utf16_len(text) <= MAX_TEXT
    return "\n—— next message ——\n".join(pages)


@pytest.mark.parametrize("locale", ["ru", "en"])
def test_the_group_leaderboard(locale: str) -> None:
    tr = CATALOGUES.tr(locale)
    now = Html("Сейчас за столом (Мушка, пулька 2): Я 7 · Аня 12")
    text = fits(score("Пятница <i>", now, boards(), tr))
    assert text.count("🦄") < 64  # the long name is cut …
    assert "&lt;b&gt;" in text  # … and a name is never markup
    assert_golden("score_board", locale, text)


@pytest.mark.parametrize("locale", ["ru", "en"])
def test_score_me_with_the_place_and_across_groups(locale: str) -> None:
    tr = CATALOGUES.tr(locale)
    text = fits(mine("Пятница", boards(), 102, tr))
    text += "\n\n" + fits(mine("", boards(), 101, tr))
    text += "\n\n" + fits(mine("Пятница", boards(), 999, tr))
    assert_golden("score_me", locale, text)
