"""The private side of a table (PRODUCT.md §4.5, §9, §16): the turn ping, the
"My cards" deep link, the refresh button's answer, and /score in a group."""

from __future__ import annotations

import random

import pytest

from bot.app import RunningBot
from tests.bot import test_lenturlu_e2e as lenturlu
from tests.bot.helpers import (
    act_of,
    choose,
    expected_screens,
    hand_message,
    open_table,
    play_step,
    play_until_end,
    say,
    table_message,
    to_act,
)
from tests.bot.test_e2e_limits import three
from tests.fakeapi import FakeTelegram
from tests.fakeapi.model import SentMessage
from tests.fakeapi.users import SimGroup, SimUser

PING = ("🔔 Ваш ход", "🔔 Your turn")


@pytest.fixture
async def seated(
    fake_telegram: FakeTelegram, bot: RunningBot
) -> tuple[FakeTelegram, SimGroup, list[SimUser]]:
    """Anna, Boris and Vera at a started Мушка table."""
    group, players = await three(fake_telegram)
    await open_table(fake_telegram, group, players)
    return fake_telegram, group, players


def pings(user: SimUser) -> list[SentMessage]:
    return [m for m in user.messages if m.text.startswith(PING)]


async def test_4_5_a_turn_ping_comes_when_the_turn_starts_and_goes_when_he_acts(
    seated: tuple[FakeTelegram, SimGroup, list[SimUser]],
) -> None:
    fake, group, players = seated
    rng = random.Random(11)
    for _ in range(12):  # a dozen turns, whoever is to act
        actor = to_act(group, players)
        assert actor is not None
        live = [m for m in pings(actor) if not m.deleted]
        assert len(live) == 1, f"{actor.first_name} should have one live ping: {live}"
        assert "Пятница" in live[0].text
        for other in players:  # nobody else is pinged now
            if other is not actor:
                assert all(m.deleted for m in pings(other)), other.first_name
        assert await play_step(fake, group, players, rng)
        await fake.settle(quiet=0.05)
        assert live[0].deleted or to_act(group, players) is actor
    vera = players[2]  # English: her pings are in her language
    assert pings(vera) and all(m.text.startswith("🔔 Your turn") for m in pings(vera))


async def test_16_my_cards_by_someone_not_at_the_table_is_answered(
    seated: tuple[FakeTelegram, SimGroup, list[SimUser]],
) -> None:
    fake, group, _players = seated
    table = table_message(group)
    assert table is not None
    dora = await my_cards_by_a_stranger(fake, my_cards_payload(table))
    assert hand_message(dora) is None


async def test_16_my_cards_opened_again_and_again_by_someone_not_at_the_table_leaves_one_answer(
    seated: tuple[FakeTelegram, SimGroup, list[SimUser]],
) -> None:
    """A spectator who taps the table's 🂠 over and over gets one answer in his private chat,
    not a «/start h_…» line and an answer for every tap."""
    fake, group, _players = seated
    table = table_message(group)
    assert table is not None
    payload = my_cards_payload(table)
    dora = await my_cards_by_a_stranger(fake, payload)
    for _ in range(5):
        await dora.start_bot(payload)
    await fake.wait_until(
        lambda: not [m for m in dora.visible if m.text.startswith("/start h_")], timeout=10
    )
    await fake.settle(quiet=0.05)
    shown = [m.text for m in dora.visible if m.text != "/start"]
    assert shown.count("Вы не играете за этим столом.") == 1, shown
    assert not [t for t in shown if t.startswith("/start h_")], shown
    assert hand_message(dora) is None


def my_cards_payload(table: SentMessage) -> str:
    """The deep link payload of the table message's 🂠 «Мои карты»."""
    link = next(b.url for b in table.all_buttons if b.url and "start=h_" in b.url)
    return link.split("start=", 1)[1]


async def my_cards_by_a_stranger(fake: FakeTelegram, payload: str) -> SimUser:
    """Dora, not at the table, opens 🂠's link: she is told she is not playing."""
    dora = fake.add_user(104, "Dora", language_code="ru")
    await dora.start_bot()
    await fake.settle(quiet=0.05)
    before = len(dora.messages)
    await dora.start_bot(payload)
    await fake.wait_until(lambda: len(dora.messages) > before, timeout=10)
    assert dora.messages[-1].text == "Вы не играете за этим столом."
    return dora


