"""Who may sit, press and come back (PRODUCT.md §3, §13), through the fake Bot API.

Leaving the group, a ban or an admin's /kick ends the owner's right to act at that table: the
computer keeps the seat, his hand loses its buttons, and neither 🙋 I'm back nor /hand gives it
back. Membership checks fail closed: when getChatMember fails the answer is "try again in a
moment", never a seat. A message written as the group or a channel names no person and gets one
clear answer."""

from __future__ import annotations

import random

from bot.app import RunningBot, running_bot
from bot.callbacks import Kind, Press, b36
from bot.config import Settings
from tests.bot.helpers import (
    db_rows,
    fixed_seeds,
    hand_message,
    lobby_message,
    open_table,
    play_step,
    table_message,
    to_act,
    watched,
)
from tests.databases import TestDatabase
from tests.fakeapi import FakeTelegram
from tests.fakeapi.model import SentMessage
from tests.fakeapi.users import SimGroup, SimUser

NAMES = ["Anna", "Boris", "Vera"]
LEFT_NOTE = "Вы больше не в группе «Пятница»: за ваше место там играет компьютер."
KICKED_NOTE = "Админ чата «Пятница» передал ваше место компьютеру до конца этого стола."
UNSURE = "Не получилось проверить, что вы в группе «Пятница», — попробуйте через минуту."
NOT_A_PERSON = "Чтобы играть, пишите от своего имени, а не от имени группы или канала."


def three(fake: FakeTelegram, *, bot_admin: bool = False) -> tuple[list[SimUser], SimGroup]:
    players = [fake.add_user(101 + i, n, language_code="ru") for i, n in enumerate(NAMES)]
    group = fake.add_group(-1001, "Пятница", admins=[101], members=[102, 103], bot_admin=bot_admin)
    return players, group


def seat_of(database: TestDatabase, user: SimUser) -> tuple[int, str]:
    """(away, barred) of the user's seat."""
    rows = db_rows(database, "SELECT away, barred FROM seats WHERE user_id = ?", user.id)
    away, barred = rows[0]
    return int(str(away)), str(barred)


def texts(user: SimUser) -> list[str]:
    return [m.text for m in user.visible]


async def forge(bot: RunningBot, user: SimUser, hand: SentMessage, act: str) -> str | None:
    """Press ``act`` (🙋 W, 🤖 O, ⋯ M) on the user's hand as its current data would carry it."""
    runtime = bot.services.runtime
    rows = db_rows_of(bot)
    table_id, seat = rows[user.id]
    table = await runtime.ctx.load(table_id)
    assert table is not None
    press = Press(Kind.HAND, table_id, seat, table.row.moves, act)
    data = bot.services.delivery.presenter.codec.pack(press)
    answer = await user.press_raw(hand, data=data)
    return answer.text


def db_rows_of(bot: RunningBot) -> dict[int, tuple[int, int]]:
    """user id → (table id, seat) of the running bot's only open table."""
    runtime = bot.services.runtime
    tables = list(runtime.ctx.tables.values())
    assert len(tables) == 1
    return {s.user_id: (tables[0].id, s.seat) for s in tables[0].seats if s.user_id is not None}


async def started(fake: FakeTelegram) -> tuple[list[SimUser], SimGroup, SentMessage]:
    """Anna, Boris and Vera at a running table of Пятница; Vera's hand message."""
    players, group = three(fake)
    await open_table(fake, group, players, options="target=25")
    hand = hand_message(players[2])
    assert hand is not None
    return players, group, hand


async def test_a_member_who_left_cannot_take_his_seat_back(
    fake_telegram: FakeTelegram, bot: RunningBot, database: TestDatabase
) -> None:
    fake = fake_telegram
    players, group, hand = await started(fake)
    vera = players[2]
    vera.leave(group, tell=True)
    await fake.wait_until(lambda: seat_of(database, vera) == (1, "left"), timeout=5)
    await fake.settle(quiet=0.1)
    told = [m.text for m in group.visible if "больше не в группе" in m.text]
    assert len(told) == 1 and "Vera" in told[0]
    assert hand.all_buttons == []  # no 🙋 I'm back: nothing left to press
    assert LEFT_NOTE in texts(vera)
    # a forged 🙋 on the old hand: refused, the seat stays the computer's
    assert await forge(bot, vera, hand, "W") == LEFT_NOTE
    # /hand in private: no hand, no seat back, the reason
    before = texts(vera).count(LEFT_NOTE)
    await vera.send_private("/hand")
    await fake.wait_until(lambda: texts(vera).count(LEFT_NOTE) > before, timeout=5)
    await fake.settle(quiet=0.1)
    assert hand_message(vera) is None
    # back in the group: still not at this table (a leave ends his right for the table)
    group.add_member(vera)
    await vera.send_private("/hand")
    await fake.settle(quiet=0.1)
    assert seat_of(database, vera) == (1, "left")
    assert vera.messages[-1].text == LEFT_NOTE
    assert not [m for m in group.visible if "снова в игре" in m.text]


