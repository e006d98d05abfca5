"""/start (deep links), /score, /rules, /help, /hand, /language, and the wrong-place replies."""

from __future__ import annotations

from dataclasses import replace

from aiogram import Bot, F, Router
from aiogram.filters import Command, CommandObject, CommandStart
from aiogram.types import CallbackQuery, InlineKeyboardButton, Message

from bot.callbacks import Kind, Press, PressCodec, PressFilter, unb36
from bot.i18n import Catalogues, Translator
from bot.refused import Refused
from bot.render import results
from bot.render.common import esc, keyboard
from bot.render.context import game_code, game_name
from bot.render.games import game_ui
from bot.render.refusals import refusal_text
from bot.sending.publisher import Publisher
from bot.services.locks import TableLocks
from bot.services.members import Members
from bot.services.tables import TableService, family_ui
from bot.storage.repo import LedgerRow

GROUPS = F.chat.type.in_({"group", "supergroup"})
PRIVATE = F.chat.type == "private"


def rules_summary(game: str, tr: Translator) -> str:
    ui = game_ui(game)
    return ui.rules_summary(game, tr) if ui is not None else tr("Rules for this game come later.")


def help_text(tr: Translator, private: bool) -> str:
    if private:
        return tr(
            "I run old Russian card games in group chats. Add me to a group and type /newgame "
            "there. Here you get your cards. Commands: /hand — my cards, /score — my scores, "
            "/rules — rules, /language — language."
        )
    return tr(
        "Open a table: /newgame [game]. Join with the ✋ button; your cards come in a private "
        "chat with me. Commands: /score, /rules, /hand, /cancel, /language."
    )


