"""A person who has never played, in his first minutes (tests/bot/tour.py, in ru and en): /start
offers practice, /rules tells the whole game, a practice table opens from the games' list and
says it is unrated, 💡 names the strongest choices at his first decision, a stale button is
answered in words, and the game plays to its result, unrated — every screen within Telegram's
limits, with no placeholder, markup or code left in it."""

from __future__ import annotations

import re

import pytest

from bot.app import RunningBot
from bot.message_limits import MAX_TEXT
from tests.bot.tour import newcomer_tour, printed
from tests.fakeapi import FakeTelegram

WORDS = {
    "ru": {
        "practise": "🎮 Сыграть с ботом",
        "rules": "Как играть",
        "unrated": "без рейтинга",
        "hint": "💡 Сильный сыграл бы так:",
        "stale": "устарела",
        "result": "Тренировка: без рейтинга.",
    },
    "en": {
        "practise": "🎮 Practice with the bot",
        "rules": "How to play",
        "unrated": "unrated",
        "hint": "💡 The strongest computer would",
        "stale": "out of date",
        "result": "Practice game: unrated.",
    },
}
LEFTOVER = re.compile(r"\{\w*\}|%\(|</?\w+>|\b[a-z]+_[a-z_]+\b")  # a placeholder, a tag, a code


@pytest.mark.parametrize("locale", ["ru", "en"])
async def test_a_newcomer_reads_the_rules_practises_with_a_hint_and_finishes_unrated(
    fake_telegram: FakeTelegram, bot: RunningBot, locale: str
) -> None:
    fake, words = fake_telegram, WORDS[locale]
    anna = fake.add_user(101, "Anna", language_code=locale)
    steps = await newcomer_tour(fake, anna, "mushka", "target=5")
    tour = printed(steps, every=True)
    start, rules, listed, opened, hint, moved, stale, end = steps
    assert words["practise"] in start.screens[0][2], tour
    assert len(rules.screens) == 1 and words["rules"] in rules.screens[0][1], tour
    assert len(listed.screens) == 1 and listed.screens[0][2].count("[") == 7, tour
    assert any(words["unrated"] in text for _, text, _ in opened.screens), tour
    assert [how for how, _, _ in hint.screens] == ["edited"] and words["hint"] in hint.screens[0][1]
    assert moved.screens, tour
    assert [how for how, _, _ in stale.screens] == ["answer"], tour
    assert words["stale"] in stale.screens[0][1], tour
    assert any(text.startswith("🏁") and words["result"] in text for _, text, _ in end.screens)
    for step in steps:
        for _, text, rows in step.screens:
            assert len(text) <= MAX_TEXT, (step.did, len(text))
            assert not LEFTOVER.search(text + rows), (step.did, LEFTOVER.search(text), text)
