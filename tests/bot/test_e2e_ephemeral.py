"""Hands in the group itself through the fake Bot API and the real dispatcher: a table
whose hands go to the group seats a member at ✋ with no private chat, deals every hand as a
message only its owner sees, pings him the same way, and plays from those messages — every
family to its end; nothing of a hand reaches a message others see; 🂠 «Мои карты» gives a lost
hand back in place of the table; a restart mid-deal goes on from the same messages; a bot that
stops being an administrator moves the hands to private chats; one Мушка deal's Bot API calls
in both modes (figures)."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from functools import partial

import pytest

from bot.app import running_bot
from bot.config import Settings
from tests.bot.helpers import (
    choose,
    db_rows,
    deal_results,
    fixed_seeds,
    hand_message,
    join_and_start,
    lobby_message,
    play_step,
    result_message,
    table_message,
    to_act,
    watched,
)
from tests.bot.proof_figures import add_figure
from tests.bot.test_e2e_settings import open_my_settings, open_settings, press_until
from tests.bot.test_konchinka_e2e import choose as konchinka_choice
from tests.bot.test_kopilka_e2e import choose as kopilka_choice
from tests.bot.test_lenturlu_e2e import choose as lenturlu_choice
from tests.databases import TestDatabase
from tests.fakeapi import FakeTelegram
from tests.fakeapi.model import Button, SentMessage
from tests.fakeapi.users import SimGroup, SimUser

NAMES = ["Anna", "Boris", "Vera", "Gleb"]
SEAT = re.compile(r"· место (\d+)$", re.MULTILINE)  # a hand's first line names its seat
SEATED = "Вы за столом. Карты будут здесь, в группе: их увидите только вы."
NOT_PLAYING = "Вы не играете за этим столом."
HERE = "Ваши карты показаны вам здесь, в группе: их видите только вы."
PRESS_LIMIT = 3000
RESTART_AT = 6  # presses before the bot restarts mid-deal
Pick = Callable[[SentMessage, random.Random], Button]


def in_group(settings: Settings) -> Settings:
    """The bot's settings with hands in the group offered (the operator's BOT_HANDS_IN_GROUP)."""
    return settings.model_copy(update={"hands_in_group": True})


def seated(
    fake: FakeTelegram, seats: int, *, bot_admin: bool = True
) -> tuple[list[SimUser], SimGroup]:
    players = [fake.add_user(101 + i, n, language_code="ru") for i, n in enumerate(NAMES[:seats])]
    members = [p.id for p in players[1:]] + [199]
    fake.add_user(199, "Zoya", language_code="ru")  # a member who watches
    group = fake.add_group(-1001, "Пятница", admins=[101], members=members, bot_admin=bot_admin)
    return players, group


async def started(
    fake: FakeTelegram,
    group: SimGroup,
    players: list[SimUser],
    options: str = "target=5",
    game: str = "mushka",
    joined: str | None = SEATED,
) -> None:
    """The first opens the table, the others join (each told ``joined``, if given), and the
    first starts it."""
    await join_and_start(fake, group, players, game, options, joined=joined)


async def open_in_group(
    fake: FakeTelegram, group: SimGroup, players: list[SimUser], game: str, options: str
) -> SentMessage:
    """The table started — nobody has a private chat with the bot — and every hand shown to
    its owner in the group."""
    await started(fake, group, players, options, game)
    await fake.wait_until(
        lambda: table_message(group) is not None and all(hand_message(u) for u in players),
        timeout=10,
    )
    await fake.settle(quiet=0.05)
    table = table_message(group)
    assert table is not None
    return table


def check_privacy(fake: FakeTelegram, group: SimGroup, players: list[SimUser]) -> None:
    """No message everyone in the group sees ever showed a hand; every hand text the bot sent
    went to one player alone, each player's always his own seat's; no private chat was used."""
    everyone = "\n".join(v.text for m in group.messages for v in m.history)
    assert SEAT.search(everyone) is None, everyone[-400:]
    seats: dict[int, set[str]] = {}
    for send in fake.ephemeral_sends():
        assert send.chat_id == group.id
        if (found := SEAT.search(send.text)) is not None:
            seats.setdefault(send.receiver_id, set()).add(found.group(1))
    assert set(seats) == {p.id for p in players}, seats
    assert all(len(s) == 1 for s in seats.values()), seats
    assert len({min(s) for s in seats.values()}) == len(players), seats
    assert all(not p.messages for p in players), "a private chat was written to"


def live_hands(user: SimUser, group: SimGroup) -> list[SentMessage]:
    return [
        m
        for m in user.ephemeral(group)
        if any((b.callback_data or "").startswith("h:") for b in m.all_buttons)
    ]


async def play_to(
    fake: FakeTelegram,
    group: SimGroup,
    players: list[SimUser],
    rng: random.Random,
    done: Callable[[], bool],
    pick: Pick | None = None,
) -> int:
    """Play until ``done``; the number of presses."""
    for presses in range(PRESS_LIMIT):
        if done():
            return presses
        assert await play_step(fake, group, players, rng, pick), "nobody to act, but not done"
    raise AssertionError("the game did not get there")


FAMILIES: list[tuple[str, int, str, Pick | None]] = [
    ("mushka", 3, "target=5", None),
    ("kopilka", 4, "hold_pass=true", kopilka_choice),
    ("lenturlu", 3, "manner=king", lenturlu_choice),
    ("konchinka", 2, "target=5", konchinka_choice),
]


@pytest.mark.parametrize(
    ("game", "seats", "options", "pick"), FAMILIES, ids=[f[0] for f in FAMILIES]
)
async def test_every_family_plays_a_whole_game_from_hands_in_the_group_with_a_restart(
    fake_telegram: FakeTelegram,
    settings: Settings,
    database: TestDatabase,
    game: str,
    seats: int,
    options: str,
    pick: Pick | None,
) -> None:
    fake = fake_telegram
    players, group = seated(fake, seats)
    rng = random.Random(f"{game}-{seats}")
    on = in_group(settings)
    async with watched(fake, running_bot(on, seeds=fixed_seeds())):
        table = await open_in_group(fake, group, players, game, options)
        assert "🂠" in table.describe_buttons()
        for user in players:  # one hand each, in the group, for him alone
            assert len(live_hands(user, group)) == 1
        if game == "mushka":  # a waiting hand says whom the table waits for
            first = to_act(group, players)
            assert first is not None
            waiting = [live_hands(u, group)[0] for u in players if u is not first]
            assert all(f"⏳ ждём: {first.first_name}" in h.text for h in waiting), waiting
            assert "ждём" not in live_hands(first, group)[0].text
        pings = [m for u in players for m in u.ephemeral(group) if m.text.startswith("🔔")]
        assert len(pings) <= 1  # the one to act is told so, for him alone
        for _ in range(RESTART_AT):
            assert await play_step(fake, group, players, rng, pick)
        await fake.settle(quiet=0.05)
        assert result_message(group) is None, "the game ended before the restart"
        if game == "mushka":  # the group now sends hands to private: this table keeps its mode
            message = await open_my_settings(fake, players[0], group)  # the pane, for her alone
            for shown in ("в группе", "в личке"):
                await press_until(fake, players[0], message, "🃏", f"Карты: {shown}")
    before = {u.id: hand_message(u) for u in players}
    sent = len(group.state.ephemeral)
    async with watched(fake, running_bot(on, seeds=fixed_seeds())):
        await fake.settle(quiet=0.1)
        assert {u.id: hand_message(u) for u in players} == before  # found and edited, not re-sent
        presses = await play_to(
            fake, group, players, rng, lambda: result_message(group) is not None, pick
        )
        await fake.settle(quiet=0.05)
        check_privacy(fake, group, players)
        deals = [m for m in group.messages if m.text.startswith("📋")]
        assert all(m.has_button("🔎 Разбор") for m in deals)  # each deal's review
        for user in players:  # still one hand each: edited in place, never piled up
            assert len(live_hands(user, group)) <= 1, user.first_name
        ids = {p.id for p in players}
        assert all(m.receiver_id in ids for m in group.state.ephemeral.values())
        if game == "mushka":  # the next table: hands in private, as the group now says
            await players[0].send(group, "/newgame mushka")
            await fake.wait_until(lambda: lobby_message(group) not in (None, table), timeout=10)
            lobby = lobby_message(group)
            assert lobby is not None
            assert (await players[1].press(lobby, "✋")).text != SEATED
    assert presses > 0 and len(group.state.ephemeral) > sent
    (ledger,) = db_rows(database, "SELECT SUM(balance) FROM ledger")
    assert ledger == (0,)


async def test_my_cards_gives_a_lost_hand_back_in_place_of_the_table(
    fake_telegram: FakeTelegram, settings: Settings
) -> None:
    fake = fake_telegram
    players, group = seated(fake, 3)
    anna, zoya = players[0], fake.users[199]
    anna.offline = True  # her phone shows none of the hands sent to her
    rng = random.Random(3)
    async with watched(fake, running_bot(in_group(settings), seeds=fixed_seeds())):
        await started(fake, group, players)
        await fake.wait_until(
            lambda: table_message(group) is not None and all(hand_message(u) for u in players[1:]),
            timeout=10,
        )
        await fake.settle(quiet=0.05)
        assert hand_message(anna) is None  # sent, never shown
        anna.offline = False
        table = table_message(group)
        assert table is not None

        answer = await zoya.press(table, "🂠")  # a member who is not playing
        assert answer.text == NOT_PLAYING
        assert zoya.shown_in_place_of(table) is None

        answer = await anna.press(table, "🂠")
        assert not answer.text
        await fake.wait_until(lambda: anna.shown_in_place_of(table) is not None, timeout=10)
        back = anna.shown_in_place_of(table)
        assert back is not None and back is hand_message(anna)
        assert SEAT.search(back.text) is not None
        assert all(other.shown_in_place_of(table) is None for other in players[1:])
        await fake.settle(quiet=0.05)
        # the others still see the table; her old, never shown hand is gone for good
        assert (
            len(
                [
                    m
                    for m in group.state.ephemeral.values()
                    if m.receiver_id == anna.id and not m.deleted and "место" in m.text
                ]
            )
            == 1
        )
        await play_to(fake, group, players, rng, lambda: deal_results(group) >= 1)
        check_privacy(fake, group, players)

        # /hand in the group: the hand again, for him alone, and he is told where it is — for
        # him alone too (the bot is an administrator here), a reply to his command
        boris = players[1]
        old = hand_message(boris)
        shown = len(group.messages)
        asked = await boris.send(group, "/hand")
        # the note and the new hand go out in either order: wait for the note itself
        await fake.wait_until(
            lambda: any(
                m.text == HERE and m.reply_to == asked.message_id for m in boris.ephemeral(group)
            ),
            timeout=10,
        )
        await fake.settle(quiet=0.05)
        assert len(group.messages) == shown  # the group saw nothing of it
        new = hand_message(boris)
        assert new is not None and new is not old and new.chat_id == group.id
        assert len(live_hands(boris, group)) == 1 and not boris.messages
        check_privacy(fake, group, players)


async def test_hands_telegram_never_showed_come_back_with_my_cards(
    fake_telegram: FakeTelegram, settings: Settings, request: pytest.FixtureRequest
) -> None:
    """Telegram does not promise to deliver an ephemeral message: with a third of them lost
    (accepted, never shown), whoever is to act and sees no hand taps 🂠 until it shows, and
    the match plays to its end."""
    fake = fake_telegram
    players, group = seated(fake, 3)
    fake.drop_ephemeral(0.3, seed=8)  # the first and the third hand among the lost
    rng = random.Random(6)
    taps = 0
    async with watched(fake, running_bot(in_group(settings), seeds=fixed_seeds())) as running:
        running.services.runtime.ctx.cards_gap = 0.0  # a tap again at once (the gap: its own test)
        await started(fake, group, players)
        await fake.wait_until(lambda: table_message(group) is not None, timeout=10)
        await fake.settle(quiet=0.05)
        for _ in range(PRESS_LIMIT):
            if result_message(group) is not None:
                break
            who = to_act(group, players)
            assert who is not None, "nobody to act, but no result"
            if hand_message(who) is None:  # never shown: 🂠 on the table brings it
                table = table_message(group)
                assert table is not None and who.shown_in_place_of(table) is None
                assert not (await who.press(table, "🂠")).text
                taps += 1
                await fake.settle(quiet=0.02)
                continue
            hand = hand_message(who)
            assert hand is not None
            button = choose(hand, rng)
            answer = await who.press(hand, data=button.callback_data)
            assert not answer.text, f"{who.first_name} pressed {button.text}: {answer.text}"
            await fake.settle(quiet=0.03)  # not every hand is there to show the move
        else:
            raise AssertionError("the match did not end")
        assert taps > 0
        check_privacy(fake, group, players)
    add_figure(request, "hands in the group: 🂠 taps that brought back a hand Telegram lost", taps)


async def test_a_bot_that_is_no_admin_plays_a_whole_game_from_private_hands_with_a_restart(
    fake_telegram: FakeTelegram, settings: Settings
) -> None:
    """The group asks for hands in the group, but the bot is no administrator there: a member
    is still seated at ✋ at once, and at the deal, where no press of his is there to answer,
    each hand goes to its owner's private chat, the group told once for each; the game plays
    to its end across a restart."""
    fake = fake_telegram
    players, group = seated(fake, 3, bot_admin=False)
    rng = random.Random(4)
    on = in_group(settings)
    async with watched(fake, running_bot(on, seeds=fixed_seeds())):
        message = await open_settings(fake, players[0], group)
        await press_until(fake, players[0], message, "🃏", "Карты: в группе")
        for user in players:  # they can be written to privately
            await user.start_bot()
        await fake.settle(quiet=0.05)
        await started(fake, group, players, "target=10")
        await fake.wait_until(
            lambda: all((h := hand_message(u)) is not None and h.chat_id == u.id for u in players),
            timeout=10,
        )
        await fake.settle(quiet=0.05)
        told = [m for m in group.messages if "💬" in m.describe_buttons()]
        assert sorted(m.text.split(":")[0] for m in told) == sorted(NAMES[:3]), told
        for _ in range(RESTART_AT):
            assert await play_step(fake, group, players, rng)
        await fake.settle(quiet=0.05)
        assert result_message(group) is None, "the game ended before the restart"
    async with watched(fake, running_bot(on, seeds=fixed_seeds())):
        await fake.settle(quiet=0.1)
        await play_to(fake, group, players, rng, lambda: result_message(group) is not None)
        await fake.settle(quiet=0.05)
    assert [m for m in group.messages if "💬" in m.describe_buttons()] == told  # once each
    assert not [m for m in group.state.ephemeral.values() if m.delivered and not m.deleted]
    everyone = "\n".join(v.text for m in group.messages for v in m.history)
    assert SEAT.search(everyone) is None
    result = result_message(group)
    assert result is not None and "Пулька 1" in result.text


async def test_the_calls_of_one_deal_in_the_group_and_in_private(
    fake_telegram: FakeTelegram, settings: Settings, request: pytest.FixtureRequest
) -> None:
    """The same Мушка deal (the same seeds, the same presses) with hands in the group and in
    private chats: what it costs in Bot API calls, the group's and the rest."""
    fake = fake_telegram
    players = [fake.add_user(101 + i, n, language_code="ru") for i, n in enumerate(NAMES[:3])]
    ids = [p.id for p in players]
    figures: dict[str, int] = {}
    # in private first: a hand found in the group is taken over a private one (hand_message)
    for mode, chat_id in (("private", -1002), ("group", -1001)):
        admin = mode == "group"  # «auto»: in the group where the bot is an admin
        group = fake.add_group(chat_id, mode, admins=[101], members=ids[1:], bot_admin=admin)
        chosen = in_group(settings)
        rng = random.Random(12)
        async with watched(fake, running_bot(chosen, seeds=fixed_seeds())):
            if mode == "private":
                for user in players:
                    await user.start_bot()
                await fake.settle(quiet=0.05)
            start = fake.mark()
            if mode == "group":
                await open_in_group(fake, group, players, "mushka", "target=5")
            else:
                await _open_private(fake, group, players)
            presses = await play_to(fake, group, players, rng, partial(dealt, group))
            await fake.settle(quiet=0.05)
            calls = fake.requests[start:]
        figures[f"{mode}: calls"] = len(calls)
        figures[f"{mode}: to the group, seen by all"] = sum(
            1 for c in calls if c.params.get("chat_id") == chat_id and not c.ephemeral
        )
        figures[f"{mode}: ephemeral"] = sum(1 for c in calls if c.ephemeral)
        figures[f"{mode}: private"] = sum(
            1 for c in calls if isinstance(c.params.get("chat_id"), int) and c.params["chat_id"] > 0
        )
        figures[f"{mode}: presses"] = presses
    for name, value in figures.items():
        add_figure(request, f"hands in the group, one Мушка deal, {name}", value)
    print("hands in the group, one Мушка deal:", figures)  # noqa: T201
    assert figures["group: private"] == 0 and figures["private: ephemeral"] == 0
    assert figures["group: ephemeral"] > 0 and figures["private: private"] > 0


