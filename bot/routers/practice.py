"""/practice in private (and its ``?start=p…`` links on the /start, /help and game-list
buttons): a table of the person and computers there and then (:mod:`bot.runtime.practice`).
In a group it points to the private chat."""

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
from bot.rendered import Button, Keyboard, keyboard
from bot.routers.incoming import say
from bot.runtime.chat_commands import OpenPractice
from bot.runtime.handle import Runtime

PRIVATE = F.chat.type == "private"
GROUPS = F.chat.type.in_({"group", "supergroup"})
LINK: Final = "p"  # ``?start=p``: the games to practise; ``p_<game>``: that game's table
ANEW: Final = "new"  # ``p_<game>_new``: the open practice table closes, a new one opens
SHOWN: Final = 24  # the characters of a typed word an answer repeats


def practice_button(tr: Translator, delivery: Delivery) -> Button:
    """«🎮 Practice with the bot»: the games to practise, in the private chat."""
    return Button(text=tr("🎮 Practice with the bot"), url=delivery.link(LINK))


def games_keyboard(tr: Translator, delivery: Delivery, link: str = LINK) -> Keyboard | None:
    """The seven games, two a row, each a deep link ``?start=<link>_<game>``: by default its
    practice table (``r``: its whole rules)."""
    buttons = [
        Button(text=game_name(code, tr.locale), url=delivery.link(f"{link}_{code}"))
        for code in GAME_NAMES
    ]
    return keyboard([buttons[i : i + 2] for i in range(0, len(buttons), 2)])


def games_list(tr: Translator) -> Html:
    names = ", ".join(game_name(code, tr.locale) for code in GAME_NAMES)
    return tr.html("Practise alone against computers, unrated. Pick a game: {games}.", games=names)


async def practise(
    message: Message,
    user: User,
    words: list[str],
    runtime: Runtime,
    delivery: Delivery,
    tr: Translator,
    *,
    anew: bool = False,
) -> None:
    """``words``: the game and its options as typed (``name=value``); none, or an unknown
    game: the seven to pick from. ``anew``: the open practice table closes first."""
    code = game_code(words[0]) if words else None
    if code is None:
        text = games_list(tr)
        if words:
            unknown = tr.html("Unknown game: {game}.", game=label(words[0], SHOWN))
            text = Html(f"{unknown}\n{text}")
        say(delivery, message, text, games_keyboard(tr, delivery))
        return
    options = dict(w.partition("=")[::2] for w in words[1:] if "=" in w)
    title = tr("Practice")  # what the table's screens call the chat
    command = OpenPractice(user.id, user.first_name, code, options, anew=anew, title=title)
    outcome = await runtime.handle(command)
    if outcome.said:  # one already runs: shown again, or closed and started anew
        link = delivery.link(f"{LINK}_{code}_{ANEW}")
        button = Button(text=tr("✖️ Close it and start anew"), url=link)
        say(delivery, message, tr.html(outcome.said), keyboard([[button]]))
    delivery(outcome)


def make_router() -> Router:
    router = Router(name="practice")

    @router.message(Command("practice"), PRIVATE)
    async def practice(
        message: Message,
        command: CommandObject,
        runtime: Runtime,
        delivery: Delivery,
        user_tr: Translator,
    ) -> None:
        assert message.from_user is not None
        words = (command.args or "").split()
        await practise(message, message.from_user, words, runtime, delivery, user_tr)

    @router.message(Command("practice"), GROUPS)
    async def practice_in_group(message: Message, chat_tr: Translator, delivery: Delivery) -> None:
        button = practice_button(chat_tr, delivery)
        text = chat_tr.html("Practice tables open in our private chat.")
        say(delivery, message, text, keyboard([[button]]), reply=True)

    return router
