"""The lobby names every option and every enum value in the chat's language (RULES.md §3.6,
§4.5 option tables): no engine word (``king``, ``pot``) reaches players untranslated."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.i18n import Catalogues
from bot.render.lobby import options_line
from bot.storage.rows import TableRow, TableStatus
from engine.games import GAMES
from engine.options import option_fields

CATALOGUES = Catalogues.load(Path(__file__).resolve().parents[2] / "locales")
ENUMS = [
    (game, f.name, value)
    for game, spec in GAMES.items()
    for f in option_fields(spec.options_type)
    if f.metadata["kind"] == "enum"
    for value in f.metadata["choices"]
]


def _line(game: str, name: str, value: str, locale: str) -> str:
    row = TableRow(1, -1, game, {name: value}, TableStatus.LOBBY, 1, "x", 0, 0)
    return options_line(row, CATALOGUES.tr(locale))


def test_every_game_has_enum_options_covered() -> None:
    assert {(g, n) for g, n, _ in ENUMS} >= {("lenturlu", "manner"), ("konchinka", "payment")}


@pytest.mark.parametrize(("game", "name", "value"), ENUMS)
def test_enum_value_in_words(game: str, name: str, value: str) -> None:
    ru, en = _line(game, name, value, "ru"), _line(game, name, value, "en")
    assert not ru.endswith(f": {value}"), ru  # the Russian line never shows the engine's word
    assert name not in ru.split(":", 1)[1].split(":")[0], ru  # nor the option's engine name
    assert ru != en


def test_values_of_one_option_read_differently() -> None:
    for game, name in {(g, n) for g, n, _ in ENUMS}:
        for locale in ("ru", "en"):
            lines = {_line(game, name, v, locale) for g, n, v in ENUMS if (g, n) == (game, name)}
            assert len(lines) == len([1 for g, n, _ in ENUMS if (g, n) == (game, name)])
