"""The tips' words (bot.render.tips): every decision each game has its tip in Russian and
English, one short line of plain words; a game whose rule differs says its own."""

from __future__ import annotations

from pathlib import Path
from typing import Final

import pytest

from bot.i18n import Catalogues
from bot.presses.meaning import ModeKind
from bot.render.tips import (
    DECLARING,
    EXCHANGING,
    GAME_TIPS,
    TIP_MARK,
    TIPS,
    tip_line,
    tip_text,
    with_tip,
)
from bot.rendered import Rendered
from engine.tips import TipKind
from tests.engine.test_tips import EXPECTED

LOCALES: Final = Path(__file__).resolve().parents[2] / "locales"
CATALOGUES: Final = Catalogues.load(LOCALES)
MOST: Final = 140  # characters of a tip's words: one line on a phone, about


@pytest.mark.parametrize("game", sorted(EXPECTED))
def test_every_decision_of_each_game_has_a_short_tip_in_both_languages(game: str) -> None:
    ru, en = CATALOGUES.tr("ru"), CATALOGUES.tr("en")
    for kind in EXPECTED[game]:
        msgid = GAME_TIPS.get((game, kind)) or TIPS[kind]
        assert ru.has(msgid) and en.has(msgid), msgid
        said = {tip_text(kind, game, tr) for tr in (ru, en)}
        assert len(said) == 2 and all(len(s) <= MOST and not set(s) & set("<>&") for s in said)


def test_a_game_s_own_tip_names_its_own_card_and_remise() -> None:
    ru = CATALOGUES.tr("ru")
    assert "Т♠" in tip_text(TipKind.MAY_NOT_PASS, "mushka", ru)
    assert "К♣" in tip_text(TipKind.MAY_NOT_PASS, "mistigri", ru)
    assert "ремиз 10" in tip_text(TipKind.MAY_NOT_PASS, "mushka", ru)
    assert "В♣" in tip_text(TipKind.MAY_NOT_PASS, "pamfil", ru)
    assert "+5" in tip_text(TipKind.DECLARE, "shutikha", ru)


def test_the_tip_goes_under_the_head_and_keeps_the_buttons() -> None:
    en = CATALOGUES.tr("en")
    hand = Rendered("🃏 head\nYour cards: A♠", None)
    tipped = with_tip(hand, TipKind.LEAD, "mushka", en)
    head, tip, rest = tipped.text.split("\n")
    assert (head, rest) == ("🃏 head", "Your cards: A♠") and tipped.markup is hand.markup
    assert tip == tip_line(TipKind.LEAD, "mushka", en) and tip.startswith(TIP_MARK)
    assert with_tip(Rendered("🃏", None), TipKind.LEAD, "kopilka", en).text.count("\n") == 1


@pytest.mark.parametrize("kind", sorted(DECLARING))
def test_a_declaration_marking_its_exchange_says_how_to_exchange(kind: TipKind) -> None:
    """After ✅ Play (or a card tapped), the hand marks the exchange: its tip says how, in both
    languages; the same decision unmarked keeps its own tip."""
    for locale, button in (("ru", "«Без замены»"), ("en", "“Keep all”")):
        tr = CATALOGUES.tr(locale)
        marking = tip_text(kind, "mushka", tr, ModeKind.EXCHANGE)
        assert marking == tr(EXCHANGING) and button in marking and len(marking) <= MOST
        assert tip_text(kind, "mushka", tr) != marking
        hand = with_tip(Rendered("🃏 head\nrest"), kind, "mushka", tr, ModeKind.EXCHANGE)
        assert hand.text.splitlines()[1] == f"{TIP_MARK} <i>{marking}</i>"
    assert tip_text(TipKind.FOLLOW_SUIT, "mushka", CATALOGUES.tr("ru"), ModeKind.EXCHANGE) == (
        tip_text(TipKind.FOLLOW_SUIT, "mushka", CATALOGUES.tr("ru"))
    )
