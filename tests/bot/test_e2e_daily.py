"""The day's deal (/daily) through the fake Bot API, on the bot's injectable clock: everyone who
plays a day's deal meets the same cards and the same computers' answers to the same moves; his
try ends with its deal and he is told his place among the day's finished tries (and the group he
started it from, its line); one try a day (a second /daily tells his result, or shows his try);
its review opens only to people who finished it; the next day brings a new deal."""

from __future__ import annotations

import random
from contextlib import AbstractAsyncContextManager
from functools import partial

from bot.app import RunningBot, running_bot
from bot.config import Settings
from bot.game_names import GAME_NAMES
from tests.bot.helpers import act_of, fixed_seeds, hand_message, result_message, watched
from tests.bot.test_e2e_computers import GAMES, Chooser
from tests.databases import TestDatabase, db_rows
from tests.fakeapi import FakeTelegram
from tests.fakeapi.model import Button, SentMessage
from tests.fakeapi.users import SimGroup, SimUser

DAY = 1_800_000_000.0  # 2027-01-15 08:00 UTC
CHOOSERS: dict[str, Chooser] = {game: choose for game, _, _, choose in GAMES}
WAITING = ("Ждём", "Waiting")
DAILY_ON = "Ваша задача дня ещё не доиграна: сначала закончите её"
ENDED = "🗓 Задача дня ("  # the try's result (ru), then «) сыграна.»


def waiting(hand: SentMessage) -> bool:
    return any(w in hand.text for w in WAITING)


def cards_of(hand: SentMessage | None) -> str:
    """His cards and the trump as his hand shows them."""
    assert hand is not None
    return "\n".join(x for x in hand.text.splitlines() if x.startswith(("Козырь", "Ваши карты")))


def said(user: SimUser, start: str) -> list[SentMessage]:
    """His chat's messages that begin so."""
    return [m for m in user.visible if m.text.startswith(start)]


def results(user: SimUser) -> list[SentMessage]:
    return [m for m in user.visible if m.text.startswith(ENDED) and "сыграна" in m.text]


async def daily(fake: FakeTelegram, user: SimUser, command: str) -> None:
    """Send /daily (or a ``?start=`` link's payload) and wait for his hand."""
    if command.startswith("/"):
        await user.send_private(command)
    else:
        await user.start_bot(command)
    await fake.wait_until(lambda: hand_message(user) is not None, timeout=10)


async def play_try(
    fake: FakeTelegram, user: SimUser, game: str, seed: str | random.Random, most: int = 500
) -> list[str]:
    """Play his hand (the computers move by themselves) until his try's result shows (or
    ``most`` presses); the buttons he pressed, in order."""
    rng = random.Random(seed) if isinstance(seed, str) else seed
    pressed = list[str]()
    before = len(results(user))
    for _ in range(500):
        await fake.settle(quiet=0.02)
        if len(results(user)) > before or len(pressed) >= most:
            return pressed
        hand = hand_message(user)
        assert hand is not None
        if waiting(hand) or not any(b.callback_data for b in hand.all_buttons):
            await fake.wait_until(partial(moved_on, user, before, hand), timeout=20)
            continue
        button = keep_all(hand, CHOOSERS[game](hand, rng))
        pressed.append(button.text)
        shown = shown_of(hand)
        answer = await user.press(hand, data=button.callback_data)
        assert not answer.text, f"{user.first_name} pressed {button.text}: {answer.text}"
        await fake.wait_until(partial(moved, user, before, shown), timeout=10)
    raise AssertionError(f"{user.first_name}: his try did not end")


def keep_all(hand: SentMessage, button: Button) -> Button:
    """In the exchange, keep every card instead of marking one: at four seats the stock may be
    short by his turn (a marked exchange is then refused, rightly, and the try would stall)."""
    acts = {act_of(b)[0]: b for b in hand.all_buttons if (b.callback_data or "").startswith("h:")}
    return acts["x"] if act_of(button)[0] == "m" and "x" in acts else button


