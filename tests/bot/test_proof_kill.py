"""``kill -9`` at random moments (a reliability proof): the real bot as a subprocess, the seven
games played at once by simulated players pressing only the buttons the bot sent, the bot killed at
seeded random moments and started again until every game is over. Every game resumes and
finishes; no press is lost or applied twice (the action log against the presses answered as
accepted); the exported records equal those of the same games played without kills (the same
deal seeds by ``BOT_TEST_SEED``, the same presses by seeded choosers); the database's
``PRAGMA integrity_check`` says ``ok``.

The CI runs a bounded sample (one round, about a dozen kills); ``-m slow`` soaks, round after
round with new seeds, until at least 100 kills."""

from __future__ import annotations

import asyncio
import contextlib
import random
import sqlite3
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from bot.callbacks import unb36
from tests.bot.helpers import hand_message, table_message
from tests.bot.proof_helpers import (
    SEVEN,
    BotProcess,
    ForkServer,
    Game,
    Kind,
    action_log,
    add_figure,
    alive,
    bot_env,
    elapsed,
    export_records,
    fork_server,
    integrity,
    killer,
    open_all,
    play_all,
    seat_games,
    step,
)
from tests.bot.test_e2e_owed import posted
from tests.bot.test_e2e_owed import step as owed_step
from tests.fakeapi import FakeTelegram

# the CI's: every family (trick by Мушка, Копилка, Лентюрлю, Кончинка); the soak plays all
# seven in every round
SAMPLE = tuple(k for k in SEVEN if k[0] not in ("pamfil", "shutikha", "mistigri"))
GAP = (0.3, 2.0)  # seconds between a restart and the next kill (seeded uniform)


@dataclass
class Round:
    records: dict[str, str]
    presses: dict[str, list[tuple[str, bool]]]
    kills: int
    pressed_again: int
    misread: int
    duplicates: int
    resent: int  # results found cut short mid-send at a restart (the log), sent again
    results: dict[str, list[str]]  # each group's deal and match results (📋, 🏁), in order
    seconds: float
    database: Path
    # each game's hands and table as its players see them at the end: a kill changes none
    final: dict[str, list[str]] = field(default_factory=dict)
    unmodified: int = 0  # edits Telegram answered "message is not modified"
    unfound: int = 0  # edits of a message Telegram no longer had ("message to edit not found")


async def play_round(
    server: ForkServer,
    workdir: Path,
    seed: int,
    kinds: tuple[Kind, ...],
    kills: int,
) -> Round:
    """The games in a fresh fake and database, with ``kills`` kills (0: none)."""
    workdir.mkdir(parents=True)  # noqa: ASYNC240  # a test's own tmp directory
    database = workdir / "bot.sqlite3"
    started = time.monotonic()
    async with FakeTelegram(token="123456:TEST-token", bot_username="mushka_test_bot") as fake:
        games = seat_games(fake, seed, kinds)
        proc = BotProcess(server, fake, bot_env(fake, database, seed), workdir)
        try:
            await proc.start()
            await open_all(fake, games)  # every deal seed drawn before the first kill
            done = asyncio.Event()
            chaos = asyncio.create_task(killer(proc, random.Random(seed), kills, GAP, done))
            try:
                await play_all(fake, proc, games)
            finally:
                done.set()
                await asyncio.wait_for(chaos, 120)
            await fake.settle(quiet=0.3, timeout=30)
            await proc.stop()
        finally:
            if proc.pid is not None:
                await proc.kill()
        assert proc.tracebacks() == 0, proc.log_tail()
        check_presses(games, database)
        for game in games:
            results = [m for m in game.group.messages if m.text.startswith("🏁")]
            assert results, f"{game.name}: no result message"
    records = await export_records(database, workdir / "records")
    assert integrity(database) == "ok"
    return Round(
        records,
        {g.name: g.presses for g in games},
        proc.kills,
        sum(g.pressed_again for g in games),
        sum(g.misread for g in games),
        proc.duplicates(),
        proc.resent(),
        {g.name: [m.text for m in g.group.visible if m.text[:1] in "📋🏁"] for g in games},
        elapsed(started),
        database,
        {g.name: final_screens(g) for g in games},
        answered(fake, "message is not modified"),
        answered(fake, "message to edit not found"),
    )


def final_screens(game: Game) -> list[str]:
    """The game's table and every player's hand as shown at the end, buttons included."""
    shown = [table_message(game.group), *(hand_message(u) for u in game.players)]
    return [f"{m.text} {[b.text for b in m.all_buttons]}" if m else "-" for m in shown]


def answered(fake: FakeTelegram, description: str) -> int:
    """The bot's edits the fake refused with ``description``."""
    return sum(
        1
        for c in fake.requests
        if c.method.lower().startswith("edit") and description in (c.description or "")
    )


