"""Every figure of Копилка, Лентюрлю and Кончинка says where it comes from (PRODUCT.md §5.7):
what each deal point was for, the opening table shown before a move made for the person, the
numbers agreeing with their nouns, the lay-outs said once, the stakes narrated."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from bot.callbacks import PressCodec
from bot.i18n import Catalogues
from bot.presses.meaning import HandUI
from bot.render.action_words import narrated
from bot.render.games.konchinka.screen import KONCHINKA_UI
from bot.render.games.kopilka.screen import KOPILKA_UI
from bot.render.games.lenturlu.screen import LENTURLU_UI
from bot.render.table_context import TableContext
from bot.runtime.scoreboard import Standings
from engine.cards import Card
from engine.core import State
from engine.games import new_game
from engine.players import computer, policy_for
from tests.bot.golden import screen_context
from tests.bot.terminal_driver import drive
from tests.bot.test_konchinka_screens import FOUR, TWO, ending
from tests.bot.test_kopilka_golden import screen as kopilka_screen
from tests.bot.test_lenturlu_screens import KING, SIX, buys
from tests.bot.test_lenturlu_screens import ending as lenturlu_ending
from tests.bot.test_lenturlu_screens import first as lenturlu_first

ROOT = Path(__file__).resolve().parents[2]
CATALOGUES = Catalogues.load(ROOT / "locales")
CODEC = PressCodec.from_token("123456:TEST-token")
NAMES = {"ru": ("Аня", "Борис", "Вера", "Глеб"), "en": ("Anya", "Boris", "Vera", "Gleb")}


def konchinka_deal_result(path: Path, kind: str, locale: str) -> str:
    before_lines, events, before, after = ending(path, 0, kind)
    ctx = screen_context("konchinka", before_lines, NAMES[locale][: before.players], locale)
    return KONCHINKA_UI.deal_result(ctx, events, after.view(None), CATALOGUES.tr(locale))


def test_konchinka_deal_line_names_each_point_it_scored() -> None:
    ru = konchinka_deal_result(TWO, "last_take", "ru").splitlines()
    assert (
        "Аня +4 → всего 4: больше всех карт (34) +2 · больше всех треф (7) +1 · кончинка 10♦ +1"
        in ru
    )
    assert "Борис +1 → всего 1: кончинка 2♣ +1 · 18 карт · 6 треф" in ru
    en = konchinka_deal_result(FOUR, "last_take", "en").splitlines()
    assert "Anya +2 → total 2: cards tied for most (16) +1 · konchinka 10♦ +1 · 5 clubs" in en
    assert "Boris 0 → total 0: 12 cards · 3 clubs" in en


def test_konchinka_early_finish_names_the_points_it_is_sure_of() -> None:
    en = konchinka_deal_result(FOUR, "certain", "en").splitlines()
    assert "Gleb +3 → total 7: most cards (19) +2 · most clubs (7) +1" in en
    assert "Vera +1 → total 3: konchinka 10♦ +1 · 8 cards · 1 club" in en


def test_konchinka_target_is_said_after_the_first_deal_only() -> None:
    first = konchinka_deal_result(TWO, "last_take", "en")  # deal 1
    later = konchinka_deal_result(FOUR, "certain", "en")  # deal 2
    assert "The game is to 5 points." in first.splitlines()
    assert "The game is to" not in later


def test_konchinka_opening_table_is_shown_before_a_forced_first_move() -> None:
    played = drive(["konchinka", "--seed", "4", "--lang", "ru"], most=1)
    out = played.out.splitlines()
    laid = out.index("На стол открыты: 7♦ 8♦ 6♠ 4♣")
    swept = next(i for i, line in enumerate(out) if "(единственный ход)" in line)
    assert laid < swept


def kopilka_after(seed: int, moves: int) -> Any:  # the state of Копилка
    """A seeded Копилка partia, every seat played by the computer for ``moves`` actions."""
    state: Any = new_game("kopilka", 4, seed, {})
    policy = computer("kopilka", "normal")
    rng = random.Random(seed)
    for _ in range(moves):
        seat = state.to_act
        assert seat is not None
        state.apply(seat, policy(state.view(seat), rng))
    return state


def kopilka_context(state: State, locale: str) -> TableContext:
    return TableContext(
        table_id=42,
        game="kopilka",
        chat_title="Friday",
        names=NAMES[locale],
        match_no=1,
        moves=0,
        bot_username="mushka_test_bot",
        options=dict(state.record()[0]["options"]),
    )


def test_kopilka_lay_outs_at_a_deal_start_are_one_line_said_until_the_lead() -> None:
    state = kopilka_after(1, 0)
    tr = CATALOGUES.tr("ru")
    ctx = kopilka_context(state, "ru")
    layouts = state.view(None).layouts
    assert len(layouts) >= 2
    lines = KOPILKA_UI.table(ctx, state.view(None), tr).text.splitlines()
    told = [line for line in lines if line.startswith("📤")]
    assert len(told) == 1
    for lay in layouts:
        assert f"{NAMES['ru'][lay.seat]} " in told[0]
    seat = state.to_act
    assert seat is not None
    state.apply(seat, computer("kopilka", "normal")(state.view(seat), random.Random(1)))
    after = KOPILKA_UI.table(ctx, state.view(None), tr).text
    assert "📤" not in after


def test_kopilka_received_cards_are_listed_once_and_only_while_held() -> None:
    tr = CATALOGUES.tr("en")
    gone = kopilka_after(1, 0)  # Boris received the Q♥ and laid it out again
    view = gone.view(1)
    assert any(Card.parse("QH") in lay.taken for lay in view.layouts)
    text = KOPILKA_UI.hand(kopilka_context(gone, "en"), view, HandUI(), tr, CODEC).text
    assert "Q♥" not in text
    twice = kopilka_after(3, 70)  # Boris received the K♠ twice: from Anya, then from Gleb
    view = twice.view(1)
    text = KOPILKA_UI.hand(kopilka_context(twice, "en"), view, HandUI(), tr, CODEC).text
    received = next(line for line in text.splitlines() if line.startswith("📥"))
    assert received.count("K♠") == 1
    assert "K♠ (Gleb)" in received
    assert received.startswith("📥 You received 3 cards: ")


def test_kopilka_deal_points_are_spelled_out() -> None:
    ru = kopilka_screen("kopilka_deal_result", "ru").splitlines()
    assert (
        "Очки: Аня 16 (♦ туз — 6, ♣ 2, ♥ туз — 8) · Борис 2 (♣ 2) · Вера 3 (♦ 3) · "
        "Глеб 9 (♥ туз — 8, ♠ 1)"
    ) in ru


def test_kopilka_own_lay_out_counts_agree_with_their_nouns() -> None:
    ru = kopilka_screen("kopilka_hand_lead_received", "ru").splitlines()
    assert "📤 Ваши выкладки: ♦ ×4 (1 карта вернулась, из прикупа 3 карты)" in ru
    assert "📥 Вам пришла 1 карта: К♥ (Борис)" in ru


def test_kopilka_buys_agree_with_their_number() -> None:
    ru = kopilka_screen("kopilka_table_trick", "ru")
    assert "Борис покупает 1 карту" in ru
    en = kopilka_screen("kopilka_table_trick", "en")
    assert "Boris buys 1 card" in en


def lenturlu_after(seed: int, moves: int) -> Any:  # the state of Лентюрлю
    """A seeded Лентюрлю deal (4 players, manner «out»), the computer on every seat."""
    state: Any = new_game("lenturlu", 4, seed, {"manner": "out"})
    policy = policy_for("lenturlu")
    rng = random.Random(seed)
    for _ in range(moves):
        seat = state.to_act
        assert seat is not None
        state.apply(seat, policy(state.view(seat), rng))
    return state


def lenturlu_context(state: State, locale: str) -> TableContext:
    options = dict(state.record()[0]["options"])
    return TableContext(7, "lenturlu", "Friday", NAMES[locale], 1, 0, "mushka_test_bot", options)


def test_lenturlu_hand_text_marks_the_stake_cards() -> None:
    lines, state = lenturlu_first(SIX, buys)
    seat = (state.to_act + 1) % state.players  # holds the 7♦ while it carries a stake
    ctx = screen_context("lenturlu", lines, ("Аня", "Борис", "Вера", "Глеб", "Дина", "Егор"), "ru")
    text = LENTURLU_UI.hand(ctx, state.view(seat), HandUI(), CATALOGUES.tr("ru"), CODEC).text
    assert "Ваши карты: 2♦ 3♦ 7♦💰 8♠ 10♥ В♦ В♥ К♦" in text.splitlines()


def test_lenturlu_stake_taken_and_refilled_is_told() -> None:
    state = lenturlu_after(1, 5)  # Anya's J♣ took its stake
    for locale in ("ru", "en"):
        tr = CATALOGUES.tr(locale)
        ctx = lenturlu_context(state, locale)
        table = LENTURLU_UI.table(ctx, state.view(None), tr).text.splitlines()
        told = {
            "ru": "💰 Аня забирает ставку: В♣ 4 · остальные пополняют по 1",
            "en": "💰 Anya takes the stake: J♣ 4 · the others refill it, 1 each",
        }[locale]
        assert told in table
        assert f"1. {NAMES[locale][0]} — 13 {'карт' if locale == 'ru' else 'cards'}" in "\n".join(
            table
        )
    played = drive(
        ["lenturlu", "--seed", "1", "--players", "4", "--option", "manner=out", "--lang", "en"]
    )
    out = played.out.splitlines()
    at = out.index("💰 Player takes the stake: J♣ 4")
    assert out[at + 1] == "J♣ refilled: 1 from each of the others"


def test_lenturlu_result_shows_each_losers_hand_and_names_the_winner_once() -> None:
    tr = CATALOGUES.tr("ru")
    before_lines, events, before, after = lenturlu_ending(KING, 1)
    ctx = screen_context("lenturlu", before_lines, NAMES["ru"][: before.players], "ru")
    end = next(e for e in events if e.get("t") == "end")
    table = LENTURLU_UI.ended_table(ctx, before.view(None), events, tr).text
    result = LENTURLU_UI.deal_result(ctx, events, after.view(None), tr)
    final = LENTURLU_UI.match_result(ctx, end, end["winner"], Standings(), 1, tr, CODEC).text
    assert "Аня платит 59: Т♠×2 2♦ 2♥ 3♠ 7♠ 7♥ 8♠ 8♥ В♥ Д♥ — 59 очков" in result.splitlines()
    assert "Вера платит 62: Т♥ 2♠ 3♣ 3♥ 4♦ 4♥ 5♠ 6♣ 6♥ 8♦ К♥×2 — 62 очка" in result.splitlines()
    won = "Борис закрывает кучку картой К♠ и выигрывает"
    assert (table + result + final).count(" и выигрывает") == 1 and won in table
    assert "Борис" not in result and "Борис" not in final.splitlines()[0]


def test_lenturlu_one_card_is_not_called_a_run_and_buys_agree() -> None:
    ru = CATALOGUES.tr("ru")
    assert narrated("run 9S", ru) == "кладёт 9♠"
    assert narrated("run 9S 10S", ru) == "кладёт ряд 9♠ 10♠"
    assert narrated("buy 1", ru) == "покупает 1 карту"
    assert narrated("buy 2", ru) == "покупает 2 карты"
    assert narrated("buy 2", CATALOGUES.tr("en")) == "buys 2 cards"


def test_terminal_narration_agrees_numbers_with_nouns() -> None:
    played = drive(["lenturlu", "--seed", "1", "--players", "4", "--option", "manner=out"])
    out = played.out.splitlines()
    assert "🤖 Фёдор: покупает 2 карты" in out and "🤖 Марфа: покупает 1 карту" in out
    assert "🤖 Фёдор: кладёт 9♠" in out
