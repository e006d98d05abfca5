"""💡 at a practice table of Копилка, Лентюрлю and Кончинка through the fake Bot API: the answer
under the person's own hand names, for its few best choices, what each is expected to bring —
money in kopecks (Копилка, Лентюрлю), deal points over the others (Кончинка), in the reader's
plural form — and the facts of the hand and the table that decided them, in Russian and in
English."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bot.app import RunningBot
from bot.i18n import Catalogues
from bot.render.hint import FACT_WORDS
from engine.players.facts import Fact
from tests.bot.helpers import hand_message, press_and_wait
from tests.bot.test_e2e_computers import GAMES, Chooser
from tests.bot.test_e2e_hints import hint_button
from tests.bot.test_e2e_practice import practising, waiting
from tests.fakeapi import FakeTelegram

CATALOGUES = Catalogues.load(Path(__file__).resolve().parents[2] / "locales")
HEAD = {"ru": "💡 Сильный сыграл бы так:", "en": "💡 The strongest computer would choose:"}
AVERAGE = {"ru": "в среднем", "en": "on average"}
MONEY = {"ru": ("копейка", "копейки", "копеек"), "en": ("kopeck", "kopecks")}
POINTS = {
    "ru": ("очко против соперников", "очка против соперников", "очков против соперников"),
    "en": ("point over the others", "points over the others"),
}
UNIT = {"kopilka": MONEY, "lenturlu": MONEY, "konchinka": POINTS}
"""Each family's value as its hint says it, in the number's plural form."""
DECISIONS = 12
"""The person's decisions asked at most until a hint names a fact (a forced move names none)."""

CHOOSERS: dict[str, Chooser] = {game: choose for game, _, _, choose in GAMES}


@pytest.mark.parametrize("lang", ["ru", "en"])
@pytest.mark.parametrize("game", ["kopilka", "lenturlu", "konchinka"])
async def test_a_practice_hint_names_the_facts_and_the_money_of_each_choice(
    fake_telegram: FakeTelegram, bot: RunningBot, game: str, lang: str
) -> None:
    fake = fake_telegram
    anna = fake.add_user(101, "Anna", language_code=lang)
    await anna.start_bot()
    await practising(fake, anna, f"/practice {game}")
    tr = CATALOGUES.tr(lang)
    words = {tr(FACT_WORDS[f]): f for f in Fact}
    rng = random.Random(game)
    for _ in range(DECISIONS):
        await fake.wait_until(
            lambda: (h := hand_message(anna)) is not None and not waiting(h), timeout=20
        )
        await fake.settle(quiet=0.05)
        hand = hand_message(anna)
        assert hand is not None and hint_button(hand)
        move = CHOOSERS[game](hand, rng)  # the move to make after asking, chosen before
        answer = await anna.press(hand, "💡")
        assert not answer.text, answer.text
        await fake.wait_until(
            lambda: (h := hand_message(anna)) is not None and HEAD[lang] in h.text, timeout=20
        )
        shown = hand_message(anna)
        assert shown is not None
        lines = shown.text.split(HEAD[lang], 1)[1].strip().splitlines()
        named = [w for line in lines for w in words if w in line]
        if lines and lines[0].startswith("• ") and named:
            assert 1 <= len(lines) <= 3
            assert all(ln.startswith("• ") and AVERAGE[lang] in ln for ln in lines)
            assert all(any(f" {u}" in ln for u in UNIT[game][lang]) for ln in lines)
            return
        await press_and_wait(fake, anna, shown, move, [anna], anna)
    raise AssertionError(f"no hint named a fact in {DECISIONS} decisions")
