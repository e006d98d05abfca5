"""Every refusal is answered and changes nothing (PRODUCT.md §7.2, §16)."""

from __future__ import annotations

import asyncio
import dataclasses
import random

from bot.app import RunningBot
from bot.callbacks import PressCodec
from bot.render.cards import card_name
from engine.cards import DECK_52
from tests.bot.helpers import (
    act_of,
    db_rows,
    hand_message,
    open_table,
    play_step,
    table_message,
    to_act,
)
from tests.databases import TestDatabase
from tests.fakeapi import FakeTelegram
from tests.fakeapi.users import SimGroup, SimUser

CARD_OF_LABEL = {card_name(c, "ru"): str(c) for c in DECK_52}  # "Т♥" → "AH"


def actions_logged(database: TestDatabase) -> int:
    return int(db_rows(database, "SELECT COUNT(*) FROM actions")[0][0])


async def three(fake: FakeTelegram) -> tuple[SimGroup, list[SimUser]]:
    anna = fake.add_user(101, "Anna", language_code="ru", username="anna")
    boris = fake.add_user(102, "Boris", language_code="ru")
    vera = fake.add_user(103, "Vera", language_code="en")
    group = fake.add_group(-1001, "Пятница", admins=[101], members=[102, 103])
    players = [anna, boris, vera]
    await open_table(fake, group, players)
    return group, players


async def test_7_2_refusals_change_nothing(
    fake_telegram: FakeTelegram, bot: RunningBot, database: TestDatabase
) -> None:
    fake = fake_telegram
    group, players = await three(fake)
    rng = random.Random(3)
    actor = to_act(group, players)
    assert actor is not None
    waiting = next(u for u in players if u is not actor)
    table_before = table_message(group)
    assert table_before is not None
    text_before = table_before.text
    logged = actions_logged(database)

    # not your turn: a waiting player presses a card of his own hand
    hand = hand_message(waiting)
    assert hand is not None
    card = next(b for b in hand.all_buttons if act_of(b)[0] in ("p", "m"))
    answer = await waiting.press(hand, data=card.callback_data)
    expected = "It's" if waiting.first_name == "Vera" else "Сейчас ходит"
    assert answer.text is not None and expected in answer.text and actor.first_name in answer.text

    # not your hand: someone else's hand message pressed (a forwarded copy, a forged update)
    actor_hand = hand_message(actor)
    assert actor_hand is not None
    data = actor_hand.all_buttons[0].callback_data
    assert data is not None
    answer = await waiting.press_raw(actor_hand, data=data)
    assert answer.text in ("Это не ваши карты.", "These aren't your cards.")

    # forged or malformed data
    answer = await actor.press_raw(actor_hand, data=data[:-6] + "AAAAAA")
    assert answer.text in ("Кнопка не распознана.", "Unknown button.")
    answer = await actor.press_raw(actor_hand, data="garbage")
    assert answer.text in ("Кнопка не распознана.", "Unknown button.")

    await fake.settle(quiet=0.05)
    assert actions_logged(database) == logged
    assert table_message(group) is table_before and table_before.text == text_before

    # stale: a button drawn before the last moves
    stale_user = players[0]
    old = hand_message(stale_user)
    assert old is not None
    old_data = old.all_buttons[0].callback_data
    assert old_data is not None
    moved_from = actions_logged(database)
    while actions_logged(database) == moved_from:
        await play_step(fake, group, players, rng)
    logged = actions_logged(database)
    answer = await stale_user.press_raw(old, data=old_data)
    assert answer.text in (
        "Эта кнопка устарела — показываю актуальные карты.",
        "That button is out of date — here are your current cards.",
    )
    assert actions_logged(database) == logged