def shown_of(hand: SentMessage | None) -> tuple[str, list[str | None]]:
    return ("", []) if hand is None else (hand.text, [b.callback_data for b in hand.all_buttons])


def moved_on(user: SimUser, before: int, hand: SentMessage) -> bool:
    """His try's result came, or the computers' moves are over and it is his turn."""
    return len(results(user)) > before or not waiting(hand)


def moved(user: SimUser, before: int, shown: tuple[str, list[str | None]]) -> bool:
    """His try's result came, or his hand changed."""
    return len(results(user)) > before or shown_of(hand_message(user)) != shown


def log_of(database: TestDatabase, table_id: int) -> list[tuple[object, ...]]:
    """The table's actions as logged: who, what, and the random outcomes each drew."""
    return db_rows(
        database,
        "SELECT seq, seat, action, drawn FROM actions WHERE table_id = ? ORDER BY seq",
        table_id,
    )


def tries(database: TestDatabase) -> list[tuple[str, str, int, int, int | None]]:
    """Every try: its day, game, person, table and score (None: not finished)."""
    rows = db_rows(
        database, "SELECT day, game, user_id, table_id, score FROM daily_tries ORDER BY table_id"
    )
    return [
        (str(d), str(g), int(u), int(t), None if s is None else int(s)) for d, g, u, t, s in rows
    ]


async def test_two_people_meet_the_same_cards_and_computers_and_are_placed(
    fake_telegram: FakeTelegram, settings: Settings, database: TestDatabase
) -> None:
    fake = fake_telegram
    anna = fake.add_user(101, "Anna", language_code="ru")
    boris = fake.add_user(102, "Boris", language_code="ru")
    now = [DAY]
    async with watched(fake, running_bot(settings, seeds=fixed_seeds(), clock=lambda: now[0])):
        for user in (anna, boris):
            await user.start_bot()
            await daily(fake, user, "/daily mushka")
        dealt = [cards_of(hand_message(u)) for u in (anna, boris)]
        assert dealt[0] == dealt[1] and "Ваши карты:" in dealt[0]
        # the same moves: the same computers' answers and the same cards throughout
        pressed = [await play_try(fake, user, "mushka", "same") for user in (anna, boris)]
        assert pressed[0] == pressed[1] and pressed[0]
        rows = tries(database)
        assert [(r[0], r[1], r[2]) for r in rows] == [
            ("2027-01-15", "mushka", anna.id),
            ("2027-01-15", "mushka", boris.id),
        ]
        assert log_of(database, rows[0][3]) == log_of(database, rows[1][3])
        assert rows[0][4] == rows[1][4] is not None  # the same score
        assert db_rows(database, "SELECT COUNT(*) FROM daily_deals") == [(1,)]
        mine, his = results(anna)[-1].text, results(boris)[-1].text
        assert "Сегодня её ещё никто, кроме вас, не закончил." in mine
        assert "компьютер" not in mine  # she played every turn herself
        assert "Место 1 из 2 · лучше, чем 0% · лучший: Anna" in his, his
        # nothing rated, nothing booked; the tables are closed
        assert db_rows(database, "SELECT COUNT(*) FROM results") == [(0,)]
        assert db_rows(database, "SELECT COUNT(*) FROM ledger") == [(0,)]
        statuses = db_rows(database, "SELECT kind, status FROM tables ORDER BY id")
        assert statuses == [("daily", "closed")] * 2


