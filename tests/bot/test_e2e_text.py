"""A person's text is never markup, and what the bot sends fits Telegram, through
the fake Bot API, which parses HTML as Telegram does (a stray ``<`` is a 400)."""

from __future__ import annotations

import html
import random

import pytest

from bot.app import RunningBot
from bot.render.score import NAME_MAX
from engine.games import GAMES
from tests.bot import test_lenturlu_e2e as lenturlu
from tests.bot.helpers import (
    db_execute,
    lobby_message,
    open_table,
    play_until_end,
    result_message,
    say,
    table_message,
)
from tests.databases import TestDatabase
from tests.fakeapi import FakeTelegram
from tests.fakeapi.model import SentMessage

LINK = '<a href="https://evil.example/">Admins</a>'


def bad_requests(fake: FakeTelegram) -> list[str]:
    """Every 400 the bot got: a text Telegram could not parse, one too long, a bad button."""
    return [f"{c.method}: {c.description}" for c in fake.calls() if c.error_code == 400]


def links(message: SentMessage) -> list[str]:
    return [str(e.get("url")) for e in message.entities if e["type"] in ("text_link", "url")]


async def test_a_refusal_names_the_creator_as_text(
    fake_telegram: FakeTelegram, bot: RunningBot
) -> None:
    """A creator named like a link: /cancel by another gets a refusal naming him, as typed,
    with no link in it; a creator named "Tom <3": the refusal still comes (it was a 400)."""
    fake = fake_telegram
    linked = fake.add_user(101, LINK, language_code="en")
    tom = fake.add_user(102, "Tom <3", language_code="ru")
    boris = fake.add_user(103, "Boris", language_code="en")
    first = fake.add_group(-1001, "Club", members=[101, 103])
    second = fake.add_group(-1002, "Клуб", members=[102, 103])
    for creator, group in ((linked, first), (tom, second)):
        await creator.send(group, "/newgame mushka")
        await fake.wait_until(lambda g=group: lobby_message(g) is not None, timeout=10)  # type: ignore[misc]
        refusal = await say(fake, boris, "/cancel", group)
        assert creator.first_name in refusal.text, refusal.text
        assert ("or an admin" in refusal.text or "или админ" in refusal.text) and not links(refusal)
        assert not refusal.entities
    assert bad_requests(fake) == []


async def test_toasts_and_buttons_show_names_and_titles_as_typed(
    fake_telegram: FakeTelegram, bot: RunningBot
) -> None:
    """A toast and a button's label are plain text: "&" is "&", never "&amp;"."""
    fake = fake_telegram
    anna = fake.add_user(101, "Anna", language_code="en")
    tom = fake.add_user(102, "Tom & Jerry", language_code="en")
    vera = fake.add_user(103, "Vera <3", language_code="en")
    stranger = fake.add_user(104, "Stranger", language_code="en")
    group = fake.add_group(-1001, "Cats & <Dogs>", admins=[101], members=[102, 103])
    for user in (anna, tom, vera):
        await user.start_bot()
    await anna.send(group, "/newgame mushka")
    await fake.wait_until(lambda: lobby_message(group) is not None, timeout=10)
    lobby = lobby_message(group)
    assert lobby is not None
    # a non-member's press: the refusal toast names the group as it is called
    join = lobby.button("✋").callback_data
    assert join is not None
    answer = await stranger.press_raw(lobby, data=join)
    assert answer.text is not None and '"Cats & <Dogs>"' in answer.text, answer.text
    for user in (tom, vera):
        assert (await user.press(lobby, "✋")).show_alert is False
    await fake.wait_until(lambda: "Vera <3" in lobby.text, timeout=10)
    tom.block_bot()  # seated, then both block the bot before the start
    vera.block_bot()
    await fake.settle(quiet=0.05)
    await anna.press(lobby, "▶️")
    await fake.wait_until(lambda: any("without" in b.text for b in notice_buttons(group)), 10)
    (without,) = [b for b in notice_buttons(group) if "without" in b.text]
    assert "Tom & Jerry" in without.text and "Vera <3" in without.text, without.text
    notice = next(m for m in reversed(group.visible) if without in m.all_buttons)
    assert "Tom & Jerry" in notice.text and "Vera <3" in notice.text, notice.text
    assert "&amp;" not in lobby.text + notice.text + without.text
    # the inline card: its title and description are plain, its message is HTML
    results = await anna.inline_query()
    (card,) = results
    assert "Cats & <Dogs>" in card["description"] and "&amp;" not in card["description"]
    card_text = card["input_message_content"]["message_text"]
    assert "Cats &amp; &lt;Dogs&gt;" in card_text
    assert bad_requests(fake) == []


