"""What a card costs in Bot API calls (PRODUCT.md §4.5, §8): a card played edits the
actor's hand and the next player's, not every hand — a waiting trick-family hand is *still*
(``FamilyPresses.still_waiting``: no live trick on it, its buttons drawn at
``bot.callbacks.STILL``), so
the outbox finds it unchanged; a press on it is "not your turn" and changes nothing; and a person
who moved moments ago gets no turn ping (``BOT_PING_QUIET_S``)."""

from __future__ import annotations

import random

from bot.app import running_bot
from bot.config import Settings
from tests.bot.helpers import (
    STILL,
    _mv,
    fixed_seeds,
    hand_message,
    open_table,
    play_step,
    table_message,
    to_act,
    watched,
)
from tests.fakeapi import FakeTelegram
from tests.fakeapi.model import SentMessage
from tests.fakeapi.users import SimGroup, SimUser

PING = ("🔔 Ваш ход", "🔔 Your turn")


def four(fake: FakeTelegram) -> tuple[SimGroup, list[SimUser]]:
    users = [
        fake.add_user(101 + k, name, language_code="ru")
        for k, name in enumerate(("Anna", "Boris", "Vera", "Gleb"))
    ]
    group = fake.add_group(-1001, "Пятница", admins=[101], members=[u.id for u in users[1:]])
    return group, users


def playing(message: SentMessage | None) -> bool:
    """The hand of the seat to act in the trick play (a card to choose)."""
    return message is not None and ("Можно:" in message.text or "Playable:" in message.text)


def live_pings(user: SimUser) -> list[SentMessage]:
    return [m for m in user.messages if m.text.startswith(PING) and not m.deleted]


async def test_4_5_a_card_edits_only_the_actors_and_the_next_hand(
    fake_telegram: FakeTelegram, settings: Settings
) -> None:
    fake = fake_telegram
    group, players = four(fake)
    by_id = {u.id: u for u in players}
    rng = random.Random(4)
    checked = 0
    async with watched(fake, running_bot(settings, seeds=fixed_seeds())):
        await open_table(fake, group, players, options="target=15")
        for _ in range(400):
            actor = to_act(group, players)
            if actor is None or checked >= 12:
                break
            card = playing(hand_message(actor))
            mark = fake.mark()
            assert await play_step(fake, group, players, rng)
            await fake.settle(quiet=0.05)
            calls = fake.requests[mark:]
            if not card or any(
                c.method == "sendMessage" and c.params.get("chat_id") == group.id for c in calls
            ):
                continue  # a declaration, or the card that ended the deal (every hand is new)
            after = to_act(group, players)
            edited = {
                by_id[c.params["chat_id"]].first_name
                for c in calls
                if c.method == "editMessageText" and c.params.get("chat_id") in by_id
            }
            expected = {actor.first_name} | ({after.first_name} if after is not None else set())
            assert edited <= expected, f"{actor.first_name}'s card edited {edited}"
            for user in players:  # the waiting hands carry no move on their buttons
                if user is not after:
                    assert _mv(hand_message(user)) == STILL, user.first_name
            checked += 1
    assert checked >= 12


async def test_4_5_a_press_on_a_still_hand_says_whose_turn_it_is_and_changes_nothing(
    fake_telegram: FakeTelegram, settings: Settings
) -> None:
    fake = fake_telegram
    group, players = four(fake)
    rng = random.Random(5)
    async with watched(fake, running_bot(settings, seeds=fixed_seeds())):
        await open_table(fake, group, players, options="target=15")
        for _ in range(3):
            assert await play_step(fake, group, players, rng)
        await fake.settle(quiet=0.05)
        actor = to_act(group, players)
        assert actor is not None
        waiting = next(u for u in players if u is not actor)
        message = hand_message(waiting)
        assert message is not None and _mv(message) == STILL
        button = next(b for b in message.all_buttons if (b.callback_data or "").startswith("h:"))
        table_before = table_message(group)
        assert table_before is not None
        shown = (table_before.html, {u.id: hand_message(u) for u in players})
        texts = {u.id: m.html for u, m in ((u, hand_message(u)) for u in players) if m}
        mark = fake.mark()
        answer = await waiting.press(message, data=button.callback_data)
        await fake.settle(quiet=0.05)
        assert answer.text == f"Сейчас ходит {actor.first_name}."
        table_now = table_message(group)
        assert table_now is not None and table_now.html == shown[0]
        assert {u.id: m.html for u, m in ((u, hand_message(u)) for u in players) if m} == texts
        assert fake.count("editMessageText", since=mark) == 0
        assert to_act(group, players) is actor


async def test_4_5_no_turn_ping_for_a_person_who_moved_moments_ago(
    fake_telegram: FakeTelegram, settings: Settings
) -> None:
    fake = fake_telegram
    group, players = four(fake)
    rng = random.Random(6)
    now = [1_800_000_000.0]
    quiet = settings.model_copy(update={"ping_quiet_s": 20.0})
    moved: set[int] = set()
    came_back = {"quick": 0, "slow": 0}
    async with watched(fake, running_bot(quiet, seeds=fixed_seeds(), clock=lambda: now[0])):
        await open_table(fake, group, players, options="target=15")
        previous: SimUser | None = None
        for step in range(60):
            slow = step >= 30  # from here each move comes 25 s after the one before
            actor = to_act(group, players)
            assert actor is not None
            if actor is not previous and step != 30:  # his turn (the boundary's was quick)
                if actor.id not in moved:  # a first turn is always pinged
                    assert len(live_pings(actor)) == 1, actor.first_name
                elif slow:
                    assert len(live_pings(actor)) == 1, f"{actor.first_name} after 25 s"
                    came_back["slow"] += 1
                else:
                    assert live_pings(actor) == [], f"{actor.first_name} moved moments ago"
                    came_back["quick"] += 1
            moved.add(actor.id)
            previous = actor
            now[0] += 25.0 if slow else 0.5
            assert await play_step(fake, group, players, rng)
            await fake.settle(quiet=0.05)
            assert live_pings(actor) == [] or to_act(group, players) is actor
    assert came_back["quick"] >= 5 and came_back["slow"] >= 5
