"""🔎 a deal's review through the fake Bot API: on every deal's result; pressed by a player of
that deal, his summary and the deal's first step come to his private chat, and ⏮ ◀ ▶ ⏭ step
through it in one message edited in place, without computing it again; a person who did not
play it is refused while the match runs and let in once it is over; a deal still being played,
a step that does not exist, a press on someone else's review: refused, nothing changes."""

from __future__ import annotations

import random

from bot.app import RunningBot, running_bot
from bot.callbacks import Kind, Press, ReviewAct
from bot.config import Settings
from bot.message_limits import MAX_TEXT
from bot.reviews import Reviews
from tests.bot.helpers import (
    deal_results,
    fixed_seeds,
    open_table,
    play_deal,
    play_until_end,
    result_message,
    watched,
)
from tests.bot.test_e2e_ephemeral import in_group, open_in_group, play_to, seated
from tests.bot.test_e2e_limits import three
from tests.fakeapi import FakeTelegram
from tests.fakeapi.model import SentMessage
from tests.fakeapi.users import SimGroup, SimUser

STEP = "🔎 Сдача 1 · ход {} из {}"
DEALT = "🔎 Сдача 1 · после раздачи"  # step 0


def deal_result(group: SimGroup, no: int = 1) -> SentMessage:
    """The group's result of deal ``no`` (its 📋 message)."""
    return [m for m in group.messages if m.text.startswith("📋")][no - 1]


def reviews_of(bot: RunningBot) -> Reviews:
    reviews = bot.dispatcher["reviews"]
    assert isinstance(reviews, Reviews)
    return reviews


def labels(message: SentMessage) -> list[list[str]]:
    return [[b.text for b in row] for row in message.buttons]


def hand_of(message: SentMessage, name: str) -> bool:
    """Whether ``message`` shows ``name``'s cards (a line «Name: 7♥ 9♠ …»)."""
    return any(
        line.startswith(f"{name}: ") and any(suit in line for suit in "♠♥♦♣")
        for line in message.text.splitlines()
    )


def last_of(message: SentMessage) -> int:
    """The last step of the review shown in ``message`` (where its ⏭ leads)."""
    data = message.button("⏭").callback_data
    assert data is not None
    return int(data.split("~")[0].rsplit(".", 1)[1])


async def opened(fake: FakeTelegram, user: SimUser, result: SentMessage) -> list[SentMessage]:
    """``user`` presses 🔎 on a deal's result: told it is in private; what came there."""
    before = len(user.messages)
    answer = await user.press(result, "🔎")
    assert answer.text in ("🔎 Разбор — в личке.", "🔎 The review is in our private chat.")
    await fake.wait_until(lambda: any(m.all_buttons for m in user.messages[before:]), timeout=15)
    await fake.settle(quiet=0.05)
    return user.messages[before:]


