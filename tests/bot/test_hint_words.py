"""💡's answer in words (bot/render/hint.py): one line per choice with its signed mean and the
facts in the reader's language, and a lone candidate named without figures."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.i18n import Catalogues
from bot.render.hint import FACT_WORDS, amount, hint_html, signed
from engine.cards import Card
from engine.konchinka.actions import Trail
from engine.players import computer
from engine.players.advice import Advice, Choice, Fact, Unit, ValueParts, advise
from engine.trick.actions import PASS, Exchange
from tests.engine.players_common import first_trick_view, midgame

CATALOGUES = Catalogues.load(Path(__file__).resolve().parents[2] / "locales")


def test_signed_keeps_one_decimal_with_a_true_minus() -> None:
    assert [signed(v) for v in (0.44, -2.06, 0.0, -0.04, 3.0)] == [
        "+0.4",
        "−2.1",
        "0.0",
        "0.0",
        "+3.0",
    ]


def test_every_fact_has_its_words_in_both_languages() -> None:
    assert set(FACT_WORDS) == set(Fact)
    ru, en = CATALOGUES.tr("ru"), CATALOGUES.tr("en")
    for words in FACT_WORDS.values():
        assert ru.has(words) and en.has(words) and ru(words) != en(words)


def test_a_hint_lists_each_choice_with_its_value_and_why() -> None:
    view = first_trick_view("mushka", 3, 4)
    advice = advise(view, 1)
    assert advice.samples > 0 and len(advice.choices) > 1
    text = hint_html(advice, CATALOGUES.tr("ru"))
    head, *lines = text.splitlines()
    assert head == "💡 <b>Сильный сыграл бы так:</b>"
    assert len(lines) == len(advice.choices)
    for line, choice in zip(lines, advice.choices, strict=True):
        assert choice.parts is not None
        written = amount(choice.parts.base, Unit.COUNT, CATALOGUES.tr("ru"))
        assert line.startswith("• ") and f"в среднем {written}" in line
        for fact in choice.facts:
            assert CATALOGUES.tr("ru")(FACT_WORDS[fact]) in line


def test_a_lone_candidate_is_named_without_figures() -> None:
    lone = Advice((Choice(PASS, 0.0, ()),), 0)
    assert hint_html(lone, CATALOGUES.tr("ru")) == "💡 Сильный сыграл бы так: пас."
    many = Advice((Choice(Exchange(()), 1.5, (Fact.STRONG_HAND,)), Choice(PASS, -0.5, ())), 40)
    text = hint_html(many, CATALOGUES.tr("en"))
    assert text.splitlines()[1].endswith(
        "+1.5 points off the count on average: enough strong cards"
    )
    assert text.splitlines()[2].endswith("−0.5 points off the count on average")


def test_a_trick_hint_says_the_chance_of_reaching_zero_apart_from_the_points() -> None:
    """The search's worth of a pulka won is not shown as points: the points written off, and
    the chance of reaching zero beside them."""
    play = Choice(Exchange(()), 3.7, (Fact.STRONG_HAND,), ValueParts(2.0, 0.17, 0.0, 10.0))
    stay = Choice(PASS, 0.0, (), ValueParts(0.0, 0.0, 0.0, 10.0))
    bold = Choice(Exchange(()), 1.0, (), ValueParts(0.5, 0.05, 0.0, 10.0))
    ru = hint_html(Advice((play, stay, bold), 40), CATALOGUES.tr("ru")).splitlines()
    assert (
        ru[1]
        == "• играю без замены — в среднем +2 очка к списанию, до нуля 17%: сильных карт хватает"
    )
    assert ru[2] == "• пас — в среднем 0 очков к списанию"
    assert ru[3].endswith("в среднем +0.5 очка к списанию, до нуля 5%")
    en = hint_html(Advice((play,), 40), CATALOGUES.tr("en")).splitlines()
    assert en[1].endswith(
        "+2 points off the count on average, 17% to reach zero: enough strong cards"
    )


def test_money_is_said_in_kopecks_with_the_number_s_plural_form() -> None:
    ru, en = CATALOGUES.tr("ru"), CATALOGUES.tr("en")
    said = [amount(v, Unit.MONEY, ru) for v in (1.0, 2.0, 5.0, -21.0, -0.5, 0.0)]
    assert said == [
        "+1 копейка",
        "+2 копейки",
        "+5 копеек",
        "−21 копейка",
        "−0.5 копейки",
        "0 копеек",
    ]
    assert [amount(v, Unit.MONEY, en) for v in (1.0, 2.5)] == ["+1 kopeck", "+2.5 kopecks"]
    assert amount(1.0, Unit.COUNT, ru) == "+1 очко к списанию"
    assert amount(-5.0, Unit.COUNT, en) == "−5 points off the count"
    assert amount(0.5, Unit.POINTS, ru) == "+0.5 очка против соперников"
    assert amount(-3.0, Unit.PULKA, ru) == "−3.0"  # Шутиха's pulka worth stays bare


def test_a_konchinka_hint_says_the_game_won_and_lost_apart() -> None:
    close = Choice(
        Trail(Card.parse("7H")), 1.1, (Fact.NOTHING_TO_TAKE,), ValueParts(0.6, 0.1, 0.05, 10)
    )
    ru = hint_html(Advice((close,), 40, Unit.POINTS), CATALOGUES.tr("ru")).splitlines()
    assert ru[1] == (
        "• положить 7♥ — в среднем +0.6 очка против соперников, победа в игре 10%, "
        "проигрыш игры 5%: взять нечем"
    )
    en = hint_html(Advice((close,), 40, Unit.POINTS), CATALOGUES.tr("en")).splitlines()
    assert en[1].endswith(
        "+0.6 points over the others on average, 10% to win the game, 5% to lose the game: "
        "nothing to take"
    )


@pytest.mark.parametrize(("game", "players"), [("kopilka", 4), ("lenturlu", 4), ("konchinka", 2)])
def test_every_family_s_hint_says_its_facts_in_both_languages(game: str, players: int) -> None:
    """A Копилка, Лентюрлю or Кончинка hint names what decided each choice, money in kopecks."""
    named = 0
    for seed in range(8):
        moves = seed % 2 if game == "lenturlu" else 2 + 2 * seed  # a Лентюрлю deal is short
        state = midgame(game, players, 80 + seed, moves, computer(game, "easy"))
        seat = state.to_act
        assert seat is not None
        view = state.view(seat)
        if len(view.legal) < 2:
            continue
        advice = advise(view, seed)
        for lang in ("ru", "en"):
            tr = CATALOGUES.tr(lang)
            lines = hint_html(advice, tr).splitlines()[1:]
            for line, choice in zip(lines, advice.choices, strict=True):
                assert all(tr(FACT_WORDS[f]) in line for f in choice.facts)
                if game != "konchinka":
                    assert ("копе" if lang == "ru" else "kopeck") in line
                named += bool(choice.facts)
    assert named > 0
