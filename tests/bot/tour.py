"""A newcomer's first minutes with the bot, step by step: what he sends or presses, and every
screen of his private chat that came or changed (new, edited, gone) or the answer to a press.

    python -m tests.bot.tour [--locale ru|en] [--game mushka] [--options "target=10"]

It runs the bot in this process against the fake Bot API (``tests/fakeapi``, on 127.0.0.1)
with a fresh SQLite file and fixed deal seeds, as a person who has never played: he presses
Start, reads the rules, opens a practice table from /start's «🎮 Сыграть с ботом», asks 💡 at
his first decision, presses a button of a hand that has moved on, and plays to the end (a
random legal choice each time; every press after the first hint is summed up, not shown).
The printed tour is what the closing notes show as "a new user's try"; ``test_e2e_newcomer``
runs the same steps and checks each.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path

from pydantic import SecretStr

from bot.app import running_bot
from bot.config import Settings
from tests.bot.helpers import fixed_seeds, hand_message, result_message, table_message
from tests.bot.test_e2e_computers import GAMES, Chooser
from tests.bot.test_e2e_hints import hint_button
from tests.bot.test_e2e_practice import play_until, waiting
from tests.fakeapi import FakeTelegram
from tests.fakeapi.model import SentMessage
from tests.fakeapi.users import SimUser

QUIET = 0.05


@dataclass
class Step:
    """One thing the newcomer did, and what he saw change."""

    did: str
    screens: list[tuple[str, str, str]] = field(default_factory=list)
    # (how: "new" / "edited" / "gone" / "answer", the text then, its keyboard's rows then)


@dataclass
class Watcher:
    """What of the private chat the newcomer has seen so far: each message's last text."""

    user: SimUser
    seen: dict[int, tuple[str, str]] = field(default_factory=dict)

    def changes(self, did: str) -> Step:
        step = Step(did)
        for m in self.user.messages:
            shown = ("", "") if m.deleted else (m.text, self.rows(m))
            before = self.seen.get(m.message_id)
            if before == shown:
                continue
            how = "new" if before is None else "gone" if m.deleted else "edited"
            if before is not None or not m.deleted:
                step.screens.append((how, *(before if m.deleted and before else shown)))
            self.seen[m.message_id] = shown
        return step

    @staticmethod
    def rows(m: SentMessage) -> str:
        """One line per keyboard row: ``[label] [label]``."""
        return "\n".join(" ".join(f"[{b.text}]" for b in row) for row in m.buttons)


def chooser_of(game: str) -> Chooser:
    return next(choose for code, _, _, choose in GAMES if code == game)


async def newcomer_tour(
    fake: FakeTelegram, user: SimUser, game: str, options: str = "", seed: str = "tour"
) -> list[Step]:
    """The steps of :mod:`this tour <tests.bot.tour>`, each with the screens it brought."""
    watch, steps = Watcher(user), []

    async def step(did: str, act: Callable[[], Awaitable[object]]) -> Step:
        answer = await act()
        await fake.settle(quiet=QUIET)
        done = watch.changes(did)
        if isinstance(answer, str):  # what a press was answered with (a toast or an alert)
            done.screens.append(("answer", answer, ""))
        steps.append(done)
        return done

    await step("/start", user.start_bot)
    await step(f"/rules {game}", lambda: user.send_private(f"/rules {game}"))
    await step("«🎮»: /start p", lambda: user.start_bot("p"))
    practice = f"p_{game}" if not options else None
    command = f"/practice {game} {options}".strip()

    async def open_practice() -> None:
        if practice is not None:
            await user.start_bot(practice)
        else:
            await user.send_private(command)
        await fake.wait_until(lambda: table_message(user) is not None, timeout=20)
        await fake.wait_until(
            lambda: (h := hand_message(user)) is not None and not waiting(h), timeout=30
        )

    await step(f"«{game}»: /start {practice}" if practice else command, open_practice)
    first = hand_message(user)
    assert first is not None

    async def hint() -> None:
        await fake.wait_until(lambda: hint_button(hand_message(user)), timeout=20)
        hand = hand_message(user)
        assert hand is not None
        answer = await user.press(hand, "💡")
        assert not answer.text, answer.text
        await fake.wait_until(
            lambda: (h := hand_message(user)) is not None and "💡 " in h.text, timeout=20
        )

    await step("💡", hint)
    choose, rng = chooser_of(game), random.Random(seed)
    moved: list[SentMessage] = []

    async def first_move() -> None:
        hand = hand_message(user)
        assert hand is not None
        moved.append(hand)
        stale = choose(hand, rng)
        stale_data[:] = [stale.callback_data or ""]
        answer = await user.press(hand, data=stale.callback_data)
        assert not answer.text, answer.text

    stale_data: list[str] = []
    await step("a first move", first_move)

    async def press_stale() -> str:
        await fake.wait_until(lambda: not waiting(moved[0]), timeout=30)
        answer = await user.press_raw(moved[0], data=stale_data[0])
        return answer.text or ""

    await step("the same button again, on a hand that has moved on", press_stale)
    presses: list[int] = []

    async def to_the_end() -> None:
        n = await play_until(fake, user, lambda: result_message(user) is not None, choose, seed)
        presses.append(n)

    await step("plays to the end", to_the_end)
    steps[-1].did = f"plays to the end ({presses[0]} presses)"
    return steps


def printed(steps: list[Step], *, every: bool = False) -> str:
    """The tour as text; the last step shows its new messages only (unless ``every``)."""
    out: list[str] = []
    for i, step in enumerate(steps, 1):
        out.append(f"=== {i}. {step.did}")
        last = i == len(steps) and not every
        for how, text, rows in step.screens:
            if last and how != "new":
                continue
            out += [f"--- {how}", text] + ([rows] if rows else [])
        out.append("")
    return "\n".join(out)


async def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--locale", default="ru", choices=["ru", "en"])
    parser.add_argument("--game", default="mushka", choices=[g[0] for g in GAMES])
    parser.add_argument("--options", default="")
    parser.add_argument("--every", action="store_true", help="the last step's edits too")
    args = parser.parse_args(argv)
    fake = FakeTelegram(token="123456:TEST-token", bot_username="mushka_test_bot")
    await fake.start()
    try:
        with tempfile.TemporaryDirectory(prefix="tour-") as tmp:
            settings = Settings(
                token=SecretStr(fake.token),
                database=Path(tmp) / "bot.sqlite3",
                api_base=fake.base_url,
                polling_timeout_s=1,
                computer_delay_s=0,
                outbox_time_scale=0,
                default_language=args.locale,
                _env_file=None,  # type: ignore[call-arg]  # never a developer's .env
            )
            async with running_bot(settings, seeds=fixed_seeds()):
                user = fake.add_user(101, "Anna", language_code=args.locale)
                steps = await newcomer_tour(fake, user, args.game, args.options)
                sys.stdout.write(printed(steps, every=args.every) + "\n")
    finally:
        await fake.stop()
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main(sys.argv[1:])))