async def test_a_player_opens_his_review_and_steps_through_it_in_place(
    fake_telegram: FakeTelegram, bot: RunningBot
) -> None:
    fake = fake_telegram
    group, (anna, boris, vera) = await three(fake)
    await open_table(fake, group, [anna, boris, vera])
    await play_deal(fake, group, [anna, boris, vera], random.Random(5))
    result = deal_result(group)
    assert "🔎 Разбор" in result.describe_buttons()
    summary, step = await opened(fake, anna, result)
    assert not summary.all_buttons  # his decisions summed up first
    assert summary.text.startswith("🔎 Сдача 1 — Anna\n")
    n = last_of(step)
    assert n >= 2 and step.text.startswith(DEALT)
    assert all(hand_of(step, name) for name in ("Anna", "Boris", "Vera"))  # every hand shown
    assert labels(step) == [["▶", "⏭"], ["✖️ Закрыть"]]
    sent = len(fake.calls("sendMessage"))
    # ▶ ⏭ ◀ ⏮: one message, edited in place
    await anna.press(step, "▶")
    await fake.wait_until(lambda: step.text.startswith(STEP.format(1, n)), timeout=10)
    assert labels(step) == [["⏮", "◀", "▶", "⏭"], ["✖️ Закрыть"]]
    await anna.press(step, "⏭")
    await fake.wait_until(lambda: step.text.startswith(STEP.format(n, n)), timeout=10)
    assert labels(step) == [["⏮", "◀"], ["✖️ Закрыть"]]
    assert "Взятка 5:" in step.text and "📋" in step.text  # its last trick, then its result
    await anna.press(step, "◀")
    await fake.wait_until(lambda: step.text.startswith(STEP.format(n - 1, n)), timeout=10)
    await anna.press(step, "⏮")
    await fake.wait_until(lambda: step.text.startswith(DEALT), timeout=10)
    await fake.settle(quiet=0.05)
    assert len(fake.calls("sendMessage")) == sent and step.edits == 4
    # computed once: the pages were read back (one stored review, one search)
    assert reviews_of(bot).computed == 1 and await bot.db.count("reviews") == 1
    # Vera reads it in English, her own summary; every message within Telegram's limits
    summary_en, step_en = await opened(fake, vera, result)
    assert step_en.text.startswith("🔎 Deal 1 · as dealt")
    assert labels(step_en) == [["▶", "⏭"], ["✖️ Close"]]
    assert reviews_of(bot).computed == 2 and await bot.db.count("reviews") == 2
    for message in (summary, step, summary_en, step_en):
        assert len(message.text) <= MAX_TEXT
    # ✖️: the review goes
    await vera.press(step_en, "✖️")
    await fake.wait_until(lambda: step_en.deleted, timeout=10)


async def test_who_may_open_a_review_and_when(fake_telegram: FakeTelegram, bot: RunningBot) -> None:
    fake = fake_telegram
    group, players = await three(fake)
    anna, boris, _ = players
    gleb = fake.add_user(104, "Gleb", language_code="ru")
    group.add_member(gleb)
    await gleb.start_bot()
    await open_table(fake, group, players, options="target=10")  # more than one deal
    await play_deal(fake, group, players, random.Random(8))
    result = deal_result(group)
    assert result_message(group) is None, "the match goes on"
    codec = bot.services.delivery.presenter.codec
    opening = result.button("🔎").callback_data
    assert opening is not None
    table, match = (int(x, 36) for x in opening.split(":")[1:4:2])

    def data(act: ReviewAct, arg: str) -> str:
        return codec.pack(Press(Kind.REVIEW, table, None, match, act, arg))

    before = len(gleb.messages)
    # not a player of the deal, the match going on: refused in words
    answer = await gleb.press(result, "🔎")
    assert answer.text == ("🔎 Разбор откроется, когда игра закончится (игрокам сдачи — сразу).")
    # the deal being played now: nobody may open it, not even its players
    answer = await anna.press_raw(result, data=data(ReviewAct.OPEN, "2"))
    assert answer.text == "🔎 Разбор откроется, когда сдача закончится."
    # a step that does not exist, a step pressed in the group: stale
    _, step = await opened(fake, boris, result)
    n = last_of(step)
    answer = await boris.press_raw(step, data=data(ReviewAct.STEP, f"1.{n + 1}"))
    assert answer.text == "Эта кнопка устарела."
    answer = await boris.press_raw(result, data=data(ReviewAct.STEP, "1.1"))
    assert answer.text == "Эта кнопка устарела."
    await fake.settle(quiet=0.05)
    assert step.text.startswith(DEALT) and step.edits == 0
    assert len(gleb.messages) == before and await bot.db.count("reviews") == 1
    # the match over: anyone in the chat may open any of its deals — where the bot can write
    await play_until_end(fake, group, players, random.Random(9))
    assert result_message(group) is not None
    dina = fake.add_user(105, "Dina", language_code="ru")  # no private chat with the bot
    group.add_member(dina)
    answer = await dina.press(result, "🔎")
    assert answer.text == "Сначала откройте чат со мной — кнопка ниже."
    assert reviews_of(bot).computed == 1  # refused before any search: Boris's alone
    summary, *rest = await opened(fake, gleb, result)
    assert not rest and last_of(summary) == n  # no decisions of his: the steps alone
    assert summary.text.startswith(DEALT)