async def test_7_2_an_illegal_card_is_disabled_with_the_reason_and_its_forged_press_refused(
    fake_telegram: FakeTelegram, bot: RunningBot, database: TestDatabase
) -> None:
    """An illegal card is a disabled button (Bot API 10.3: it does nothing) and the hand's
    playable line gives the engine's reason; a press of it all the same (forged, or from a
    client that sends it) is refused as a button the hand does not offer, and changes
    nothing."""
    fake = fake_telegram
    group, players = await three(fake)
    rng = random.Random(5)
    for _ in range(300):
        actor = to_act(group, players)
        assert actor is not None
        hand = hand_message(actor)
        assert hand is not None
        illegal = [b for b in hand.all_buttons if b.text.startswith("·") and b.disabled]
        live = [b for b in hand.all_buttons if act_of(b)[0] == "p"]
        if illegal and live:
            assert all(b.callback_data is None for b in illegal)
            assert "Можно:" in hand.text or "Playable:" in hand.text, hand.text
            codec: PressCodec = bot.dispatcher["codec"]
            press = codec.parse(live[0].callback_data or "")
            assert press is not None
            card = CARD_OF_LABEL[illegal[0].text.strip("·")]
            data = codec.pack(dataclasses.replace(press, arg=card))  # signed, at this move
            assert all(b.callback_data != data for b in hand.all_buttons)
            logged = actions_logged(database)
            answer = await actor.press_raw(hand, data=data)
            assert answer.text is not None
            assert answer.text.startswith(("Эта кнопка устарела", "That button is out of date"))
            await fake.settle(quiet=0.05)
            assert actions_logged(database) == logged
            return
        await play_step(fake, group, players, rng)
    raise AssertionError("no illegal card came up")


async def test_7_2_closed_table_and_wrong_chat(
    fake_telegram: FakeTelegram, bot: RunningBot, database: TestDatabase
) -> None:
    fake = fake_telegram
    group, players = await three(fake)
    anna, boris = players[0], players[1]

    async def reply(user: SimUser, text: str, where: SimGroup | None = None) -> str:
        chat = where or user
        count = len(chat.messages)
        if where is None:
            await user.send_private(text)
        else:
            await user.send(where, text)
        await fake.wait_until(lambda: len(chat.messages) > count, timeout=10)
        return chat.messages[-1].text

    assert await reply(anna, "/kick") == "Эта команда работает в группе."
    assert (
        await reply(anna, "/cancel")
        == "Тренировки сейчас нет — закрывать нечего. Начать: /practice"
    )
    assert "в группе" in await reply(anna, "/newgame")
    assert await reply(anna, "/newgame mushka", group) == "Здесь уже есть стол: ↑"
    refused = await reply(boris, "/cancel", group)
    assert "Anna" in refused and "админ" in refused
    actor = to_act(group, players) or anna
    assert await reply(anna, "/cancel", group) == "Закрыть этот стол?"  # asks once
    await anna.press(group.messages[-1], "✖️ Да")
    await fake.wait_until(lambda: group.last.text == "Этот стол уже закрыт.", timeout=10)
    logged = actions_logged(database)
    hand = hand_message(actor)
    assert hand is not None
    answer = await actor.press(hand, data=hand.all_buttons[0].callback_data)
    assert answer.text in ("Этот стол уже закрыт.", "This table is closed.")
    assert actions_logged(database) == logged


async def test_7_2_two_presses_at_once_play_one_card(
    fake_telegram: FakeTelegram, bot: RunningBot, database: TestDatabase
) -> None:
    fake = fake_telegram
    group, players = await three(fake)
    rng = random.Random(9)
    for _ in range(300):
        actor = to_act(group, players)
        assert actor is not None
        hand = hand_message(actor)
        assert hand is not None
        cards = [b for b in hand.all_buttons if act_of(b)[0] == "p" and b.text[0] != "·"]
        if cards:
            logged = actions_logged(database)
            data = cards[0].callback_data
            assert data is not None
            first, second = await asyncio.gather(
                actor.press_raw(hand, data=data), actor.press_raw(hand, data=data)
            )
            await fake.settle(quiet=0.05)
            texts = sorted([first.text or "", second.text or ""])
            assert texts[0] == ""
            assert texts[1].startswith(("Уже сыграно", "Already played"))
            assert actions_logged(database) == logged + 1
            return
        await play_step(fake, group, players, rng)
    raise AssertionError("no card play came up")