def make_router() -> Router:
    router = Router(name="commands")

    @router.message(CommandStart(), PRIVATE)
    async def start(
        message: Message,
        command: CommandObject,
        tables: TableService,
        publisher: Publisher,
        locks: TableLocks,
        members: Members,
        user_tr: Translator,
    ) -> None:
        assert message.from_user is not None
        user = message.from_user
        payload = command.args or ""
        parts = payload.split("_")
        try:
            if parts[0] == "j" and len(parts) == 3:
                table_id = unb36(parts[1])
                async with locks.hold(table_id):
                    table = await tables.table(table_id)
                    if table is None or table.join_code != parts[2]:
                        raise Refused("This table is closed.")
                    await tables.ensure_member(table, user.id, members)
                    table = await tables.join(table.id, None, user.id, user.first_name)
                    chat = await tables.repo.chat(table.chat_id)
                    await message.answer(
                        user_tr(
                            "You're seated at {game} in «{chat}». Waiting for the start.",
                            game=game_name(table.game, user_tr.locale),
                            chat=esc(chat.title if chat else ""),
                        )
                    )
                    await publisher.lobby(table)
                return
            if parts[0] == "h" and len(parts) == 2:
                await _resend_hands(user.id, tables, publisher, locks, only=unb36(parts[1]))
                return
            if parts[0] == "r" and len(parts) == 2 and (code := game_code(parts[1])):
                await message.answer(rules_summary(code, user_tr))
                return
        except Refused as refused:
            await message.answer(refusal_text(refused, user_tr))
            return
        except ValueError:
            pass
        await message.answer(help_text(user_tr, private=True))

    @router.message(CommandStart(), GROUPS)
    async def private_only(
        message: Message, command: CommandObject, chat_tr: Translator, publisher: Publisher
    ) -> None:
        if command.args == "new":  # posted when someone adds the bot with ?startgroup=new
            return
        button = InlineKeyboardButton(text=chat_tr("💬 Open the chat"), url=publisher.link("s"))
        await message.reply(
            chat_tr("This command works in our private chat."), reply_markup=keyboard([[button]])
        )

    @router.message(Command("newgame"), PRIVATE)
    async def newgame_private(message: Message, user_tr: Translator, publisher: Publisher) -> None:
        button = InlineKeyboardButton(
            text=user_tr("➕ Add to a group"),
            url=f"https://t.me/{publisher.bot_username}?startgroup=new",
        )
        await message.answer(
            user_tr("Tables open in a group: add me to a group and type /newgame."),
            reply_markup=keyboard([[button]]),
        )

    @router.message(Command("cancel"), PRIVATE)
    async def group_only(message: Message, user_tr: Translator) -> None:
        await message.answer(user_tr("This command works in a group."))

    @router.message(Command("score"))
    async def score(
        message: Message,
        command: CommandObject,
        tables: TableService,
        chat_tr: Translator,
        user_tr: Translator,
    ) -> None:
        assert message.from_user is not None
        repo = tables.repo
        if message.chat.type == "private":  # one row per game, summed over the chats
            rows = await repo.ledger(user_id=message.from_user.id)
            summed: dict[str, LedgerRow] = {}
            for r in rows:
                s = summed.get(r.game)
                summed[r.game] = (
                    r
                    if s is None
                    else replace(
                        s,
                        balance=s.balance + r.balance,
                        played=s.played + r.played,
                        won=s.won + r.won,
                    )
                )
            await message.answer(results.score("", None, list(summed.values()), user_tr))
            return
        arg = (command.args or "").strip().lower()
        rows = await repo.ledger(chat_id=message.chat.id)
        if arg == "me":
            rows = [r for r in rows if r.user_id == message.from_user.id]
        elif arg and (code := game_code(arg)):
            rows = [r for r in rows if r.game == code]
        current = None
        table = await repo.open_table(message.chat.id)
        if table is not None and table.status in ("running", "ended"):
            live = await tables.live(table)
            ui = family_ui(table.game)
            counts = ui.counts(live.state.view(None)) if ui else None
            seats = await repo.seats(table.id)
            if counts:
                current = chat_tr(
                    "At the table now ({game}, pulka {no}): {list}",
                    game=game_name(table.game, chat_tr.locale),
                    no=live.pulka_no,
                    list=" · ".join(
                        f"{esc(s.name)} {c}" for s, c in zip(seats, counts, strict=False)
                    ),
                )
        title = message.chat.title or ""
        await message.answer(results.score(title, current, rows, chat_tr))

    @router.message(Command("rules"))
    async def rules(
        message: Message, command: CommandObject, chat_tr: Translator, publisher: Publisher
    ) -> None:
        asked = (command.args or "").strip()
        code = game_code(asked) if asked else "mushka"
        if code is None:
            await message.answer(chat_tr(
                "Unknown game. Available: mushka, pamfil, shutikha, mistigri, kopilka, "
                "lenturlu, konchinka."
            ))  # fmt: skip
            return
        text = rules_summary(code, chat_tr)
        if message.chat.type == "private":
            await message.answer(text)
            return
        button = InlineKeyboardButton(
            text=chat_tr("Full rules in private"), url=publisher.link(f"r_{code}")
        )
        await message.answer(text, reply_markup=keyboard([[button]]))

    @router.message(Command("help"))
    async def help_(message: Message, chat_tr: Translator) -> None:
        await message.answer(help_text(chat_tr, private=message.chat.type == "private"))

    @router.message(Command("hand"))
    async def hand(
        message: Message,
        tables: TableService,
        publisher: Publisher,
        locks: TableLocks,
        chat_tr: Translator,
        user_tr: Translator,
    ) -> None:
        assert message.from_user is not None
        only = None
        if message.chat.type != "private":
            table = await tables.repo.open_table(message.chat.id)
            only = table.id if table else -1
        shown = await _resend_hands(message.from_user.id, tables, publisher, locks, only=only)
        if message.chat.type != "private":
            await message.reply(
                chat_tr("Your cards are in our private chat.")
                if shown
                else chat_tr("You're not playing at any table.")
            )
        elif not shown:
            await message.answer(user_tr("You're not playing at any table."))

    @router.message(Command("language"))
    async def language(
        message: Message,
        bot: Bot,
        codec: PressCodec,
        chat_tr: Translator,
    ) -> None:
        assert message.from_user is not None
        kind = Kind.PRIVATE if message.chat.type == "private" else Kind.GROUP
        rows = [
            [
                InlineKeyboardButton(
                    text=label + (" ✓" if chat_tr.locale == code else ""),
                    callback_data=codec.pack(Press(kind, 0, None, 0, "l", code)),
                )
                for code, label in (("ru", "Русский"), ("en", "English"))
            ]
        ]
        await message.answer(chat_tr("Language:"), reply_markup=keyboard(rows))

    @router.callback_query(PressFilter(Kind.GROUP))
    @router.callback_query(PressFilter(Kind.PRIVATE))
    async def language_pressed(
        query: CallbackQuery,
        press: Press,
        tables: TableService,
        members: Members,
        catalogues: Catalogues,
        user_tr: Translator,
    ) -> None:
        code = press.arg if press.arg in ("ru", "en") else None
        message = query.message
        if code is None or message is None:
            await query.answer(user_tr("Unknown button."))
            return
        async with tables.db.transaction():
            if press.kind is Kind.GROUP:
                if not await members.is_admin(message.chat.id, query.from_user.id):
                    await query.answer(user_tr("Only admins change the group's language."))
                    return
                await tables.repo.set_chat_language(message.chat.id, code)
            else:
                await tables.repo.set_user_language(query.from_user.id, code)
        tr = catalogues.tr(code)
        await query.answer(tr("Language: English") if code == "en" else tr("Language: Russian"))

    return router


async def _resend_hands(
    user_id: int,
    tables: TableService,
    publisher: Publisher,
    locks: TableLocks,
    *,
    only: int | None = None,
) -> int:
    shown = 0
    for table in await tables.repo.tables_of_user(user_id):
        if table.status != "running" or (only is not None and table.id != only):
            continue
        async with locks.hold(table.id):
            live = await tables.live(table)
            seats = await tables.repo.seats(table.id)
            for seat in seats:
                if seat.user_id == user_id:
                    if seat.away:
                        await publisher.seat_back(table, seat.seat)
                        seats = await tables.repo.seats(table.id)
                    await publisher.hand(table, live, seats, seat.seat, resend=True)
                    shown += 1
    return shown
