"""``/daily top`` through the fake Bot API, on the bot's injectable clock: today's and the last
seven days' best at the day's deals across every chat, from the finished tries alone, each
person's week the sum of his tries; equal totals share a place; the asker's own place; names
are data; a group's answer names the asker."""

from __future__ import annotations

from bot.app import RunningBot, running_bot
from bot.config import Settings
from bot.storage.daily_sql import DailyTry
from tests.bot.helpers import fixed_seeds, say, watched
from tests.bot.test_e2e_seasons import Clock, rated
from tests.bot.test_e2e_settings import press_until, private_settings
from tests.fakeapi import FakeTelegram
from tests.fakeapi.model import SentMessage
from tests.fakeapi.users import SimUser

DAY = 1_800_000_000.0  # 2027-01-15 08:00 UTC: the week is 2027-01-09 to 2027-01-15
TOP = "🏆 Задача дня: лучшие во всех чатах"


async def tried(
    bot: RunningBot, day: str, game: str, user_id: int, name: str, score: int | None, at: float
) -> None:
    """A try stored as the bot stores one (``score`` None: still played)."""
    table = 9000 + int(at)  # the try's table: its number only matters to find it
    async with bot.db.unit() as tx:
        await tx.add_try(DailyTry(day, game, user_id, name, table))
        if score is not None:
            await tx.finish_try(table, score, at)


def tops(user: SimUser) -> list[SentMessage]:
    return [m for m in user.visible if m.text.startswith(TOP)]


async def test_daily_top_ranks_the_day_and_the_week_across_chats_and_places_the_asker(
    fake_telegram: FakeTelegram, settings: Settings
) -> None:
    fake = fake_telegram
    anna = fake.add_user(101, "Anna", language_code="ru")
    now = [DAY]
    async with watched(
        fake, running_bot(settings, seeds=fixed_seeds(), clock=lambda: now[0])
    ) as bot:
        for day, game, user, name, score, at in (
            ("2027-01-15", "mushka", 102, "<b>Boris</b>", 5, 1.0),
            ("2027-01-15", "mushka", 105, "Eve", 5, 2.0),  # as Boris: the same place
            ("2027-01-15", "mushka", 101, "Anna", 4, 3.0),
            ("2027-01-15", "mushka", 103, "Vera", 3, 4.0),
            ("2027-01-12", "mushka", 103, "Vera", 20, 5.0),
            ("2027-01-08", "mushka", 104, "Old", 100, 6.0),  # before the week
            ("2027-01-15", "mushka", 106, "Dan", None, 7.0),  # not finished
            ("2027-01-14", "kopilka", 107, "Gleb", -7, 8.0),
        ):
            await tried(bot, day, game, user, name, score, at)
        await anna.start_bot()
        await anna.send_private("/daily top мушка")
        await fake.wait_until(lambda: tops(anna) != [])
        (board,) = tops(anna)
        assert board.text.splitlines() == [
            TOP,
            "",
            "Мушка",
            "Сегодня (2027-01-15):",
            "1. <b>Boris</b> +5",
            "1. Eve +5",
            "3. Anna +4",
            "4. Vera +3",
            "Ваше место: 3 из 4 (+4)",
            "За последние 7 дней (с 2027-01-09):",
            "1. Vera +23 · 2 дня",
            "2. <b>Boris</b> +5 · 1 день",
            "2. Eve +5 · 1 день",
            "4. Anna +4 · 1 день",
            "Ваше место: 4 из 4 (+4)",
        ]
        # every game that had a finished try this week, three lines each
        await anna.send_private("/daily top")
        await fake.wait_until(lambda: len(tops(anna)) == 2)
        lines = tops(anna)[1].text.splitlines()
        assert [x for x in lines if x in ("Мушка", "Копилка")] == ["Мушка", "Копилка"]
        kopilka = lines[lines.index("Копилка") :]
        assert kopilka == [
            "Копилка",
            "Сегодня (2027-01-15):",
            "Пока никто не закончил.",
            "За последние 7 дней (с 2027-01-09):",
            "1. Gleb −7 · 1 день",
        ]
        assert "4. Vera +3" not in lines and "Ваше место: 3 из 4 (+4)" in lines
        # a week later nothing of it is on the boards
        now[0] += 7 * 86_400
        await anna.send_private("/daily top")
        empty = "За последние 7 дней задачу дня никто не закончил. Сыграть: /daily."
        await fake.wait_until(lambda: len(tops(anna)) == 3)
        assert tops(anna)[2].text.splitlines() == [TOP, empty]
        await anna.send_private("/daily top покер")
        await fake.wait_until(
            lambda: any("Неизвестная игра: покер" in m.text for m in anna.visible)
        )


