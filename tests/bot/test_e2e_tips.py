"""A newcomer's one-line tips on his hand through the fake Bot API: a new person's first
practice hand says the rule of the decision he faces, under the hand's head, only at his own
turn; /settings «Подсказки» steps auto → on → off: off takes the line away at once, «auto»
shows none once he has finished two matches of the game, «on» shows it again at a later table;
the longest hands with the cards in words and a tip stay within Telegram's limits."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Final

from bot.app import RunningBot
from bot.i18n import Catalogues
from bot.message_limits import MAX_TEXT
from bot.render.tips import DECLARING, EXCHANGING, TIP_MARK, tip_text
from tests.bot import helpers
from tests.bot.helpers import db_execute, db_rows, hand_message, open_table, play_step
from tests.bot.test_e2e_practice import play_until, practising, said
from tests.bot.test_e2e_settings import press_until, private_settings
from tests.databases import TestDatabase
from tests.engine.test_tips import EXPECTED
from tests.fakeapi import FakeTelegram
from tests.fakeapi.model import SentMessage
from tests.fakeapi.users import SimUser

LOCALES: Final = Path(__file__).resolve().parents[2] / "locales"
RU: Final = Catalogues.load(LOCALES).tr("ru")
EN: Final = Catalogues.load(LOCALES).tr("en")


def tip_in(text: str) -> str | None:
    """A hand text's tip line (the one under its head), or None."""
    lines = text.split("\n")
    return lines[1] if len(lines) > 1 and lines[1].startswith(TIP_MARK) else None


def tip_of(hand: SentMessage) -> str | None:
    return tip_in(hand.text)


def tips_of(game: str) -> set[str]:
    """Every tip line a Russian reader may see at ``game`` (the kinds its rules have)."""
    said = {f"{TIP_MARK} {tip_text(kind, game, RU)}" for kind in EXPECTED[game]}
    if DECLARING & EXPECTED[game]:  # a declaration marking its exchange says how
        said.add(f"{TIP_MARK} {RU(EXCHANGING)}")
    return said


def waiting(hand: SentMessage) -> bool:
    return any(w in hand.text for w in helpers.WAITING)


async def own_turn(fake: FakeTelegram, user: SimUser) -> SentMessage:
    """His hand once it is his turn (the computers move by themselves)."""
    await fake.wait_until(
        lambda: (h := hand_message(user)) is not None and not waiting(h), timeout=20
    )
    await fake.settle(quiet=0.05)
    hand = hand_message(user)
    assert hand is not None
    return hand


async def test_a_new_persons_first_practice_hands_say_the_rule_only_at_his_turn(
    fake_telegram: FakeTelegram, bot: RunningBot
) -> None:
    fake = fake_telegram
    anna = fake.add_user(101, "Anna", language_code="ru")
    await anna.start_bot()
    await practising(fake, anna, "/practice mushka target=10")
    hand = await own_turn(fake, anna)
    assert tip_of(hand) in tips_of("mushka"), hand.text
    assert hand.text.split("\n")[0].startswith("🃏")  # the head stays first
    await play_until(fake, anna, lambda: len(hand.history) >= 12, helpers.choose, "tips")
    seen: dict[bool, set[str | None]] = {True: set(), False: set()}
    for version in [*hand.history, hand.version]:  # each text his first hand showed
        seen[any(w in version.text for w in helpers.WAITING)].add(tip_in(version.text))
    assert seen[True] == {None}  # a waiting hand never carries one
    tips = seen[False] - {None}  # (none where he has a single choice: nothing to decide)
    assert len(tips) >= 2 and tips <= tips_of("mushka")  # each his decision's own rule


async def test_settings_tips_off_removes_the_line_auto_ends_after_two_matches_on_shows_it(
    fake_telegram: FakeTelegram, bot: RunningBot, database: TestDatabase
) -> None:
    fake = fake_telegram
    anna = fake.add_user(101, "Anna", language_code="ru")
    await anna.start_bot()
    await practising(fake, anna, "/practice mushka target=10")
    hand = await own_turn(fake, anna)
    assert tip_of(hand) is not None
    settings = await private_settings(fake, anna)
    assert "Подсказки: в первых играх" in settings.text
    await press_until(fake, anna, settings, "📖", "Подсказки: вкл")
    await press_until(fake, anna, settings, "📖", "Подсказки: выкл")
    assert json.loads(str(db_rows(database, "SELECT settings FROM users")[0][0]))["tips"] == "off"
    await fake.wait_until(lambda: tip_of(hand) is None, timeout=10)  # his hand drawn again
    await press_until(fake, anna, settings, "📖", "Подсказки: в первых играх")
    await fake.wait_until(lambda: tip_of(hand) is not None, timeout=10)  # still a newcomer
    # two matches of Мушка finished at his table (as if played to their end)
    for extra in (100, 200):
        db_execute(
            database,
            "INSERT INTO matches (table_id, no, seed, prev_dealer, first_seq, net)"
            " SELECT table_id, no + ?, seed, prev_dealer, first_seq, '[0, 0, 0]' FROM matches"
            " WHERE no < 100",
            extra,
        )
    await practising(fake, anna, "p_mushka_new")  # a later game: «auto» shows no tip now
    later = await own_turn(fake, anna)
    assert later is not hand and tip_of(later) is None, later.text
    await press_until(fake, anna, settings, "📖", "Подсказки: вкл")
    await fake.wait_until(lambda: tip_of(later) in tips_of("mushka"), timeout=10)
    assert said(anna, "Кнопка не распознана.") == []


async def test_the_longest_hands_with_cards_in_words_and_a_tip_fit_telegram_s_limit(
    fake_telegram: FakeTelegram, bot: RunningBot
) -> None:
    """Seven players with 64-character names, a 128-character title, every hand with its
    cards in words and a tip (English: the longer texts): a deal goes, no request refused."""
    fake = fake_telegram
    players = [
        fake.add_user(101 + i, f"{i}" + ("🦄" if i % 2 else "W") * 63, language_code="en")
        for i in range(7)
    ]
    for user in players:
        await user.start_bot()
        pane = await private_settings(fake, user)
        await press_until(fake, user, pane, "🗣", "Cards in words: on")
    group = fake.add_group(-1001, "C" * 128, admins=[101], members=[p.id for p in players[1:]])
    await open_table(fake, group, players, options="target=5")
    rng = random.Random(7)
    tipped = 0
    for _ in range(40):
        for user in players:
            mine = hand_message(user)
            assert mine is not None and len(mine.text) <= MAX_TEXT
            tipped += tip_of(mine) is not None and "🗣" in mine.text
        if not await play_step(fake, group, players, rng):
            break
    assert tipped > 0
    assert [c for c in fake.calls() if not c.ok] == []
