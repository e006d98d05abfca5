"""Ratings that can't be farmed, through the fake Bot API: a seat the computer played
for its person (⋯ → 🤖, or a passive second account whose turns time out) is rated as the
computer that played it — not to the person, nor as his win — and the result says so; the board
shows how many of a person's rated games had other people in them; a person who leaves the group
before the end is still rated for his seat; and the ratings rebuilt from the stored standings
are the ones the games gave."""

from __future__ import annotations

import json
import random
import re

from bot.app import RunningBot, running_bot
from bot.config import Settings
from bot.numbers import RATING_BASE
from bot.rating import EVERYWHERE, shown
from bot.runtime.ratings import rebuild
from bot.storage import open_repository
from bot.storage.protocol import Store
from bot.storage.rows import RatingRow, SeatKind, SeatSpec
from tests.bot.helpers import (
    WAITING,
    choose,
    db_rows,
    fixed_seeds,
    hand_message,
    lobby_message,
    open_table,
    play_step,
    press_and_wait,
    result_message,
    say,
    table_message,
    watched,
)
from tests.databases import TestDatabase
from tests.fakeapi import FakeTelegram
from tests.fakeapi.users import SimGroup, SimUser

COMPUTER = ("🤖 Фёдор", "easy")


def waiting(user: SimUser) -> bool:
    hand = hand_message(user)
    return hand is None or any(w in hand.text for w in WAITING)


async def play_out(
    fake: FakeTelegram, group: SimGroup, people: list[SimUser], rng: random.Random
) -> int:
    """``people`` play their turns (the computer plays every other seat) until the result; the
    presses made."""
    presses = 0
    for _ in range(3000):
        await fake.settle(quiet=0.02)
        if result_message(group) is not None:
            return presses
        mover = next((p for p in people if not waiting(p)), None)
        if mover is None:  # a computer's move, or a timer, comes first
            await fake.wait_until(
                lambda: result_message(group) is not None or any(not waiting(p) for p in people),
                timeout=20,
            )
            continue
        hand = hand_message(mover)
        assert hand is not None
        await press_and_wait(fake, mover, hand, choose(hand, rng), people, group)
        presses += 1
    raise AssertionError("no result")


async def started(
    fake: FakeTelegram,
    bot: RunningBot,
    group: SimGroup,
    people: list[SimUser],
    turn: float | None = None,
) -> None:
    """The first opens a Мушка table, the others join, a computer is seated beside them (as the
    lobby's 🤖 would: through the repository), and the first starts; ``turn``: the table's turn
    time, seconds (as the group's /settings would set it, but shorter: a quick test)."""
    for user in people:
        await user.start_bot()
    await fake.settle(quiet=0.05)
    await people[0].send(group, "/newgame mushka target=10")
    await fake.wait_until(lambda: lobby_message(group) is not None)
    lobby = lobby_message(group)
    assert lobby is not None
    for user in people[1:]:
        await user.press(lobby, "✋")
    await fake.wait_until(lambda: all(u.first_name in lobby.text for u in people))
    runtime = bot.services.runtime
    table_id = await runtime.queries.open_table_id(group.id)
    assert table_id is not None
    specs: list[SeatSpec] = [(SeatKind.HUMAN, u.id, u.first_name) for u in people]
    async with bot.services.repo.unit() as tx:
        await tx.replace_seats(table_id, [*specs, (SeatKind.COMPUTER, None, *COMPUTER)])
        if turn is not None:
            await tx.update_table(table_id, turn_timeout_s=turn)
    runtime.ctx.forget(table_id)
    await people[0].press(lobby, "▶️")
    await fake.wait_until(lambda: table_message(group) is not None)
    await fake.settle(quiet=0.05)


def standing(database: TestDatabase) -> list[list[object]]:
    (seats,) = db_rows(database, "SELECT seats FROM results")[0]
    return list(json.loads(str(seats)))


def people_rated(database: TestDatabase, chat: int) -> list[object]:
    rows = db_rows(database, "SELECT user_id FROM ratings WHERE scope = ? AND level = ''", chat)
    return sorted(r[0] for r in rows)


async def everything(store: Store, chat: int) -> list[RatingRow]:
    return [r for scope in (chat, EVERYWHERE) for r in await store.ratings(scope)]


async def rebuilt_the_same(database: TestDatabase, chat: int) -> None:
    """``python -m bot ratings --rebuild``'s work: every rating again from the standings."""
    repo = await open_repository(database)
    try:
        live = await everything(repo, chat)
        assert await rebuild(repo) == 1
        assert await everything(repo, chat) == live
    finally:
        await repo.close()


def rating_line(group: SimGroup) -> str:
    result = result_message(group)
    assert result is not None
    return next(ln for ln in result.text.splitlines() if ln.startswith("Рейтинг: "))


