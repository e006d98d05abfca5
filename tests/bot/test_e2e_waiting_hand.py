"""What a waiting player sees of the table, through the fake Bot API: a hand shown in the group
(which 🂠 «Мои карты» shows in place of the table) follows the trick so far and says whom the
table waits for; a seat the computer plays for never says it is his turn."""

from __future__ import annotations

import asyncio
import random
import re

from bot.app import running_bot
from bot.config import Settings
from tests.bot.helpers import (
    choose,
    fixed_seeds,
    hand_message,
    play_step,
    result_message,
    table_message,
    to_act,
    watched,
)
from tests.bot.test_e2e_ephemeral import in_group, open_in_group, seated
from tests.bot.test_e2e_seats import toggle
from tests.fakeapi import FakeTelegram
from tests.fakeapi.model import SentMessage

TRICK = re.compile(r"^(Взятка \d+: .*) …$", re.MULTILINE)  # the table's, its player pending
TO_PLAY = re.compile(r"Ход: (.+?) · (⏳ \d+:\d\d)$", re.MULTILINE)  # the timer: PRODUCT.md §5.2
STEPS = 14  # presses watched: the declarations, the exchanges and some tricks
YOUR_TURN = ("ваш ход", "Играете или пас?", "Можно:")
AWAY = "🤖 За вас играет компьютер."


def expected_line(table: SentMessage) -> str:
    """What a waiting hand says of the table: ``Взятка 2: Anna 9♠ · … · ждём: Vera · ⏳ 1:30``
    for the table's ``Взятка 2: Anna 9♠ · Vera …`` and ``Ход: Vera · ⏳ 1:30``; ``⏳ ждём:
    Vera · ⏳ 1:30`` while no trick is in play."""
    trick, to_play = TRICK.search(table.text), TO_PLAY.search(table.text)
    assert to_play is not None, table.text
    name, timer = to_play.groups()
    waiting = f"ждём: {name} · {timer}"
    if trick is None:
        return f"⏳ {waiting}"
    plays = trick.group(1).removesuffix(f" · {name}").removesuffix(f" {name}")
    if plays.endswith(":"):  # nobody has played to it yet
        return f"{plays} … · {waiting}"
    return f"{plays} · … · {waiting}"


def text_of(message: SentMessage | None) -> str:
    return message.text if message is not None else ""


async def test_a_hand_shown_in_place_of_the_table_follows_the_trick_and_whom_it_waits_for(
    fake_telegram: FakeTelegram, settings: Settings
) -> None:
    fake = fake_telegram
    players, group = seated(fake, 3)
    rng = random.Random(5)
    seen = 0
    async with watched(fake, running_bot(in_group(settings), seeds=fixed_seeds())):
        table = await open_in_group(fake, group, players, "mushka", "target=25")
        first = to_act(group, players)
        waiter = next(p for p in players if p is not first)
        assert not (await waiter.press(table, "🂠")).text  # his hand, in place of the table
        await fake.wait_until(lambda: waiter.shown_in_place_of(table) is not None, timeout=10)
        for _ in range(STEPS):
            assert await play_step(fake, group, players, rng)
            await fake.settle(quiet=0.05)
            if result_message(group) is not None:
                break
            current = table_message(group)
            assert current is not None
            who = to_act(group, players)
            assert who is not None
            assert f"Ход: {who.first_name} · ⏳ 1:30" in current.text, current.text
            line = expected_line(current)
            for player in players:
                hand = hand_message(player)
                assert hand is not None
                if player is who:
                    assert "ждём" not in hand.text
                    continue
                assert line in hand.text.splitlines(), (line, hand.text)
                seen += "Взятка" in line
        assert seen > 0, "no trick was played"
        shown = waiter.shown_in_place_of(table_message(group) or table)
        assert shown is None or "ждём" in shown.text or "ваш ход" in shown.text