async def test_a_ban_ends_the_seat_told_or_found_at_the_next_press(
    fake_telegram: FakeTelegram, settings: Settings, database: TestDatabase
) -> None:
    """An admin bot gets the ban as a ``chat_member`` update; a ban nobody told the bot of is
    found when the banned player next presses his private hand (his membership is asked
    again; hands in the group a banned member can't press at all)."""
    fake = fake_telegram
    players, group = three(fake, bot_admin=True)
    private = settings.model_copy(update={"hands_in_group": False})
    async with watched(fake, running_bot(private, seeds=fixed_seeds())) as bot:
        await _banned(fake, bot, database, players, group)


async def _banned(
    fake: FakeTelegram,
    bot: RunningBot,
    database: TestDatabase,
    players: list[SimUser],
    group: SimGroup,
) -> None:
    await open_table(fake, group, players, options="target=25")
    anna, boris, vera = players
    group.ban(boris, by=anna)
    await fake.wait_until(lambda: seat_of(database, boris) == (1, "left"), timeout=5)
    await fake.settle(quiet=0.1)
    assert LEFT_NOTE in texts(boris)
    # Vera is banned while the bot is not told (its cached answer about her runs out)
    bot.services.runtime.ctx.members.ttl = 0.0
    group.state.members[vera.id] = "kicked"
    hand = hand_message(vera)
    assert hand is not None
    answer = await vera.press(hand, "⋯")
    assert not answer.text
    await fake.wait_until(lambda: seat_of(database, vera) == (1, "left"), timeout=5)
    await fake.settle(quiet=0.1)
    assert hand.all_buttons == [] and LEFT_NOTE in texts(vera)
    told = [m.text for m in group.visible if "больше не в группе" in m.text]
    assert len(told) == 2, told  # once for each of them


async def test_a_kick_ends_his_right_to_act_at_the_table(
    fake_telegram: FakeTelegram, bot: RunningBot, database: TestDatabase
) -> None:
    fake = fake_telegram
    players, group, hand = await started(fake)
    anna, _, vera = players
    said = await vera.send(group, "привет")
    await anna.send(group, "/kick", reply_to=said)
    await fake.wait_until(lambda: seat_of(database, vera) == (1, "kick"), timeout=5)
    await fake.settle(quiet=0.1)
    assert KICKED_NOTE in texts(vera)
    assert hand.all_buttons == []
    assert await forge(bot, vera, hand, "W") == KICKED_NOTE
    await vera.send_private("/hand")
    await fake.settle(quiet=0.1)
    assert seat_of(database, vera) == (1, "kick") and vera.messages[-1].text == KICKED_NOTE
    await anna.send(group, "/kick", reply_to=said)  # again: already the computer's
    await fake.settle(quiet=0.1)
    assert "уже играет компьютер" in group.messages[-1].text


async def test_membership_checks_fail_closed_and_a_failure_is_not_kept(
    fake_telegram: FakeTelegram, bot: RunningBot, database: TestDatabase
) -> None:
    fake = fake_telegram
    players, group = three(fake)
    anna, boris, _ = players
    carol = fake.add_user(104, "Carol", language_code="ru")  # not in the group
    for user in (anna, boris, carol):
        await user.start_bot()
    await anna.send(group, "/newgame mushka")
    await fake.wait_until(lambda: lobby_message(group) is not None, timeout=10)
    lobby = lobby_message(group)
    assert lobby is not None
    tid = int(str(db_rows(database, "SELECT id FROM tables")[0][0]))
    code = str(db_rows(database, "SELECT join_code FROM tables")[0][0])
    link = f"j_{b36(tid)}_{code}"
    # Telegram answers 429 (past the session's retries): an outsider following the link is
    # not seated, and is told to try again
    fake.fail_next(
        "getChatMember", 429, "Too Many Requests: retry after 0", times=10,
        parameters={"retry_after": 0},
    )  # fmt: skip
    await carol.start_bot(link)
    await fake.settle(quiet=0.1)
    assert carol.messages[-1].text == UNSURE
    assert "Carol" not in lobby.text
    assert db_rows(database, "SELECT COUNT(*) FROM seats WHERE user_id = 104") == [(0,)]
    fake._faults.clear()
    # a member's press while Telegram fails (a 5xx): refused, nothing kept; then it works
    fake.fail_next("getChatMember", 500, "Internal Server Error", times=1)
    answer = await boris.press(lobby, "✋")
    assert answer.text == UNSURE and "Boris" not in lobby.text
    answer = await boris.press(lobby, "✋")
    assert not answer.show_alert, answer.text
    await fake.wait_until(lambda: "Boris" in lobby.text, timeout=5)
    # "member not found" is an answer: no seat
    fake.fail_next("getChatMember", 400, "Bad Request: member not found", times=1)
    await carol.start_bot(link)
    await fake.settle(quiet=0.1)
    assert "не её участник" in carol.messages[-1].text and "Carol" not in lobby.text