async def test_daily_top_in_a_group_names_the_asker_for_his_place(
    fake_telegram: FakeTelegram, settings: Settings
) -> None:
    fake = fake_telegram
    anna = fake.add_user(101, "Anna", language_code="ru")
    group = fake.add_group(-1001, "Пятница", members=[anna.id])
    now = [DAY]
    async with watched(
        fake, running_bot(settings, seeds=fixed_seeds(), clock=lambda: now[0])
    ) as bot:
        await tried(bot, "2027-01-15", "konchinka", 101, "Anna", 12, 1.0)
        await anna.start_bot()
        await anna.send(group, "/daily top кончинка")

        def shown() -> list[SentMessage]:
            mine = [m for m in fake.ephemeral_of(anna.id) if m.delivered and not m.deleted]
            return [m for m in [*mine, *group.visible] if m.text.startswith(TOP)]

        await fake.wait_until(lambda: shown() != [])
        (board,) = shown()
        assert "1. Anna +12" in board.text and "Anna: место 1 из 1 (+12)" in board.text


async def test_a_hidden_name_is_a_number_on_boards_across_chats_and_itself_in_its_group(
    fake_telegram: FakeTelegram, settings: Settings
) -> None:
    fake = fake_telegram
    anna = fake.add_user(101, "Anna", language_code="ru")
    boris = fake.add_user(102, "Boris", language_code="ru")
    eve = fake.add_user(105, "Eve", language_code="ru")
    group = fake.add_group(-1001, "Пятница", members=[anna.id, boris.id])
    clock = Clock(DAY)
    async with watched(fake, running_bot(settings, seeds=fixed_seeds(), clock=clock)) as bot:
        for user in (boris, eve):  # each hides his name in his private /settings
            await user.start_bot()
            pane = await private_settings(fake, user)
            assert "Имя в общих таблицах: показывать" in pane.text
            await press_until(fake, user, pane, "🕶", "Имя в общих таблицах: скрывать")
        for who, name, score, at in ((102, "Boris", 5, 1.0), (105, "Eve", 4, 2.0)):
            await tried(bot, "2027-01-15", "mushka", who, name, score, at)
        await tried(bot, "2027-01-14", "mushka", 105, "Eve", 9, 3.0)
        await tried(bot, "2027-01-15", "mushka", 101, "Anna", 3, 4.0)
        await anna.start_bot()
        await anna.send_private("/daily top мушка")
        await fake.wait_until(lambda: tops(anna) != [])
        lines = tops(anna)[0].text.splitlines()
        # a number per board, in its order: Boris is 1 today, Eve is 1 over the week
        assert lines[4:7] == ["1. Игрок 1 +5", "2. Игрок 2 +4", "3. Anna +3"]
        assert lines[9:12] == [
            "1. Игрок 1 +13 · 2 дня",
            "2. Игрок 2 +5 · 1 день",
            "3. Anna +3 · 1 день",
        ]
        assert "Boris" not in tops(anna)[0].text and "Eve" not in tops(anna)[0].text
        await boris.send_private("/daily top мушка")  # to himself, he is himself
        await fake.wait_until(lambda: tops(boris) != [])
        assert tops(boris)[0].text.splitlines()[4:6] == ["1. Boris +5", "2. Игрок 1 +4"]
        # the season: across groups a number, on the board of his group his name
        for no in range(3):
            await rated(bot, clock, 9000 + no, group.id, [boris, anna])
        await anna.send_private("/score season all")
        across = "🏆 Сезон январь 2027 — все группы"
        await fake.wait_until(lambda: any(m.text.startswith(across) for m in anna.visible))
        board = next(m.text for m in anna.visible if m.text.startswith(across))
        assert "1. Игрок 1 " in board and "Boris" not in board and "2. Anna " in board
        here = await say(fake, anna, "/score season", group)
        assert "1. Boris " in here.text and "Игрок" not in here.text
