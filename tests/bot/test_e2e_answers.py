"""Commands must not freeze a running table, at Telegram's own pace: the fake enforces a
group's 20 sends+edits a minute and the bot's outbox keeps Telegram's real windows
(``outbox_time_scale`` 1). One member sends 40 commands — every group command, over and over —
while a game runs: the table's next move still shows within 5 seconds (the group's one queue
made it wait about two minutes), and the group got no more than docs/safety.md's bound of posts
from them; where the bot is an administrator, none at all: every answer went to him alone."""

from __future__ import annotations

import random
import time

import pytest

from bot.app import running_bot
from bot.config import Settings
from bot.sending.rates import OutboxLimits
from tests.bot.helpers import (
    Handling,
    choose,
    db_rows,
    fixed_seeds,
    hand_message,
    open_table,
    table_message,
    to_act,
    watched,
)
from tests.databases import TestDatabase
from tests.fakeapi import ApiCall, FakeTelegram
from tests.fakeapi.model import SentMessage
from tests.fakeapi.users import SimGroup, SimUser

SPAM = (  # the list: every command a member can send in a group
    "/newgame",  # while a table runs
    "/help",
    "/rules",
    "/hand",
    "/score",
    "/cancel",
    "/notify",
    "/kick",
    "/settings",
    "/language",
    "/start",
)
COMMANDS = 40
VISIBLE_S = 5.0  # the table's next move shows within this, whatever the commands
POSTS = ("sendmessage", "editmessagetext", "editmessagereplymarkup")
BOUND = OutboxLimits().answer_ops  # docs/safety.md: one member's answers a minute in a group


def four(fake: FakeTelegram, *, bot_admin: bool) -> tuple[SimGroup, list[SimUser], SimUser]:
    """A group with three players and Mallory, a member who sits at no table."""
    anna = fake.add_user(101, "Anna", language_code="ru")
    boris = fake.add_user(102, "Boris", language_code="ru")
    vera = fake.add_user(103, "Vera", language_code="ru")
    mallory = fake.add_user(104, "Mallory", language_code="ru")
    group = fake.add_group(
        -1001, "Пятница", admins=[101], members=[102, 103, 104], bot_admin=bot_admin
    )
    return group, [anna, boris, vera], mallory


def at_pace(settings: Settings) -> Settings:
    """Telegram's own windows: 20 a minute in a group, 3 s between edits of one message."""
    return settings.model_copy(update={"outbox_time_scale": 1.0, "drain_s": 0})


async def flood(
    fake: FakeTelegram, handling: Handling, user: SimUser, group: SimGroup, count: int
) -> list[SentMessage]:
    """``user`` sends ``count`` commands as fast as he can; back once the bot handled them all
    (their answers, if any, queued)."""
    sent = [await user.send(group, SPAM[i % len(SPAM)]) for i in range(count)]
    await fake.wait_until(lambda: fake.pending_updates == 0 and handling.now == 0, timeout=60)
    return sent


def moves(database: TestDatabase, group: SimGroup) -> int:
    """The actions logged at the group's table so far."""
    ((count,),) = db_rows(
        database,
        "SELECT COUNT(*) FROM actions a JOIN tables t ON t.id = a.table_id WHERE t.chat_id = ?",
        group.id,
    )
    return int(count)


async def next_move_shown(
    fake: FakeTelegram,
    group: SimGroup,
    players: list[SimUser],
    table: SentMessage,
    database: TestDatabase,
) -> float:
    """Whoever is to act presses until a press is a move (a declaration's first steps are his
    hand's alone); how long that move took to show in the group's table message (it must
    within :data:`VISIBLE_S`)."""
    rng = random.Random(7)
    for _ in range(8):  # a move within a few presses: a declaration, its marks, its exchange
        actor = to_act(group, players)
        hand = hand_message(actor) if actor is not None else None
        assert actor is not None and hand is not None
        logged, edits, before = moves(database, group), len(table.history), hand.version
        started = time.monotonic()
        answer = await actor.press(hand, data=choose(hand, rng).callback_data)
        assert not answer.text, answer.text
        if moves(database, group) > logged:  # answered once it was committed
            await fake.wait_until(lambda: len(table.history) > edits, timeout=VISIBLE_S)  # noqa: B023
            return time.monotonic() - started
        await fake.wait_until(lambda: hand.version is not before, timeout=VISIBLE_S)  # noqa: B023
    raise AssertionError("no press was a move")


def group_posts(fake: FakeTelegram, group: SimGroup, since: int) -> list[ApiCall]:
    """The sends and edits the group saw since ``since`` (everyone's, not one member's)."""
    return [
        c
        for c in fake.requests[since:]
        if c.chat_id == group.id and c.method.lower() in POSTS and c.ok and not c.ephemeral
    ]


@pytest.mark.parametrize("bot_admin", [False, True], ids=["in-the-group", "to-him-alone"])
async def test_forty_commands_leave_the_tables_next_move_visible_within_5_s(
    fake_telegram: FakeTelegram, settings: Settings, database: TestDatabase, bot_admin: bool
) -> None:
    fake = fake_telegram
    group, players, mallory = four(fake, bot_admin=bot_admin)
    fake.rate_limit(per_chat=20, window=60.0, groups_only=True)  # Telegram's, in a group
    async with watched(fake, running_bot(at_pace(settings), seeds=fixed_seeds())) as bot:
        await open_table(fake, group, players, options="target=15", timeout=30)
        table = table_message(group)
        assert table is not None
        handling = Handling()
        bot.dispatcher.update.outer_middleware.register(handling)
        mark = fake.mark()
        asked = await flood(fake, handling, mallory, group, COMMANDS)
        waited = await next_move_shown(fake, group, players, table, database)
        # an answer his quota let through may still wait for its half of the group's window:
        # the bot stops without it (what the group got is counted)
        if bot_admin:
            await fake.wait_until(lambda: mallory.ephemeral(group) != [], timeout=10)
    alone = mallory.ephemeral(group)  # each a reply to his command (/newgame's refusal: to
    replies = {a.message_id for a in asked} | {table.message_id}  # the table it points to)
    posts = group_posts(fake, group, mark)
    from_commands = [c for c in posts if c.params.get("message_id") != table.message_id]
    assert waited < VISIBLE_S
    assert [c for c in fake.requests[mark:] if c.error_code == 429] == []
    if bot_admin:  # every answer to him alone, a reply to his command; the group saw none
        assert from_commands == [], [c.params.get("text") for c in from_commands]
        assert 1 <= len(alone) <= BOUND and all(m.reply_to in replies for m in alone)
    else:  # in the group, within his quota: the rest dropped
        assert 1 <= len(from_commands) <= BOUND, [c.params.get("text") for c in from_commands]
        assert mallory.ephemeral(group) == []
