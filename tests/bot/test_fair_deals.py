"""Fair deals: a live table's shuffles and Копилка's takes come from the OS's
cryptographic source; neither the stored nor the record's seed reproduces a deck; a restart
(or another worker) resumes a running match from the decks stored with it, never from a seed.
"""

from __future__ import annotations

import json
import random
from typing import Any

from bot.app import RunningBot, running_bot
from bot.config import Settings
from bot.records import Records
from bot.runtime.deals import LiveDeals, SeededDeals
from bot.terminal.play import parse_args
from engine.chance import SeededChance
from engine.core import Line
from engine.games import new_game
from engine.record import chance_of, is_chance_line, replay
from tests.bot.helpers import (
    db_execute,
    db_rows,
    expected_screens,
    fixed_seeds,
    hand_message,
    open_table,
    play_deal,
    play_step,
    table_message,
    watched,
)
from tests.fakeapi import FakeTelegram
from tests.fakeapi.users import SimGroup, SimUser


def seat_three(fake: FakeTelegram) -> tuple[SimGroup, list[SimUser]]:
    players = [fake.add_user(201 + i, name, language_code="ru") for i, name in enumerate("ABV")]
    group = fake.add_group(-2001, "Честная", admins=[201], members=[202, 203])
    return group, players


async def running_state(running: RunningBot, chat_id: int) -> Any:
    runtime = running.services.runtime
    table_id = await runtime.queries.open_table_id(chat_id)
    assert table_id is not None
    table = await runtime.ctx.load(table_id)
    assert table is not None and table.match is not None
    return table.match.state


def chance_lines(record: list[Line]) -> list[Line]:
    return [line for line in record if is_chance_line(line)]


async def test_the_bot_deals_from_the_cryptographic_source(
    fake_telegram: FakeTelegram, settings: Settings
) -> None:
    """Without test seeds the runtime's chance is ``secrets.SystemRandom`` — nothing seeded."""
    async with running_bot(settings) as running:
        deals = running.services.runtime.ctx.deals
    assert isinstance(deals, LiveDeals)
    seed, chance = deals.fresh()
    assert isinstance(chance, SeededChance) and isinstance(chance.rng, random.SystemRandom)
    assert 0 <= seed < 2**53  # exact in any JSON reader
    async with running_bot(settings, seeds=fixed_seeds()) as running:  # tests may seed
        assert isinstance(running.services.runtime.ctx.deals, SeededDeals)


async def test_a_live_match_cannot_be_rederived_from_its_seed(
    fake_telegram: FakeTelegram, settings: Settings
) -> None:
    """The first-dealer draw is public; with a 31-bit generator seed a search found the seed
    from it and one hand. Now neither the stored seed nor the record's (the same label) gives
    the draw or a deck — as ``random.Random(seed)`` or through the engine — and the record
    stays valid: it replays from its own decks (RECORD.md §R3.2)."""
    fake = fake_telegram
    group, players = seat_three(fake)
    others = [fake.add_user(211 + i, name, language_code="ru") for i, name in enumerate("GDE")]
    other = fake.add_group(-2002, "Другая", admins=[211], members=[212, 213])
    rng = random.Random(1)
    async with watched(fake, running_bot(settings)) as running:
        await open_table(fake, group, players, options="target=15")
        await open_table(fake, other, others, options="target=15")
        await play_deal(fake, group, players, rng)  # a next deck, drawn by an action
        await fake.settle(quiet=0.05)
        state = await running_state(running, group.id)
        twin = await running_state(running, other.id)
        row = await running.services.repo.open_table(group.id)
        assert row is not None
        (record,) = await Records(running.services.repo, new_game).of_table(row, snapshot=True)
    lines = list(record.lines)
    assert lines[:-1] == state.record()  # the record as the running table holds it
    assert replay(lines).record() == lines  # valid: the independent checker replays its decks
    decks = [line["deck"] for line in lines if line["t"] == "deal"]
    assert len(decks) >= 2
    ((stored,),) = db_rows(settings.database, "SELECT seed FROM matches WHERE table_id = ?", row.id)
    assert stored == lines[0]["seed"] == state.seed
    again = new_game("mushka", 3, stored, {"target": 15}).record()
    assert chance_lines(again)[:2] != chance_lines(lines)[:2]  # neither the draw nor the deck
    deck = list(state.deck)
    random.Random(stored).shuffle(deck)
    assert [str(c) for c in deck] not in decks
    # another table at the same time: its own seed, its own decks
    assert twin.seed != state.seed and chance_lines(twin.record()) != chance_lines(lines)