async def test_a_hand_press_while_telegram_cannot_tell_is_refused_for_now(
    fake_telegram: FakeTelegram, bot: RunningBot, database: TestDatabase
) -> None:
    fake = fake_telegram
    players, _, hand = await started(fake)
    vera = players[2]
    bot.services.runtime.ctx.members.ttl = 0.0
    fake.fail_next("getChatMember", 500, "Internal Server Error", times=1)
    answer = await vera.press(hand, "⋯")
    assert answer.text == UNSURE
    await fake.settle(quiet=0.1)
    assert "Пусть играет компьютер" not in hand.describe_buttons()
    assert seat_of(database, vera) == (0, "")
    answer = await vera.press(hand, "⋯")  # Telegram answers again: the press counts
    assert not answer.text
    await fake.wait_until(lambda: "Пусть играет компьютер" in hand.describe_buttons(), timeout=5)


async def test_the_group_itself_and_channels_name_no_person(
    fake_telegram: FakeTelegram, bot: RunningBot, database: TestDatabase
) -> None:
    fake = fake_telegram
    players, group = three(fake)
    anna, boris, _ = players
    for user in players:
        await user.start_bot()
    await anna.send_anonymously(group, "/newgame mushka")
    await fake.wait_until(lambda: bool(group.messages), timeout=10)  # its answer, on a slow run
    await fake.settle(quiet=0.1)
    assert group.messages[-1].text == NOT_A_PERSON
    assert lobby_message(group) is None
    assert db_rows(database, "SELECT COUNT(*) FROM tables") == [(0,)]
    await boris.send_as_channel(group, "/newgame mushka", channel_id=-100777, title="Канал")
    await fake.settle(quiet=0.1)
    assert group.messages[-1].text == NOT_A_PERSON and lobby_message(group) is None
    # Boris opens a table as himself; no channel identity counts as its creator
    await boris.send(group, "/newgame mushka")
    await fake.wait_until(lambda: lobby_message(group) is not None, timeout=10)
    for text in ("/cancel", "/kick", "/hand", "/notify"):
        await boris.send_as_channel(group, text, channel_id=-100777, title="Канал")
        await fake.settle(quiet=0.1)
        assert group.messages[-1].text == NOT_A_PERSON, text
        await anna.send_anonymously(group, text)
        await fake.settle(quiet=0.1)
        assert group.messages[-1].text == NOT_A_PERSON, text
    assert db_rows(database, "SELECT status FROM tables") == [("lobby",)]
    assert db_rows(database, "SELECT user_id FROM seats") == [(102,)]
    assert table_message(group) is None


GROUP_SENDS = ("sendmessage", "senddocument")


def group_sends(fake: FakeTelegram, group: SimGroup, since: int) -> int:
    """New messages the bot posted in the group since ``since`` (a ``fake.mark()``)."""
    return sum(
        1
        for c in fake.requests[since:]
        if c.chat_id == group.id and c.method.lower() in GROUP_SENDS and c.ok
    )


STALE = "Эта кнопка устарела"


async def toggle(fake: FakeTelegram, user: SimUser) -> str | None:
    """⋯ → 🤖 Let the computer play, or 🙋 I'm back: whichever his hand offers; the toast. A
    press the bot calls stale (the computer moved for him between our read of the keyboard and
    the press, and the bot showed the current cards) is pressed again on the fresh keyboard: it
    changed nothing, so the toggle it was meant to be is still to be made."""
    for _ in range(5):
        answer = await _toggle_once(fake, user)
        if not (answer or "").startswith(STALE):
            return answer
        await fake.settle(quiet=0.1, timeout=10)
    raise AssertionError(f"every toggle of {user.first_name} was called stale")


async def _toggle_once(fake: FakeTelegram, user: SimUser) -> str | None:
    hand = hand_message(user)
    assert hand is not None
    if hand.has_button("🙋"):
        return (await user.press(hand, "🙋")).text
    answer = (await user.press(hand, "⋯")).text
    if (answer or "").startswith(STALE):
        return answer
    await fake.wait_until(lambda: "Пусть играет компьютер" in hand.describe_buttons(), timeout=5)
    return (await user.press(hand, "🤖")).text


