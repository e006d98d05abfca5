"""One person against computer seats plays a whole game of each of the seven games through the
fake Bot API: the person presses only buttons the bot sent; the computers move by stored
deadlines; the game ends with its 🏁 result, is booked for the person, and nothing stays due."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from functools import partial

import pytest

from bot.app import RunningBot
from tests.bot import helpers
from tests.bot.helpers import (
    db_rows,
    hand_message,
    lobby_with_computers,
    press_and_wait,
    result_message,
    table_message,
)
from tests.bot.test_konchinka_e2e import choose as konchinka_choose
from tests.bot.test_kopilka_e2e import choose as kopilka_choose
from tests.bot.test_lenturlu_e2e import choose as lenturlu_choose
from tests.databases import TestDatabase
from tests.fakeapi import FakeTelegram
from tests.fakeapi.model import Button, SentMessage

Chooser = Callable[[SentMessage, random.Random], Button]
GAMES: list[tuple[str, str, int, Chooser]] = [
    ("mushka", "target=10", 3, helpers.choose),
    ("pamfil", "target=10", 3, helpers.choose),
    ("shutikha", "target=10", 3, helpers.choose),
    ("mistigri", "target=10", 3, helpers.choose),
    ("kopilka", "", 4, kopilka_choose),
    ("lenturlu", "", 3, lenturlu_choose),
    ("konchinka", "target=5", 3, konchinka_choose),
]


def waiting(hand: SentMessage) -> bool:
    return any(w in hand.text for w in helpers.WAITING)


def moved_on(hand: SentMessage) -> bool:
    return not waiting(hand)


COMPUTERS = ["🤖 Фёдор", "🤖 Марфа", "🤖 Савва"]


@pytest.mark.parametrize(("game", "options", "seats", "choose"), GAMES, ids=[g[0] for g in GAMES])
async def test_16_one_person_against_computers_plays_a_whole_game(
    fake_telegram: FakeTelegram,
    bot: RunningBot,
    database: TestDatabase,
    game: str,
    options: str,
    seats: int,
    choose: Chooser,
) -> None:
    fake = fake_telegram
    anna = fake.add_user(101, "Anna", language_code="ru")
    group = fake.add_group(-1001, "Пятница", admins=[101], members=[])
    computers = [(name, "easy") for name in COMPUTERS[: seats - 1]]
    command = f"/newgame {game} {options}".strip()
    lobby, table_id = await lobby_with_computers(fake, bot, group, anna, command, computers)
    await anna.press(lobby, "▶️")
    await fake.wait_until(lambda: table_message(group) is not None, timeout=10)
    rng = random.Random(game)
    presses = 0
    for _ in range(3000):
        await fake.settle(quiet=0.02)
        if result_message(group) is not None:
            break
        hand = hand_message(anna)
        assert hand is not None
        if waiting(hand):  # the computers are still moving
            await fake.wait_until(partial(moved_on, hand), timeout=20)
            continue
        await press_and_wait(fake, anna, hand, choose(hand, rng), [anna], group)
        presses += 1
    else:
        raise AssertionError(f"{game}: no result")
    result = result_message(group)
    assert result is not None and result.text.startswith("🏁")
    assert presses > 0  # she played too
    computer_moves = db_rows(
        database, "SELECT COUNT(*) FROM actions WHERE table_id = ? AND seat > 0", table_id
    )[0][0]
    assert int(str(computer_moves)) > 0
    net = json.loads(str(db_rows(database, "SELECT net FROM matches")[0][0]))
    assert sum(net) == 0 and len(net) == seats
    assert db_rows(database, "SELECT COUNT(*) FROM ledger") == [(1,)]
    # ratings: rated, the person and the computers' level, in the chat and across chats; a table of
    # one person and computers is marked, on the result and on /score (none of her rated
    # games had other people in them)
    rated = db_rows(database, "SELECT scope, user_id, level, games, solo FROM ratings")
    assert sorted(rated) == sorted(
        (scope, who, level, 1, 1)
        for scope in (group.id, 0)
        for who, level in [(101, ""), (0, "easy")]
    )
    line = next(ln for ln in result.text.splitlines() if ln.startswith("Рейтинг: "))
    assert "Anna " in line and all(name in line for name, _ in computers), line
    board = (await helpers.say(fake, anna, "/score", group)).text
    assert "🤖 Лёгкий " in board and "Anna " in board and "игр 1 (с людьми: 0)" in board, board
    assert db_rows(database, "SELECT COUNT(*) FROM deadlines WHERE table_id = ?", table_id) == [
        (0,)
    ]
