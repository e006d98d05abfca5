"""The lobby's options pane of Лентюрлю and Кончинка as the players see it, ru and en: each
option labelled with what it counts in (kopecks, units), and only the options that count shown
on the options line (Кончинка's stake not with payment per point, its point value not with the
pot; engine.options.applies)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.callbacks import PressCodec
from bot.i18n import Catalogues
from bot.render.lobby import lobby
from bot.storage.rows import SeatRow, TableRow, TableStatus
from engine.games import GAMES
from engine.options import options_dict, parse_options
from tests.bot.golden import assert_golden, show

ROOT = Path(__file__).resolve().parents[2]
CATALOGUES = Catalogues.load(ROOT / "locales")
CODEC = PressCodec.from_token("123456:TEST-token")
NAMES = {"ru": ("Аня", "Борис", "Вера"), "en": ("Anya", "Boris", "Vera")}
PANES: dict[str, tuple[str, dict[str, Any]]] = {
    "lenturlu_lobby_options": ("lenturlu", {}),
    "konchinka_lobby_options": ("konchinka", {}),
    "konchinka_lobby_options_pot": ("konchinka", {"payment": "pot"}),
}


def pane(name: str, locale: str) -> str:
    game, given = PANES[name]
    options = options_dict(parse_options(GAMES[game].options_type, given))
    seats = [SeatRow(i, 100 + i, n) for i, n in enumerate(NAMES[locale])]
    table = TableRow(42, -100, game, options, TableStatus.LOBBY, 100, "j", 0, 0)
    return show(lobby(table, seats, CATALOGUES.tr(locale), CODEC, options_view=True))


@pytest.mark.parametrize("locale", ["ru", "en"])
@pytest.mark.parametrize("name", sorted(PANES))
def test_lobby_options_say_what_they_count_in(name: str, locale: str) -> None:
    text = pane(name, locale)
    line = next(ln for ln in text.splitlines() if ln.startswith(("Опции", "Options")))
    if name == "konchinka_lobby_options":
        assert ("ставка" not in line) and ("stake" not in line), line
    if name == "konchinka_lobby_options_pot":
        assert ("ставка" in line) or ("stake" in line), line
    assert_golden(name, locale, text)
