"""/start (deep links), /notify, /score, /rules, /help, /hand, /language, and the wrong-place
replies."""

from __future__ import annotations

from aiogram import Bot, F, Router
from aiogram.filters import Command, CommandObject, CommandStart
from aiogram.types import CallbackQuery, Message

from bot.caches.members import Members
from bot.caches.people import People
from bot.callbacks import Kind, Press, PressCodec, PressFilter, unb36
from bot.delivery import Delivery
from bot.game_names import game_code, game_name
from bot.i18n import Catalogues, Translator
from bot.keys import NamedKey
from bot.markup import Html
from bot.render import score as score_screen
from bot.render import seasons as season_screen
from bot.render.games import game_ui
from bot.render.rules import rules_pages
from bot.rendered import Button, Keyboard, Rendered, keyboard
from bot.routers import daily, practice
from bot.routers import seasons as season_answers
from bot.routers.incoming import asked, say, topic
from bot.runtime.chat_commands import ClosePractice, ShowHands, ToggleNotify
from bot.runtime.commands import JoinByLink
from bot.runtime.handle import Runtime
from bot.runtime.outcome import Note, Outcome
from bot.runtime.queries import Queries
from bot.runtime.seasons import Seasons
from bot.sending.outbox import Old

GROUPS = F.chat.type.in_({"group", "supergroup"})
PRIVATE = F.chat.type == "private"


def rules_summary(game: str, tr: Translator) -> Html:
    """The catalogue's summary (its texts are HTML, with no one's words in them)."""
    ui = game_ui(game)
    return Html(ui.rules_summary(game, tr)) if ui else tr.html("Rules for this game come later.")


def help_text(tr: Translator, private: bool) -> Html:
    """/help: what the bot does, where the rules are and where a player's cards go (PRODUCT.md
    §19: in the group for him alone, or in private)."""
    if private:
        text = tr.html(
            "I run old Russian card games in group chats. Add me to a group and type /newgame "
            "there. Your cards come here, or in the group where only you see them. How to play: "
            "/rules [game] — a game's whole rules. Commands: /hand — my cards, /score — my "
            "scores, /settings — language, turn pings, cards in words, where my cards go."
        )
    else:
        text = tr.html(
            "Open a table: /newgame [game]. Join with the ✋ button. Your cards only you see: "
            "here in the group (when I'm an admin here, or as the admins set it in /settings) or "
            "in a private chat with me. How to play: /rules [game], or «ℹ️ How to play» on the "
            "table. Commands: /score, /rules, /hand, /cancel, /notify, /settings (admins)."
        )
    return Html(f"{text}\n{season_screen.help_line(tr)}")


def rules_keyboard(tr: Translator, delivery: Delivery) -> Keyboard | None:
    """The seven games, two a row, each opening its whole rules in private (a deep link)."""
    return practice.games_keyboard(tr, delivery, "r")


def show_score(delivery: Delivery, message: Message, shown: list[Html]) -> None:
    """A /score answer in a group (PRODUCT.md §9), as answers go: to the asker alone where
    Telegram allows it; in the group one per group, a reply to the command — a repeat within
    the group's window shows it in place (nothing at all when nothing changed), a later one
    anew with the previous one deleted, so answers don't push the table up the chat. A long
    one is several messages."""
    pages = [Rendered(page) for page in shown]
    delivery.answers.pages(asked(message), pages, shared=SCORE, old=Old.DELETE)


NOT_AT_TABLE = NamedKey("not-at-table")  # a private chat's answer to 🂠's link of another table
SCORE = "score"  # the keyed message of a group's /score answer ("score:2" … its later pages)


