"""/settings (PRODUCT.md §15): a group's, for its admins, and a person's own, in private. One
message whose buttons cycle values; a press counts only on the current settings message, by an
admin (in a group), with a value the setting takes — otherwise it is answered and changes
nothing."""

from __future__ import annotations

from aiogram import F, Router
from aiogram.filters import Command
from aiogram.types import CallbackQuery, Message

from bot.answers import answer_key, shared_key
from bot.caches.members import Members
from bot.caches.people import People
from bot.callbacks import Kind, Press, PressCodec, PressFilter
from bot.config import Settings as Config
from bot.delivery import Delivery
from bot.game_names import GAME_NAMES
from bot.i18n import LOCALES, Catalogues, Translator
from bot.refused import BotRefusal, Refused
from bot.render import settings as screens
from bot.render.games import game_ui as family_ui
from bot.render.refusals import refusal_html
from bot.rendered import Rendered
from bot.routers.common import asked, say, topic
from bot.runtime.commands import RedrawChat, RedrawHands
from bot.runtime.runtime import TableRuntime
from bot.sending.outbox import Old
from bot.storage.settings import TURN_TIMEOUTS, ChatHands, Pings, UserHands, member

GROUPS = F.chat.type.in_({"group", "supergroup"})
PRIVATE = F.chat.type == "private"
KEY = "settings"  # the outbox key of the settings message, in the group or the private chat
GROUP_ACTS = frozenset("ntcgvbh")  # bot.render.settings: language … back, hands
PRIVATE_ACTS = frozenset("npwh")


class SettingsHandlers:
    """What the settings handlers share: the services and how each screen is drawn."""

    def __init__(
        self,
        runtime: TableRuntime,
        people: People,
        catalogues: Catalogues,
        codec: PressCodec,
        hands: bool = False,
    ) -> None:
        self.runtime, self.people, self.catalogues, self.codec = runtime, people, catalogues, codec
        self.hands = hands  # where hands go is offered (the operator's BOT_HANDS_IN_GROUP)

    async def group(self, chat_id: int, game: str = "") -> Rendered:
        chat = await self.people.chat(chat_id)
        settings = await self.people.chat_settings(chat_id)
        locale = await self.people.chat_locale(chat_id)
        timeout = settings.turn_timeout_s or self.runtime.turn_timeout
        options = await self.runtime.seeded_options(chat_id, game) if game else None
        return screens.group_settings(
            chat.title if chat else "",
            locale,
            settings,
            timeout,
            self.catalogues.tr(locale),
            self.codec,
            game=game,
            options=options,
            hands=self.hands,
        )

    async def private(self, user_id: int) -> Rendered:
        locale = await self.people.user_locale(user_id)
        settings = await self.people.user_settings(user_id)
        tr = self.catalogues.tr(locale)
        return screens.user_settings(locale, settings, tr, self.codec, hands=self.hands)

    async def change_group(self, chat_id: int, press: Press) -> tuple[str, Delivered]:
        """Apply a group press; the pane to show next ("" the main one, else a game's)."""
        arg, people = press.arg or "", self.people
        settings = await people.chat_settings(chat_id)
        if press.act == screens.LANGUAGE and arg in LOCALES:
            await people.set_chat_language(chat_id, arg)
            return "", "chat"
        if press.act == screens.TIMEOUT and arg.isdigit() and int(arg) in TURN_TIMEOUTS:
            await people.set_chat_settings(
                chat_id, settings.model_copy(update={"turn_timeout_s": int(arg)})
            )
            return "", None
        if press.act == screens.COMPUTERS and arg in ("0", "1"):
            await people.set_chat_settings(
                chat_id, settings.model_copy(update={"computers": arg == "1"})
            )
            return "", None
        hands = member(ChatHands, arg)
        if press.act == screens.HANDS and self.hands and hands is not None:
            await people.set_chat_settings(chat_id, settings.model_copy(update={"hands": hands}))
            return "", None
        if press.act == screens.GAME and _game(arg):
            return arg, None
        if press.act == screens.BACK and arg == "":
            return "", None
        if press.act == screens.OPTION:
            game, _, assignment = arg.partition(".")
            name, _, value = assignment.partition("=")
            if _game(game) and name:
                current = await self.runtime.seeded_options(chat_id, game)
                if name not in current:
                    raise Refused(BotRefusal.UNKNOWN_BUTTON)
                chosen = await self.runtime.seeded_options(chat_id, game, {name: value})
                options = {**settings.options, game: chosen}
                await people.set_chat_settings(
                    chat_id, settings.model_copy(update={"options": options})
                )
                return game, None
        raise Refused(BotRefusal.UNKNOWN_BUTTON)

    async def change_private(self, user_id: int, press: Press) -> None:
        arg, people = press.arg or "", self.people
        settings = await people.user_settings(user_id)
        pings, hands = member(Pings, arg), member(UserHands, arg)
        if press.act == screens.LANGUAGE and arg in LOCALES:
            await people.set_user_language(user_id, arg)
        elif press.act == screens.PINGS and pings is not None:
            await people.set_user_settings(user_id, settings.model_copy(update={"pings": pings}))
        elif press.act == screens.WORDS and arg in ("0", "1"):
            await people.set_user_settings(
                user_id, settings.model_copy(update={"words": arg == "1"})
            )
        elif press.act == screens.HANDS and self.hands and hands is not None:
            await people.set_user_settings(user_id, settings.model_copy(update={"hands": hands}))
        else:
            raise Refused(BotRefusal.UNKNOWN_BUTTON)