async def resume_and_compare(
    fake: FakeTelegram,
    settings: Settings,
    group: SimGroup,
    players: list[SimUser],
    before: list[Line],
) -> list[Line]:
    """Restart the (live) bot: the running match is rebuilt from its stored decks — every hand
    and the record as they were, the screens showing them; the record after the restart."""
    async with watched(fake, running_bot(settings)) as running:
        await fake.settle(quiet=0.1)
        state = await running_state(running, group.id)
        assert state.record() == before
        table_html, hands = await expected_screens(running, group.id)
        table = table_message(group)
        assert table is not None and table.html == table_html
        for user in players:
            hand = hand_message(user)
            assert hand is not None and (hand.message_id, hand.html) == hands[user.id]
        rng = random.Random(len(before))
        for _ in range(2):  # it plays on, mid-deal
            assert await play_step(fake, group, players, rng)
        await fake.settle(quiet=0.05)
        return list((await running_state(running, group.id)).record())


async def test_a_restart_mid_deal_resumes_the_cryptographic_deals(
    fake_telegram: FakeTelegram, settings: Settings
) -> None:
    """Deals no seed can give: a restart mid-deal (after a deal drawn by an action) shows the
    same hands; a deal drawn after the restart survives the next restart too."""
    fake = fake_telegram
    group, players = seat_three(fake)
    rng = random.Random(2)
    async with watched(fake, running_bot(settings)) as running:
        # deals no seed fixes: a count far enough that three deals can't end the pulka
        await open_table(fake, group, players, options="target=40")
        await play_deal(fake, group, players, rng)
        await fake.settle(quiet=0.05)
        for _ in range(3):
            assert await play_step(fake, group, players, rng)
        await fake.settle(quiet=0.05)
        before = list((await running_state(running, group.id)).record())
    after = await resume_and_compare(fake, settings, group, players, before)
    assert after[: len(before)] == before
    async with watched(fake, running_bot(settings)) as running:
        await play_deal(fake, group, players, rng)  # a deal drawn after a restart
        await fake.settle(quiet=0.05)
        state = await running_state(running, group.id)
        assert not state.is_over, state.record()[-3:]
        assert await play_step(fake, group, players, rng)
        await fake.settle(quiet=0.05)
        before = list((await running_state(running, group.id)).record())
    assert sum(line["t"] == "deal" for line in before) >= 3
    await resume_and_compare(fake, settings, group, players, before)


async def test_kopilka_takes_are_stored_and_resumed(
    fake_telegram: FakeTelegram, settings: Settings
) -> None:
    """Копилка's random takes come from the live source too, and a restart gives them back
    (they are stored with the start or with the action that drew them)."""
    fake = fake_telegram
    players = [fake.add_user(301 + i, name, language_code="en") for i, name in enumerate("ABCD")]
    group = fake.add_group(-3001, "Kopilka", admins=[301], members=[302, 303, 304])
    rng = random.Random(3)
    async with watched(fake, running_bot(settings)) as running:
        await open_table(fake, group, players, game="kopilka", options="")
        for _ in range(400):
            record = (await running_state(running, group.id)).record()
            if any(line.get("e") == "take" for line in record):
                break
            assert await play_step(fake, group, players, rng)
        await fake.settle(quiet=0.05)
        before = list((await running_state(running, group.id)).record())
    takes = [line for line in before if line.get("e") == "take"]
    assert takes
    stored = db_rows(settings.database, "SELECT drawn FROM matches")
    stored += db_rows(settings.database, "SELECT drawn FROM actions WHERE drawn IS NOT NULL")
    lines = [line for (text,) in stored for line in json.loads(text)]
    assert [line for line in lines if line.get("e") == "take"] == takes
    assert chance_of(lines).picks == chance_of(before).picks
    await resume_and_compare(fake, settings, group, players, before)


def test_the_terminal_game_is_seeded_only_with_seed() -> None:
    """``python -m bot play --seed S`` replays the same deals; without it they are
    cryptographic (its record's seed is a label, no deck's)."""
    seeded = parse_args(["mushka", "--seed", "3"])
    assert seeded.chance() is None
    one, two = (new_game("mushka", 3, seeded.seed, chance=seeded.chance()) for _ in range(2))
    assert one.record() == two.record()
    live = parse_args(["mushka"])
    chance = live.chance()
    assert isinstance(chance, SeededChance) and isinstance(chance.rng, random.SystemRandom)
    state = new_game("mushka", 3, live.seed, chance=chance)
    assert chance_lines(state.record()) != chance_lines(new_game("mushka", 3, live.seed).record())


async def test_a_match_stored_before_its_outcomes_were_resumes_from_its_seed(
    fake_telegram: FakeTelegram, settings: Settings
) -> None:
    """A match running when migration 0014 came has no stored outcomes (NULL): it was dealt
    from ``random.Random(seed)``, and is resumed from that seed, as before."""
    fake = fake_telegram
    group, players = seat_three(fake)
    rng = random.Random(4)
    async with watched(fake, running_bot(settings, seeds=fixed_seeds())) as running:
        await open_table(fake, group, players, options="target=15")
        await play_deal(fake, group, players, rng)
        await fake.settle(quiet=0.05)
        before = list((await running_state(running, group.id)).record())
    db_execute(settings.database, "UPDATE matches SET drawn = NULL")
    db_execute(settings.database, "UPDATE actions SET drawn = NULL")
    await resume_and_compare(fake, settings, group, players, before)
