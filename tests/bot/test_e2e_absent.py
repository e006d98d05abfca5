"""Absent players through the fake Bot API (PRODUCT.md §13), with a 5 s turn timer from the
settings: the reminder at ⅓ left (private, and a group mention deleted once he acted), one
expiry plays one turn, two in a row hand the seat to the computer, "🙋 I'm back" and the ⋯ menu's
"🤖 Let the computer play", a restart that does not count the downtime, a player who never
presses, and a table nobody plays any more closing by itself."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable

from bot.app import running_bot
from bot.config import Settings
from tests.bot.helpers import (
    db_rows,
    fixed_seeds,
    hand_message,
    lobby_message,
    lobby_with_computers,
    open_table,
    play_step,
    result_message,
    table_message,
    to_act,
    watched,
)
from tests.databases import TestDatabase
from tests.fakeapi import FakeTelegram
from tests.fakeapi.model import SentMessage
from tests.fakeapi.users import SimGroup, SimUser

TIMEOUT = 5.0
NAMES = ["Anna", "Boris", "Vera"]


def quick(settings: Settings, **more: float) -> Settings:
    return settings.model_copy(update={"turn_timeout_s": TIMEOUT, **more})


def three(fake: FakeTelegram) -> tuple[list[SimUser], SimGroup]:
    players = [fake.add_user(101 + i, n, language_code="ru") for i, n in enumerate(NAMES)]
    group = fake.add_group(-1001, "Пятница", admins=[101], members=[102, 103])
    return players, group


def seat_row(database: TestDatabase, user: SimUser) -> tuple[int, int]:
    """(away, expiries) of the user's seat."""
    rows = db_rows(database, "SELECT away, expiries FROM seats WHERE user_id = ?", user.id)
    away, expiries = rows[0]
    return int(str(away)), int(str(expiries))


def mentions(group: SimGroup) -> list[str]:
    return [m.text for m in group.visible if "ваш ход (" in m.text]


def texts(user: SimUser) -> str:
    return "\n".join(m.text for m in user.messages)


async def open_menu(fake: FakeTelegram, user: SimUser, hand: SentMessage) -> None:
    await user.press(hand, "⋯")
    await fake.wait_until(lambda: "Пусть играет компьютер" in hand.describe_buttons(), timeout=5)


async def wait_for(fake: FakeTelegram, check: Callable[[], bool], timeout: float) -> float:  # noqa: ASYNC109
    start = time.monotonic()
    await fake.wait_until(check, timeout=timeout)
    return time.monotonic() - start


async def test_13_reminder_then_one_expiry_plays_one_turn(
    fake_telegram: FakeTelegram, settings: Settings, database: TestDatabase
) -> None:
    fake = fake_telegram
    players, group = three(fake)
    async with watched(fake, running_bot(quick(settings), seeds=fixed_seeds())):
        await open_table(fake, group, players, options="target=25")
        absent = to_act(group, players)
        assert absent is not None
        moves = db_rows(database, "SELECT moves FROM tables")[0][0]
        waited = await wait_for(fake, lambda: bool(mentions(group)), timeout=TIMEOUT + 2)
        assert TIMEOUT * 2 / 3 - 1.5 < waited < TIMEOUT, waited
        assert absent.first_name in mentions(group)[0] and "(2 с)" in mentions(group)[0]
        # his own reminder goes in his lane, not the group's: it may come a moment later
        reminder = "⏳ Осталось 2 с — ваш ход в «Пятница»"
        await wait_for(fake, lambda: reminder in texts(absent), timeout=1.0)
        await wait_for(fake, lambda: "Время вышло" in texts(absent), timeout=TIMEOUT)
        await fake.settle(quiet=0.1)
        note = next(t for t in reversed(texts(absent).split("\n")) if "Время вышло" in t)
        played = note.split(": ", 1)[1]  # in his words, never RECORD.md's verbs
        assert played.split()[0].strip(",.;") in {"пас", "играю"}, note
        assert db_rows(database, "SELECT moves FROM tables")[0][0] > moves  # his turn was played
        assert to_act(group, players) is not absent
        assert seat_row(database, absent) == (0, 1)  # one expiry: still his seat
        assert mentions(group) == []  # the group's reminder went once his turn was played
        hand = hand_message(absent)
        assert hand is not None and "🙋" not in hand.describe_buttons()
        # he plays his next turn himself: the expiries in a row start again
        while to_act(group, players) is not absent:
            assert await play_step(fake, group, players, random.Random(1))
        assert await play_step(fake, group, players, random.Random(1))
        await fake.settle(quiet=0.05)
        assert seat_row(database, absent) == (0, 0)


