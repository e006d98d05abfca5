"""How often a command is answered in a group, with Telegram's windows scaled down: one
answer per person and command a window — a repeat shows it in place, and costs no call at all
when nothing changed; after the window, a new one —; each member's answers within his quota;
the tables a member opens, and /cancel's question asked again, bounded the same way."""

from __future__ import annotations

import asyncio

from bot.app import running_bot
from bot.config import Settings
from bot.sending.rates import OutboxLimits
from tests.bot.helpers import Handling, fixed_seeds, lobby_message, say, watched
from tests.fakeapi import FakeTelegram
from tests.fakeapi.users import SimGroup, SimUser

SCALE = 0.05  # a group's window of 3 s, a member's tables counted over 30 s
LIMITS = OutboxLimits().scaled(SCALE)
POSTS = ("sendmessage", "editmessagetext", "editmessagereplymarkup")
TOO_MANY = "Вы уже открыли здесь несколько столов за последние минуты — следующий чуть позже."


def scaled(settings: Settings, scale: float = SCALE) -> Settings:
    return settings.model_copy(update={"outbox_time_scale": scale})


def people(fake: FakeTelegram) -> tuple[SimUser, SimUser, SimUser, SimGroup]:
    anna = fake.add_user(101, "Anna", language_code="ru")
    boris = fake.add_user(102, "Boris", language_code="ru")
    vera = fake.add_user(103, "Vera", language_code="ru")
    group = fake.add_group(-1001, "Пятница", admins=[101], members=[102, 103])
    return anna, boris, vera, group


def posts(fake: FakeTelegram, group: SimGroup, since: int = 0) -> int:
    """The group's sends and edits since ``since``."""
    return sum(
        1
        for c in fake.requests[since:]
        if c.chat_id == group.id and c.method.lower() in POSTS and c.ok
    )


async def test_a_repeat_within_the_window_costs_nothing_and_a_later_one_is_sent_anew(
    fake_telegram: FakeTelegram, settings: Settings
) -> None:
    fake = fake_telegram
    anna, boris, _, group = people(fake)
    async with watched(fake, running_bot(scaled(settings), seeds=fixed_seeds())):
        await anna.start_bot()  # /notify needs her private chat
        helped = await say(fake, boris, "/help", group)
        mark = fake.mark()
        await boris.send(group, "/help")  # the same answer, within the window: no call
        await fake.settle(quiet=0.05)
        assert posts(fake, group, mark) == 0 and group.visible == [helped]

        on = await say(fake, anna, "/notify", group)  # another answer: its own message …
        assert on.text.startswith("🔔") and on.reply_to is not None
        await anna.send(group, "/notify")  # … whose repeat says something else: in place
        await fake.wait_until(lambda: on.text.startswith("🔕"), timeout=5)
        assert on.edits == 1 and group.visible == [helped, on]

        score = await say(fake, boris, "/score", group)  # the group's one /score …
        mark = fake.mark()
        await anna.send(group, "/score")  # … asked again by another: nothing changed
        await fake.settle(quiet=0.05)
        assert posts(fake, group, mark) == 0 and group.visible == [helped, on, score]

        await asyncio.sleep(LIMITS.group_window)  # the window is over: a new message
        again = await say(fake, boris, "/help", group)
        assert again is not helped and again.text == helped.text and not helped.deleted


async def test_one_members_answers_stay_within_his_quota_the_rest_dropped(
    fake_telegram: FakeTelegram, settings: Settings
) -> None:
    fake = fake_telegram
    _, boris, vera, group = people(fake)
    slow = scaled(settings, 0.2)  # a window of 12 s: the flood is handled well within it
    quota = OutboxLimits().answer_ops
    async with watched(fake, running_bot(slow, seeds=fixed_seeds())) as bot:
        await fake.settle(quiet=0.05)
        handling = Handling()
        bot.dispatcher.update.outer_middleware.register(handling)
        mark = fake.mark()
        commands = ("/help", "/rules", "/score", "/hand", "/language", "/start", "/settings")
        assert len(commands) > quota
        for command in commands:  # each its own answer: more than his quota
            await boris.send(group, command)
        await fake.wait_until(lambda: fake.pending_updates == 0 and handling.now == 0)
        await fake.settle(quiet=0.1)
        assert posts(fake, group, mark) == quota
        assert bot.services.outbox.pending() == 0  # dropped, not queued for later
        answered = await say(fake, vera, "/help", group)  # another member: his own quota
        assert "/newgame" in answered.text