def notice_buttons(group: object) -> list:  # type: ignore[type-arg]
    messages: list[SentMessage] = group.visible  # type: ignore[attr-defined]
    return [b for m in messages for b in m.all_buttons]


async def test_a_malformed_option_value_gets_a_clear_refusal(
    fake_telegram: FakeTelegram, bot: RunningBot
) -> None:
    """``target=²`` passed ``str.isdigit`` and then ``int`` raised: no reply at all."""
    fake = fake_telegram
    anna = fake.add_user(101, "Anna", language_code="en")
    group = fake.add_group(-1001, "Club", admins=[101])
    for typed in ("target=²", "target=--5", "target=٣", "target=<b>", "must_trump=<3"):
        answer = await say(fake, anna, f"/newgame mushka {typed}", group)
        name, value = typed.split("=")
        assert answer.text.startswith(f"{name}={value} is not allowed:"), answer.text
        assert not answer.entities
    answer = await say(fake, anna, "/newgame mushka target=" + "9" * 3000, group)
    assert "is not allowed: from" in answer.text and len(answer.text) < 200, answer.text
    answer = await say(fake, anna, "/newgame mushka <b>x" + "y" * 3000, group)
    assert answer.text.startswith("Options are written") and "<b>x" in answer.text
    assert len(answer.text) < 300
    assert lobby_message(group) is None  # nothing opened
    assert bad_requests(fake) == []