async def test_13_two_expiries_hand_the_seat_over_until_im_back(
    fake_telegram: FakeTelegram, settings: Settings, database: TestDatabase
) -> None:
    fake = fake_telegram
    players, group = three(fake)
    rng = random.Random(3)
    async with watched(fake, running_bot(quick(settings), seeds=fixed_seeds())):
        await open_table(fake, group, players, options="target=25")
        absent = to_act(group, players)
        assert absent is not None
        others = [u for u in players if u is not absent]
        for _ in range(2):  # his turn twice, never pressed; the others play theirs at once
            await wait_for(fake, lambda: to_act(group, players) is not absent, TIMEOUT + 3)
            for _ in range(40):
                if to_act(group, players) in (absent, None) or result_message(group):
                    break
                assert await play_step(fake, group, players, rng)
        await wait_for(fake, lambda: seat_row(database, absent)[0] == 1, TIMEOUT + 3)
        await fake.settle(quiet=0.1)
        assert any("нет на месте" in m.text and absent.first_name in m.text for m in group.visible)
        hand = hand_message(absent)
        assert hand is not None
        assert [b.text for b in hand.all_buttons] == ["🙋 Я вернулся"]
        assert "За вас играет компьютер" in hand.text
        # the computer keeps his turns moving while the others play (each step after the
        # computer's move has reached every screen: the table can name the next player a
        # moment before his hand is redrawn for his turn, and a press on it would be stale)
        for _ in range(6):
            await fake.settle(quiet=0.1)
            if to_act(group, players) in others:
                assert await play_step(fake, group, players, rng)
        # a stale card button of his refuses and changes nothing
        answer = await absent.press(hand, "🙋")
        assert not answer.text, "\n---\n".join(m.text for m in group.messages)
        await wait_for(fake, lambda: seat_row(database, absent)[0] == 0, 5)
        await fake.settle(quiet=0.1)
        # §13: "I'm back" posts no group line (the table's seat line drops its 🤖)
        assert not any("снова в игре" in m.text for m in group.visible)
        hand = hand_message(absent)
        assert hand is not None and "🙋" not in hand.describe_buttons()
        assert any(b.text == "⋯" for b in hand.all_buttons)


async def test_13_the_menu_lets_the_computer_play_at_once(
    fake_telegram: FakeTelegram, settings: Settings, database: TestDatabase
) -> None:
    fake = fake_telegram
    players, group = three(fake)
    async with watched(fake, running_bot(settings, seeds=fixed_seeds())):
        await open_table(fake, group, players, options="target=25")
        vera = players[2]
        hand = hand_message(vera)
        assert hand is not None
        await vera.press(hand, "⋯")
        await fake.wait_until(lambda: "Пусть играет компьютер" in hand.describe_buttons(), 5)
        assert "↩️" in hand.describe_buttons()
        await vera.press(hand, "↩️")
        await fake.wait_until(lambda: "⋯" in hand.describe_buttons(), 5)
        await vera.press(hand, "⋯")
        await fake.wait_until(lambda: "Пусть играет компьютер" in hand.describe_buttons(), 5)
        answer = await vera.press(hand, "🤖")
        assert not answer.text
        await fake.wait_until(lambda: seat_row(database, vera)[0] == 1, 5)
        await fake.settle(quiet=0.1)
        # §13: his own hand-over shows on the table's seat line only, no group line
        assert not any("за этого игрока теперь" in m.text for m in group.visible)
        # Anna and Boris play; Vera's turns go by themselves
        rng = random.Random(5)
        for _ in range(30):
            user = to_act(group, players)
            if user is None or user is vera or result_message(group):
                break
            assert await play_step(fake, group, players, rng)
        seat = db_rows(database, "SELECT seat FROM seats WHERE user_id = ?", vera.id)[0][0]
        played = db_rows(database, "SELECT COUNT(*) FROM actions WHERE seat = ?", seat)[0][0]
        assert int(str(played)) > 0


async def test_13_a_restart_keeps_the_deadline_and_does_not_count_the_downtime(
    fake_telegram: FakeTelegram, settings: Settings, database: TestDatabase
) -> None:
    """The bot stops with a turn pending; it is down for an hour (its clock says so); after the
    restart the player still has what was left of his time, not an expiry at once."""
    fake = fake_telegram
    players, group = three(fake)
    offset = [0.0]

    def clock() -> float:
        return time.time() + offset[0]

    async with watched(fake, running_bot(quick(settings), seeds=fixed_seeds(), clock=clock)):
        await open_table(fake, group, players, options="target=25")
        absent = to_act(group, players)
        assert absent is not None
        await fake.settle(quiet=0.05)
        before = db_rows(database, "SELECT due_at FROM deadlines WHERE kind = 'remind'")[0][0]
    offset[0] = 3600.0  # an hour down
    async with watched(fake, running_bot(quick(settings), seeds=fixed_seeds(), clock=clock)):

        def shift() -> float:
            after = db_rows(database, "SELECT due_at FROM deadlines WHERE kind = 'remind'")[0][0]
            return float(str(after)) - float(str(before))

        # with Redis on (BOT_TEST_WITH_REDIS) the downtime is counted once this worker leads
        await wait_for(fake, lambda: shift() > 0, timeout=3)
        shifted = shift()
        assert 3600 - 2 < shifted < 3600 + 3, shifted  # moved on by the downtime (±the beat)
        await fake.settle(quiet=0.3)
        assert "Время вышло" not in texts(absent) and mentions(group) == []
        await wait_for(fake, lambda: "Время вышло" in texts(absent), timeout=TIMEOUT + 3)
        assert seat_row(database, absent) == (0, 1)


