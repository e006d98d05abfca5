"""A hand message's mode (PRODUCT.md §6.3): typed as the bot reads it, stored as the same text
as before (the ``hands`` table's ``mode`` column, no migration)."""

from __future__ import annotations

import pytest

from bot.presses.meaning import PLAIN, HandMode, HandUI, ModeKind
from engine.cards import Card

STORED = {  # every text a hand writes → what it reads as
    "": HandMode(),
    "x": HandMode(ModeKind.EXCHANGE),
    "q": HandMode(ModeKind.DISCARD),
    "t:QS": HandMode(ModeKind.RETRUMP, Card.parse("QS")),
    "r": HandMode(ModeKind.RUN_FIRST),
    "m": HandMode(ModeKind.RUN),
    "c:10D": HandMode(ModeKind.CHOOSE, Card.parse("10D")),
}


@pytest.mark.parametrize("text", list(STORED))
def test_a_stored_mode_reads_typed_and_writes_back_the_same(text: str) -> None:
    mode = HandMode.parse(text)
    assert mode == STORED[text]
    assert str(mode) == text


def test_every_kind_is_stored_somehow() -> None:
    assert {mode.kind for mode in STORED.values()} == set(ModeKind)


@pytest.mark.parametrize("text", ["z", "t", "t:", "t:qs", "t:1S", "x:QS", "c", "m:7D", ":QS"])
def test_a_text_no_hand_writes_is_refused(text: str) -> None:
    with pytest.raises(ValueError):
        HandMode.parse(text)


def test_only_a_re_trump_and_a_choice_have_a_card() -> None:
    with pytest.raises(ValueError):
        HandMode(ModeKind.RETRUMP)
    with pytest.raises(ValueError):
        HandMode(ModeKind.EXCHANGE, Card.parse("7C"))


def test_the_card_is_read_for_its_own_kind_only() -> None:
    retrump = HandMode(ModeKind.RETRUMP, Card.parse("QS"))
    assert retrump.card_of(ModeKind.RETRUMP) == Card.parse("QS")
    assert retrump.card_of(ModeKind.CHOOSE) is None
    assert PLAIN.card_of(ModeKind.RETRUMP) is None


def test_the_hands_row_reads_and_writes_back() -> None:
    ui = HandUI.stored("7C,AS", "t:QS")
    assert ui == HandUI(("7C", "AS"), HandMode(ModeKind.RETRUMP, Card.parse("QS")))
    assert ui.columns() == ("7C,AS", "t:QS")
    assert HandUI.stored("", "") == HandUI() and HandUI().columns() == ("", "")
    assert HandUI(("7C",), "x") == HandUI(("7C",), HandMode(ModeKind.EXCHANGE))