def dealt(group: SimGroup) -> bool:
    return deal_results(group) >= 1


async def _open_private(fake: FakeTelegram, group: SimGroup, players: list[SimUser]) -> None:
    await started(fake, group, players, joined=None)
    await fake.wait_until(
        lambda: table_message(group) is not None and all(hand_message(u) for u in players),
        timeout=10,
    )
    await fake.settle(quiet=0.05)


async def test_the_reminder_and_the_expiry_come_to_him_alone_in_the_group(
    fake_telegram: FakeTelegram, settings: Settings
) -> None:
    fake = fake_telegram
    players, group = seated(fake, 3)
    quick = in_group(settings).model_copy(update={"turn_timeout_s": 5.0})
    async with watched(fake, running_bot(quick, seeds=fixed_seeds())):
        await open_in_group(fake, group, players, "mushka", "target=25")
        absent = to_act(group, players)
        assert absent is not None

        def reminded() -> bool:
            return any(m.text.startswith("⏳ Осталось") for m in absent.ephemeral(group))

        await fake.wait_until(reminded, timeout=7)
        mention = f"⏳ {absent.first_name}, ваш ход"  # the group's, in a queue of its own
        await fake.wait_until(
            lambda: any(m.text.startswith(mention) for m in group.visible), timeout=5
        )
        await fake.wait_until(lambda: to_act(group, players) is not absent, timeout=7)
        await fake.settle(quiet=0.1)
        told = [m.text for m in absent.ephemeral(group)]
        # the ping and the reminder gave way to what the computer did for him, for him alone
        assert [t for t in told if not SEAT.search(t)] == [told[-1]], told
        assert told[-1].startswith("⏰ Время вышло — за вас сыграл компьютер: ")
        assert not any("Время вышло" in m.text for m in group.messages)
        assert not [m for m in group.visible if "ваш ход (" in m.text]  # the mention went
        assert all(not p.messages for p in players)
        check_privacy(fake, group, players)
