"""Game records (PRODUCT.md §18): /record in a group and in private, and the operator's export,
both round-tripping through the engine's replay."""

from __future__ import annotations

import asyncio
import random
import stat
from pathlib import Path

from bot.app import RunningBot
from bot.export import export_main
from engine.__main__ import main as engine_main
from engine.record import read_jsonl, replay
from tests.bot.helpers import open_table, play_step, play_until_end, say
from tests.bot.test_e2e_limits import three
from tests.databases import TestDatabase
from tests.fakeapi import FakeTelegram


async def test_18_record_is_refused_while_running_then_sent_with_its_transcript(
    fake_telegram: FakeTelegram, bot: RunningBot
) -> None:
    fake = fake_telegram
    group, players = await three(fake)
    await open_table(fake, group, players)
    rng = random.Random(3)
    for _ in range(3):
        assert await play_step(fake, group, players, rng)
    refused = await say(fake, players[0], "/record", group)
    assert refused.text == "Запись будет после окончания игры."
    assert refused.document is None
    await play_until_end(fake, group, players, rng)
    await fake.settle(quiet=0.05)
    count = len(group.messages)
    await players[1].send(group, "/record")
    await fake.wait_until(lambda: len(group.messages) >= count + 2, timeout=10)
    jsonl, text = group.messages[count], group.messages[count + 1]
    assert jsonl.document is not None and jsonl.document.filename.endswith(".jsonl")
    assert text.document is not None and text.document.filename.endswith(".txt")
    record = read_jsonl(jsonl.document.data.decode())
    assert record[0]["t"] == "game" and record[-1]["t"] == "end"
    assert replay(record).record() == record  # RECORD.md, key for key
    words = text.document.data.decode()
    assert "Anna" in words and "Итог:" in words and "♠" in words
    mine = await say(fake, players[2], "/record")  # in private: the last game he played
    assert mine.document is not None and mine.document.data == jsonl.document.data


async def test_18_export_writes_every_game_and_replays_unchanged(
    fake_telegram: FakeTelegram, bot: RunningBot, database: TestDatabase, tmp_path: Path
) -> None:
    fake = fake_telegram
    group, players = await three(fake)
    other = fake.add_group(-1002, "Суббота", admins=[101], members=[102, 103])
    await open_table(fake, group, players)
    await play_until_end(fake, group, players, random.Random(5))
    await open_table(fake, other, players, options="target=15")  # still running
    await fake.settle(quiet=0.05)
    out = tmp_path / "export"
    argv = ["--database", str(database), "--out", str(out)]  # as the operator runs it
    assert await asyncio.to_thread(export_main, argv) == 0
    files = sorted(out.glob("*.jsonl"))
    assert len(files) == 2
    # the hidden cards of a running game: for the operator's eyes only
    assert stat.S_IMODE(out.stat().st_mode) == 0o700
    assert {stat.S_IMODE(f.stat().st_mode) for f in files} == {0o600}
    running = read_jsonl(files[1].read_text())
    # up to now, then RECORD.md's abandoned end (§R1.3: a record always ends; §R5.7)
    assert running[0]["t"] == "game" and any(ln["t"] == "deal" for ln in running)
    assert running[-1] == {"t": "end", "reason": "abandoned", "net": [0, 0, 0]}
    assert engine_main(["replay", *map(str, files)]) == 0
