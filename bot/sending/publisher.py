"""Puts a table on screen: the lobby, the group's table message, every hand, the results.

It renders with the pure functions of ``bot.render`` (each audience in its own language) and
sends through :class:`~bot.sending.sender.Sender`, remembering message ids in the database.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence

from aiogram.types import InlineKeyboardButton

from bot.callbacks import PressCodec, b36
from bot.i18n import Catalogues, Translator, locale_of
from bot.render import lobby as lobby_render
from bot.render.common import Rendered, esc, keyboard
from bot.render.context import HandUI, Standing, TableContext
from bot.sending.sender import Sender
from bot.services.tables import Live, Moved, TableService, family_ui
from bot.storage.repo import Repo, SeatRow, TableRow

logger = logging.getLogger(__name__)
AUTOPLAY_LIMIT = 2000  # more than any pulka's moves


class Publisher:
    def __init__(
        self,
        sender: Sender,
        tables: TableService,
        catalogues: Catalogues,
        codec: PressCodec,
        bot_username: str,
        *,
        computer_delay: float = 0.0,
    ) -> None:
        self.sender = sender
        self.computer_delay = computer_delay
        self.tables = tables
        self.repo: Repo = tables.repo
        self.catalogues = catalogues
        self.codec = codec
        self.bot_username = bot_username

    # --- languages ---------------------------------------------------------------------

    async def chat_tr(self, chat_id: int) -> Translator:
        chat = await self.repo.chat(chat_id)
        return self.catalogues.tr(chat.language if chat and chat.language else None)

    async def user_tr(self, user_id: int) -> Translator:
        user = await self.repo.user(user_id)
        if user is None:
            return self.catalogues.tr(None)
        return self.catalogues.tr(user.language or locale_of(user.language_code))

    def link(self, payload: str) -> str:
        return f"https://t.me/{self.bot_username}?start={payload}"

    async def context(
        self,
        table: TableRow,
        live: Live,
        seats: Sequence[SeatRow],
    ) -> TableContext:
        """The table facts for the screens."""
        chat = await self.repo.chat(table.chat_id)
        return TableContext(
            table_id=table.id,
            game=table.game,
            chat_title=chat.title if chat else "",
            names=tuple(s.name for s in seats),
            pulka_no=live.pulka_no,
            moves=table.moves,
            bot_username=self.bot_username,
            options=table.options,
            away=tuple(s.away for s in seats),
        )

    # --- the lobby ---------------------------------------------------------------------

    async def lobby(
        self,
        table: TableRow,
        *,
        options_view: bool = False,
        unreachable: Sequence[str] = (),
        confirm_cancel: bool = False,
    ) -> None:
        tr = await self.chat_tr(table.chat_id)
        seats = await self.repo.seats(table.id)
        rendered = lobby_render.lobby(
            table,
            seats,
            tr,
            self.codec,
            options_view=options_view,
            unreachable=unreachable,
            link=self.link("s"),
            confirm_cancel=confirm_cancel,
        )
        if table.lobby_msg_id is None:
            msg_id = await self.sender.send(table.chat_id, rendered)
            async with self.repo.db.transaction():
                await self.repo.update_table(table.id, lobby_msg_id=msg_id)
        else:
            msg_id = await self.sender.edit(table.chat_id, table.lobby_msg_id, rendered)
            if msg_id is not None and msg_id != table.lobby_msg_id:
                async with self.repo.db.transaction():
                    await self.repo.update_table(table.id, lobby_msg_id=msg_id)

    async def unreachable_notice(self, table: TableRow, names: Sequence[str]) -> None:
        tr = await self.chat_tr(table.chat_id)
        notice = lobby_render.unreachable_notice(table, names, tr, self.codec, self.link("s"))
        await self._notice(table, "notice_msg_id", notice)

    async def cancel_question(self, table: TableRow, reply_to: int) -> None:
        tr = await self.chat_tr(table.chat_id)
        question = lobby_render.cancel_question(table, tr, self.codec)
        await self._notice(table, "cancel_msg_id", question, reply_to=reply_to)

    async def _notice(
        self, table: TableRow, column: str, rendered: Rendered, *, reply_to: int | None = None
    ) -> None:
        """Send a group notice with table buttons; it replaces (and strips) the previous one,
        and only the stored one's buttons count (PRODUCT.md §7.2 step 4)."""
        table = await self._fresh(table)
        old: int | None = getattr(table, column)
        msg_id = await self.sender.send(table.chat_id, rendered, reply_to=reply_to)
        async with self.repo.db.transaction():
            await self.repo.update_table(table.id, **{column: msg_id})
        if old is not None and old != msg_id:
            await self.sender.strip_keyboard(table.chat_id, old)

    async def strip_notice(self, table: TableRow, message_id: int) -> None:
        """A pressed notice: its buttons go, and they no longer count."""
        await self.sender.strip_keyboard(table.chat_id, message_id)
        table = await self._fresh(table)
        used = {
            c: None for c in ("cancel_msg_id", "notice_msg_id") if getattr(table, c) == message_id
        }
        if used:
            async with self.repo.db.transaction():
                await self.repo.update_table(table.id, **used)

    async def lobby_closed(self, table: TableRow) -> None:
        tr = await self.chat_tr(table.chat_id)
        if table.lobby_msg_id is not None and table.table_msg_id is None:  # never started
            await self.sender.edit(
                table.chat_id, table.lobby_msg_id, Rendered(lobby_render.closed(tr))
            )
            return
        await self.sender.send(table.chat_id, Rendered(lobby_render.closed(tr)))

    # --- a pulka starts ----------------------------------------------------------------

    async def pulka_started(self, table: TableRow, live: Live) -> None:
        table = await self._fresh(table)
        seats = await self.repo.seats(table.id)
        if live.pulka_no == 1 and table.lobby_msg_id is not None:
            tr = await self.chat_tr(table.chat_id)
            seats_line = next(ln for ln in live.state.record() if ln.get("t") == "seats")
            text = lobby_render.started(table, seats, seats_line, tr)
            await self.sender.edit(table.chat_id, table.lobby_msg_id, Rendered(text))
        await self.new_table_message(table, live, seats)
        for seat in range(len(seats)):
            await self.hand(table, live, seats, seat, resend=True)
        await self.autoplay(table)

    async def new_table_message(
        self, table: TableRow, live: Live, seats: Sequence[SeatRow]
    ) -> None:
        ui = family_ui(table.game)
        assert ui is not None
        tr = await self.chat_tr(table.chat_id)
        ctx = await self.context(table, live, seats)
        if table.table_msg_id is not None and await self.sender.has_keyboard(
            table.chat_id, table.table_msg_id
        ):  # the previous table message is frozen without buttons (§4.6)
            await self.sender.strip_keyboard(table.chat_id, table.table_msg_id)
        rendered = ui.table(ctx, live.state.view(None), tr)
        msg_id = await self.sender.send(table.chat_id, rendered)
        async with self.repo.db.transaction():
            await self.repo.update_table(table.id, table_msg_id=msg_id)

    async def table_message(self, table: TableRow, live: Live, seats: Sequence[SeatRow]) -> None:
        ui = family_ui(table.game)
        assert ui is not None
        tr = await self.chat_tr(table.chat_id)
        ctx = await self.context(table, live, seats)
        rendered = ui.table(ctx, live.state.view(None), tr)
        msg_id = await self.sender.edit_or_send(table.chat_id, table.table_msg_id, rendered)
        if msg_id != table.table_msg_id:
            async with self.repo.db.transaction():
                await self.repo.update_table(table.id, table_msg_id=msg_id)

    async def hand(
        self,
        table: TableRow,
        live: Live,
        seats: Sequence[SeatRow],
        seat: int,
        *,
        resend: bool = False,
    ) -> None:
        """Show ``seat``'s hand message: edited in place, or sent anew (the old one deleted)."""
        ui_game = family_ui(table.game)
        assert ui_game is not None
        user_id = seats[seat].user_id
        if seats[seat].away and not resend:
            return  # the owner can't be reached; /hand in private brings him back
        hands = await self.repo.hands(table.id)
        row = hands.get(seat)
        ui = HandUI(tuple(m for m in row.marks.split(",") if m), row.mode) if row else HandUI()
        tr = await self.user_tr(user_id)
        ctx = await self.context(table, live, seats)
        rendered = ui_game.hand(ctx, live.state.view(seat), ui, tr, self.codec)
        offers = _offers(rendered)
        old = row.message_id if row else None
        msg_id: int | None = None
        if not resend and old is not None:
            msg_id = await self.sender.edit(user_id, old, rendered)
            if msg_id == old:
                if row is not None and row.offers != offers:
                    async with self.repo.db.transaction():
                        await self.repo.set_hand_offers(table.id, seat, offers)
                return
        if msg_id is None and (resend or user_id not in self.sender.closed):
            msg_id = await self.sender.send(user_id, rendered)
        async with self.repo.db.transaction():
            await self.repo.set_hand(
                table.id, seat, user_id, msg_id, offers if msg_id is not None else None
            )
            await self.repo.set_private_ok(user_id, msg_id is not None)
        if old is not None and msg_id is not None and old != msg_id:
            await self.sender.delete(user_id, old)
        if msg_id is None and user_id in self.sender.closed and table.status == "running":
            await self.seat_unreachable(table, seats, seat)

    # --- seats the computer plays (PRODUCT.md §13) ---------------------------------------

    async def seat_unreachable(self, table: TableRow, seats: Sequence[SeatRow], seat: int) -> None:
        """The owner blocked the bot: the computer plays the seat; the group is told once."""
        if not await self.tables.set_away(table, seat, True):
            return
        tr = await self.chat_tr(table.chat_id)
        text = tr(
            "{name}: the private chat with me is closed, so the computer plays for now. "
            "Open the chat with the button below and send /hand to take the seat back.",
            name=esc(seats[seat].name),
        )
        link = self.link(f"h_{b36(table.id)}")
        button = InlineKeyboardButton(text=tr("💬 Open the chat"), url=link)
        await self.sender.send(table.chat_id, Rendered(text, keyboard([[button]])))

    async def seat_back(self, table: TableRow, seat: int) -> None:
        """The owner is reachable again (/hand, or the deep link): the seat is his again."""
        if not await self.tables.set_away(table, seat, False):
            return
        seats = await self.repo.seats(table.id)
        tr = await self.chat_tr(table.chat_id)
        text = tr("{name} is back in the game.", name=esc(seats[seat].name))
        await self.sender.send(table.chat_id, Rendered(text))
        live = await self.tables.live(table)
        await self.table_message(await self._fresh(table), live, seats)

    async def autoplay(self, table: TableRow) -> None:
        """Play the computer's moves for away seats until a human is to act (or the end)."""
        for _ in range(AUTOPLAY_LIMIT):
            table = await self._fresh(table)
            moved = await self.tables.computer_move(table)
            if moved is None:
                return
            if self.computer_delay:
                await asyncio.sleep(self.computer_delay)
            await self.after_move(moved, autoplay=False)
        logger.warning("table %s: the computer played %d moves in a row", table.id, AUTOPLAY_LIMIT)

    async def _fresh(self, table: TableRow) -> TableRow:
        fresh = await self.repo.table(table.id)
        assert fresh is not None
        return fresh

    # --- after an action ---------------------------------------------------------------

    async def after_move(self, moved: Moved, *, autoplay: bool = True) -> None:
        table = moved.table
        live = await self.tables.live(table)
        seats = await self.repo.seats(table.id)
        ui = family_ui(table.game)
        assert ui is not None
        new_deal = any(ln.get("t") == "deal" for ln in moved.lines)
        deal_ended = any(ln.get("t") == "deal_end" for ln in moved.lines)
        if deal_ended:  # §4.6, §4.7: the deal as it ended, its result, then the next deal's table
            tr = await self.chat_tr(table.chat_id)
            ctx = await self.context(table, live, seats)
            events = [{k: v for k, v in ln.items() if k != "deck"} for ln in moved.lines]
            if table.table_msg_id is not None:
                ended = ui.ended_table(ctx, moved.before, events, tr)
                await self.sender.edit(table.chat_id, table.table_msg_id, ended)
            text = ui.deal_result(ctx, events, live.state.view(None), tr)
            if text:
                await self.sender.send(table.chat_id, Rendered(text))
        if moved.ended:
            if not deal_ended:
                await self.table_message(table, live, seats)
            await self.pulka_result(table, live, seats)
        elif new_deal:
            await self.new_table_message(table, live, seats)
            table = await self._fresh(table)
        else:
            await self.table_message(table, live, seats)
        for seat in range(len(seats)):
            await self.hand(table, live, seats, seat)
        if autoplay:
            await self.autoplay(table)

    async def pulka_result(self, table: TableRow, live: Live, seats: Sequence[SeatRow]) -> None:
        end = next((ln for ln in reversed(live.state.record()) if ln.get("t") == "end"), None)
        if end is None:
            return
        tr = await self.chat_tr(table.chat_id)
        ledger = await self.repo.ledger(chat_id=table.chat_id)
        seated = {s.user_id for s in seats}
        standings = [r for r in ledger if r.game == table.game and r.user_id in seated]
        ui = family_ui(table.game)
        assert ui is not None
        ctx = await self.context(table, live, seats)
        shown = [Standing(r.user_id, r.name, r.balance, r.played, r.won) for r in standings]
        rendered = ui.match_result(ctx, end, shown, table.generation, tr, self.codec)
        msg_id = await self.sender.send(table.chat_id, rendered)
        async with self.repo.db.transaction():
            await self.repo.update_table(table.id, result_msg_id=msg_id)

    async def resume(self, table: TableRow) -> None:
        """After a restart: the table message and every hand found (edited) or re-sent."""
        live = await self.tables.live(table)
        seats = await self.repo.seats(table.id)
        await self.table_message(table, live, seats)
        for seat in range(len(seats)):
            await self.hand(table, live, seats, seat)
        await self.autoplay(table)


def _offers(rendered: Rendered) -> frozenset[str]:
    """The callback data of a message's buttons: what pressing it may send (§6.4)."""
    rows = rendered.markup.inline_keyboard if rendered.markup else []
    return frozenset(b.callback_data for row in rows for b in row if b.callback_data)