async def test_a_second_daily_tells_the_result_and_the_next_day_deals_anew(
    fake_telegram: FakeTelegram, settings: Settings, database: TestDatabase
) -> None:
    fake = fake_telegram
    anna = fake.add_user(101, "Anna", language_code="ru")
    now = [DAY]
    async with watched(fake, running_bot(settings, seeds=fixed_seeds(), clock=lambda: now[0])):
        await anna.start_bot()
        # /daily alone: the seven games, each a link to its day's deal
        await anna.send_private("/daily")
        await fake.wait_until(lambda: said(anna, "🗓 Задача дня: сегодня") != [])
        (listed,) = said(anna, "🗓 Задача дня: сегодня")
        links = [(b.url or "").rsplit("start=", 1)[1] for b in listed.all_buttons]
        assert links == [f"d_{game}" for game in GAME_NAMES]
        await daily(fake, anna, "d_konchinka")
        first = hand_message(anna)
        assert first is not None and not any(b.text.startswith("💡") for b in first.all_buttons)
        # a second /daily while it runs: the same try shown again, no new table
        await anna.send_private("/daily konchinka")
        await fake.wait_until(lambda: any("вот она снова" in m.text for m in anna.visible))
        assert len(tries(database)) == 1
        # /practice meanwhile: her try is never closed for it
        await anna.send_private("/practice mushka")
        await fake.wait_until(lambda: said(anna, DAILY_ON) != [])
        assert db_rows(database, "SELECT kind, status FROM tables") == [("daily", "running")]
        await play_try(fake, anna, "konchinka", "k")
        score = tries(database)[0][4]
        assert isinstance(score, int)
        # finished: a second /daily tells her result and place, and opens nothing
        await anna.send_private("/daily Кончинка")
        again = "🗓 Сегодняшнюю задачу дня (Кончинка) вы уже сыграли"
        await fake.wait_until(lambda: any(m.text.startswith(again) for m in anna.visible))
        told = next(m for m in anna.visible if m.text.startswith(again)).text
        assert "Вы набрали" in told and "Сегодня её ещё никто, кроме вас" in told
        assert db_rows(database, "SELECT COUNT(*) FROM tables") == [(1,)]
        # the next UTC day: a new deal and a new try
        now[0] += 86_400
        await daily(fake, anna, "/daily konchinka")
        rows = tries(database)
        assert [r[0] for r in rows] == ["2027-01-15", "2027-01-16"]
        assert db_rows(database, "SELECT day FROM daily_deals ORDER BY day") == [
            ("2027-01-15",),
            ("2027-01-16",),
        ]
        secrets = db_rows(database, "SELECT secret FROM daily_deals")
        assert secrets[0] != secrets[1]
        assert log_of(database, rows[0][3])[:1] != log_of(database, rows[1][3])[:1]


async def test_from_a_group_the_group_gets_his_line(
    fake_telegram: FakeTelegram, settings: Settings, database: TestDatabase
) -> None:
    fake = fake_telegram
    anna = fake.add_user(101, "Anna", language_code="ru")
    group = fake.add_group(-1001, "Пятница", members=[anna.id])
    now = [DAY]
    async with watched(fake, running_bot(settings, seeds=fixed_seeds(), clock=lambda: now[0])):
        await anna.start_bot()
        await anna.send(group, "/daily мушка")
        await fake.wait_until(lambda: offers(fake, anna, group) != [])
        (offer,) = offers(fake, anna, group)
        links = [(b.url or "").rsplit("start=", 1)[1] for b in offer.all_buttons]
        assert links == ["d_mushka_1001"], links
        await daily(fake, anna, "d_mushka_1001")
        await play_try(fake, anna, "mushka", "g")
        score = tries(database)[0][4]
        assert isinstance(score, int)
        line = "🗓 Задача дня (Мушка): Anna "
        await fake.wait_until(lambda: any(m.text.startswith(line) for m in group.visible))
        said = [m.text for m in group.visible if m.text.startswith(line)]
        sign = "+" if score > 0 else "−" if score < 0 else ""
        assert said == [f"{line}{sign}{abs(score)} (1-е из 1)"]


def offers(fake: FakeTelegram, user: SimUser, group: SimGroup) -> list[SentMessage]:
    """The /daily answers in the group: to him alone (an ephemeral message) or to all."""
    shown = [m for m in fake.ephemeral_of(user.id) if m.delivered and not m.deleted]
    return [m for m in [*shown, *group.visible] if m.text.startswith("🗓")]


