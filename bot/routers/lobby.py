"""/newgame, /cancel, /kick and the lobby's buttons (PRODUCT.md §4.2–§4.4, §13)."""

from __future__ import annotations

import asyncio
import contextlib

from aiogram import F, Router
from aiogram.filters import Command, CommandObject
from aiogram.types import CallbackQuery, Message

from bot.caches.members import Members
from bot.callbacks import Kind, LobbyAct, Press, PressFilter
from bot.delivery import Delivery
from bot.game_names import game_code
from bot.i18n import Translator
from bot.message_limits import label
from bot.refused import BotRefusal, Refused
from bot.render.games import game_ui
from bot.routers.identity import unsigned
from bot.routers.incoming import pressed, say, topic
from bot.runtime.chat_commands import Kick, OpenTable
from bot.runtime.commands import AskToClose, LobbyPressed, StartReached
from bot.runtime.handle import Runtime
from bot.runtime.lobby_options import SHOWN
from bot.runtime.outcome import LobbyScreen, Note, Outcome
from bot.sending.rates import Quota
from bot.storage.rows import Hands
from bot.tasks import Background

GROUPS = F.chat.type.in_({"group", "supergroup"})
START_WAIT = 30.0  # seconds Start waits to learn whether the players' private notes got through


def make_router() -> Router:
    router = Router(name="lobby")

    @router.message(Command("newgame"), GROUPS)
    async def newgame(
        message: Message,
        command: CommandObject,
        runtime: Runtime,
        delivery: Delivery,
        chat_tr: Translator,
    ) -> None:
        assert message.from_user is not None
        game = ""
        words = (command.args or "").split()
        options = dict(w.partition("=")[::2] for w in words[1:] if "=" in w)
        loose = [w for w in words[1:] if "=" not in w]
        if loose:
            say(
                delivery,
                message,
                chat_tr.html(
                    "Options are written name=value, e.g. target=15. Not understood: {text}.",
                    text=label(" ".join(loose), SHOWN),
                ),
                reply=True,
            )
            return
        if words:
            code = game_code(words[0])
            if code is None:
                say(delivery, message, chat_tr.html(
                    "Unknown game. Available: mushka, pamfil, shutikha, mistigri, kopilka, "
                    "lenturlu, konchinka."
                ), reply=True)  # fmt: skip
                return
            if game_ui(code) is None:
                say(delivery, message, chat_tr.html("This game is not available yet."), reply=True)
                return
            game = code
        user, box = message.from_user, delivery.presenter.outbox
        # a new lobby is a new group message: a member opens a few a span, no more
        if not await box.quota(message.chat.id, user.id, Quota.TABLES, take=False):
            raise Refused(BotRefusal.TOO_MANY_TABLES)
        table = OpenTable(message.chat.id, topic(message), user.id, user.first_name, game, options)
        outcome = await runtime.handle(table)
        await box.quota(message.chat.id, user.id, Quota.TABLES)
        delivery(outcome)

    @router.message(Command("cancel"), GROUPS)
    async def cancel(message: Message, runtime: Runtime, delivery: Delivery) -> None:
        assert message.from_user is not None
        command = AskToClose(
            message.chat.id, topic(message), message.from_user.id, message.message_id
        )
        delivery(await runtime.handle(command))

    @router.message(Command("kick"), GROUPS)
    async def kick(
        message: Message,
        runtime: Runtime,
        delivery: Delivery,
        members: Members,
    ) -> None:
        assert message.from_user is not None
        command = Kick(
            message.chat.id,
            topic(message),
            message.from_user.id,
            replied_to(message),
            message.message_id,
        )
        delivery(await runtime.handle(command))

    @router.callback_query(PressFilter(Kind.LOBBY))
    async def lobby_pressed(
        query: CallbackQuery,
        press: Press,
        runtime: Runtime,
        delivery: Delivery,
        members: Members,
        user_tr: Translator,
        background: Background,
    ) -> None:
        user = query.from_user
        command = LobbyPressed(press, user.id, user.first_name, pressed(query))
        outcome = await runtime.handle(command)
        waits = delivery(outcome)  # queued only: the answer still goes at once
        if press.act == LobbyAct.JOIN:
            await query.answer(user_tr(_seated(outcome)))
        else:
            await query.answer()
        # Start's first half is its private notes only (none at all where every hand goes to
        # the group: the second half follows at once); the press is answered meanwhile
        if press.act == LobbyAct.START and all(isinstance(s, Note) for s in outcome.screens):
            background.spawn(
                _start_when_reached(press, outcome, waits, runtime, delivery),
                name=f"start:{press.table}",
            )

    return router


def _seated(outcome: Outcome) -> str:
    """What a player who joined is told: where his cards will come."""
    lobby = next((s for s in outcome.screens if isinstance(s, LobbyScreen)), None)
    if lobby is not None and lobby.facts.table.hands is Hands.GROUP:
        return "You're seated. Your cards will be shown to you here, in the group."
    return "You're seated. Your cards will come in our private chat."


def replied_to(message: Message) -> tuple[int, str] | None:
    """Whose message a command answers (id, first name); a forum topic's messages all reply to
    the topic's first message, which is no answer to anyone."""
    reply = message.reply_to_message
    if reply is None or reply.from_user is None or unsigned(reply):
        return None  # a message posted as the group or a channel is no player's
    if message.is_topic_message and reply.message_id == message.message_thread_id:
        return None
    return reply.from_user.id, reply.from_user.first_name


async def _start_when_reached(
    press: Press,
    notes: Outcome,
    waits: list[asyncio.Future[int | None]],
    runtime: Runtime,
    delivery: Delivery,
) -> None:
    """Start's second half: once the players' private notes are delivered (or refused); a
    task of its own (:class:`~bot.tasks.Background`), so the press's update is done at once.
    A stop that cancels it leaves the lobby's STARTING deadline to end the gap."""
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(START_WAIT):  # not wait_for: 3.11's may lose a cancel
            await asyncio.gather(*waits, return_exceptions=True)
    reached = {
        screen.chat_id: _delivered(done)
        for screen, done in zip(notes.screens, waits, strict=True)
        if isinstance(screen, Note)
    }
    try:
        outcome = await runtime.handle(StartReached(press.table, press.version, reached))
    except Refused:
        return  # the lobby changed meanwhile (cancelled, restarted): nothing to start
    delivery(outcome)


def _delivered(done: asyncio.Future[int | None]) -> bool:
    return (
        done.done()
        and not done.cancelled()
        and done.exception() is None
        and done.result() is not None
    )