async def test_9_my_cards_sends_the_hand_anew_and_deletes_the_old_one_and_the_link_line(
    seated: tuple[FakeTelegram, SimGroup, list[SimUser]],
) -> None:
    fake, group, players = seated
    anna = players[0]
    old = hand_message(anna)
    table = table_message(group)
    assert old is not None and table is not None
    payload = next(b.url for b in table.all_buttons if b.url).split("start=", 1)[1]
    line = await anna.start_bot(payload)
    await fake.wait_until(lambda: hand_message(anna) is not old and line.deleted, timeout=10)
    await fake.settle(quiet=0.05)
    assert old.deleted and line.deleted
    new = hand_message(anna)
    assert new is not None and new.html == old.html


async def test_9_my_cards_tapped_again_and_again_sends_one_new_hand_of_the_latest_state(
    seated: tuple[FakeTelegram, SimGroup, list[SimUser]], bot: RunningBot
) -> None:
    """🂠's link opened three times a move while the game goes on: one new hand message (the
    first tap), the others shown in place — no new message and no notification each — and the
    one hand left shows the table's latest state."""
    fake, group, players = seated
    anna = players[0]
    table = table_message(group)
    assert table is not None
    payload = my_cards_payload(table)
    rng = random.Random(5)
    mark = fake.mark()
    for _ in range(4):
        for _ in range(3):
            await anna.start_bot(payload)
        await fake.settle(quiet=0.05)
        assert await play_step(fake, group, players, rng)
    await fake.settle(quiet=0.1)
    sent = [
        c
        for c in fake.requests[mark:]
        if c.method == "sendMessage" and c.chat_id == anna.id and "место" in c.params["text"]
    ]
    assert len(sent) == 1, [c.params["text"][:40] for c in sent]
    hands = [m for m in anna.visible if "место" in m.text]
    assert len(hands) == 1 and not [m for m in anna.visible if m.text.startswith("/start h_")]
    _, expected = await expected_screens(bot, group.id)
    assert (hands[0].message_id, hands[0].html) == expected[anna.id]


async def test_16_refresh_answers_that_the_cards_are_up_to_date(
    seated: tuple[FakeTelegram, SimGroup, list[SimUser]],
) -> None:
    fake, _group, players = seated
    anna = players[0]
    hand = hand_message(anna)
    assert hand is not None
    edits = fake.count("editMessageText", anna.id)
    refresh = next(b for b in hand.all_buttons if b.callback_data and act_of(b)[0] == "u")
    answer = await anna.press(hand, data=refresh.callback_data)
    assert answer.text == "Карты актуальны."
    await fake.settle(quiet=0.05)
    assert fake.count("editMessageText", anna.id) == edits  # nothing changed, nothing sent


async def test_9_score_in_a_group_replies_and_keeps_one_answer(
    seated: tuple[FakeTelegram, SimGroup, list[SimUser]],
) -> None:
    fake, group, players = seated
    rng = random.Random(2)
    for _ in range(3):
        actor = to_act(group, players)
        assert actor is not None
        message = hand_message(actor)
        assert message is not None
        await actor.press(message, data=choose(message, rng).callback_data)
        await fake.settle(quiet=0.05)
    first = await say(fake, players[1], "/score", group)
    second = await say(fake, players[2], "/score", group)
    await fake.settle(quiet=0.05)
    assert first.text.startswith("📊") and second.text.startswith("📊")
    assert first.deleted and not second.deleted
    assert second.reply_to is not None  # a reply to the command
    scores = [m for m in group.visible if m.text.startswith("📊")]
    assert scores == [second]


async def test_16_my_cards_after_the_end_gives_each_seated_player_his_last_hand(
    fake_telegram: FakeTelegram, bot: RunningBot
) -> None:
    """🂠 pressed after the game ended (its link from the table message as it was drawn
    during the game) brings each seated player his last hand with his place and money, never
    «Вы не играете за этим столом.»; a member who did not play is still told so."""
    fake = fake_telegram
    group, players = await three(fake)
    await open_table(fake, group, players, game="lenturlu", options="")
    table = table_message(group)
    assert table is not None
    payload = my_cards_payload(table)
    await play_until_end(fake, group, players, random.Random(5), pick=lenturlu.choose)
    await fake.settle(quiet=0.1)
    for user in players:
        before = len(user.messages)
        await user.start_bot(payload)
        await fake.wait_until(lambda u=user, b=before: len(u.messages) > b, timeout=10)  # type: ignore[misc]
        await fake.settle(quiet=0.05)
        texts = [m.text for m in user.messages[before:] if not m.deleted]
        assert not any("не играете" in t or "not playing" in t for t in texts), texts
        hand = hand_message(user) or user.messages[-1]
        assert any(w in hand.text for w in ("Ваше место", "Your place")), hand.text
    await my_cards_by_a_stranger(fake, payload)