async def test_a_seat_the_computer_plays_for_never_says_it_is_his_turn(
    fake_telegram: FakeTelegram, settings: Settings
) -> None:
    fake = fake_telegram
    players, group = seated(fake, 3)
    rng = random.Random(7)
    slow = in_group(settings).model_copy(update={"computer_delay_s": 1.0})
    async with watched(fake, running_bot(slow, seeds=fixed_seeds())):
        await open_in_group(fake, group, players, "mushka", "target=25")
        for _ in range(STEPS):  # into the play of tricks
            table = table_message(group)
            if table is not None and TRICK.search(table.text):
                break
            assert await play_step(fake, group, players, rng)
            await fake.settle(quiet=0.05)
        who = to_act(group, players)
        assert who is not None
        assert "ваш ход" in text_of(hand_message(who))
        await toggle(fake, who)  # ⋯ → 🤖 at his own turn
        await fake.wait_until(lambda: AWAY in text_of(hand_message(who)), timeout=10)
        await fake.settle(quiet=0.1)
        shown = [
            v.text for m in who.ephemeral(group, deleted=True) for v in m.history if AWAY in v.text
        ]
        assert shown
        assert not [t for t in shown if any(w in t for w in YOUR_TURN)], shown


async def test_the_group_table_shows_the_turn_timer_and_the_reminder(
    fake_telegram: FakeTelegram, settings: Settings
) -> None:
    """PRODUCT.md §5.2: «Ход: Вера · ⏳ 0:15» on the table at each turn (in steps of 15 s,
    drawn with a real change: no edit of its own), and «⏳ 0:15 — напомнили» at the reminder
    (⅓ of a 6 s turn left), on the table and on the hands in the group that wait."""
    fake = fake_telegram
    players, group = seated(fake, 3)
    quick = in_group(settings).model_copy(update={"turn_timeout_s": 6.0})
    async with watched(fake, running_bot(quick, seeds=fixed_seeds())):
        table = await open_in_group(fake, group, players, "mushka", "target=25")
        who = to_act(group, players)
        assert who is not None
        assert f"Ход: <b>{who.first_name}</b> · ⏳ 0:15" in table.html.splitlines(), table.html
        edits = len(table.history)
        await asyncio.sleep(1.0)
        assert len(table.history) == edits  # the countdown does not tick by itself
        await fake.wait_until(lambda: "напомнили" in table.text, timeout=10)
        assert f"Ход: <b>{who.first_name}</b> · ⏳ 0:15 — напомнили" in table.html, table.html
        waiting = [p for p in players if p is not who]
        await fake.wait_until(
            lambda: all(
                "ждём" in (h := text_of(hand_message(p))) and "напомнили" in h for p in waiting
            ),
            timeout=10,
        )


async def test_a_waiting_hand_in_place_of_the_table_gives_the_table_back_till_his_turn(
    fake_telegram: FakeTelegram, settings: Settings
) -> None:
    """«↩️ К столу» on a waiting hand shown in place of the table: the hand goes and he sees
    the table again; the others' moves bring no hand back; his turn does, with its buttons."""
    fake = fake_telegram
    players, group = seated(fake, 3)
    rng = random.Random(9)
    async with watched(fake, running_bot(in_group(settings), seeds=fixed_seeds())):
        table = await open_in_group(fake, group, players, "mushka", "target=25")
        first = to_act(group, players)
        waiter = next(p for p in players if p is not first)
        assert not (await waiter.press(table, "🂠")).text
        await fake.wait_until(lambda: waiter.shown_in_place_of(table) is not None, timeout=10)
        shown = waiter.shown_in_place_of(table)
        assert shown is not None and "↩️ К столу" in shown.describe_buttons()
        assert not (await waiter.press(shown, "↩️ К столу")).text
        await fake.wait_until(lambda: waiter.shown_in_place_of(table) is None, timeout=10)
        assert hand_message(waiter) is None  # put away: he sees the table
        for _ in range(STEPS):
            if to_act(group, players) is waiter:
                break
            assert hand_message(waiter) is None, "a move of another brought his hand back"
            who = to_act(group, players)
            assert who is not None
            hand = hand_message(who)
            assert hand is not None
            await who.press(hand, data=choose(hand, rng).callback_data)
            await fake.wait_until(lambda: not fake.busy_now(), timeout=10)
            await fake.settle(quiet=0.05)
        else:
            raise AssertionError("his turn never came")
        await fake.wait_until(lambda: hand_message(waiter) is not None, timeout=10)
        back = hand_message(waiter)
        assert back is not None and "↩️ К столу" not in back.describe_buttons()
        assert waiter.shown_in_place_of(table_message(group) or table) is None