Delivered = str | None  # what else must be drawn again after a change ("chat": its tables)


def _game(code: str) -> bool:
    return code in GAME_NAMES and family_ui(code) is not None


def make_router() -> Router:
    router = Router(name="settings")

    def service(
        runtime: TableRuntime,
        people: People,
        catalogues: Catalogues,
        codec: PressCodec,
        settings: Config,
    ) -> SettingsHandlers:
        return SettingsHandlers(runtime, people, catalogues, codec, settings.hands_in_group)

    @router.message(Command("settings"), GROUPS)
    async def group_settings(
        message: Message,
        runtime: TableRuntime,
        people: People,
        members: Members,
        catalogues: Catalogues,
        codec: PressCodec,
        delivery: Delivery,
        chat_tr: Translator,
        settings: Config,
    ) -> None:
        assert message.from_user is not None
        chat_id = message.chat.id
        if not await members.is_admin(chat_id, message.from_user.id):
            said = refusal_html(Refused(BotRefusal.SETTINGS_ADMINS_ONLY), chat_tr)
            say(delivery, message, said, reply=True)
            return
        rendered = await service(runtime, people, catalogues, codec, settings).group(chat_id)
        # an answer (#47): to him alone where Telegram allows it, else the group's one pane
        delivery.answers.answer(asked(message), rendered, reply=True, shared=KEY, old=Old.STRIP)

    @router.message(Command("settings"), PRIVATE)
    async def private_settings(
        message: Message,
        runtime: TableRuntime,
        people: People,
        catalogues: Catalogues,
        codec: PressCodec,
        delivery: Delivery,
        settings: Config,
    ) -> None:
        assert message.from_user is not None
        screen = service(runtime, people, catalogues, codec, settings)
        rendered = await screen.private(message.from_user.id)
        delivery.presenter.outbox.show(message.chat.id, KEY, rendered, fresh=True, old=Old.STRIP)

    @router.callback_query(PressFilter(Kind.GROUP), F.data.func(lambda d: _act(d) in GROUP_ACTS))
    async def group_pressed(
        query: CallbackQuery,
        press: Press,
        runtime: TableRuntime,
        people: People,
        members: Members,
        catalogues: Catalogues,
        codec: PressCodec,
        delivery: Delivery,
        settings: Config,
    ) -> None:
        message = query.message
        if message is None or message.chat.type == "private":
            raise Refused(BotRefusal.UNKNOWN_BUTTON)
        chat_id, user_id = message.chat.id, query.from_user.id
        # the group's pane, or one shown to him alone (#47: an ephemeral message)
        ephemeral = getattr(message, "ephemeral_message_id", None)
        thread = topic(message) if isinstance(message, Message) else None
        mine = (
            shared_key(KEY, thread=thread)
            if ephemeral is None
            else answer_key(user_id, "settings", alone=True, thread=thread)
        )
        pressed = ephemeral or message.message_id
        key = await delivery.message_key(chat_id, pressed, ephemeral=ephemeral is not None)
        if key != mine:
            raise Refused(BotRefusal.STALE_BUTTON)
        if not await members.is_admin(chat_id, user_id):
            raise Refused(BotRefusal.SETTINGS_ADMINS_ONLY)
        screen = service(runtime, people, catalogues, codec, settings)
        pane, redraw = await screen.change_group(chat_id, press)
        receiver = None if ephemeral is None else user_id
        shown = await screen.group(chat_id, pane)
        delivery.presenter.outbox.show(chat_id, mine, shown, receiver=receiver)
        if redraw == "chat":  # the language applies at once: the open table is drawn again
            delivery(await runtime.handle(RedrawChat(chat_id)))
        await query.answer()

    @router.callback_query(
        PressFilter(Kind.PRIVATE), F.data.func(lambda d: _act(d) in PRIVATE_ACTS)
    )
    async def private_pressed(
        query: CallbackQuery,
        press: Press,
        runtime: TableRuntime,
        people: People,
        catalogues: Catalogues,
        codec: PressCodec,
        delivery: Delivery,
        settings: Config,
    ) -> None:
        message = query.message
        user_id = query.from_user.id
        if message is None or message.chat.id != user_id:
            raise Refused(BotRefusal.UNKNOWN_BUTTON)
        if await delivery.message_key(user_id, message.message_id) != KEY:
            raise Refused(BotRefusal.STALE_BUTTON)
        screen = service(runtime, people, catalogues, codec, settings)
        await screen.change_private(user_id, press)
        delivery.presenter.outbox.show(user_id, KEY, await screen.private(user_id))
        delivery(await runtime.handle(RedrawHands(user_id)))  # language, cards in words: at once
        await query.answer()

    return router


def _act(data: str | None) -> str:
    """The act field of callback data (already parsed and checked by :class:`PressFilter`)."""
    parts = (data or "").split("~")[0].split(":")
    return parts[4] if len(parts) > 4 else ""
