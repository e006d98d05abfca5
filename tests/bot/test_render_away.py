"""PRODUCT.md §13: while the computer plays for a person, his hand never says it is his turn —
in every family, at the very turn the computer is about to play for him."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.callbacks import PressCodec
from bot.i18n import Catalogues
from bot.presses.meaning import HandUI
from bot.render.games import game_ui
from bot.render.table_context import TableContext
from engine.games import new_game

CATALOGUES = Catalogues.load(Path(__file__).resolve().parents[2] / "locales")
CODEC = PressCodec.from_token("123456:TEST-token")
YOUR_TURN = (
    "your turn",
    "Your turn",
    "Your move",
    "Your lead",
    "Play or pass?",
    "Playable:",
    "tap",
)
GAMES = [("mushka", 3), ("kopilka", 4), ("lenturlu", 3), ("konchinka", 2)]


def hand_text(game: str, players: int, away: bool) -> str:
    state = new_game(game, players, 7)
    seat = state.to_act
    assert seat is not None
    ui = game_ui(game)
    assert ui is not None
    names = tuple(f"P{k}" for k in range(players))
    marks = tuple(away and k == seat for k in range(players))
    ctx = TableContext(42, game, "Friday", names, 1, 0, "b", away=marks)
    return ui.hand(ctx, state.view(seat), HandUI(), CATALOGUES.tr("en"), CODEC).text


@pytest.mark.parametrize(("game", "players"), GAMES, ids=[g for g, _ in GAMES])
def test_a_seat_the_computer_plays_for_is_never_told_it_is_his_turn(
    game: str, players: int
) -> None:
    mine = hand_text(game, players, away=False)
    assert any(w in mine for w in YOUR_TURN), mine  # his own turn says so …
    away = hand_text(game, players, away=True)
    assert not any(w in away for w in YOUR_TURN), away  # … the computer's for him does not
    assert "Waiting for" not in away  # nor that the table waits for himself


@pytest.mark.parametrize(("game", "players"), GAMES, ids=[g for g, _ in GAMES])
@pytest.mark.parametrize(
    ("left", "reminded", "shown"),
    [
        (44, False, "⏳ 0:45"),
        (90, False, "⏳ 1:30"),
        (20, True, "⏳ 0:30 — reminded"),
        (None, False, ""),
    ],
)
def test_every_familys_table_shows_whom_it_waits_for_with_the_turns_timer(
    game: str, players: int, left: int | None, reminded: bool, shown: str
) -> None:
    """PRODUCT.md §5.2's «Ход: Вера · ⏳ 0:45» on every family's table, in 15 s steps."""
    state = new_game(game, players, 7)
    seat = state.to_act
    assert seat is not None
    ui = game_ui(game)
    assert ui is not None
    names = tuple(f"P{k}" for k in range(players))
    ctx = TableContext(42, game, "Friday", names, 1, 0, "b", turn_left=left, reminded=reminded)
    text = ui.table(ctx, state.view(None), CATALOGUES.tr("en")).text
    (line,) = [ln for ln in text.splitlines() if ln.startswith(f"To play: <b>P{seat}</b>")]
    if shown:
        assert line.endswith(" · " + shown), line
    else:
        assert "⏳" not in text, text
