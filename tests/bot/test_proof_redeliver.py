"""One effect (a reliability proof), in every game: a move press whose update Telegram delivers
again (the same ``update_id``: a webhook retry racing the first delivery, and once more after
it) and a double tap (two updates, the same button) each move the game on once — one logged
action, one accepted answer. (A redelivery after a crash is the kill proof's:
``test_proof_kill.py`` counts the duplicates the restarted bots skipped.)"""

from __future__ import annotations

import asyncio

import pytest

from bot.app import RunningBot
from bot.config import Settings
from tests.bot.helpers import hand_message, shown_move, to_act
from tests.bot.proof_helpers import SEVEN, Kind, open_all, push_press, seat_games
from tests.bot.test_webhook import SECRET, hook_settings, hooked, post  # noqa: F401  # fixtures
from tests.databases import TestDatabase, db_rows
from tests.fakeapi import FakeTelegram

TRIES = 40  # presses until the chooser picks one that moves the game on (not a mark or menu)


def logged(database: TestDatabase) -> int:
    return int(db_rows(database, "SELECT COUNT(*) FROM actions")[0][0])


@pytest.mark.parametrize("kind", SEVEN, ids=[k[0] for k in SEVEN])
async def test_a_redelivered_update_and_a_double_tap_move_the_game_once(
    fake_telegram: FakeTelegram,
    hooked: RunningBot,  # noqa: F811
    hook_settings: Settings,  # noqa: F811
    database: TestDatabase,
    kind: Kind,
) -> None:
    fake = fake_telegram
    url = hook_settings.webhook_url
    assert url is not None
    (game,) = seat_games(fake, 17, (kind,))
    await open_all(fake, [game])
    redelivered = tapped = False
    for _ in range(TRIES):
        await fake.settle(quiet=0.05)
        user = to_act(game.group, game.players)
        assert user is not None, f"{game.name}: nobody to act"
        hand = hand_message(user)
        assert hand is not None
        data = game.chooser(hand, game.rng).callback_data
        assert data is not None
        before, mv = logged(database), shown_move(game.players)
        answers_before = len(fake.calls("answerCallbackQuery"))
        if not redelivered:
            fake.hold_webhook = True
            answer = push_press(user, hand, data)
            update = fake.updates[-1]
            statuses = await asyncio.gather(post(url, update, SECRET), post(url, update, SECRET))
            assert list(statuses) == [200, 200]
            first = await asyncio.wait_for(answer, 10)
            assert await post(url, update, SECRET) == 200  # once more, after the answer
            fake.hold_webhook = False  # and the fake's own delivery: a fourth
            await fake.settle(quiet=0.1)
            answered = len(fake.calls("answerCallbackQuery")) - answers_before
            assert answered == 1, f"{game.name}: {answered} answers to one update"
            assert not first.text, first.text
        else:
            answers = [push_press(user, hand, data), push_press(user, hand, data)]
            results = [await asyncio.wait_for(a, 10) for a in answers]
            await fake.settle(quiet=0.1)
        moved = shown_move(game.players) != mv
        now = logged(database)
        assert now - before == (1 if moved else 0), (game.name, data, before, now)
        if not moved:
            continue  # a mark or a mode: the hand changed, not the game; try the next press
        if not redelivered:
            redelivered = True
            continue
        accepted = [r for r in results if not r.text]
        assert len(accepted) == 1, (game.name, [r.text for r in results])
        tapped = True
        break
    assert redelivered and tapped, f"{game.name}: no move press came up in {TRIES} presses"
    rows = db_rows(database, "SELECT moves FROM tables WHERE status = 'running'")
    assert rows == [(logged(database),)]