def check_presses(games: list[Game], database: Path) -> None:
    """Every press answered as accepted that moved its game on is the logged action at its
    move counter, by its seat; every table logged exactly the presses that moved it on."""
    log = action_log(database)
    for game in games:
        accepted = [
            data for data, answer in game.answers if answer.done() and not answer.result().text
        ]
        moved = {data for data, moves in game.presses if moves}
        table_id = unb36(game.presses[0][0].split(":")[1])
        actions = log[table_id]
        assert [seq for seq, _, _ in actions] == list(range(len(actions))), game.name
        assert len(actions) == sum(1 for _, moves in game.presses if moves), game.name
        for data in accepted:
            _, _, seat, mv, *_ = data.split("~")[0].split(":")
            if data in moved:
                seq = unb36(mv)
                assert actions[seq][1] == int(seat), (game.name, data, actions[seq])


async def soak(
    tmp_path: Path,
    request: pytest.FixtureRequest,
    seed: int,
    kinds: tuple[Kind, ...],
    kills: int,
    rounds: int,
    per_round: int,
) -> None:
    """Rounds (each the games, without kills and then with) until ``kills`` kills."""
    total_kills, total_games, more_presses, duplicates, twice, lost = 0, 0, 0, 0, 0, 0
    resent, unmodified, unfound = 0, 0, 0
    async with fork_server() as server:
        for n in range(rounds):
            round_seed = seed + 100 * n
            budget = min(per_round, kills - total_kills)
            plain, killed = await asyncio.gather(  # side by side: two fakes, two bots
                play_round(server, tmp_path / f"plain-{n}", round_seed, kinds, 0),
                play_round(server, tmp_path / f"killed-{n}", round_seed, kinds, budget),
            )
            assert killed.kills > 0
            games = sorted(r.removesuffix(".jsonl").split("-")[-1] for r in plain.records)
            assert games == sorted(k[0] for k in kinds), games
            assert killed.records == plain.records
            assert killed.final == plain.final  # the screens at the end, kills or not
            assert killed.presses == plain.presses
            total_kills += killed.kills
            total_games += len(killed.records)
            more_presses += killed.pressed_again
            duplicates += killed.duplicates
            resent += killed.resent
            unmodified += killed.unmodified
            unfound += killed.unfound
            for name, shown in killed.results.items():
                calm = Counter(plain.results[name])
                got = Counter(shown)
                assert set(got) <= set(calm), (name, set(got) - set(calm))  # nothing wrong
                ends = [t for t in shown if t[0] == "🏁"]  # a second copy: counted in twice
                assert list(dict.fromkeys(ends)) == [t for t in calm if t[0] == "🏁"]
                twice += (got - calm).total()  # posted again around a kill
                lost += (calm - got).total()  # a one-off post queued when the bot was killed
            print(  # noqa: T201
                f"kill round {n}: {killed.kills} kills over {len(killed.records)} games "
                f"({', '.join(f'{k} {len(p)}' for k, p in killed.presses.items())} presses, "
                f"{killed.pressed_again} pressed again, {killed.misread} read mid-update and "
                f"refused, {killed.duplicates} redelivered updates "
                f"skipped), {killed.seconds} s; "
                f"without kills {plain.seconds} s; integrity ok"
            )
            if total_kills >= kills:
                break
    assert total_kills >= kills, f"only {total_kills} kills in {rounds} rounds"
    add_figure(request, "kill -9 (bot killed and restarted)", total_kills)
    add_figure(request, "games killed, resumed and finished", total_games)
    add_figure(request, "presses lost with a kill and pressed again", more_presses)
    add_figure(request, "updates redelivered after a kill and skipped", duplicates)
    add_figure(request, "results posted twice around a kill", twice)
    add_figure(request, "results cut short mid-send by a kill, sent again", resent)
    add_figure(request, "edits answered 'not modified' (a kill cut one short)", unmodified)
    add_figure(request, "edits of a message Telegram no longer had", unfound)
    # a deal's 📋 result is owed from the unit of the move that ended it: a restart posts
    # every result still owed, however many moves came after it
    # (test_a_kill_while_a_result_waits_for_the_groups_budget_loses_nothing)
    add_figure(request, "deal results lost with a kill", lost)
    assert lost == 0, f"{lost} deal result(s) lost with a kill"
    # exactly once: a second copy only of a result whose send a kill cut short between
    # its mark and its settle (Telegram had it, its answer died with the bot)
    assert twice <= resent, f"{twice} result(s) posted twice, {resent} cut short mid-send"


