"""Simulated players for the bot tests: seat a table, find who is to act, press a legal button."""

from __future__ import annotations

import contextlib
import html
import itertools
import random
import re
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any, Protocol

from aiogram import BaseMiddleware
from aiogram.types import TelegramObject

from bot.app import RunningBot
from bot.callbacks import STILL as STILL_MOVE
from bot.callbacks import b36
from bot.presses.meaning import HandUI
from bot.render.games import game_ui
from bot.render.tips import with_tip
from bot.runtime.outcome import hand_key
from bot.runtime.tips import tip_for
from bot.storage.rows import SeatKind, SeatSpec
from tests.databases import db_execute as db_execute  # the tests import both from here
from tests.databases import db_rows as db_rows
from tests.fakeapi import FakeTelegram
from tests.fakeapi.model import Button, SentMessage
from tests.fakeapi.users import SimGroup, SimUser


class Shown(Protocol):
    """What the bot shows in one place: a group (:class:`SimGroup`), or one forum topic of it."""

    @property
    def messages(self) -> list[SentMessage]: ...

    @property
    def visible(self) -> list[SentMessage]: ...


class Topic:
    """One topic of a forum as the helpers read a group: the bot's messages in it only (None:
    the General topic)."""

    def __init__(self, group: SimGroup, thread: int | None) -> None:
        self.group = group
        self.thread = thread

    @property
    def messages(self) -> list[SentMessage]:
        return self.group.in_topic(self.thread)

    @property
    def visible(self) -> list[SentMessage]:
        return [m for m in self.messages if not m.deleted]

    async def send(self, user: SimUser, text: str) -> SentMessage:
        return await user.send(self.group, text, thread_id=self.thread)


TO_PLAY = re.compile(r"(?:To play|Ход): <b>(.+?)</b>")


@contextlib.asynccontextmanager
async def watched(
    fake: FakeTelegram, running: contextlib.AbstractAsyncContextManager[RunningBot]
) -> AsyncIterator[RunningBot]:
    """A running bot whose queued messages, and the updates it is still handling, count as "not
    settled yet" for the fake: an update that waits on the database makes no Bot API call for a
    while, and a quiet spell alone would read that as done."""
    async with running as bot:
        handling = Handling()
        bot.dispatcher.update.outer_middleware.register(handling)

        def busy() -> bool:
            services = bot.services
            due = services.scheduler.next_due()
            soon = due is not None and due <= time.time() + 1.0
            working = services.scheduler.firing  # e.g. a computer thinking in its thread
            queued = services.outbox.pending() > 0 or services.background.pending() > 0
            return queued or soon or working or handling.now > 0

        fake.busy.append(busy)
        try:
            yield bot
        finally:
            fake.busy.remove(busy)
            bot.dispatcher.update.outer_middleware.unregister(handling)


class Handling(BaseMiddleware):
    """How many updates the dispatcher is handling now (an outer middleware of the tests)."""

    def __init__(self) -> None:
        self.now = 0

    async def __call__(
        self,
        handler: Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]],
        event: TelegramObject,
        data: dict[str, Any],
    ) -> Any:
        self.now += 1
        try:
            return await handler(event, data)
        finally:
            self.now -= 1


def _is_hand(message: SentMessage) -> bool:
    return any((b.callback_data or "").startswith("h:") for b in message.all_buttons)


def hand_message(user: SimUser) -> SentMessage | None:
    """The user's live hand message: the newest one with hand buttons shown to him alone in a
    group (an ephemeral message), else the newest such private message."""
    for m in reversed(user.fake.ephemeral_of(user.id)):
        if m.delivered and not m.deleted and _is_hand(m):
            return m
    for message in reversed(user.visible):
        if _is_hand(message):
            return message
    return None


def my_cards(message: SentMessage) -> bool:
    """Whether the message has the table's 🂠 «Мои карты» (a deep link, or a press where the
    hands are in the group)."""
    return any(
        b.text.startswith("🂠")
        and ("start=h_" in (b.url or "") or (b.callback_data or "").startswith("t:"))
        for b in message.all_buttons
    )


def table_message(group: Shown) -> SentMessage | None:
    """The newest group message with the table's 🂠 «Мои карты» button."""
    for message in reversed(group.visible):
        if my_cards(message):
            return message
    return None


def result_message(group: Shown) -> SentMessage | None:
    for message in reversed(group.visible):
        if any((b.callback_data or "").startswith("e:") for b in message.all_buttons):
            return message
    return None