async def test_a_link_to_a_group_he_is_not_in_tells_that_group_nothing(
    fake_telegram: FakeTelegram, settings: Settings, database: TestDatabase
) -> None:
    fake = fake_telegram
    anna = fake.add_user(101, "Anna", language_code="ru")
    group = fake.add_group(-1001, "Пятница", members=[])
    now = [DAY]
    async with watched(fake, running_bot(settings, seeds=fixed_seeds(), clock=lambda: now[0])):
        await anna.start_bot()
        await daily(fake, anna, "d_mushka_1001")  # forged: she is not in Пятница
        await play_try(fake, anna, "mushka", "f")
        assert db_rows(database, "SELECT group_id FROM daily_tries") == [(None,)]
        await fake.settle(quiet=0.1)
        assert not any("🗓" in m.text for m in group.visible)


async def test_its_review_opens_only_to_people_who_finished_it(
    fake_telegram: FakeTelegram, settings: Settings, database: TestDatabase
) -> None:
    fake = fake_telegram
    anna = fake.add_user(101, "Anna", language_code="ru")
    boris = fake.add_user(102, "Boris", language_code="ru")
    now = [DAY]
    async with watched(fake, running_bot(settings, seeds=fixed_seeds(), clock=lambda: now[0])):
        for user in (anna, boris):
            await user.start_bot()
        await daily(fake, anna, "/daily mushka")
        await play_try(fake, anna, "mushka", "r")
        review = next(
            b for m in reversed(anna.visible) for b in m.all_buttons if b.text.startswith("🔎")
        )
        (table,) = {t for _, _, _, t, _ in tries(database)}
        # Boris has not played it: the same press (forged into his chat) opens nothing
        answer = await boris.press_raw(boris.visible[-1], data=review.callback_data or "")
        assert answer.text == "Эта кнопка устарела."
        await fake.settle(quiet=0.1)
        assert db_rows(database, "SELECT seat FROM reviews WHERE table_id = ?", table) == []
        # once he has finished his own try at it, it opens for him too (as one who sat apart)
        await daily(fake, boris, "/daily mushka")
        await play_try(fake, boris, "mushka", "r2")
        answer = await boris.press_raw(boris.visible[-1], data=review.callback_data or "")
        assert answer.text != "Эта кнопка устарела."
        await fake.wait_until(partial(reviewed, database, table), timeout=20)


def reviewed(database: TestDatabase, table: int) -> bool:
    return db_rows(database, "SELECT seat FROM reviews WHERE table_id = ?", table) == [(-1,)]


async def test_a_lenturlu_try_ends_with_its_match_scored_by_its_net_and_plays_nothing_on(
    fake_telegram: FakeTelegram, bot: RunningBot, database: TestDatabase
) -> None:
    """The fixture's bot (its own clock): the match's end ends the try; its net is the score,
    and its result's «play again» buttons go with the closed table."""
    fake = fake_telegram
    anna = fake.add_user(101, "Anna", language_code="ru")
    await anna.start_bot()
    # a practice game open here: finished or closed first
    await anna.send_private("/practice mushka")
    await fake.wait_until(lambda: hand_message(anna) is not None)
    await anna.send_private("/daily lenturlu")
    await fake.wait_until(lambda: said(anna, "Сначала доиграйте игру") != [])
    assert tries(database) == []
    await anna.send_private("/cancel")
    await fake.wait_until(lambda: said(anna, "🏁 Тренировка закрыта") != [])
    await daily(fake, anna, "/daily lenturlu")
    await play_try(fake, anna, "lenturlu", "l")
    rows = tries(database)
    assert len(rows) == 1 and rows[0][4] is not None
    net = rows[0][4]
    sign = "+" if net > 0 else "−" if net < 0 else ""
    assert f"Ваш итог: {sign}{abs(net)}." in results(anna)[-1].text
    await fake.settle(quiet=0.1)
    assert result_message(anna) is None  # no 🔁 / 🏁 left to press


