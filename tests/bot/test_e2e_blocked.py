"""PRODUCT.md §13: a player who blocks the bot mid-game doesn't stall the table."""

from __future__ import annotations

import random

from bot.app import RunningBot
from tests.bot.helpers import (
    choose,
    db_rows,
    expected_screens,
    hand_message,
    open_table,
    play_step,
    table_message,
    to_act,
)
from tests.databases import TestDatabase
from tests.fakeapi import FakeTelegram
from tests.fakeapi.users import SimGroup, SimUser


def seat_away(database: TestDatabase, user: SimUser) -> int:
    return int(str(db_rows(database, "SELECT away FROM seats WHERE user_id = ?", user.id)[0][0]))


def seat_actions(database: TestDatabase, seat: int) -> int:
    return int(db_rows(database, "SELECT COUNT(*) FROM actions WHERE seat = ?", seat)[0][0])


async def screens_caught_up(
    fake: FakeTelegram, bot: RunningBot, group: SimGroup, present: list[SimUser]
) -> None:
    """Wait until every present player's hand message shows the engine's state (so its buttons
    carry the current move counter, even after the computer moved for the absent seat)."""

    async def synced() -> bool:
        _, hands = await expected_screens(bot, group.id)
        return all(
            (mine := hand_message(p)) is not None and mine.html == hands[p.id][1] for p in present
        )

    for _ in range(200):
        await fake.settle(quiet=0.02)  # the group's table too (its own queue)
        if await synced():
            return
        await fake.settle(quiet=0.05)
    table_html, hands = await expected_screens(bot, group.id)
    table = table_message(group)
    shown = [(table.html if table else None, table_html)]
    shown += [(getattr(hand_message(p), "html", None), hands[p.id][1]) for p in present]
    raise AssertionError(f"the screens did not catch up with the engine: {shown}")


async def others_play(
    fake: FakeTelegram,
    bot: RunningBot,
    group: SimGroup,
    players: list[SimUser],
    absent: SimUser,
    rng: random.Random,
    steps: int,
) -> None:
    """The reachable players press; the absent one's turns must pass without him."""
    present = [p for p in players if p is not absent]
    for _ in range(steps):
        await screens_caught_up(fake, bot, group, present)
        user = to_act(group, players)
        assert user is not None, "the table stalled or ended"
        assert user is not absent, f"the table waits for {absent.first_name}"
        message = hand_message(user)
        assert message is not None
        answer = await user.press(message, data=choose(message, rng).callback_data)
        assert not answer.text, answer.text


async def test_13_blocked_player_the_computer_plays_until_he_is_back(
    fake_telegram: FakeTelegram, bot: RunningBot, database: TestDatabase
) -> None:
    fake = fake_telegram
    anna = fake.add_user(101, "Anna", language_code="ru")
    boris = fake.add_user(102, "Boris", language_code="ru")
    vera = fake.add_user(103, "Vera", language_code="en")
    group = fake.add_group(-1001, "Пятница", admins=[101], members=[102, 103])
    players = [anna, boris, vera]
    await open_table(fake, group, players, options="target=15")
    rng = random.Random(4)
    while to_act(group, players) is boris:  # block him while someone else is to act
        await play_step(fake, group, players, rng)
    boris.block_bot()
    played_before = seat_actions(database, 1)

    await others_play(fake, bot, group, players, boris, rng, steps=12)
    await screens_caught_up(fake, bot, group, [anna, vera])

    notices = [m for m in group.messages if "/hand" in m.text and "Boris" in m.text]
    assert len(notices) == 1, "the group is told exactly once"
    links = [b.url for b in notices[0].all_buttons if b.url]
    assert links and "start=h_" in links[0]
    assert seat_actions(database, 1) > played_before, "the computer played Boris's turns"
    table = table_message(group)
    assert table is not None and "играет компьютер" in table.text

    # Boris unblocks the bot and asks for his cards: the seat is his again
    await boris.start_bot()
    await boris.send_private("/hand")
    await fake.wait_until(  # §13: his seat line drops its 🤖; no group line
        lambda: seat_away(database, boris) == 0, timeout=10
    )
    await fake.settle(quiet=0.1)
    _, hands = await expected_screens(bot, group.id)
    mine = hand_message(boris)
    assert mine is not None and (mine.message_id, mine.html) == hands[boris.id]
    table = table_message(group)
    assert table is not None and "играет компьютер" not in table.text
    # and the table waits for him again: every turn is pressed by its owner
    played = seat_actions(database, 1)
    for _ in range(12):
        if to_act(group, players) is None:
            break
        await play_step(fake, group, players, rng)
    assert seat_actions(database, 1) >= played