def act_of(button: Button) -> tuple[str, str | None]:
    """A hand button's act and argument (``("", None)``: no press, a disabled card)."""
    body = (button.callback_data or "").split("~")[0].split(":")
    if len(body) < 5:
        return "", None
    return body[4], body[5] if len(body) > 5 else None


async def open_table(
    fake: FakeTelegram,
    group: SimGroup,
    players: list[SimUser],
    game: str = "mushka",
    options: str = "target=5",
    thread: int | None = None,
    timeout: float = 10.0,  # noqa: ASYNC109 — each wait's (a benchmark's tables queue longer)
) -> SentMessage:
    """Everyone starts the bot; the first opens the table (in the forum topic ``thread``, if
    given); the others join; the first starts."""
    before = {user.id: len(user.messages) for user in players}
    for user in players:
        await user.start_bot()
    # each /start is handled (answered) before its sender presses Join: updates run side by side
    await fake.wait_until(
        lambda: all(len(u.messages) > before[u.id] for u in players), timeout=timeout
    )
    lobby = await join_and_start(fake, group, players, game, options, thread, timeout=timeout)
    shown: Shown = group if thread is None else Topic(group, thread)
    await fake.wait_until(
        lambda: (
            table_message(shown) is not None and all(hand_message(u) is not None for u in players)
        ),
        timeout=timeout,
    )
    await fake.settle(quiet=0.05)
    return lobby


async def join_and_start(
    fake: FakeTelegram,
    group: SimGroup,
    players: list[SimUser],
    game: str = "mushka",
    options: str = "target=5",
    thread: int | None = None,
    joined: str | None = None,
    timeout: float = 10.0,  # noqa: ASYNC109 — each wait's
) -> SentMessage:
    """The first opens the table (in the forum topic ``thread``, if given), the others join —
    each answered with a toast (``joined``: this one) — and the first starts; the lobby."""
    await players[0].send(group, f"/newgame {game} {options}".strip(), thread_id=thread)
    shown: Shown = group if thread is None else Topic(group, thread)
    await fake.wait_until(lambda: lobby_message(shown) is not None, timeout=timeout)
    lobby = lobby_message(shown)
    assert lobby is not None
    for user in players[1:]:
        answer = await user.press(lobby, "✋", timeout=timeout)
        assert answer.show_alert is False, answer.text
        assert joined is None or answer.text == joined, answer.text
    await fake.wait_until(lambda: all(u.first_name in lobby.text for u in players), timeout=timeout)
    await players[0].press(lobby, "▶️", timeout=timeout)
    return lobby


def pressable(message: SentMessage) -> list[Button]:
    """A message's buttons that send a callback: not the inline-mode ones (📨 Invite opens a
    chat picker) nor the links (ℹ️ How to play)."""
    return [b for b in message.all_buttons if b.callback_data is not None]


def lobby_message(group: Shown) -> SentMessage | None:
    for message in reversed(group.visible):
        if any((b.callback_data or "").startswith("l:") for b in message.all_buttons):
            return message
    return None


def fixed_seeds(start: int = 7) -> Callable[[], int]:
    """Pulka seeds for a test bot: the same deals on every run."""
    return itertools.count(start).__next__


WAITING = ("Waiting for:", "Ждём:", "waiting for:", "ждём:", "Not your turn —", "Ход не ваш —")
STILL = b36(STILL_MOVE)  # the counter on a still waiting hand's buttons


def live_moves(players: list[SimUser]) -> set[str | None]:
    """The move counters the players' hand messages are drawn at, still waiting hands left out
    (they carry :data:`STILL` and are not edited after others' moves)."""
    return {m for p in players if (m := _mv(hand_message(p))) != STILL}


def moved_on(
    user: SimUser,
    before: tuple[str, str],
    move: int,
    players: list[SimUser],
    group: Shown | None = None,
) -> bool:
    """After ``user`` pressed his hand (``before``: its :func:`_key`, ``move``: the table's
    :func:`shown_move` then), every screen the press changes shows it: his hand changed, and
    the live hands (drawn at a move: all of a family without still hands, else the one to act)
    agree on a later move (the game moved on) or on this one with his among them (a mark:
    nothing moved); or the match's result is shown."""
    mine = hand_message(user)
    if mine is None or _key(mine) == before:
        return False
    if group is not None and result_message(group) is not None:
        return True
    moves = {p.id: _mv(hand_message(p)) for p in players}
    live = {uid: int(m, 36) for uid, m in moves.items() if m is not None and m != STILL}
    if len(set(live.values())) != 1:
        return False
    at = next(iter(live.values()))
    return at > move or (at == move and user.id in live)


