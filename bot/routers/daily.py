"""/daily [game] (:mod:`bot.runtime.daily`): in private the person's try at the day's deal
opens there (no game, or an unknown one: the seven as buttons); in a group, a button to play
it in private (``?start=d_<game>_<group>``), so that the group is told his result."""

from __future__ import annotations

from typing import Final

from aiogram import F, Router
from aiogram.filters import Command, CommandObject
from aiogram.types import Message, User

from bot.delivery import Delivery
from bot.game_names import GAME_NAMES, game_code, game_name
from bot.i18n import Translator
from bot.markup import Html
from bot.message_limits import label
from bot.render.daily_top import daily_top
from bot.rendered import Button, Keyboard, keyboard
from bot.routers.incoming import say
from bot.runtime.chat_commands import OpenDaily
from bot.runtime.daily_boards import DailyBoards
from bot.runtime.handle import Runtime

PRIVATE = F.chat.type == "private"
GROUPS = F.chat.type.in_({"group", "supergroup"})
LINK: Final = (
    "d"  # ``?start=d_<game>``, from a group ``d_<game>_<the group's id without its minus>``
)
SHOWN: Final = 24  # the characters of a typed word an answer repeats
TOP_WORDS: Final = frozenset({"top", "топ"})
"""/daily's first word that asks for the boards (``/daily top [game]``)."""


def link_of(code: str, group_id: int | None) -> str:
    return f"{LINK}_{code}" if group_id is None else f"{LINK}_{code}_{-group_id}"


def group_of(part: str) -> int | None:
    """The group a link names (a group's id is below zero; the link drops its minus)."""
    return -int(part) if part.isdigit() and int(part) > 0 else None


def games_keyboard(tr: Translator, delivery: Delivery, group_id: int | None) -> Keyboard | None:
    """The seven games, two a row, each a deep link to its day's deal."""
    buttons = [
        Button(text=game_name(code, tr.locale), url=delivery.link(link_of(code, group_id)))
        for code in GAME_NAMES
    ]
    return keyboard([buttons[i : i + 2] for i in range(0, len(buttons), 2)])


def pick_text(tr: Translator, typed: str | None) -> Html:
    text = tr.html("🗓 The day's deal: the same cards for everyone today, one try. Pick a game.")
    text = Html(f"{text}\n{tr.html('/daily top: the best of today and of the week.')}")
    if typed:
        unknown = tr.html("Unknown game: {game}.", game=label(typed, SHOWN))
        return Html(f"{unknown}\n{text}")
    return text


async def show_top(
    message: Message,
    words: list[str],
    asker: str | None,
    boards: DailyBoards,
    delivery: Delivery,
    tr: Translator,
) -> None:
    """``/daily top [game]`` (``words``: what follows ``top``); ``asker`` None in private, else
    his name as the group knows him."""
    code = game_code(words[0]) if words else None
    if words and code is None:
        unknown = tr.html("Unknown game: {game}.", game=label(words[0], SHOWN))
        usage = tr.html("/daily top: the best of today and of the week.")
        say(delivery, message, Html(f"{unknown}\n{usage}"), reply=asker is not None)
        return
    assert message.from_user is not None
    tops = await boards.tops(code, message.from_user.id)
    for page in daily_top(tops, tr, asker):
        say(delivery, message, page, reply=asker is not None)


async def play_daily(
    message: Message,
    user: User,
    word: str | None,
    group_id: int | None,
    runtime: Runtime,
    delivery: Delivery,
    tr: Translator,
) -> None:
    """``word``: the game as typed (none, or unknown: the seven to pick from)."""
    code = game_code(word) if word else None
    if code is None:
        say(delivery, message, pick_text(tr, word), games_keyboard(tr, delivery, None))
        return
    title = tr("The day's deal")  # what the table's screens call the chat
    delivery(await runtime.handle(OpenDaily(user.id, user.first_name, code, group_id, title)))


def make_router() -> Router:
    router = Router(name="daily")

    @router.message(Command("daily"), PRIVATE)
    async def daily(
        message: Message,
        command: CommandObject,
        runtime: Runtime,
        daily_boards: DailyBoards,
        delivery: Delivery,
        user_tr: Translator,
    ) -> None:
        assert message.from_user is not None
        words = (command.args or "").split()
        if words and words[0].lower() in TOP_WORDS:
            await show_top(message, words[1:], None, daily_boards, delivery, user_tr)
            return
        word = words[0] if words else None
        await play_daily(message, message.from_user, word, None, runtime, delivery, user_tr)

    @router.message(Command("daily"), GROUPS)
    async def daily_in_group(
        message: Message,
        command: CommandObject,
        daily_boards: DailyBoards,
        chat_tr: Translator,
        delivery: Delivery,
    ) -> None:
        words = (command.args or "").split()
        if words and words[0].lower() in TOP_WORDS:
            assert message.from_user is not None
            asker = message.from_user.first_name
            await show_top(message, words[1:], asker, daily_boards, delivery, chat_tr)
            return
        code = game_code(words[0]) if words else None
        group = message.chat.id
        if code is None:
            text = pick_text(chat_tr, words[0] if words else None)
            say(delivery, message, text, games_keyboard(chat_tr, delivery, group), reply=True)
            return
        name = game_name(code, chat_tr.locale)
        button = Button(text=chat_tr("🗓 Play it"), url=delivery.link(link_of(code, group)))
        text = chat_tr.html(
            "🗓 The day's deal of {game}: played in our private chat, the group sees the result.",
            game=name,
        )
        say(delivery, message, text, keyboard([[button]]), reply=True)

    return router