async def test_record_offers_the_review_of_every_deal_of_the_game(
    fake_telegram: FakeTelegram, bot: RunningBot
) -> None:
    fake = fake_telegram
    group, players = await three(fake)
    await open_table(fake, group, players, options="target=10")
    await play_until_end(fake, group, players, random.Random(9))
    await fake.settle(quiet=0.05)
    deals = len([m for m in group.messages if m.text.startswith("📋")])
    count = len(group.messages)
    await players[1].send(group, "/record")
    await fake.wait_until(
        lambda: any(m.text == "🔎 Разбор сдачи:" for m in group.messages[count:]), timeout=10
    )
    (offer,) = [m for m in group.messages[count:] if m.text == "🔎 Разбор сдачи:"]
    assert [b.text for b in offer.all_buttons] == [str(no) for no in range(1, deals + 1)]
    assert all(len(row) <= 8 for row in offer.buttons)
    before = len(players[2].messages)
    answer = await players[2].press(offer, str(deals))  # Vera, the last deal: in English
    assert answer.text == "🔎 The review is in our private chat."
    await fake.wait_until(
        lambda: any(m.all_buttons for m in players[2].messages[before:]), timeout=15
    )
    step = next(m for m in players[2].messages[before:] if m.all_buttons)
    assert step.text.startswith(f"🔎 Deal {deals} · as dealt")


async def test_where_hands_are_in_the_group_his_review_is_there_for_him_alone(
    fake_telegram: FakeTelegram, settings: Settings
) -> None:
    fake = fake_telegram
    players, group = seated(fake, 3)  # the bot an admin; nobody has a private chat with it
    anna, boris, _ = players
    async with watched(fake, running_bot(in_group(settings), seeds=fixed_seeds())):
        await open_in_group(fake, group, players, "mushka", "target=10")
        await play_to(fake, group, players, random.Random(5), lambda: deal_results(group) >= 1)
        result = deal_result(group)
        seen = len(group.messages)
        answer = await anna.press(result, "🔎")
        assert not answer.text

        def shown() -> list[SentMessage]:
            return [m for m in anna.ephemeral(group) if m.text.startswith(DEALT[:10])]

        await fake.wait_until(lambda: len(shown()) == 2, timeout=15)
        summary, step = shown()  # his decisions first, then the deal as dealt
        assert summary.text.startswith("🔎 Сдача 1 — Anna") and not summary.all_buttons
        n = last_of(step)
        assert step.text.startswith(DEALT)
        await anna.press(step, "▶")
        await fake.wait_until(lambda: step.text.startswith(STEP.format(1, n)), timeout=10)
        assert step.edits == 1 and shown() == [summary, step]
        # his alone: nothing in what everyone sees, nothing to Boris, no private chat
        await fake.settle(quiet=0.05)
        assert all(not m.text.startswith("🔎") for m in group.messages[seen:])
        assert not any(m.text.startswith("🔎") for m in boris.ephemeral(group))
        assert all(not p.messages for p in players)
        await anna.press(step, "✖️")
        await fake.wait_until(lambda: not shown(), timeout=10)


async def test_after_a_restart_a_page_reads_the_stored_review_and_never_searches(
    fake_telegram: FakeTelegram, settings: Settings
) -> None:
    fake = fake_telegram
    group, players = await three(fake)
    async with watched(fake, running_bot(settings, seeds=fixed_seeds())) as running:
        await open_table(fake, group, players, options="target=10")
        await play_deal(fake, group, players, random.Random(5))
        _, step = await opened(fake, players[0], deal_result(group))
        assert reviews_of(running).computed == 1
    n = last_of(step)
    async with watched(fake, running_bot(settings, seeds=fixed_seeds())) as running:
        await players[0].press(step, "⏭")
        await fake.wait_until(lambda: step.text.startswith(STEP.format(n, n)), timeout=10)
        assert step.edits == 1 and reviews_of(running).computed == 0  # read back, not searched