def shown_move(players: list[SimUser]) -> int:
    """The table's move counter as its hands show it: the highest their buttons carry, a still
    waiting hand's :data:`STILL` aside (the hand to act carries the current one); -1: none."""
    moves = [_mv(hand_message(p)) for p in players]
    return max((int(m, 36) for m in moves if m is not None and m != STILL), default=-1)


def to_act(group: Shown, players: list[SimUser]) -> SimUser | None:
    """Who is to act: the one whose hand message waits for nobody (hands are private chats
    and reach their players before the group's table is edited), else the table says so."""
    table = table_message(group)
    if table is None:
        return None
    found = TO_PLAY.search(table.html)
    if found is None:
        return None
    hands = {u.id: hand_message(u) for u in players}
    if len(live_moves(players)) <= 1 and all(hands.values()):
        free = [u for u in players if not any(w in hands[u.id].text for w in WAITING)]  # type: ignore[union-attr]
        if len(free) == 1:
            return free[0]
    return next(u for u in players if u.first_name == html.unescape(found.group(1)))


def choose(message: SentMessage, rng: random.Random) -> Button:
    """A legal button for the player to act, by the callback's ``act`` (§6.2)."""
    buttons = [b for b in message.all_buttons if (b.callback_data or "").startswith("h:")]
    by_act: dict[str, list[Button]] = {}
    for b in buttons:
        by_act.setdefault(act_of(b)[0], []).append(b)
    if "x" in by_act:  # exchange mode: sometimes mark a card first
        marked = [b for b in by_act.get("m", []) if b.text.startswith("✓")]
        markable = [b for b in by_act.get("m", []) if b.text[0] not in "·✓"]
        if not marked and rng.random() < 0.4 and markable:
            return rng.choice(markable)
        return rng.choice(by_act["x"])
    if "q" in by_act:
        return by_act["q"][0]
    if "y" in by_act:
        if "n" in by_act and rng.random() < 0.3:
            return by_act["n"][0]
        return by_act["y"][0]
    if "n" in by_act:
        return by_act["n"][0]
    suits = [b for b in by_act.get("t", []) if "." in (act_of(b)[1] or "")]
    if suits:
        return rng.choice(suits)
    if "t" in by_act:
        return rng.choice(by_act["t"])
    if "m" in by_act:  # discard marking
        return rng.choice([b for b in by_act["m"] if b.text[0] not in "·✓"])
    legal = [b for b in by_act.get("p", []) if not b.text.startswith("·")]
    assert legal, message.describe_buttons()
    return rng.choice(legal)


async def play_step(
    fake: FakeTelegram,
    group: Shown,
    players: list[SimUser],
    rng: random.Random,
    pick: Callable[[SentMessage, random.Random], Button] | None = None,
) -> bool:
    """Press one legal button for whoever is to act (``pick``: a family's own choice, else
    :func:`choose`); False once nobody is."""
    user = to_act(group, players)
    if user is None:
        return False
    message = hand_message(user)
    assert message is not None, f"{user.first_name} has no hand message"
    button = (pick or choose)(message, rng)
    await press_and_wait(fake, user, message, button, players, group)
    return True


def _key(message: SentMessage) -> tuple[str, str]:
    return message.text, str([b.callback_data for b in message.all_buttons])


def _mv(message: SentMessage | None) -> str | None:
    if message is None:
        return None
    datas = [b.callback_data for b in message.all_buttons if (b.callback_data or "")[:2] == "h:"]
    return datas[0].split(":")[3] if datas and datas[0] else None


async def press_and_wait(
    fake: FakeTelegram,
    user: SimUser,
    message: SentMessage,
    button: Button,
    players: list[SimUser],
    group: Shown | None = None,
) -> None:
    """Press, expect no refusal, and wait until the screens show it (:func:`moved_on`; with
    ``group``, the match's result ends the wait too)."""
    before, move = _key(message), shown_move(players)
    answer = await user.press(message, data=button.callback_data)
    assert not answer.text, f"{user.first_name} pressed {button.text}: {answer.text}"

    def done() -> bool:
        return moved_on(user, before, move, players, group) and not fake.busy_now()

    try:
        await fake.wait_until(done, timeout=10)
    except TimeoutError as error:
        shown = {
            p.first_name: (_mv(h), h.text.splitlines()[-1] if h.text else "")
            for p in players
            if (h := hand_message(p)) is not None
        }
        raise AssertionError(
            f"{user.first_name} pressed {button.text} at move {move}: {shown}"
        ) from error


