"""Seasons through the fake Bot API over two simulated months: a match that ends in November
is November's, `/score season` shows the group's month board (and across groups with `all`,
or in private), bad months are refused, and once November is over the group is told its final
board once — at its next activity, across a restart — while November's board never changes.

The months are November and December of 2040: the test's wall clock runs ahead of the real
one (the fake's ``busy`` reads deadlines against the real clock; a test clock behind it would
read every turn timer as due)."""

from __future__ import annotations

import random
from datetime import UTC, datetime

from bot.app import RunningBot, running_bot
from bot.config import Settings
from bot.runtime.ratings import rate
from bot.storage.rows import ResultRow, ResultSeat
from tests.bot.helpers import fixed_seeds, say, watched
from tests.bot.test_e2e_fair_ratings import play_out, started
from tests.fakeapi import FakeTelegram
from tests.fakeapi.users import SimGroup, SimUser

NOVEMBER = datetime(2040, 11, 20, 12, tzinfo=UTC).timestamp()
LAST_SECOND = datetime(2040, 11, 30, 23, 59, 59, tzinfo=UTC).timestamp()
DECEMBER = datetime(2040, 12, 1, 0, 0, 1, tzinfo=UTC).timestamp()
OVER = "🏆 Сезон ноябрь 2040 (Мушка):"
DECEMBER_BOARD = "🏆 Сезон декабрь 2040 — «Пятница»"
BORIS = "<b>Боря</b>"  # a name is data: shown as written, never as markup


class Clock:
    """The wall clock the test moves on (every deadline and stamp reads it)."""

    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


async def rated(
    bot: RunningBot, clock: Clock, table_id: int, chat: int, people: list[SimUser]
) -> None:
    """A finished Мушка match of ``people`` (first wins) and a computer rated as a match's end
    rates it, in its unit of work, at the clock's time."""
    seats = (
        *(ResultSeat(u.id, "", u.first_name, at, 10 - 10 * at) for at, u in enumerate(people, 1)),
        ResultSeat(0, "easy", "🤖 Фёдор", len(people) + 1, -5),
    )
    async with bot.services.repo.unit() as tx:
        await rate(tx, ResultRow(table_id, 1, chat, "mushka", False, seats), clock)


def shown(group: SimGroup, start: str) -> str:
    """The last message in the group that starts so ("" none)."""
    return next((m.text for m in reversed(group.messages) if m.text.startswith(start)), "")


def seasons_told(group: SimGroup) -> list[str]:
    return [m.text for m in group.messages if m.text.startswith(OVER)]


async def test_a_month_has_its_own_board_and_the_group_is_told_once_when_it_ends(
    fake_telegram: FakeTelegram, settings: Settings
) -> None:
    fake = fake_telegram
    anna = fake.add_user(101, "Аня", language_code="ru")
    boris = fake.add_user(102, BORIS, language_code="ru")
    vera = fake.add_user(103, "Вера", language_code="ru")
    group = fake.add_group(-1001, "Пятница", admins=[101], members=[102])
    other = fake.add_group(-1002, "Суббота", admins=[103], members=[101])
    clock = Clock(NOVEMBER)
    running = running_bot(settings, seeds=fixed_seeds(), clock=clock)
    async with watched(fake, running) as bot:
        await started(fake, bot, group, [anna, boris])
        assert await play_out(fake, group, [anna, boris], random.Random(3)) > 0
        for no in range(2):  # two more November matches: both are placed (3 games)
            await rated(bot, clock, 9000 + no, group.id, [boris, anna])
        clock.now = LAST_SECOND  # a match ending in the month's last second is November's
        await rated(bot, clock, 9002, other.id, [vera, anna])
        board = (await say(fake, anna, "/score season", group)).text
        assert board.startswith("🏆 Сезон ноябрь 2040 — «Пятница»\nМесяц ещё идёт."), board
        assert "в зачёте — от 3 игр." in board, board
        lines = [ln for ln in board.splitlines() if ln[:2] in ("1.", "2.", "3.")]
        assert [ln.split(" ")[1] for ln in lines[:2]] == sorted(
            ["Аня", BORIS], key=lambda name: name != lines[0].split(" ")[1]
        )
        assert all(" · 3 игры · " in ln for ln in lines[:2]), lines
        assert "Вера" not in board  # another group's match is not this group's season
        everywhere = (await say(fake, anna, "/score season all")).text
        assert (await say(fake, anna, "/score season all", group)).text == everywhere
        other_game = (await say(fake, anna, "/score season памфил 2040-11", group)).text
        assert other_game.endswith("Рейтинговых игр за этот месяц нет."), other_game
        assert everywhere.startswith("🏆 Сезон ноябрь 2040 — все группы"), everywhere
        assert "Пока не в зачёте (игр): Вера (1)" in everywhere  # one match: not placed
        refused = {
            "/score season 2040-12": "Сезон 2040-12 ещё не начался.",
            "/score season 2040-13": "Нет такого месяца: 2040-13. Пишите так: 2040-11.",
        }
        for asked, answer in refused.items():
            assert (await say(fake, anna, asked, group)).text == answer
        junk = (await say(fake, anna, "/score season вчера", group)).text
        assert junk.startswith("/score season [игра] [ГГГГ-ММ] [all]"), junk
    clock.now = DECEMBER
    async with watched(fake, running_bot(settings, seeds=fixed_seeds(), clock=clock)) as bot:
        await fake.settle(quiet=0.1)
        assert seasons_told(group) == []  # told at the group's next activity, not before
        await say(fake, boris, "/score season", group)  # the news and the answer, either first
        await fake.wait_until(lambda: seasons_told(group) and shown(group, DECEMBER_BOARD))
        december = shown(group, DECEMBER_BOARD)
        assert "Рейтинговых игр за этот месяц нет." in december
        (told,) = seasons_told(group)
        assert told.splitlines()[1:3] == lines[:2], told  # the board as it stood
        assert "Посмотреть снова: /score season 2040-11" in told
        await rated(bot, clock, 9003, group.id, [anna, boris])  # December's first match
        await say(fake, anna, "/score", group)
    async with watched(fake, running_bot(settings, seeds=fixed_seeds(), clock=clock)) as bot:
        again = (await say(fake, anna, "/score season 2040-11", group)).text
        await fake.settle(quiet=0.1)
        assert len(seasons_told(group)) == 1  # once, across restarts
        assert again.startswith("🏆 Сезон ноябрь 2040 — «Пятница»\nИтоги окончательные.")
        assert [ln for ln in again.splitlines() if ln[:2] in ("1.", "2.")] == lines[:2]
        now = (await say(fake, anna, "/score season", group)).text
        unplaced = f"Пока не в зачёте (игр): Аня (1), {BORIS} (1), 🤖 Лёгкий (1)"
        assert unplaced in now, now  # December: one match each
        await say(fake, vera, "/help", other)
        await fake.wait_until(lambda: any(m.text.startswith(OVER) for m in other.messages))
