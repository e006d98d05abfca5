"""/settings (PRODUCT.md §15): a group's, for its admins, and a person's own, in private. The
pane is the runtime's (:mod:`bot.runtime.settings`); a press is a
:class:`~bot.runtime.commands.SettingsPressed` through ``handle``, its outcome (the pane next,
what a language redraws) delivered as every outcome is: this router posts nothing itself."""

from __future__ import annotations

from aiogram import F, Router
from aiogram.filters import Command
from aiogram.types import CallbackQuery, Message

from bot.answers import answer_key, shared_key
from bot.caches.members import Members
from bot.callbacks import GROUP_SETTINGS, MY_SETTINGS, Kind, Press, PressFilter, SettingsAct
from bot.delivery import Delivery
from bot.i18n import Translator
from bot.keys import NamedKey
from bot.refused import BotRefusal, Refused
from bot.render.refusals import refusal_html
from bot.routers.incoming import asked, pressed, say, topic
from bot.runtime.commands import SettingsPressed
from bot.runtime.handle import Runtime
from bot.runtime.queries import Queries
from bot.sending.outbox import Old

GROUPS = F.chat.type.in_({"group", "supergroup"})
PRIVATE = F.chat.type == "private"
GROUP_ACTS, MY_ACTS = GROUP_SETTINGS, MY_SETTINGS
KEY = "settings"  # the name of the settings message, in the group or the private chat
PANE = NamedKey(KEY)  # its outbox key (a group's: in its General topic, or no forum)


def make_router() -> Router:
    router = Router(name="settings")

    @router.message(Command("settings"), GROUPS)
    async def group_settings(
        message: Message,
        queries: Queries,
        members: Members,
        delivery: Delivery,
        chat_tr: Translator,
    ) -> None:
        assert message.from_user is not None
        chat_id = message.chat.id
        if not await members.is_admin(chat_id, message.from_user.id):
            said = refusal_html(Refused(BotRefusal.SETTINGS_ADMINS_ONLY), chat_tr)
            say(delivery, message, said, reply=True)
            return
        rendered = delivery.presenter.settings(await queries.group_settings(chat_id, PANE))
        # an answer: to him alone where Telegram allows it, else the group's one pane
        delivery.answers.answer(asked(message), rendered, reply=True, shared=KEY, old=Old.STRIP)

    @router.message(Command("settings"), PRIVATE)
    async def private_settings(message: Message, queries: Queries, delivery: Delivery) -> None:
        assert message.from_user is not None
        pane = await queries.my_settings(message.from_user.id, PANE)
        rendered = delivery.presenter.settings(pane)
        delivery.presenter.outbox.show(message.chat.id, PANE, rendered, fresh=True, old=Old.STRIP)

    @router.callback_query(
        PressFilter(Kind.GROUP), F.data.func(lambda d: _act(d) in GROUP_SETTINGS)
    )
    async def group_pressed(
        query: CallbackQuery, press: Press, runtime: Runtime, delivery: Delivery
    ) -> None:
        message = query.message
        if message is None or message.chat.type == "private":
            raise Refused(BotRefusal.UNKNOWN_BUTTON)
        user_id = query.from_user.id
        # the group's pane, or one shown to him alone (an ephemeral message)
        ephemeral = getattr(message, "ephemeral_message_id", None)
        thread = topic(message) if isinstance(message, Message) else None
        pane = (
            shared_key(KEY, thread=thread)
            if ephemeral is None
            else answer_key(user_id, "settings", alone=True, thread=thread)
        )
        act = SettingsAct(press.act)
        delivery(await runtime.handle(SettingsPressed(press, act, user_id, pressed(query), pane)))
        await query.answer()

    @router.callback_query(PressFilter(Kind.PRIVATE), F.data.func(lambda d: _act(d) in MY_ACTS))
    async def private_pressed(
        query: CallbackQuery, press: Press, runtime: Runtime, delivery: Delivery
    ) -> None:
        message = query.message
        user_id = query.from_user.id
        if message is None or message.chat.id != user_id:
            raise Refused(BotRefusal.UNKNOWN_BUTTON)
        act = SettingsAct(press.act)
        delivery(await runtime.handle(SettingsPressed(press, act, user_id, pressed(query), PANE)))
        await query.answer()

    return router


def _act(data: str | None) -> str:
    """The act field of callback data (already parsed and checked by :class:`PressFilter`)."""
    parts = (data or "").split("~")[0].split(":")
    return parts[4] if len(parts) > 4 else ""