async def test_a_member_opens_a_few_tables_in_a_span_then_is_told_to_wait(
    fake_telegram: FakeTelegram, settings: Settings
) -> None:
    """/newgame, 🚪 (the lobby closes), /newgame … each a new lobby message: a member opens at
    most his quota of tables in a span; then he is told so, and nothing is opened."""
    fake = fake_telegram
    _, boris, vera, group = people(fake)
    async with watched(fake, running_bot(scaled(settings), seeds=fixed_seeds())):
        for _ in range(LIMITS.table_ops):
            before = lobby_message(group)
            await boris.send(group, "/newgame mushka")
            await fake.wait_until(lambda: lobby_message(group) not in (None, before), timeout=5)  # noqa: B023
            lobby = lobby_message(group)
            assert lobby is not None
            assert not (await boris.press(lobby, "🚪")).text  # the last one leaves: closed
            await fake.wait_until(lambda: lobby_message(group) is None, timeout=5)
        lobbies = len(group.messages)
        told = await say(fake, boris, "/newgame mushka", group)
        assert told.text == TOO_MANY and lobby_message(group) is None
        assert len(group.messages) == lobbies + 1
        await vera.send(group, "/newgame mushka")  # another member opens one
        await fake.wait_until(lambda: lobby_message(group) is not None, timeout=5)


async def test_cancel_asked_again_and_again_shows_one_question(
    fake_telegram: FakeTelegram, settings: Settings
) -> None:
    fake = fake_telegram
    anna, _, _, group = people(fake)
    async with watched(fake, running_bot(scaled(settings), seeds=fixed_seeds())):
        await anna.send(group, "/newgame mushka")
        await fake.wait_until(lambda: lobby_message(group) is not None, timeout=5)
        await fake.settle(quiet=0.05)
        question = await say(fake, anna, "/cancel", group)
        assert question.has_button("✖️")
        mark = fake.mark()
        for _ in range(3):
            await anna.send(group, "/cancel")
        await fake.settle(quiet=0.05)
        assert posts(fake, group, mark) == 0 and question.has_button("✖️")


async def test_each_forum_topic_has_its_own_answers(
    fake_telegram: FakeTelegram, settings: Settings
) -> None:
    """A repeat in another topic is no repeat: its answer shows there (an edit of the first
    topic's answer would show nothing where he asked); the group's pane works in each."""
    fake = fake_telegram
    anna = fake.add_user(101, "Anna", language_code="ru")
    group = fake.add_group(-1001, "Клуб", is_forum=True, admins=[101])
    one, two = (group.create_topic(name, by=anna) for name in ("Мушка", "Вечер"))
    async with watched(fake, running_bot(scaled(settings), seeds=fixed_seeds())):
        for command in ("/score", "/settings"):  # the group's own messages: one a topic
            for thread in (one, two):
                await anna.send(group, command, thread_id=thread)
                await fake.wait_until(lambda: len(group.in_topic(thread)) > 0, timeout=5)  # noqa: B023
        await fake.settle(quiet=0.05)
        for thread in (one, two):
            shown = group.in_topic(thread)
            assert len(shown) == 2, [m.text for m in shown]
            pane = shown[-1]
            assert not (await anna.press(pane, "⏱")).text  # its buttons count in its topic
            await fake.wait_until(lambda: pane.edits == 1, timeout=5)  # noqa: B023