def make_router() -> Router:
    router = Router(name="commands")

    @router.message(CommandStart(), PRIVATE)
    async def start(
        message: Message,
        command: CommandObject,
        runtime: Runtime,
        queries: Queries,
        delivery: Delivery,
        people: People,
        user_tr: Translator,
    ) -> None:
        assert message.from_user is not None
        user = message.from_user
        payload = command.args or ""
        parts = payload.split("_")
        try:
            if parts[0] == "j" and len(parts) == 3:
                table_id = unb36(parts[1])
                outcome = await runtime.handle(
                    JoinByLink(table_id, parts[2], user.id, user.first_name)
                )
                found = await queries.table_of(table_id)
                chat = await people.chat(found[1]) if found else None
                say(
                    delivery,
                    message,
                    user_tr.html(
                        "You're seated at {game} in «{chat}». Waiting for the start.",
                        game=game_name(found[0] if found else "", user_tr.locale),
                        chat=chat.title if chat else "",
                    ),
                )
                delivery(outcome)
                return
            if parts[0] == "h" and len(parts) == 2:  # 🂠 My cards on the group's table
                outcome = await runtime.handle(ShowHands(user.id, only=unb36(parts[1])))
                delivery(outcome)
                outbox = delivery.presenter.outbox
                if outcome.said:  # "You're not playing at this table.": one such answer, ever
                    told = Rendered(user_tr.html(outcome.said))
                    outbox.show(message.chat.id, NOT_AT_TABLE, told, fresh=True, old=Old.DELETE)
                # the "/start h_…" line goes (with the old hand message, or the old answer)
                outbox.delete_message(message.chat.id, message.message_id)
                return
            if parts[0] == practice.LINK and len(parts) <= 3:  # 🎮 Practice, or a game of it
                anew = parts[2:] == [practice.ANEW]
                game = parts[1:2]
                await practice.practise(message, user, game, runtime, delivery, user_tr, anew=anew)
                return
            if parts[0] == daily.LINK and len(parts) in (2, 3):  # 🗓 a game's day's deal
                group = daily.group_of(parts[2]) if len(parts) == 3 else None
                await daily.play_daily(message, user, parts[1], group, runtime, delivery, user_tr)
                return
            if parts[0] == "r" and len(parts) == 2 and (code := game_code(parts[1])):
                for page in rules_pages(code, user_tr):  # the group's «Full rules» button
                    say(delivery, message, page)
                return
        except ValueError:
            pass
        practise = keyboard([[practice.practice_button(user_tr, delivery)]])
        say(delivery, message, help_text(user_tr, private=True), practise)

    @router.message(CommandStart(), GROUPS)
    async def private_only(
        message: Message, command: CommandObject, chat_tr: Translator, delivery: Delivery
    ) -> None:
        if command.args == "new":  # posted when someone adds the bot with ?startgroup=new
            return
        button = Button(text=chat_tr("💬 Open the chat"), url=delivery.link("s"))
        say(
            delivery,
            message,
            chat_tr.html("This command works in our private chat."),
            keyboard([[button]]),
            reply=True,
        )

    @router.message(Command("newgame"), PRIVATE)
    async def newgame_private(message: Message, user_tr: Translator, delivery: Delivery) -> None:
        button = Button(
            text=user_tr("➕ Add to a group"),
            url=f"https://t.me/{delivery.presenter.bot_username}?startgroup=new",
        )
        say(
            delivery,
            message,
            user_tr.html("Tables open in a group: add me to a group and type /newgame."),
            keyboard([[button]]),
        )

    @router.message(Command("notify"), GROUPS)
    async def notify(message: Message, runtime: Runtime, delivery: Delivery) -> None:
        """PRODUCT.md /notify: the user's new-table ping for this group, on or off."""
        assert message.from_user is not None
        chat, user = message.chat.id, message.from_user.id
        command = ToggleNotify(chat, topic(message), user, message.message_id)
        outcome = await runtime.handle(command)
        said = [s for s in outcome.screens if isinstance(s, Note) and s.chat_id == chat]
        for note in said:  # what the group would be told: his answer
            delivery.answers.answer(asked(message), delivery.presenter.note(note), reply=True)
        rest = tuple(s for s in outcome.screens if s not in said)
        delivery(Outcome(rest, outcome.due, outcome.undue))

    @router.message(Command("kick", "notify"), PRIVATE)
    async def group_only(message: Message, user_tr: Translator, delivery: Delivery) -> None:
        say(delivery, message, user_tr.html("This command works in a group."))

    @router.message(Command("cancel"), PRIVATE)
    async def cancel_practice(message: Message, runtime: Runtime, delivery: Delivery) -> None:
        """/cancel in private: his practice table closes (or he is told he has none)."""
        assert message.from_user is not None
        delivery(await runtime.handle(ClosePractice(message.from_user.id)))

    @router.message(Command("score"))
    async def score(
        message: Message,
        command: CommandObject,
        queries: Queries,
        seasons: Seasons,
        people: People,
        delivery: Delivery,
        chat_tr: Translator,
        user_tr: Translator,
    ) -> None:
        assert message.from_user is not None
        user = message.from_user.id
        arg = (command.args or "").strip().lower()
        words = arg.split()
        if words and words[0] in season_answers.SEASON_WORDS:  # a month's boards
            private = message.chat.type == "private"
            tr = user_tr if private else chat_tr
            here = None if private else message.chat.id
            title = message.chat.title or ""
            shown = await season_answers.season_pages(
                words[1:], title, here, user if private else None, seasons, people, tr
            )
            if private:
                for page in shown:
                    say(delivery, message, page)
            else:
                show_score(delivery, message, shown)
            return
        code = game_code(arg) if arg and arg != "me" else None
        if arg and arg != "me" and code is None:
            tr = user_tr if message.chat.type == "private" else chat_tr
            usage = tr.html(
                "/score, /score me or /score with a game: mushka, pamfil, shutikha, mistigri, "
                "kopilka, lenturlu, konchinka."
            )
            say(delivery, message, Html(f"{usage}\n{season_screen.usage(tr)}"))
            return
        if message.chat.type == "private":  # his lines across the chats
            boards = await queries.boards(chat_id=None, user_id=user, game=code)
            for page in score_screen.mine("", boards, user, user_tr):
                say(delivery, message, page)
            return
        boards = await queries.boards(chat_id=message.chat.id, game=code)
        title = message.chat.title or ""
        if arg == "me":
            show_score(delivery, message, score_screen.mine(title, boards, user, chat_tr))
            return
        current = None
        playing = await queries.now_playing(message.chat.id, topic(message))
        if playing is not None:
            game, no, counts = playing
            ui = game_ui(game)
            current = chat_tr.html(
                "At the table now ({game}, {match} {no}): {list}",
                game=game_name(game, chat_tr.locale),
                match=ui.match_word(chat_tr) if ui else "",
                no=no,
                list=" · ".join(f"{name} {c}" for name, c in counts),
            )
        show_score(delivery, message, score_screen.score(title, current, boards, chat_tr))

    @router.message(Command("rules"))
    async def rules(
        message: Message,
        command: CommandObject,
        queries: Queries,
        chat_tr: Translator,
        delivery: Delivery,
    ) -> None:
        asked = (command.args or "").strip()
        private = message.chat.type == "private"
        here = None  # no game named: the game of the table here (its topic's), else the seven
        if not asked and not private:
            here = await queries.open_game(message.chat.id, topic(message))
        if not asked and here is None:
            games = rules_keyboard(chat_tr, delivery)
            say(delivery, message, chat_tr.html("Rules of which game?"), games)
            return
        code = game_code(asked) if asked else here
        if code is None:
            say(delivery, message, chat_tr.html(
                "Unknown game. Available: mushka, pamfil, shutikha, mistigri, kopilka, "
                "lenturlu, konchinka."
            ))  # fmt: skip
            return
        if private:  # the whole rules, in as few messages as fit
            for page in rules_pages(code, chat_tr):
                say(delivery, message, page)
            return
        text = rules_summary(code, chat_tr)
        button = Button(text=chat_tr("Full rules in private"), url=delivery.link(f"r_{code}"))
        say(delivery, message, text, keyboard([[button]]))

    @router.message(Command("help"))
    async def help_(message: Message, chat_tr: Translator, delivery: Delivery) -> None:
        private = message.chat.type == "private"
        practise = keyboard([[practice.practice_button(chat_tr, delivery)]])
        say(delivery, message, help_text(chat_tr, private=private), practise)

    @router.message(Command("hand"))
    async def hand(
        message: Message,
        runtime: Runtime,
        delivery: Delivery,
        chat_tr: Translator,
        user_tr: Translator,
    ) -> None:
        assert message.from_user is not None
        private = message.chat.type == "private"
        here = None if private else (message.chat.id, topic(message))
        outcome = await runtime.handle(ShowHands(message.from_user.id, here=here))
        delivery(outcome)
        if not private:  # where his cards are, or that he plays nowhere here
            say(delivery, message, chat_tr.html(outcome.said), reply=True)
        elif outcome.said:
            say(delivery, message, user_tr.html(outcome.said))

    @router.message(Command("language"))
    async def language(
        message: Message,
        bot: Bot,
        delivery: Delivery,
        codec: PressCodec,
        chat_tr: Translator,
    ) -> None:
        assert message.from_user is not None
        kind = Kind.PRIVATE if message.chat.type == "private" else Kind.GROUP
        rows = [
            [
                Button(
                    text=label + (" ✓" if chat_tr.locale == code else ""),
                    callback_data=codec.pack(Press(kind, 0, None, 0, "l", code)),
                )
                for code, label in (("ru", "Русский"), ("en", "English"))
            ]
        ]
        say(delivery, message, chat_tr.html("Language:"), keyboard(rows))

    @router.callback_query(PressFilter(Kind.GROUP))
    @router.callback_query(PressFilter(Kind.PRIVATE))
    async def language_pressed(
        query: CallbackQuery,
        press: Press,
        people: People,
        members: Members,
        catalogues: Catalogues,
        user_tr: Translator,
    ) -> None:
        code = press.arg if press.arg in ("ru", "en") else None
        message = query.message
        if code is None or message is None:
            await query.answer(user_tr("Unknown button."))
            return
        if press.kind is Kind.GROUP:
            if not await members.is_admin(message.chat.id, query.from_user.id):
                await query.answer(user_tr("Only admins change the group's language."))
                return
            await people.set_chat_language(message.chat.id, code)
        else:
            await people.set_user_language(query.from_user.id, code)
        tr = catalogues.tr(code)
        await query.answer(tr("Language: English") if code == "en" else tr("Language: Russian"))

    return router