async def play_until_end(
    fake: FakeTelegram,
    group: SimGroup,
    players: list[SimUser],
    rng: random.Random,
    limit: int = 2000,
    pick: Callable[[SentMessage, random.Random], Button] | None = None,
) -> int:
    """Play until the pulka's result message appears; the number of presses."""
    for step in range(limit):
        if result_message(group) is not None:
            return step
        assert await play_step(fake, group, players, rng, pick), "nobody to act, but no result"
    raise AssertionError("the pulka did not end")


async def expected_screens(
    running: RunningBot, chat_id: int
) -> tuple[str, dict[int, tuple[int | None, str]]]:
    """What the open table's screens must show now, rendered afresh from the engine state:
    the table message's HTML, and per seat owner (user id) the hand message id and HTML."""
    services = running.services
    runtime, presenter = services.runtime, services.delivery.presenter
    table_id = await runtime.queries.open_table_id(chat_id)
    assert table_id is not None
    table = await runtime.ctx.load(table_id)
    assert table is not None and table.match is not None
    ui = game_ui(table.row.game)
    assert ui is not None
    facts = await runtime.ctx.facts(table)
    ctx = presenter.context(facts)
    tr = presenter.catalogues.tr(facts.chat_locale)
    state = table.match.state
    table_html = ui.table(ctx, state.view(None), tr).text
    out: dict[int, tuple[int | None, str]] = {}
    for seat in table.seats:
        assert seat.user_id is not None
        utr = presenter.catalogues.tr(await runtime.ctx.people.user_locale(seat.user_id))
        hand_ui = table.hands.get(seat.seat, HandUI())
        view = state.view(seat.seat)
        rendered = ui.hand(ctx, view, hand_ui, utr, presenter.codec)
        mine = await runtime.ctx.people.user_settings(seat.user_id)
        tip = None if seat.away else await tip_for(runtime.ctx.repo, seat.user_id, mine, view)
        if tip is not None:  # a newcomer's tip, under the head (bot.render.tips)
            rendered = with_tip(rendered, tip, table.row.game, utr, hand_ui.mode.kind)
        message_id = services.outbox.message_id(seat.user_id, hand_key(table_id, seat.seat))
        out[seat.user_id] = (message_id, rendered.text)
    return table_html, out


def deal_results(group: Shown) -> int:
    return len([m for m in group.messages if m.text.startswith("📋")])


async def play_deal(
    fake: FakeTelegram, group: SimGroup, players: list[SimUser], rng: random.Random
) -> int:
    """Play until the next deal result appears; the number of presses."""
    before = deal_results(group)
    steps = 0
    while deal_results(group) == before:
        assert await play_step(fake, group, players, rng), "nobody to act"
        steps += 1
        assert steps < 500
    return steps


async def say(
    fake: FakeTelegram, user: SimUser, text: str, where: SimGroup | None = None
) -> SentMessage:
    """Write ``text`` (in ``where``, else in private) and return the bot's next message there."""
    chat: SimGroup | SimUser = where or user
    await fake.settle(quiet=0.05)  # earlier answers are in
    count = len(chat.messages)
    if where is None:
        await user.send_private(text)
    else:
        await user.send(where, text)
    await fake.wait_until(lambda: len(chat.messages) > count, timeout=10)
    return chat.messages[count]


async def lobby_with_computers(
    fake: FakeTelegram,
    bot: RunningBot,
    group: SimGroup,
    user: SimUser,
    command: str,
    computers: list[tuple[str, str]],
) -> tuple[SentMessage, int]:
    """``user`` opens a lobby with ``command``; computer seats (name, level) are written beside
    him through the repository, as the lobby's 🤖 button would. The lobby and the table id."""
    await user.start_bot()
    await user.send(group, command)
    await fake.wait_until(lambda: lobby_message(group) is not None, timeout=10)
    lobby = lobby_message(group)
    assert lobby is not None
    runtime = bot.services.runtime
    table_id = await runtime.queries.open_table_id(group.id)
    assert table_id is not None
    seats: list[SeatSpec] = [(SeatKind.HUMAN, user.id, user.first_name)]
    seats += [(SeatKind.COMPUTER, None, name, level) for name, level in computers]
    async with bot.services.repo.unit() as tx:
        await tx.replace_seats(table_id, seats)
    runtime.ctx.forget(table_id)
    return lobby, table_id
