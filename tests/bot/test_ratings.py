"""Skill ratings: places from results, the OpenSkill book, its storage in SQLite and
PostgreSQL (the suite's ``store``), and a rebuild — in process and by ``python -m bot ratings
--rebuild`` — that gives exactly the same figures."""

from __future__ import annotations

import asyncio
import itertools
import os
import random
import subprocess
import sys
import time

from bot.rating import EVERYWHERE, MU, Book, Player, Skill, rate, shown
from bot.runtime.ratings import rate as rate_in
from bot.runtime.ratings import rebuild
from bot.storage.protocol import Store
from bot.storage.rows import RatingRow, ResultRow, ResultSeat
from engine.duel import play_one
from engine.players import computer
from tests.databases import TestDatabase

LEVELS = ("easy", "normal", "hard")


def played(game: str, seed: int, levels: tuple[str, ...], options: dict[str, int]) -> ResultRow:
    """One game of computers of ``levels`` (seat order), as the bot stores its standing."""
    policies = [computer(game, level) for level in levels]
    rngs = [random.Random(seed * 10 + s) for s in range(len(levels))]
    result, _, _ = play_one(game, len(levels), seed, policies, rngs, -1, options)
    places = result.places()
    assert places is not None
    seats = tuple(
        ResultSeat(0, level, level, places[s], result.net[s]) for s, level in enumerate(levels)
    )
    return ResultRow(seed, 1, -1001, game, False, seats)


def test_a_stronger_computer_level_ends_above_a_weaker_one() -> None:
    """45 pulkas of Мушка, the three levels in every seat order: `normal` and `hard` end
    rated above `easy` (RULES.md's money, §1.6.1, decides the places)."""
    book = Book()
    orders = list(itertools.permutations(LEVELS))
    for seed in range(45):
        book.add(played("mushka", seed, orders[seed % len(orders)], {"target": 10}))
    skill = {level: book.skill((-1001, "mushka", Player.computer(level))) for level in LEVELS}
    assert all(s.games == 45 for s in skill.values())
    assert skill["normal"].shown > skill["easy"].shown, skill
    assert skill["hard"].shown > skill["easy"].shown, skill
    across = book.skill((EVERYWHERE, "mushka", Player.computer("normal")))
    assert across == skill["normal"]  # one chat: across chats the same


def test_a_winner_rises_a_loser_falls_and_equal_places_move_alike() -> None:
    a, b, c, d = (Player(i) for i in range(1, 5))
    after = rate([a, b, c, d], [Skill()] * 4, [1, 2, 2, 4], solo=False)
    assert after[a].mu > MU > after[d].mu
    assert after[b].mu == after[c].mu and after[b].sigma == after[c].sigma
    assert all(s.sigma < Skill().sigma and s.games == 1 and s.solo == 0 for s in after.values())
    assert after[a].shown > after[b].shown > after[d].shown
    assert Skill().shown == 0 == shown(MU, MU / 3)


def test_one_level_in_several_seats_takes_every_seat_s_evidence() -> None:
    """A level seated twice is rated as two copies from its rating: the changes of their μ add
    up, their shrinkings of σ multiply, and it counts one game."""
    person, bot = Player(7), Player.computer("normal")
    first, last = Player(8), Player(9)
    twice = rate([bot, person, bot], [Skill()] * 3, [1, 2, 3], solo=True)
    apart = rate([first, person, last], [Skill()] * 3, [1, 2, 3], solo=True)
    assert twice[person] == apart[person]
    assert abs(twice[bot].mu - (apart[first].mu + apart[last].mu - MU)) < 1e-9
    s0 = Skill().sigma
    assert abs(twice[bot].sigma - apart[first].sigma * apart[last].sigma / s0) < 1e-9
    assert (twice[bot].games, twice[bot].solo, twice[person].solo) == (1, 1, 1)


def test_a_seat_the_computer_played_moves_its_level_not_its_person() -> None:
    """A person's seat whose decisions were mostly the computer's is rated as that level:
    the level takes the seat's result (its win too), the person gets nothing from a win, and
    the others are rated as having played that level."""
    book = Book()
    seats = (
        ResultSeat(101, "", "Anna", 2, -5),
        ResultSeat(102, "", "Boris", 1, 10, stand_in="normal"),
        ResultSeat(0, "easy", "🤖 Фёдор", 3, -5),
    )
    rated = book.add(ResultRow(1, 1, -1001, "mushka", True, seats))
    normal = (-1001, "mushka", Player.computer("normal"))
    assert (-1001, "mushka", Player(102)) not in book.rows
    assert (book.rows[normal].games, book.rows[normal].won, book.rows[normal].money) == (1, 1, 10)
    assert book.skill(normal).mu > book.skill((-1001, "mushka", Player(101))).mu
    assert rated.seats[1].stand_in == "normal" and rated.seats[1].change == 0
    assert [ResultSeat(*s.as_json()) for s in rated.seats] == list(rated.seats)  # as stored


