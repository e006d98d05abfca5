"""Every figure of Копилка, Лентюрлю and Кончинка says where it comes from (PRODUCT.md §5.7):
what each deal point was for, the opening table shown before a move made for the person, the
numbers agreeing with their nouns, the lay-outs said once, the stakes narrated."""

from __future__ import annotations

from pathlib import Path

from bot.i18n import Catalogues
from bot.render.games.konchinka.screen import KONCHINKA_UI
from tests.bot.golden import screen_context
from tests.bot.terminal_driver import drive
from tests.bot.test_konchinka_screens import FOUR, TWO, ending

ROOT = Path(__file__).resolve().parents[2]
CATALOGUES = Catalogues.load(ROOT / "locales")
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
