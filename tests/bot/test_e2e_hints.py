"""💡 hints through the fake Bot API: a person practising against computers sees 💡 on his hand
at his turn, and its press answers under his own hand with the strongest computer's best
choices; at a rated table (of people, or of one person and computers) no hand ever offers 💡,
and a 💡 press forged for one is refused."""

from __future__ import annotations

import random

from bot.app import RunningBot
from bot.callbacks import Kind, Press, SeatAct
from tests.bot.helpers import (
    WAITING,
    act_of,
    hand_message,
    lobby_with_computers,
    open_table,
    play_step,
    table_message,
)
from tests.bot.test_e2e_practice import practising
from tests.fakeapi import FakeTelegram
from tests.fakeapi.model import SentMessage

HEAD = "💡 Сильный сыграл бы так:"


def hint_button(hand: SentMessage | None) -> bool:
    return hand is not None and any(act_of(b)[0] == SeatAct.HINT for b in hand.all_buttons)


async def test_hint_answers_under_the_asker_s_own_hand_at_a_practice_table(
    fake_telegram: FakeTelegram, bot: RunningBot
) -> None:
    fake = fake_telegram
    anna = fake.add_user(101, "Anna", language_code="ru")
    await anna.start_bot()
    await practising(fake, anna, "/practice mushka target=5")
    await fake.wait_until(lambda: hint_button(hand_message(anna)), timeout=20)
    await fake.settle(quiet=0.05)
    hand = hand_message(anna)
    assert hand is not None and not any(w in hand.text for w in WAITING)
    answer = await anna.press(hand, "💡")
    assert not answer.text, answer.text  # no refusal
    await fake.wait_until(
        lambda: (h := hand_message(anna)) is not None and HEAD in h.text, timeout=10
    )
    shown = hand_message(anna)
    assert shown is not None
    lines = shown.text.split(HEAD, 1)[1].strip().splitlines()
    assert 1 <= len(lines) <= 3 and all(ln.startswith("• ") and "в среднем" in ln for ln in lines)
    assert hint_button(shown)  # still her turn: 💡 may be asked again


async def test_no_hint_at_a_rated_table_of_one_person_against_computers(
    fake_telegram: FakeTelegram, bot: RunningBot
) -> None:
    """A group's table of one person and computers is rated (its result counts): no 💡."""
    fake = fake_telegram
    anna = fake.add_user(101, "Anna", language_code="ru")
    group = fake.add_group(-1001, "Пятница", admins=[101], members=[])
    computers = [("🤖 Фёдор", "easy"), ("🤖 Марфа", "easy")]
    lobby, _ = await lobby_with_computers(
        fake, bot, group, anna, "/newgame mushka target=5", computers
    )
    await anna.press(lobby, "▶️")
    await fake.wait_until(
        lambda: (h := hand_message(anna)) is not None and not any(w in h.text for w in WAITING),
        timeout=20,
    )
    await fake.settle(quiet=0.05)
    assert not hint_button(hand_message(anna))


async def test_no_hint_at_a_table_of_people_and_a_forged_one_is_refused(
    fake_telegram: FakeTelegram, bot: RunningBot
) -> None:
    fake = fake_telegram
    players = [fake.add_user(101 + i, n, language_code="ru") for i, n in enumerate("ABC")]
    group = fake.add_group(-1001, "Пятница", admins=[101], members=[102, 103])
    await open_table(fake, group, players)
    rng = random.Random(3)
    for _ in range(6):  # declarations and the first cards: 💡 on no hand at any point
        assert not any(hint_button(hand_message(p)) for p in players)
        assert await play_step(fake, group, players, rng)
    await fake.settle(quiet=0.05)
    assert not any(hint_button(hand_message(p)) for p in players)
    table = table_message(group)
    assert table is not None
    for p in players:
        hand = hand_message(p)
        assert hand is not None
        data = next(b.callback_data for b in hand.all_buttons if act_of(b)[0] == SeatAct.MENU)
        assert data is not None
        _, table_id, seat, mv = data.split("~")[0].split(":")[:4]
        press = Press(Kind.HAND, int(table_id, 36), int(seat), int(mv, 36), SeatAct.HINT)
        forged = bot.services.delivery.presenter.codec.pack(press)
        answer = await p.press_raw(hand, data=forged)
        assert answer.text, "a forged 💡 must be refused"
    await fake.settle(quiet=0.05)
    assert all(HEAD not in (m.text or "") for p in players for m in p.visible)
    assert all(HEAD not in m.text for m in group.visible)