async def test_a_try_goes_on_after_a_restart_as_it_would_have_without(
    fake_telegram: FakeTelegram, settings: Settings, database: TestDatabase
) -> None:
    """Копилка (random takes within a deal, deals after it): the draws not yet made come from
    the day's deck seed after a restart as before it, so the same moves meet the same cards."""
    fake = fake_telegram
    anna = fake.add_user(101, "Anna", language_code="ru")
    boris = fake.add_user(102, "Boris", language_code="ru")
    now = [DAY]

    def running() -> AbstractAsyncContextManager[RunningBot]:
        return watched(fake, running_bot(settings, seeds=fixed_seeds(), clock=lambda: now[0]))

    async with running():
        await boris.start_bot()
        await daily(fake, boris, "/daily kopilka")
        whole = await play_try(fake, boris, "kopilka", "same")
        await anna.start_bot()
        await daily(fake, anna, "/daily kopilka")
        rng = random.Random("same")
        half = await play_try(fake, anna, "kopilka", rng, most=len(whole) // 2)
        (_, (*_, table, _)) = tries(database)
        logged = len(log_of(database, table))
    async with running():  # restarted: her try is loaded again from the log
        await daily(fake, anna, "/daily kopilka")  # shown again
        rest = await play_try(fake, anna, "kopilka", rng)
    assert half + rest == whole and half and rest
    rows = tries(database)
    assert [r[2] for r in rows] == [boris.id, anna.id] and rows[0][4] == rows[1][4] is not None
    assert log_of(database, rows[0][3]) == log_of(database, rows[1][3])
    draws = [d for *_, d in log_of(database, table)[logged:] if d]
    assert draws, "no draw after the restart: nothing tested"


async def test_a_try_left_alone_is_played_out_by_the_computer_and_said_so(
    fake_telegram: FakeTelegram, settings: Settings, database: TestDatabase
) -> None:
    """His turn's time runs out twice: the computer keeps his seat and plays the deal out; the
    try is scored as it ends, and his result says the computer played for him."""
    fake = fake_telegram
    anna = fake.add_user(101, "Anna", language_code="ru")
    quick = settings.model_copy(update={"turn_timeout_s": 5.0})
    async with watched(fake, running_bot(quick, seeds=fixed_seeds())):
        await anna.start_bot()
        await daily(fake, anna, "/daily mushka")
        await fake.wait_until(lambda: results(anna) != [], timeout=40)
        (told,) = results(anna)
        assert "🤖 Пока вас не было, за вас ходил компьютер." in told.text
        ((score,),) = db_rows(database, "SELECT score FROM daily_tries")
        assert score is not None


async def test_a_try_from_a_group_that_becomes_a_supergroup_tells_the_supergroup(
    fake_telegram: FakeTelegram, settings: Settings, database: TestDatabase
) -> None:
    fake = fake_telegram
    anna = fake.add_user(101, "Anna", language_code="ru")
    group = fake.add_group(-5001, "Пятница", members=[anna.id], supergroup=False)
    now = [DAY]
    async with watched(fake, running_bot(settings, seeds=fixed_seeds(), clock=lambda: now[0])):
        await anna.start_bot()
        await daily(fake, anna, "d_mushka_5001")  # her try started from the basic group
        assert db_rows(database, "SELECT group_id FROM daily_tries") == [(-5001,)]
        new = fake.migrate_group(group, -1005001)
        await fake.wait_until(
            lambda: db_rows(database, "SELECT group_id FROM daily_tries") == [(-1005001,)],
            timeout=10,
        )
        await play_try(fake, anna, "mushka", "m")
        line = "🗓 Задача дня (Мушка): Anna "
        await fake.wait_until(lambda: any(m.text.startswith(line) for m in new.visible))
        assert not any(m.text.startswith(line) for m in group.visible)
