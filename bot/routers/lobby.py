"""/newgame, /cancel and the lobby's buttons (PRODUCT.md §4.2–§4.4)."""

from __future__ import annotations

from aiogram import F, Router
from aiogram.filters import Command, CommandObject
from aiogram.types import CallbackQuery, Message

from bot.callbacks import Kind, Press, PressFilter, b36
from bot.i18n import Translator
from bot.refused import Refused
from bot.render.common import Rendered, esc
from bot.render.context import game_code, game_name
from bot.render.refusals import refusal_text
from bot.sending.publisher import Publisher
from bot.services.locks import TableLocks
from bot.services.members import Members
from bot.services.tables import TableService, family_ui
from bot.storage.repo import TableRow

GROUPS = F.chat.type.in_({"group", "supergroup"})


def make_router() -> Router:
    router = Router(name="lobby")

    @router.message(Command("newgame"), GROUPS)
    async def newgame(
        message: Message,
        command: CommandObject,
        tables: TableService,
        publisher: Publisher,
        locks: TableLocks,
        chat_tr: Translator,
    ) -> None:
        assert message.from_user is not None
        game = ""
        words = (command.args or "").split()
        options = dict(w.partition("=")[::2] for w in words[1:] if "=" in w)
        loose = [w for w in words[1:] if "=" not in w]
        if loose:
            await message.reply(
                chat_tr(
                    "Options are written name=value, e.g. target=15. Not understood: {text}.",
                    text=esc(" ".join(loose)),
                )
            )
            return
        if words:
            code = game_code(words[0])
            if code is None:
                await message.reply(chat_tr(
                    "Unknown game. Available: mushka, pamfil, shutikha, mistigri, kopilka, "
                    "lenturlu, konchinka."
                ))  # fmt: skip
                return
            if family_ui(code) is None:
                await message.reply(chat_tr("This game is not available yet."))
                return
            game = code
        async with locks.hold(-abs(message.chat.id)):
            try:
                table = await tables.open(
                    message.chat.id,
                    message.from_user.id,
                    message.from_user.first_name,
                    game,
                    options,
                )
            except Refused as refused:
                reply_to = refused.params.pop("reply_to", None)
                await publisher.sender.send(
                    message.chat.id, Rendered(refusal_text(refused, chat_tr)), reply_to=reply_to
                )
                return
            async with locks.hold(table.id):  # a press on the lobby waits for its stored id
                await publisher.lobby(table)

    @router.message(Command("cancel"), GROUPS)
    async def cancel(
        message: Message,
        tables: TableService,
        publisher: Publisher,
        locks: TableLocks,
        members: Members,
        chat_tr: Translator,
    ) -> None:
        assert message.from_user is not None
        table = await tables.repo.open_table(message.chat.id)
        if table is None:
            await message.reply(chat_tr("There is no open table here."))
            return
        async with locks.hold(table.id):
            try:
                await tables.check_role(
                    table.id,
                    table.generation,
                    message.from_user.id,
                    members.admin_check(message.chat.id, message.from_user.id),
                )
            except Refused as refused:
                await message.reply(refusal_text(refused, chat_tr))
                return
            await publisher.cancel_question(table, message.message_id)

    @router.callback_query(PressFilter(Kind.LOBBY))
    async def lobby_pressed(
        query: CallbackQuery,
        press: Press,
        tables: TableService,
        publisher: Publisher,
        locks: TableLocks,
        members: Members,
        user_tr: Translator,
    ) -> None:
        async with locks.hold(press.table):
            try:
                table = await tables.table(press.table)
                if table is None or table.status == "closed":
                    raise Refused("This table is closed.")
                pressed = query.message
                tables.check_message(
                    table,
                    press,
                    pressed.chat.id if pressed else None,
                    pressed.message_id if pressed else None,
                )
                await tables.ensure_member(table, query.from_user.id, members)
                await _lobby_act(query, press, table, members, tables, publisher, user_tr)
            except Refused as refused:
                await query.answer(
                    refusal_text(refused, user_tr), show_alert=refused.alert, url=refused.url
                )

    return router


