"""Webhook (a reliability proof), what ``test_webhook.py`` leaves out: a move press of a running
game posted without the secret, with another one, with one of another case or length, is refused
(401) and changes nothing at all — no answer, no message, no row; the same update with the
secret then moves the game on once, and posted again does nothing more."""

from __future__ import annotations

import asyncio

from bot.app import RunningBot
from bot.config import Settings
from tests.bot.helpers import hand_message, to_act
from tests.bot.proof_helpers import SEVEN, hand_key, open_all, push_press, seat_games
from tests.bot.test_proof_forged import STATE_QUERIES
from tests.bot.test_webhook import SECRET, hook_settings, hooked, post  # noqa: F401  # fixtures
from tests.databases import TestDatabase, db_rows
from tests.fakeapi import FakeTelegram

WRONG = (None, "", "x", SECRET.upper(), SECRET[:-1], SECRET + "0", "not-the-secret-0123456789")


def state(fake: FakeTelegram, database: TestDatabase) -> tuple[object, ...]:
    rows = tuple(tuple(db_rows(database, q)) for q in STATE_QUERIES)
    return (
        rows,
        len(fake.requests),
        tuple(
            (m.chat_id, m.message_id, m.text)
            for c in fake.chats.values()
            for m in c.messages.values()
        ),
    )


async def test_a_move_posted_without_the_right_secret_changes_nothing(
    fake_telegram: FakeTelegram,
    hooked: RunningBot,  # noqa: F811
    hook_settings: Settings,  # noqa: F811
    database: TestDatabase,
) -> None:
    fake = fake_telegram
    url = hook_settings.webhook_url
    assert url is not None
    (game,) = seat_games(fake, 5, SEVEN[:1])
    await open_all(fake, [game])
    await fake.settle(quiet=0.1)
    user = to_act(game.group, game.players)
    assert user is not None
    hand = hand_message(user)
    assert hand is not None
    press = game.chooser(hand, game.rng).callback_data
    assert press is not None
    fake.hold_webhook = True
    answer = push_press(user, hand, press)
    update = fake.updates[-1]
    before = state(fake, database)
    for secret in WRONG:
        assert await post(url, update, secret) == 401, secret
    await asyncio.sleep(0.3)
    assert not answer.done()  # no handler saw the press
    assert state(fake, database) == before
    shown = hand_key(hand)
    assert await post(url, update, SECRET) == 200
    assert not (await asyncio.wait_for(answer, 10)).text
    # the update stays queued while the fake holds its own delivery: no settle, wait for it
    await fake.wait_until(
        lambda: hand_key(hand_message(user)) != shown and not fake.busy_now(), timeout=10
    )
    await asyncio.sleep(0.3)
    moved = state(fake, database)
    assert await post(url, update, SECRET) == 200  # Telegram's retry: one effect
    fake.hold_webhook = False
    await fake.settle(quiet=0.1)
    after = state(fake, database)
    assert after == moved
