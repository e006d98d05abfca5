"""/rules' full text (bot/render/rules.py): every game in both languages fits Telegram's
limits, says its special cards, how it is counted, what a table may change, with an example —
and no clause number or option code a player can't read."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.i18n import Catalogues
from bot.markup import unmarked
from bot.message_limits import MAX_TEXT, plain_length
from bot.render.rules import rules_pages

CATALOGUES = Catalogues.load(Path(__file__).resolve().parents[2] / "locales")
GAMES = ("mushka", "pamfil", "shutikha", "mistigri", "kopilka", "lenturlu", "konchinka")

SPECIAL: dict[str, tuple[str, ...]] = {
    "mushka": ("♠",),
    "pamfil": ("♣",),
    "shutikha": ("♠",),
    "mistigri": ("♣",),
    "kopilka": ("♠",),
    "lenturlu": ("7♦", "♥", "♣", "♠"),
    "konchinka": ("2♣", "10♦"),
}
"""The special cards' suits or cards, as the text shows them in either language."""

SPECIAL_RANK = {
    "ru": {"mushka": "Т♠", "pamfil": "В♣", "shutikha": "Д♠", "mistigri": "К♣", "kopilka": "Т♠"},
    "en": {"mushka": "A♠", "pamfil": "J♣", "shutikha": "Q♠", "mistigri": "K♣", "kopilka": "A♠"},
}

SCORING = {
    "ru": {"trick": "списыва", "kopilka": "очк", "lenturlu": "плат", "konchinka": "Очки"},
    "en": {"trick": "writes off", "kopilka": "points", "lenturlu": "pay", "konchinka": "Points"},
}
CHANGES = {"ru": "Что можно изменить за столом", "en": "What a table may change"}
EXAMPLE = {"ru": "Пример.", "en": "An example."}
CHOICES = {
    "ru": {
        "trick": ("Ваш выбор. Играть или пасовать", "Обмен"),
        "kopilka": ("Ваш выбор. Ход", "Ответ", "купите", "пас"),
        "lenturlu": ("Ваш выбор. Ход", "Ответ", "купите", "спасуйте", "Король на чужую"),
        "konchinka": ("Ваш выбор. Ход — одна карта", "брать обязательно", "выложите карту"),
    },
    "en": {
        "trick": ("Your choices. Play or pass", "Exchange"),
        "kopilka": ("Your choices. Lead", "Follow", "buy 1 or 2", "pass"),
        "lenturlu": ("Your choices. Lead", "Follow", "buy 1 or 2", "pass", "A king played onto"),
        "konchinka": ("Your choices. A move is one card", "you must take", "you lay a card"),
    },
}
"""What each decision is, as the «Your choices» paragraph names it."""
CODE_LIKE = re.compile(r"§|\b[a-z]+_[a-z_]+\b|\{|\}")


def full(game: str, lang: str) -> list[str]:
    return [str(page) for page in rules_pages(game, CATALOGUES.tr(lang))]


@pytest.mark.parametrize("lang", ["ru", "en"])
@pytest.mark.parametrize("game", GAMES)
def test_every_games_full_rules_fit_and_say_cards_scoring_options_example(
    game: str, lang: str
) -> None:
    pages = full(game, lang)
    assert pages and all(plain_length(page) <= MAX_TEXT for page in pages)
    text = unmarked("\n".join(pages))
    assert all(card in text for card in SPECIAL[game])
    if game in SPECIAL_RANK[lang]:
        assert SPECIAL_RANK[lang][game] in text
    family = "trick" if game in ("mushka", "pamfil", "shutikha", "mistigri") else game
    assert SCORING[lang][family] in text
    assert CHANGES[lang] in text and EXAMPLE[lang] in text
    choices = text[text.index(CHOICES[lang][family][0]) :]  # what each decision means
    assert all(word in choices.split("\n\n")[0] for word in CHOICES[lang][family])
    assert not CODE_LIKE.search(text), CODE_LIKE.search(text)


def test_full_rules_say_more_than_the_groups_summary() -> None:
    """The private text is the whole game (several paragraphs), not the group's three lines."""
    for game in GAMES:
        text = "\n".join(full(game, "ru"))
        assert text.count("\n\n") >= 4, game