async def test_a_players_own_toggles_post_nothing_in_the_group_and_are_limited(
    fake_telegram: FakeTelegram, bot: RunningBot, database: TestDatabase
) -> None:
    """The toggles' flood: 🤖 and 🙋 again and again posted a group line each. Now a seat's
    hand-over shows on the table's seat line only (🤖), the group gets no line for what the
    player asked himself, and his toggles are limited (one per 30 s, a toast says when)."""
    fake = fake_telegram
    players, group, _ = await started(fake)
    vera = players[2]
    mark = fake.mark()
    answers = []
    for _ in range(6):
        answers.append(await toggle(fake, vera))
        await fake.settle(quiet=0.05)
    assert answers[0] in (None, "")
    assert all(
        a is not None and a.startswith("Переключиться снова можно через") for a in answers[1:]
    )
    assert seat_of(database, vera) == (1, "")  # the first toggle only: the computer plays
    table = table_message(group)
    assert table is not None and "🤖" in table.text  # the seat line shows the hand-over
    assert group_sends(fake, group, mark) == 0
    # with no gap at all (the bound does not rest on it): N toggles, still no group message
    bot.services.runtime.parts.absent.toggle_gap = 0.0
    toggles = 10
    mark = fake.mark()
    for _ in range(toggles):
        assert not await toggle(fake, vera)
        await fake.settle(quiet=0.05)
    assert group_sends(fake, group, mark) == 0
    assert seat_of(database, vera) == (1, "")  # an even number of toggles after the first


async def test_start_and_wait_again_and_again_edit_one_notice(
    fake_telegram: FakeTelegram, bot: RunningBot, database: TestDatabase
) -> None:
    """The other press that could post again and again: ▶️ Start with an unreachable player,
    then ⏳ Wait on the notice. The lobby keeps one notice, shown again in place."""
    fake = fake_telegram
    players, group = three(fake)
    anna, boris, vera = players
    for user in players:
        await user.start_bot()
    await anna.send(group, "/newgame mushka")
    await fake.wait_until(lambda: lobby_message(group) is not None, timeout=10)
    lobby = lobby_message(group)
    assert lobby is not None
    for user in (boris, vera):
        await user.press(lobby, "✋")
    await fake.wait_until(lambda: "(3/7)" in lobby.text, timeout=10)
    vera.block_bot()
    await fake.settle(quiet=0.05)
    mark = fake.mark()
    rounds = 8
    for _ in range(rounds):
        assert not (await anna.press(lobby, "▶️")).text
        await fake.wait_until(lambda: "Не могу написать" in group.last.text, timeout=10)
        await fake.wait_until(lambda: group.last.has_button("⏳"), timeout=10)
        assert not (await anna.press(group.last, "⏳")).text
        await fake.wait_until(lambda: not group.last.has_button("⏳"), timeout=10)
    await fake.settle(quiet=0.1)
    assert group_sends(fake, group, mark) == 1, "one notice for the lobby, then edits"
    assert db_rows(database, "SELECT status FROM tables") == [("lobby",)]


async def deal_no(bot: RunningBot, group: SimGroup) -> int:
    runtime = bot.services.runtime
    table_id = await runtime.queries.open_table_id(group.id)
    assert table_id is not None
    table = await runtime.ctx.load(table_id)
    assert table is not None and table.match is not None
    return table.match.state.view(None).deal_no


async def test_a_seat_handed_over_twice_in_a_deal_is_told_to_the_group_once(
    fake_telegram: FakeTelegram, bot: RunningBot, database: TestDatabase
) -> None:
    """§13: Boris blocks the bot (the computer takes his seat, the group is told), comes back
    with /hand, blocks it again in the same deal: no second group line."""
    fake = fake_telegram
    players, group, _ = await started(fake)
    boris = players[1]
    rng = random.Random(5)
    first = await deal_no(bot, group)
    for _ in range(2):
        while to_act(group, players) is boris:  # block him while someone else is to act
            assert await play_step(fake, group, players, rng)
        boris.block_bot()
        for _ in range(12):  # until a send to him gets a 403 (his turn comes, his hand edits)
            await fake.settle(quiet=0.1)
            if seat_of(database, boris)[0] or to_act(group, players) is boris:
                break
            assert await play_step(fake, group, players, rng)
        await fake.wait_until(lambda: seat_of(database, boris) == (1, ""), timeout=10)
        await fake.settle(quiet=0.1)
        await boris.start_bot()
        await boris.send_private("/hand")
        await fake.wait_until(lambda: seat_of(database, boris) == (0, ""), timeout=10)
        await fake.settle(quiet=0.1)
    assert await deal_no(bot, group) == first, "the deal ended: the test proves nothing"
    told = [m for m in group.messages if "/hand" in m.text and "Boris" in m.text]
    assert len(told) == 1, [m.text for m in told]