async def _lobby_act(
    query: CallbackQuery,
    press: Press,
    table: TableRow,
    members: Members,
    tables: TableService,
    publisher: Publisher,
    tr: Translator,
) -> None:
    user = query.from_user
    admin = members.admin_check(table.chat_id, user.id)
    act = press.act
    if act == "j":
        row = await tables.repo.user(user.id)
        if row is None or not row.private_ok:
            await tables.ensure_lobby(table.id, press.version)  # still the same lobby?
            raise Refused(
                "First open a chat with me — button below.",
                alert=True,
                url=publisher.link(f"j_{b36(table.id)}_{table.join_code}"),
            )
        table = await tables.join(table.id, press.version, user.id, user.first_name)
        await query.answer(tr("You're seated. Your cards will come in our private chat."))
        await publisher.lobby(table)
    elif act == "e":
        table = await tables.leave(table.id, press.version, user.id)
        await query.answer()
        if table.status == "closed":
            await publisher.lobby_closed(table)
        else:
            await publisher.lobby(table)
    elif act in ("o", "b"):
        await tables.ensure_lobby(table.id, press.version)
        if user.id != table.creator_id:
            seats = await tables.repo.seats(table.id)
            creator = next((s.name for s in seats if s.user_id == table.creator_id), "?")
            raise Refused("Only {creator} can change the options.", creator=creator)
        await query.answer()
        await publisher.lobby(table, options_view=act == "o")
    elif act == "v":
        name, _, value = (press.arg or "").partition("=")
        table = await tables.set_option(table.id, press.version, user.id, name, value)
        await query.answer()
        await publisher.lobby(table, options_view=True)
    elif act == "k":
        table = await tables.pick(table.id, press.version, user.id, press.arg or "")
        await query.answer()
        await publisher.lobby(table)
    elif act == "c":
        await tables.check_role(table.id, press.version, user.id, admin)
        table = await tables.ensure_lobby(table.id, press.version)
        await query.answer()
        await publisher.lobby(table, confirm_cancel=True)
    elif act == "x":
        table = await tables.check_role(table.id, press.version, user.id, admin)
        table = await tables.cancel(table.id, user.id, admin)
        await query.answer()
        await _strip_notice(query, table, publisher)
        await publisher.lobby_closed(table)
    elif act == "s":
        table, seats = await tables.check_start(table.id, press.version, user.id, admin)
        await query.answer()
        unreachable = []
        chat = await tables.repo.chat(table.chat_id)
        for seat in seats:
            utr = await publisher.user_tr(seat.user_id)
            note = utr(
                "🃏 {game} in «{chat}» is starting — your cards come next.",
                game=game_name(table.game, utr.locale),
                chat=esc(chat.title if chat else ""),
            )
            sent = await publisher.sender.send(seat.user_id, Rendered(note))
            async with tables.db.transaction():
                await tables.repo.set_private_ok(seat.user_id, sent is not None)
            if sent is None:
                unreachable.append(esc(seat.name))
        if unreachable:
            await publisher.lobby(table, unreachable=unreachable)
            await publisher.unreachable_notice(table, unreachable)
            return
        live = await tables.start(table, seats)
        await publisher.pulka_started(table, live)
    elif act == "n":
        table, seats = await tables.start_without_unreachable(
            table.id, press.version, user.id, admin
        )
        await query.answer()
        await _strip_notice(query, table, publisher)
        live = await tables.start(table, seats)
        await publisher.pulka_started(table, live)
    elif act == "w":
        table = await tables.check_role(table.id, press.version, user.id, admin)
        await query.answer()
        await _strip_notice(query, table, publisher)
        on_lobby = query.message is not None and query.message.message_id == table.lobby_msg_id
        if on_lobby and table.status == "lobby":
            await publisher.lobby(table)  # back from the cancel question
    else:
        raise Refused("Unknown button.")


async def _strip_notice(query: CallbackQuery, table: TableRow, publisher: Publisher) -> None:
    """Remove the buttons of a pressed group notice (not the lobby message itself)."""
    if query.message is not None and query.message.message_id != table.lobby_msg_id:
        await publisher.strip_notice(table, query.message.message_id)