async def test_13_a_player_who_never_presses_the_game_still_ends(
    fake_telegram: FakeTelegram, settings: Settings, database: TestDatabase
) -> None:
    """One person and two computer seats; the person never presses: two expiries, then the
    computer plays his seat too, and the pulka ends and is settled."""
    fake = fake_telegram
    anna = fake.add_user(101, "Anna", language_code="ru")
    group = fake.add_group(-1001, "Пятница", admins=[101], members=[])
    async with watched(fake, running_bot(quick(settings), seeds=fixed_seeds())) as bot:
        lobby, _ = await lobby_with_computers(
            fake,
            bot,
            group,
            anna,
            "/newgame mushka target=15",
            [("🤖 Фёдор", "easy"), ("🤖 Марфа", "normal")],
        )
        await anna.press(lobby, "▶️")
        await fake.wait_until(lambda: table_message(group) is not None, timeout=10)
        await wait_for(fake, lambda: result_message(group) is not None, timeout=3 * TIMEOUT + 60)
        await fake.settle(quiet=0.1)
    assert seat_row(database, anna) == (1, 0)  # two expiries: the computer played on for her
    assert db_rows(database, "SELECT COUNT(*) FROM ledger") == [(1,)]  # booked like anyone
    net = db_rows(database, "SELECT net FROM matches")[0][0]
    assert sum(json.loads(str(net))) == 0
    assert db_rows(database, "SELECT COUNT(*) FROM deadlines") == [(0,)]


async def test_13_a_table_no_person_plays_closes_with_nothing_paid(
    fake_telegram: FakeTelegram, settings: Settings, database: TestDatabase
) -> None:
    fake = fake_telegram
    players, group = three(fake)
    slow = quick(settings, idle_timeout_s=5.0, computer_delay_s=0.5)
    async with watched(fake, running_bot(slow, seeds=fixed_seeds())):
        await open_table(fake, group, players, options="target=25")
        for user in players:  # everyone hands his seat to the computer and goes away
            hand = hand_message(user)
            assert hand is not None
            await open_menu(fake, user, hand)
            await user.press(hand, "🤖")
        await wait_for(fake, lambda: any("Стол закрыт" in m.text for m in group.visible), 12)
        await fake.settle(quiet=0.1)
    assert db_rows(database, "SELECT status FROM tables") == [("closed",)]
    assert db_rows(database, "SELECT COUNT(*) FROM ledger") == [(0,)]
    assert db_rows(database, "SELECT COUNT(*) FROM deadlines") == [(0,)]
    tables = [m for m in group.visible if m.text.startswith("🃏 Мушка · «Пятница» · пулька")]
    assert tables and all(m.all_buttons == [] for m in tables)  # nothing left to press
    assert result_message(group) is None


async def test_13_a_player_who_left_the_group_counts_as_two_expiries(
    fake_telegram: FakeTelegram, settings: Settings, database: TestDatabase
) -> None:
    fake = fake_telegram
    players, group = three(fake)
    async with watched(fake, running_bot(settings, seeds=fixed_seeds())):
        await open_table(fake, group, players, options="target=25")
        vera = players[2]
        vera.leave(group, tell=True)
        await fake.wait_until(lambda: seat_row(database, vera)[0] == 1, timeout=5)
        await fake.settle(quiet=0.1)
        told = [m.text for m in group.visible if "больше не в группе" in m.text]
        assert len(told) == 1 and "Vera" in told[0]
        rng = random.Random(8)
        for _ in range(20):  # the others play; Vera's turns go by themselves
            user = to_act(group, players)
            if user is None or user is vera or result_message(group):
                break
            assert await play_step(fake, group, players, rng)
        assert to_act(group, players) is not vera


async def test_13_lobby_a_player_who_left_the_group_is_unseated(
    fake_telegram: FakeTelegram, bot: object, database: TestDatabase
) -> None:
    fake = fake_telegram
    players, group = three(fake)
    for user in players:
        await user.start_bot()
    await players[0].send(group, "/newgame mushka")
    await fake.wait_until(lambda: lobby_message(group) is not None, timeout=10)
    lobby = lobby_message(group)
    assert lobby is not None
    await players[1].press(lobby, "✋")
    await fake.wait_until(lambda: "Boris" in lobby.text, timeout=5)
    players[1].leave(group, tell=True)
    await fake.wait_until(lambda: "Boris" not in lobby.text, timeout=5)
    assert db_rows(database, "SELECT user_id FROM seats") == [(101,)]
