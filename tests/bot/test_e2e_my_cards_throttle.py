"""The table's 🂠 «Мои карты» throttled per person, through the fake Bot API: a player who taps
it twenty times in a second gets his cards sent once and a toast for every other tap, so the
group's budget of messages for one member is left for the others' hands; after the gap a tap
sends them again."""

from __future__ import annotations

import asyncio
import time

from bot.app import running_bot
from bot.config import Settings
from tests.bot.helpers import fixed_seeds, hand_message, table_message, watched
from tests.bot.test_e2e_ephemeral import in_group, seated, started
from tests.fakeapi import FakeTelegram

TAPS = 20
AGAIN = "Карты только что отправлены — снова через 5 с."
BORIS_WITHIN_S = 4.0  # far under the budget's window (12 s here), which a queue would wait for


def paced(settings: Settings) -> Settings:
    """Hands in the group with a real (if shortened) budget of messages for one member: ten in
    a group window of 12 s — so twenty sends queued for one player would hold everyone else's
    hands back for a window or more."""
    return in_group(settings).model_copy(
        update={"outbox_time_scale": 0.2, "ephemeral_per_minute": 10}
    )


async def test_my_cards_tapped_twenty_times_a_second_sends_once_and_delays_no_other_hand(
    fake_telegram: FakeTelegram, settings: Settings
) -> None:
    fake = fake_telegram
    players, group = seated(fake, 3)
    anna, boris = players[0], players[1]
    offset = [0.0]

    def clock() -> float:
        return time.time() + offset[0]

    async with watched(fake, running_bot(paced(settings), seeds=fixed_seeds(), clock=clock)):
        await started(fake, group, players)
        await fake.wait_until(
            lambda: table_message(group) is not None and all(hand_message(u) for u in players),
            timeout=30,
        )
        await fake.settle(quiet=0.05, timeout=30)
        table = table_message(group)
        assert table is not None
        before = len(fake.ephemeral_of(anna.id))

        answers = await asyncio.gather(*(anna.press(table, "🂠") for _ in range(TAPS)))

        assert sorted(a.text or "" for a in answers) == [""] + [AGAIN] * (TAPS - 1)
        await fake.wait_until(lambda: anna.shown_in_place_of(table) is not None, timeout=10)
        tapped = time.monotonic()
        assert not (await boris.press(table, "🂠")).text
        await fake.wait_until(
            lambda: boris.shown_in_place_of(table) is not None, timeout=BORIS_WITHIN_S
        )
        assert time.monotonic() - tapped < BORIS_WITHIN_S
        await fake.settle(quiet=0.05, timeout=30)
        assert len(fake.ephemeral_of(anna.id)) == before + 1  # one send for twenty taps

        offset[0] += 5.5  # the gap is over: a tap sends her cards again (her client shows
        # the table again, the hand in its place dismissed)
        data = table.button("🂠").callback_data
        assert data is not None
        assert not (await anna.press_raw(table, data=data)).text
        await fake.wait_until(lambda: len(fake.ephemeral_of(anna.id)) == before + 2, timeout=10)
        await fake.settle(quiet=0.05, timeout=30)
