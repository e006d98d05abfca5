"""PRODUCT.md §5.3: the private hand says what the seat may do and why."""

from __future__ import annotations

from pathlib import Path

from bot.callbacks import PressCodec
from bot.i18n import Catalogues
from bot.presses.meaning import HandUI
from bot.render.games.trick.screen import TRICK_UI
from bot.render.table_context import TableContext
from engine.trick import TrickState
from tests.engine.trick.helpers import act as moves
from tests.engine.trick.helpers import fixed

CATALOGUES = Catalogues.load(Path(__file__).resolve().parents[2] / "locales")
CODEC = PressCodec.from_token("123456:TEST-token")
UI = TRICK_UI
HANDS = ["KS 7S 8C 10D KD", "AH KH QH JH 7C", "9S 10S 9C JC QC"]  # nobody holds the A♠


def screen(state: TrickState, seat: int, locale: str = "en") -> str:
    ctx = TableContext(42, state.game, "Friday", ("Anya", "Boris", "Vera"), 1, 0, "b")
    rendered = UI.hand(ctx, state.view(seat), HandUI(), CATALOGUES.tr(locale), CODEC)
    rows = rendered.markup.inline_keyboard if rendered.markup else []
    buttons = [b.text for row in rows for b in row]
    return rendered.text + "\n" + " ".join(f"[{b}]" for b in buttons)


def test_1_3_3_b_the_defending_dealer_is_not_asked_to_pass() -> None:
    state = fixed("mushka", 3, 2, HANDS, "9H")
    moves(state, (0, "pass"), (1, "play 0"))
    text = screen(state, 2)
    assert "You deal against a single player, so you can't pass." in text
    assert "Play or pass?" not in text and "[🙅 Pass]" not in text and "[↩️ Back]" not in text
    assert "Mark cards to exchange" in text and "[Keep all]" in text
    ru = screen(state, 2, "ru")
    assert "Вы сдающий: против одного игрока пасовать нельзя." in ru and "или пас" not in ru


def test_no_exchange_is_news_only_while_the_others_declare() -> None:
    state = fixed("mushka", 3, 2, HANDS, "9H")
    moves(state, (0, "play 0"))
    assert "\nNo exchange.\n" in screen(state, 0)
    assert "\nБез замены.\n" in screen(state, 0, "ru")
    moves(state, (1, "play 0"), (2, "play 0"))
    assert "No exchange" not in screen(state, 0) and "Без замены." not in screen(state, 0, "ru")


def test_a_passed_seat_is_told_so_all_deal() -> None:
    state = fixed("mushka", 3, 2, HANDS, "9H")
    moves(state, (0, "pass"))
    text = screen(state, 0, "ru")
    assert "Вы пасуете в этой сдаче." in text and "⏳ Ход не ваш — стол в группе." in text
    assert "Ваши карты" not in text
    moves(state, (1, "play 0"), (2, "play 0"), (1, "card AH"))
    assert "You passed this deal." in screen(state, 0)


def test_the_declare_screen_says_what_a_card_tap_does() -> None:
    state = fixed("mushka", 3, 2, HANDS, "9H")
    text = screen(state, 0)
    assert "Play or pass?\nTo exchange cards, tap them." in text
    assert "[✅ Play] [🙅 Pass]" in text and "[↻ Refresh]" in text and "🔄 Refresh" not in text


SHUTIKHA_HANDS = ["QS 7D 8D 10D KD", "AH KH QH JH 7H", "9S 10S 9C QC 8H"]


def test_1_3_3_a_the_shutikha_qs_holder_is_offered_pass() -> None:
    """§1.3.3 a: the QS holder declares like anyone else; the screen names his card without
    "you can't pass"."""
    state = fixed("shutikha", 3, 2, SHUTIKHA_HANDS)
    text = screen(state, 0)
    assert "You hold the shutikha (Q♠)." in text
    assert "can't pass" not in text
    assert "Play or pass?" in text and "[🙅 Pass]" in text
    ru = screen(state, 0, "ru")
    assert "пасовать нельзя" not in ru and "[🙅 Пас]" in ru


def test_1_3_3_a_the_mushka_as_holder_still_may_not_pass() -> None:
    hands = ["AS 7D 8D 10S KD", "AH KH QH JH 7H", "9S 8S 9C QC 8H"]
    text = screen(fixed("mushka", 3, 2, hands, "9D"), 0)
    assert "You hold the mushka (A♠), so you can't pass." in text
    assert "[🙅 Pass]" not in text and "Play or pass?" not in text


def test_1_3_3_b_a_shutikha_dealer_with_the_qs_defends_for_the_dealer_s_reason() -> None:
    """The QS does not bar the pass: against a single player the dealer's duty is the reason."""
    hands = ["AH KH QH JH 7H", "9S 10S 9C QC 8H", "QS 7D 8D 10D KD"]
    state = fixed("shutikha", 3, 2, hands)
    moves(state, (0, "play 0"), (1, "pass"))
    text = screen(state, 2)
    assert "You deal against a single player, so you can't pass." in text
    assert "shutikha (Q♠), so you can't pass" not in text and "[🙅 Pass]" not in text
    ru = screen(state, 2, "ru")
    assert "Вы сдающий: против одного игрока пасовать нельзя." in ru