def test_a_losing_seat_handed_to_the_computer_still_costs_its_person() -> None:
    """Handing a losing seat to the computer hides nothing — where the seat's place
    lowers its person's rating, he is rated for it (no win, his money), while a winning seat
    the computer played lifts him by nothing: over a run of such games his rating only falls."""
    book = Book()
    boris = (-1001, "mushka", Player(102))
    for no in range(1, 4):  # three games Boris played himself: his rating well above zero
        seats = (ResultSeat(101, "", "Anna", 2, -5), ResultSeat(102, "", "Boris", 1, 5))
        book.add(ResultRow(no, 1, -1001, "mushka", False, seats))
    before = book.rows[boris]
    lost = (
        ResultSeat(101, "", "Anna", 1, 8),
        ResultSeat(102, "", "Boris", 2, -8, stand_in="normal"),
    )
    rated = book.add(ResultRow(9, 1, -1001, "mushka", False, lost))
    after = book.rows[boris]
    assert shown(after.mu, after.sigma) < shown(before.mu, before.sigma)
    assert (after.games, after.won, after.money) == (before.games + 1, before.won, 15 - 8)
    assert rated.seats[1].change == shown(after.mu, after.sigma) - shown(before.mu, before.sigma)
    assert rated.seats[1].change < 0
    won = (
        ResultSeat(101, "", "Anna", 2, -8),
        ResultSeat(102, "", "Boris", 1, 8, stand_in="normal"),
    )
    rated = book.add(ResultRow(10, 1, -1001, "mushka", False, won))
    assert book.rows[boris] == after and rated.seats[1].change == 0  # a win lifts him by nothing
    for scope in (-1001, EVERYWHERE):  # across groups the same
        level = book.rows[(scope, "mushka", Player.computer("normal"))]
        assert (level.games, level.won) == (2, 1)


def synthetic(seed: int) -> list[ResultRow]:
    """Forty matches of two chats: people and computer levels at tables of 2–6, ties too, and
    people's seats the computer played for them."""
    rng = random.Random(seed)
    out = []
    for k in range(40):
        chat = rng.choice((-1001, -1002))
        people = rng.sample(range(101, 109), rng.randint(1, 4))
        levels = [rng.choice(LEVELS) for _ in range(rng.randint(0 if len(people) > 1 else 1, 2))]
        who = [(u, "") for u in people] + [(0, level) for level in levels]
        rng.shuffle(who)
        places = sorted(rng.randint(1, len(who)) for _ in who)
        money = [rng.randint(-50, 50) for _ in who]
        # now and then a person's seat the computer mostly played, rated as its level
        by = [rng.choice(LEVELS) if u and rng.random() < 0.2 else "" for u, _ in who]
        seats = tuple(
            ResultSeat(u, level, f"P{u}{level}", p, m, stand_in=b)
            for (u, level), p, m, b in zip(who, places, money, by, strict=True)
        )
        game = rng.choice(("mushka", "kopilka"))
        out.append(ResultRow(1000 + k, 1, chat, game, len(people) == 1, seats))
    return out


async def everything(store: Store) -> tuple[list[RatingRow], list[ResultRow]]:
    ratings = [r for scope in (-1001, -1002, EVERYWHERE) for r in await store.ratings(scope)]
    return ratings, await store.results()


async def test_ratings_rebuilt_from_the_results_are_the_same_figures(
    store: Store, database: TestDatabase
) -> None:
    for row in synthetic(3):
        async with store.unit() as tx:
            rated = await rate_in(tx, row, time.time)
        assert [s.place for s in rated.seats] == [s.place for s in row.seats]
    before = await everything(store)
    assert len(before[1]) == 40 and len(before[0]) > 20
    assert any(s.change for r in before[1] for s in r.seats)
    board = await store.ratings(-1001, game="mushka")
    assert [shown(r.mu, r.sigma) for r in board] == sorted(
        (shown(r.mu, r.sigma) for r in board), reverse=True
    )
    async with store.unit() as tx:  # a rating damaged (a change of model, say)
        await tx.put_rating(RatingRow(-1001, "mushka", 101, "", "", 1.0, 1.0, 99, 0, 0, 0))
    assert await rebuild(store) == 40
    assert await everything(store) == before
    env = {**os.environ, "BOT_DATABASE": str(database)}
    command = await asyncio.create_subprocess_exec(
        *(sys.executable, "-m", "bot", "ratings", "--rebuild"),
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(command.communicate(), timeout=120)
    assert command.returncode == 0, err.decode()
    assert out.decode().startswith("40 game(s) rated (0 of them read back"), out
    assert await everything(store) == before


def test_the_rebuild_command_refuses_a_missing_database(tmp_path: object) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "bot", "ratings", "--rebuild", "--database", "/nonexistent/x.db"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2 and "no database at /nonexistent/x.db" in done.stderr
