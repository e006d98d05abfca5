"""Every game, played to its result by players with hostile names in a group with a hostile
title: every send succeeds, and no one's text becomes markup anywhere — not in a
message, a toast, a button or an inline card.

What "nothing became markup" means here, as Telegram shows it: no link but the bot's own
(``tg://user`` mentions, its t.me links), no double escape (``&amp;amp;``, ``&lt;``) in any text
shown, and every player's name shown exactly as typed on the table's seat lines.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from bot.app import RunningBot
from tests.bot import helpers
from tests.bot import test_konchinka_e2e as konchinka
from tests.bot import test_kopilka_e2e as kopilka
from tests.bot import test_lenturlu_e2e as lenturlu
from tests.bot.helpers import (
    act_of,
    hand_message,
    open_table,
    press_and_wait,
    result_message,
    say,
    table_message,
    to_act,
)
from tests.bot.test_e2e_text import bad_requests
from tests.fakeapi import FakeTelegram
from tests.fakeapi.model import Button, CallbackAnswer, SentMessage
from tests.fakeapi.users import SimGroup, SimUser

HOSTILE = (
    '<a href="https://evil.example/">Admins</a>',
    "Tom <3",
    "Tom &amp; Jerry",
    "<b>bold</b> & <i>",
    "\u200fשלום\u202e «x»",
    "🦄" * 32,  # 64 UTF-16 units
    "W" * 64,
    '"quoted" & <tg-spoiler>',
)
TITLE = "<i>Cats</i> & Dogs <3 " + "🐈" * 50
DOUBLE = ("&amp;amp;", "&lt;", "&gt;", "&quot;", "&#")
Choose = Callable[[SentMessage, random.Random], Button]
GAMES: list[tuple[str, int, str, Choose]] = [
    ("mushka", 3, "target=5", helpers.choose),
    ("pamfil", 4, "target=5", helpers.choose),
    ("shutikha", 3, "target=5", helpers.choose),
    ("mistigri", 4, "target=5", helpers.choose),
    ("kopilka", 4, "", kopilka.choose),
    ("lenturlu", 8, "", lenturlu.choose),
    ("konchinka", 2, "target=5", konchinka.choose),
]
PRESS_LIMIT = 3000
CARD_ACTS = frozenset("pcf")  # a card played (trick games, Кончинка, Лентюрлю's first card)


def shown_texts(fake: FakeTelegram, chats: list[int]) -> list[tuple[str, list[Button]]]:
    """Every text and keyboard the bot's messages in these chats have shown (every version)."""
    out: list[tuple[str, list[Button]]] = []
    for chat in chats:
        for message in fake.messages(chat):
            for version in message.history:
                out.append((version.text, [b for row in version.buttons for b in row]))
                for entity in version.entities:
                    url = str(entity.get("url", ""))
                    assert entity["type"] != "url", version.html
                    if entity["type"] == "text_link":
                        assert url.startswith(("tg://user?id=", "https://t.me/")), version.html
    return out


def check_plain(text: str, where: str) -> None:
    """Text as the user sees it: a name in it is as typed (never escaped twice)."""
    hits = [d for d in DOUBLE if d in text]
    assert not hits, f"{where}: {hits} in {text!r}"


async def nudge(
    fake: FakeTelegram, group: SimGroup, players: list[SimUser], actor: SimUser
) -> CallbackAnswer | None:
    """A waiting player presses a card of his hand: the toast names whose turn it is."""
    waiting = [p for p in players if p is not actor and hand_message(p) is not None]
    if not waiting:
        return None
    hand = hand_message(waiting[0])
    assert hand is not None
    card = next((b for b in hand.all_buttons if act_of(b)[0] in CARD_ACTS), None)
    if card is None or card.callback_data is None:
        return None
    return await waiting[0].press(hand, data=card.callback_data)


@pytest.mark.parametrize(("game", "seats", "options", "choose"), GAMES, ids=[g[0] for g in GAMES])
async def test_hostile_names_through_a_whole_game(
    fake_telegram: FakeTelegram,
    bot: RunningBot,
    game: str,
    seats: int,
    options: str,
    choose: Choose,
) -> None:
    fake = fake_telegram
    names = [
        HOSTILE[i % len(HOSTILE)] + ("" if i < len(HOSTILE) else f" {i}") for i in range(seats)
    ]
    players = [
        fake.add_user(101 + i, name, language_code="en" if i % 2 else "ru")
        for i, name in enumerate(names)
    ]
    group = fake.add_group(-1001, TITLE, admins=[101], members=[p.id for p in players[1:]])
    rng = random.Random(game)
    toasts: list[str] = []
    lobby = await open_table(fake, group, players, game=game, options=options)
    # refusals that name the creator, or the group: a reply in the group, a toast
    refusal = await say(fake, players[1], "/cancel", group)
    assert names[0] in refusal.text and not refusal.entities, refusal.html
    card = await players[0].inline_query()
    for result in card:
        check_plain(str(result.get("title", "")) + str(result.get("description", "")), "inline")
    presses = 0
    while result_message(group) is None:
        actor = to_act(group, players)
        assert actor is not None, "nobody to act, but no result"
        if presses % 7 == 0:
            answer = await nudge(fake, group, players, actor)
            if answer is not None and answer.text:
                toasts.append(answer.text)
        hand = hand_message(actor)
        assert hand is not None
        await press_and_wait(fake, actor, hand, choose(hand, rng), players, group)
        presses += 1
        assert presses < PRESS_LIMIT, "the game did not end"
    await fake.settle(quiet=0.05)
    table = table_message(group) or lobby
    for name in names:
        assert name in table.text or name in lobby.text, (name, table.text)
    score = await say(fake, players[0], "/score", group)
    assert all(name in score.text for name in names), score.text
    mine = await say(fake, players[1], "/score")  # in private: his own
    assert mine.text.startswith("📊")
    if toasts:  # a waiting hand offered a card (Кончинка's offers none)
        assert any(name in t for t in toasts for name in names), toasts  # "It's …'s turn."
    for text in toasts:
        check_plain(text, "toast")
    chats = [group.id, *(p.id for p in players)]
    for text, buttons in shown_texts(fake, chats):
        check_plain(text, "message")
        for button in buttons:
            check_plain(button.text, "button")
    assert bad_requests(fake) == []
