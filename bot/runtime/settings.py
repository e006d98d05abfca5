"""/settings (PRODUCT.md §15): a group's, for its admins, and a person's own, in private. One
message whose buttons cycle values: a press applies its value (one the setting takes, else
"Unknown button.") and the pane to show next is drawn as data (:class:`GroupSettingsScreen`,
:class:`MySettingsScreen`); a language changed redraws what shows it, at once."""

from __future__ import annotations

from bot.caches.people import People
from bot.callbacks import SettingsAct
from bot.game_names import GAME_NAMES
from bot.i18n import LOCALES
from bot.keys import OutboxKey
from bot.presses.families import family_presses
from bot.refused import BotRefusal, Refused
from bot.runtime.lobby import Lobby
from bot.runtime.outcome import GroupSettingsScreen, MySettingsScreen
from bot.runtime.tables import Context
from bot.slow import ZONES
from bot.storage.settings import TURN_TIMEOUTS, ChatHands, Pings, Tips, UserHands, member


class SettingsPanes:
    """The settings panes: a press applied, the pane drawn next."""

    def __init__(self, ctx: Context, *, lobby: Lobby) -> None:
        self.ctx = ctx
        self.lobby = lobby

    @property
    def people(self) -> People:
        return self.ctx.people

    async def group_pane(
        self, chat_id: int, key: OutboxKey, receiver: int | None = None, game: str = ""
    ) -> GroupSettingsScreen:
        """The group's pane (``game``: that game's default options)."""
        chat = await self.people.chat(chat_id)
        settings = await self.people.chat_settings(chat_id)
        return GroupSettingsScreen(
            chat_id,
            key,
            receiver,
            chat.title if chat else "",
            await self.people.chat_locale(chat_id),
            settings,
            settings.turn_timeout_s or self.ctx.turn_timeout,
            self.ctx.hands_in_group,
            game,
            await self.lobby.seeded_options(chat_id, game) if game else None,
        )

    async def my_pane(self, user_id: int, key: OutboxKey) -> MySettingsScreen:
        return MySettingsScreen(
            user_id,
            key,
            await self.people.user_locale(user_id),
            await self.people.user_settings(user_id),
            self.ctx.hands_in_group,
        )

    async def change_group(self, chat_id: int, act: SettingsAct, arg: str) -> tuple[str, bool]:
        """Apply a group press: the pane to show next ("" the main one, else a game's), and
        whether the language changed."""
        people = self.people
        settings = await people.chat_settings(chat_id)
        hands = member(ChatHands, arg)
        match act:
            case SettingsAct.LANGUAGE if arg in LOCALES:
                await people.set_chat_language(chat_id, arg)
                return "", True
            case SettingsAct.TIMEOUT if arg.isdigit() and int(arg) in TURN_TIMEOUTS:
                changed = settings.model_copy(update={"turn_timeout_s": int(arg)})
            case SettingsAct.COMPUTERS if arg in ("0", "1"):
                changed = settings.model_copy(update={"computers": arg == "1"})
            case SettingsAct.HANDS if self.ctx.hands_in_group and hands is not None:
                changed = settings.model_copy(update={"hands": hands})
            case SettingsAct.GAME if _game(arg):
                return arg, False
            case SettingsAct.BACK if arg == "":
                return "", False
            case SettingsAct.OPTION:
                game, options = await self._option(chat_id, arg)
                changed = settings.model_copy(update={"options": {**settings.options, **options}})
                await people.set_chat_settings(chat_id, changed)
                return game, False
            case _:
                raise Refused(BotRefusal.UNKNOWN_BUTTON)
        await people.set_chat_settings(chat_id, changed)
        return "", False

    async def _option(self, chat_id: int, arg: str) -> tuple[str, dict[str, dict[str, object]]]:
        """A game's default option's next value (``game.name=value``): the game, and its
        options as they are to be stored."""
        game, _, assignment = arg.partition(".")
        name, _, value = assignment.partition("=")
        if not _game(game) or not name:
            raise Refused(BotRefusal.UNKNOWN_BUTTON)
        if name not in await self.lobby.seeded_options(chat_id, game):
            raise Refused(BotRefusal.UNKNOWN_BUTTON)
        return game, {game: await self.lobby.seeded_options(chat_id, game, {name: value})}

    async def change_mine(self, user_id: int, act: SettingsAct, arg: str) -> None:
        """Apply a press on a person's own pane."""
        people = self.people
        settings = await people.user_settings(user_id)
        pings, hands, tips = member(Pings, arg), member(UserHands, arg), member(Tips, arg)
        match act:
            case SettingsAct.LANGUAGE if arg in LOCALES:
                await people.set_user_language(user_id, arg)
                return
            case SettingsAct.PINGS if pings is not None:
                changed = settings.model_copy(update={"pings": pings})
            case SettingsAct.WORDS if arg in ("0", "1"):
                changed = settings.model_copy(update={"words": arg == "1"})
            case SettingsAct.HANDS if self.ctx.hands_in_group and hands is not None:
                changed = settings.model_copy(update={"hands": hands})
            case SettingsAct.TIPS if tips is not None:
                changed = settings.model_copy(update={"tips": tips})
            case SettingsAct.QUIET if arg in ("0", "1"):
                changed = settings.model_copy(update={"quiet": arg == "1"})
            case SettingsAct.ZONE if arg.isdigit() and int(arg) < len(ZONES):
                changed = settings.model_copy(update={"zone": ZONES[int(arg)]})
            case SettingsAct.HIDDEN if arg in ("0", "1"):
                changed = settings.model_copy(update={"hidden": arg == "1"})
            case _:
                raise Refused(BotRefusal.UNKNOWN_BUTTON)
        await people.set_user_settings(user_id, changed)


def _game(code: str) -> bool:
    return code in GAME_NAMES and family_presses(code) is not None