async def test_a_seat_handed_to_the_computer_is_rated_as_the_computer_not_its_person(
    fake_telegram: FakeTelegram, settings: Settings, database: TestDatabase
) -> None:
    """Boris lets the computer play his seat from the start (⋯ → 🤖) while Anna plays hers: his
    seat is rated as the computer's level: not as his win, and to him only where it lowers his
    rating; the result line says the computer played the seat."""
    fake = fake_telegram
    anna = fake.add_user(101, "Anna", language_code="ru")
    boris = fake.add_user(102, "Boris", language_code="ru")
    group = fake.add_group(-1001, "Пятница", admins=[101], members=[102])
    async with watched(fake, running_bot(settings, seeds=fixed_seeds())) as bot:
        await started(fake, bot, group, [anna, boris])
        hand = hand_message(boris)
        assert hand is not None
        await boris.press(hand, "⋯")
        await fake.wait_until(lambda: "Пусть играет компьютер" in hand.describe_buttons())
        await boris.press(hand, "🤖")
        await fake.wait_until(lambda: "🙋" in hand.describe_buttons())
        assert await play_out(fake, group, [anna], random.Random(1)) > 0
        line = rating_line(group)
        assert "Boris " in line and "; играл компьютер)" in line, line
        board = (await say(fake, anna, "/score", group)).text
    seats = standing(database)
    assert [(s[0], s[7]) for s in seats] == [(101, ""), (102, "easy"), (0, "")]
    assert people_rated(database, group.id) in ([101], [101, 102])  # Boris gains nothing …
    for mu, sigma in db_rows(database, "SELECT mu, sigma FROM ratings WHERE user_id = 102"):
        assert shown(float(mu), float(sigma)) < 0  # … rated only where the seat lowers him
    assert db_rows(database, "SELECT won FROM ledger WHERE user_id = 102") == [(0,)]  # … nor a win
    level = db_rows(
        database, "SELECT games FROM ratings WHERE scope = ? AND level = 'easy'", group.id
    )
    assert level == [(1,)]  # the level played two seats of one game
    assert "Anna " in board and "игр 1 (с людьми: 0)" in board, board
    # nothing, or his loss: below the base a newcomer starts at
    lost = re.search(r"Boris (\d+) · игр 1", board)
    assert "Boris — · игр 1" in board or (lost and int(lost[1]) < RATING_BASE), board
    await rebuilt_the_same(database, group.id)


async def test_a_passive_second_account_gains_nothing(
    fake_telegram: FakeTelegram, settings: Settings, database: TestDatabase
) -> None:
    """Anna's second account sits at her table and never presses: its turns time out and the
    computer plays them. It is not rated as a person, and Anna's game is marked as one against
    computers only: none of her games had other people in them."""
    fake = fake_telegram
    anna = fake.add_user(101, "Anna", language_code="ru")
    alt = fake.add_user(102, "Anna 2", language_code="ru")
    group = fake.add_group(-1001, "Пятница", admins=[101], members=[102])
    async with watched(fake, running_bot(settings, seeds=fixed_seeds())) as bot:
        await started(fake, bot, group, [anna, alt], turn=3.0)
        assert await play_out(fake, group, [anna], random.Random(2)) > 0
        mine = (await say(fake, anna, "/score me", group)).text
    seats = standing(database)
    assert [(s[0], s[7]) for s in seats] == [(101, ""), (102, "easy"), (0, "")]
    assert people_rated(database, group.id) == [101]
    assert [bool(r[0]) for r in db_rows(database, "SELECT solo FROM results")] == [True]
    assert "игр 1 (с людьми: 0)" in mine, mine
    await rebuilt_the_same(database, group.id)


async def test_leaving_the_group_before_the_end_still_rates_the_seat(
    fake_telegram: FakeTelegram, settings: Settings, database: TestDatabase
) -> None:
    """Vera makes a decision, then leaves the group: the computer plays her seat out — most of
    its decisions — and the seat is still rated to her (she can't walk away from a loss)."""
    fake = fake_telegram
    players = [fake.add_user(101 + i, n, language_code="ru") for i, n in enumerate(NAMES)]
    anna, boris, vera = players
    group = fake.add_group(-1001, "Пятница", admins=[101], members=[102, 103])
    rng = random.Random(3)
    mine = "SELECT COUNT(*) FROM actions a JOIN seats s ON s.table_id = a.table_id"
    mine += " AND s.seat = a.seat WHERE s.user_id = ?"
    async with watched(fake, running_bot(settings, seeds=fixed_seeds())):
        await open_table(fake, group, players, options="target=10")
        for _ in range(100):
            if db_rows(database, mine, vera.id) != [(0,)]:
                break
            assert await play_step(fake, group, players, rng)
        vera.leave(group, tell=True)
        away = "SELECT away, barred FROM seats WHERE user_id = ?"
        await fake.wait_until(
            lambda: (
                db_rows(database, away, vera.id) == [(1, "left")]
                or db_rows(database, away, vera.id) == [(True, "left")]
            )
        )
        assert await play_out(fake, group, [anna, boris], rng) > 0
        assert "Vera " in rating_line(group) and "играл компьютер" not in rating_line(group)
    seat = [s for s in standing(database) if s[0] == vera.id]
    assert [s[7] for s in seat] == [""]  # rated to her
    assert vera.id in people_rated(database, group.id)
    decided = dict(db_rows(database, mine.replace("COUNT(*)", "a.stand_in, COUNT(*)")
                           + " GROUP BY a.stand_in", vera.id))  # fmt: skip
    assert decided[""] >= 1 and decided.get("easy", 0) > decided[""], decided  # mostly computer
    await rebuilt_the_same(database, group.id)


NAMES = ["Anna", "Boris", "Vera"]