@pytest.mark.timeout(600)  # twelve kills and restarts: minutes on a loaded 2-core machine
async def test_kill_9_sample_every_game_resumes_with_the_same_record(
    tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    await soak(tmp_path, request, 7, SAMPLE, kills=12, rounds=6, per_round=12)


@pytest.mark.slow
async def test_kill_9_soak_of_at_least_100_kills(
    tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    await soak(tmp_path, request, 1007, SEVEN, kills=100, rounds=20, per_round=30)


async def test_a_deal_result_queued_at_a_kill_is_posted_after_the_restart(
    tmp_path: Path,
) -> None:
    kinds = tuple(k for k in SEVEN if k[0] == "mushka")
    async with (
        fork_server() as server,
        FakeTelegram(token="123456:TEST-token", bot_username="mushka_test_bot") as fake,
    ):
        (game,) = seat_games(fake, 3, kinds)
        proc = BotProcess(server, fake, bot_env(fake, tmp_path / "bot.sqlite3", 3), tmp_path)
        try:
            await proc.start()
            await open_all(fake, [game])
            held = fake.gate("sendMessage", chat_id=game.group.id)  # the group's next post

            def posting() -> bool:
                return any(
                    c.method == "sendMessage"
                    and c.chat_id == game.group.id
                    and str(c.params.get("text", "")).startswith("📋")
                    for c in fake.requests
                )

            for _ in range(200):  # until the first deal's result is on its way to the group
                await step(fake, proc, game)
                with contextlib.suppress(TimeoutError):  # the group's post follows the hands
                    await fake.wait_until(posting, timeout=0.5)
                if posting():
                    break
            assert posting(), "no deal ended"
            await proc.kill()  # the post never reached Telegram: its connection died with it
            held.set()  # (the fake drops a request whose client is gone, as it never arrived)
            await proc.start()
            await fake.settle(quiet=0.5, timeout=30)
            deals = [m for m in game.group.visible if m.text.startswith("📋")]
            assert deals, "the first deal's result was never posted"
        finally:
            if proc.pid is not None:
                await proc.kill()


def owed_deals(database: Path) -> list[tuple[str, str]]:
    """The deals' results the bot's database says it owes, (ref, state), oldest first."""
    with sqlite3.connect(database) as conn:
        rows = conn.execute("SELECT ref, state FROM owed WHERE ref LIKE 'deal:%' ORDER BY id")
        return [(str(ref), str(state)) for ref, state in rows]


def shown_deals(database: Path) -> int:
    """The deals' results the bot's database says the group shows (keyed messages)."""
    with sqlite3.connect(database) as conn:
        row = conn.execute("SELECT COUNT(*) FROM messages WHERE key LIKE 'deal:%'").fetchone()
        return int(row[0])


async def test_a_kill_while_a_result_waits_for_the_groups_budget_loses_nothing(
    tmp_path: Path,
) -> None:
    """The group's minute full (one group message a minute, at Telegram's pace), a deal ends,
    its players play on into the next deal, and the bot is killed: the result, queued only in
    the dead process, is posted once after the restart; then the game plays to its end and
    every deal's result and the match's result reach the group exactly once."""
    kinds = tuple(k for k in SEVEN if k[0] == "mushka")
    database = tmp_path / "bot.sqlite3"
    async with (
        fork_server() as server,
        FakeTelegram(token="123456:TEST-token", bot_username="mushka_test_bot") as fake,
    ):
        (game,) = seat_games(fake, 36, kinds)
        fast = bot_env(fake, database, 36)
        slow = {**fast, "BOT_OUTBOX_TIME_SCALE": "1", "BOT_GROUP_PER_MINUTE": "1"}
        rng = random.Random(36)
        async with alive(BotProcess(server, fake, fast, tmp_path)) as proc:
            await proc.start()
            await open_all(fake, [game])
            await fake.settle(quiet=0.3, timeout=30)
            await proc.kill()
            proc.env = slow
            await proc.start()
            for _ in range(60):  # until a deal ends: its result waits behind the group's minute
                await owed_step(fake, game.players, rng)
                if owed_deals(database):
                    break
            assert owed_deals(database), "no deal ended"
            for _ in range(2):  # played on into the next deal
                await owed_step(fake, game.players, rng)
            assert owed_deals(database)[0][1] == "pending"
            assert posted(fake, game.group, "📋") == []
            await proc.kill()  # the result was only queued in memory
            assert posted(fake, game.group, "📋") == []
            proc.env = fast
            await proc.start()
            await fake.settle(quiet=0.5, timeout=30)
            assert len(posted(fake, game.group, "📋")) == 1, posted(fake, game.group, "📋")
            await play_all(fake, proc, [game])
            await fake.settle(quiet=0.3, timeout=30)
            await proc.stop()
        assert proc.tracebacks() == 0, proc.log_tail()
        deals = posted(fake, game.group, "📋")
        assert len(deals) == len(set(deals)) == shown_deals(database) > 1, deals
        assert len(posted(fake, game.group, "🏁")) == 1
