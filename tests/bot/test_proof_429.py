"""429 storms (a reliability proof): seeded random 429s (``retry_after`` 1 s) on every write method
of the Bot API — sends, edits, deletes, callback answers — for whole games: every game finishes,
and every final screen is the one the same game shows without a storm (the same deal seeds,
the same presses): the result message (once), the deal results, the table, each hand.

The CI plays two kinds at a light rate; ``-m slow`` plays all seven in a heavier storm."""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path

import pytest
from pydantic import SecretStr

from bot.app import running_bot
from bot.config import Settings
from tests.bot.helpers import fixed_seeds, hand_message, table_message, watched
from tests.bot.proof_helpers import SEVEN, Kind, add_figure, open_all, play_all, seat_games
from tests.fakeapi import FakeTelegram
from tests.fakeapi.model import SentMessage


@dataclass
class Finals:
    """What the group and the players see once the game is over."""

    results: list[str]  # 🏁 messages: exactly one
    deals: list[str]  # 📋 deal results
    table: str | None
    hands: list[str | None]
    presses: list[tuple[str, bool]]
    storm_429s: int


def text_of(message: SentMessage | None) -> str | None:
    return None if message is None else message.text


def settings_for(fake: FakeTelegram, database: Path) -> Settings:
    return Settings(
        token=SecretStr(fake.token),
        database=database,
        api_base=fake.base_url,
        polling_timeout_s=1,
        computer_delay_s=0,
        away_level="easy",
        outbox_time_scale=0,
        default_language="ru",
        turn_timeout_s=3600,  # a storm's waits never run a person's clock out
        callback_secret=SecretStr("proof-runs-share-one-callback-key"),  # presses compared
        _env_file=None,  # type: ignore[call-arg]
    )


async def play(workdir: Path, kind: Kind, seed: int, rate: float) -> Finals:
    async with FakeTelegram(token="123456:TEST-token", bot_username="mushka_test_bot") as fake:
        settings = settings_for(fake, workdir / f"{kind[0]}-{rate}.sqlite3")
        async with watched(fake, running_bot(settings, seeds=fixed_seeds(seed))):
            (game,) = seat_games(fake, seed, (kind,))
            if rate:
                fake.storm(random.Random(seed), rate)
            await open_all(fake, [game])
            await play_all(fake, None, [game])
            await fake.settle(quiet=0.2, timeout=60)
            fake.storm(None)
        group = game.group
        return Finals(
            [m.text for m in group.visible if m.text.startswith("🏁")],
            [m.text for m in group.visible if m.text.startswith("📋")],
            text_of(table_message(group)),
            [text_of(hand_message(p)) for p in game.players],
            game.presses,
            fake.storm_429s,
        )


async def storm_against_calm(
    tmp_path: Path, request: pytest.FixtureRequest, kinds: tuple[Kind, ...], seed: int, rate: float
) -> None:
    total = 0
    for kind in kinds:
        calm = await play(tmp_path, kind, seed, 0.0)
        storm = await play(tmp_path, kind, seed, rate)
        assert len(calm.results) == 1, calm.results
        assert storm.storm_429s > 0, "no 429 was injected: the test proves nothing"
        assert storm.results == calm.results  # one result message, the same settlement
        assert storm.deals == calm.deals
        assert storm.table == calm.table
        assert storm.hands == calm.hands
        assert storm.presses == calm.presses
        total += storm.storm_429s
        print(f"429 storm, {kind[0]}: {storm.storm_429s} 429s, {len(storm.presses)} presses")  # noqa: T201
    add_figure(request, "429s injected (games finished, final screens right)", total)


async def test_a_429_storm_changes_no_final_screen(
    tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    kinds = tuple(k for k in SEVEN if k[0] in ("mushka", "konchinka"))
    await storm_against_calm(tmp_path, request, kinds, seed=29, rate=0.02)


@pytest.mark.slow
async def test_a_429_storm_over_all_seven_games(
    tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    await storm_against_calm(tmp_path, request, SEVEN, seed=429, rate=0.04)