async def test_a_long_score_is_sent_in_several_messages(
    fake_telegram: FakeTelegram, bot: RunningBot, database: TestDatabase
) -> None:
    """Ten players with 64-character names in all seven games: over 4,096 characters even with
    the names cut to the leaderboard's 32, which Telegram refuses in one message. Each game's
    board comes whole, and a shorter /score after it replaces all of them."""
    fake = fake_telegram
    names = [f"{i}<b>" + ("🦄" if i % 2 else "Ж") * 60 for i in range(10)]
    users = [fake.add_user(201 + i, name, language_code="en") for i, name in enumerate(names)]
    group = fake.add_group(-1001, "Club", members=[u.id for u in users])
    await say(fake, users[0], "/help", group)  # the group and its first user are known
    for i, user in enumerate(users):
        db_execute(
            database,
            "INSERT INTO users (id, first_name) VALUES (?, ?) ON CONFLICT (id) DO NOTHING",
            user.id,
            user.first_name,
        )
        for game in GAMES:
            db_execute(
                database,
                "INSERT INTO ledger (chat_id, game, user_id, balance, played, won) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                group.id,
                game,
                user.id,
                123456 * (i - 5),
                999,
                99,
            )
    before = len(group.messages)
    await users[0].send(group, "/score")
    await fake.settle(quiet=0.1)
    pages = [m for m in group.messages[before:] if not m.deleted]
    assert len(pages) >= 2, [len(p.text) for p in pages]
    assert all(len(p.text.encode("utf-16-le")) // 2 <= 4096 for p in pages)
    shown = "\n".join(p.text for p in pages)
    for name in names:
        assert shown.count(name[: NAME_MAX - 1] + "…") == len(GAMES), name
    assert pages[0].reply_to is not None
    assert bad_requests(fake) == []
    # a shorter answer (one game's) replaces every page of the long one
    await users[1].send(group, "/score mushka")
    await fake.settle(quiet=0.1)
    assert all(p.deleted for p in pages)
    (latest,) = [m for m in group.messages[before:] if not m.deleted]
    assert latest.text.count("<b>") == 10 and bad_requests(fake) == []
    assert html.escape("<b>") not in latest.text


@pytest.mark.parametrize(("game", "seats"), [("lenturlu", 8), ("mushka", 7)])
async def test_the_most_players_with_the_longest_names(
    fake_telegram: FakeTelegram, bot: RunningBot, game: str, seats: int
) -> None:
    """A full table of 64-character names (emoji count twice) in a group with a 128-character
    title: the lobby, the table, every hand, the deal results and the match result all go."""
    fake = fake_telegram
    players = [
        fake.add_user(101 + i, f"{i}" + ("🦄" if i % 2 else "W") * 63, language_code="en")
        for i in range(seats)
    ]
    group = fake.add_group(-1001, "C" * 128, admins=[101], members=[p.id for p in players[1:]])
    await open_table(
        fake, group, players, game=game, options="target=5" if game == "mushka" else ""
    )
    table = table_message(group)
    assert table is not None and all(p.first_name in table.text for p in players)
    pick = lenturlu.choose if game == "lenturlu" else None
    await play_until_end(fake, group, players, random.Random(seats), pick=pick)
    result = result_message(group)
    assert result is not None and result.text.startswith("🏁")
    assert bad_requests(fake) == []


async def test_every_command_in_a_group_with_a_hostile_title(
    fake_telegram: FakeTelegram, bot: RunningBot
) -> None:
    """The group's and the people's own screens: /settings and its panes, /language, /help,
    /rules, /notify, /hand, /kick, /records, /score, each in the group and in private."""
    fake = fake_telegram
    title = '<a href="https://evil.example/">Club</a> & <3'
    anna = fake.add_user(101, "Anna &amp; <3", language_code="en")
    boris = fake.add_user(102, "<b>Boris", language_code="ru")
    group = fake.add_group(-1001, title, admins=[101], members=[102])
    for user in (anna, boris):
        await user.start_bot()
    for user, text in (
        (anna, "/settings"),
        (boris, "/settings"),
        (anna, "/language"),
        (anna, "/help"),
        (anna, "/rules kopilka"),
        (boris, "/notify"),
        (anna, "/hand"),
        (boris, "/kick"),
        (anna, "/records"),
        (anna, "/score"),
        (anna, "/newgame konchinka"),
        (boris, "/newgame konchinka"),
    ):
        await user.send(group, text)
        await fake.settle(quiet=0.05)
    settings = next(m for m in group.visible if m.all_buttons and title in m.text)
    panes = [b for b in settings.all_buttons if ":g:" in (b.callback_data or "")]
    assert len(panes) == len(GAMES)
    for button in panes:  # each game's pane of the group's settings, and back
        await anna.press(settings, data=button.callback_data)
        await fake.settle(quiet=0.05)
        assert "↩️" in settings.describe_buttons(), settings.describe_buttons()
        await anna.press(settings, "↩️")
        await fake.settle(quiet=0.05)
        assert title in settings.text
    for user in (anna, boris):
        for text in ("/settings", "/score", "/records", "/hand", "/help"):
            await user.send_private(text)
            await fake.settle(quiet=0.05)
    await fake.settle(quiet=0.05)
    invitation = await anna.inline_query()
    assert title in invitation[0]["description"]
    for chat in (group.id, anna.id, boris.id):
        for message in fake.messages(chat):
            assert not links(message) or all(u.startswith("https://t.me/") for u in links(message))
            for double in ("&amp;amp;", "&lt;", "&gt;"):
                assert double not in message.text, message.text
                assert all(double not in b.text for b in message.all_buttons)
    assert any(title in m.text for m in group.visible)
    assert bad_requests(fake) == []
