"""Computers at a lobby's table (PRODUCT.md §4.2 "🤖 Add computer", §5.1): the creator or an
admin opens the pane, seats the next named computer at a level, or removes one again."""

from __future__ import annotations

from bot.computer_names import computer_name, name_index, next_index
from bot.refused import BotRefusal, Refused
from bot.runtime.lobby import seat_specs
from bot.runtime.outcome import Outcome
from bot.runtime.tables import Context, IsAdmin, Table, seat_range
from bot.storage.rows import SeatKind
from engine.players import LEVELS

COMPUTERS = "computers"  # the lobby's pane (bot.runtime.outcome.Pane)


class Computers:
    """The lobby's computers pane: open it, seat a computer, remove one."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    async def computers_view(
        self, table: Table, generation: int, user_id: int, is_admin: IsAdmin
    ) -> Outcome:
        await self._may_seat_computers(table, generation, user_id, is_admin)
        return await self.ctx.lobby_screen(table, options_view=COMPUTERS)

    async def add_computer(
        self, table: Table, generation: int, user_id: int, is_admin: IsAdmin, level: str
    ) -> Outcome:
        """Seat the next computer not seated yet, named in the chat's language (§4.2)."""
        await self._may_seat_computers(table, generation, user_id, is_admin)
        if level not in LEVELS:
            raise Refused(BotRefusal.UNKNOWN_BUTTON)
        _, most = seat_range(table.row.game)
        index = next_index(s.name for s in table.seats)
        if len(table.seats) >= most or index is None:
            raise Refused(BotRefusal.NO_SEATS_LEFT, n=len(table.seats))
        name = computer_name(await self.ctx.people.chat_locale(table.row.chat_id), index)
        async with self.ctx.repo.unit() as tx:
            await tx.replace_seats(
                table.id, [*seat_specs(table), (SeatKind.COMPUTER, None, name, level)]
            )
        return await self.ctx.lobby_screen(await self.ctx.reload(table), options_view=COMPUTERS)

    async def remove_computer(
        self, table: Table, generation: int, user_id: int, is_admin: IsAdmin, which: str
    ) -> Outcome:
        """``which``: the computer's number in the name lists (the same in every language, so
        a button drawn before a seat moved still means the same computer)."""
        await self._may_seat_computers(table, generation, user_id, is_admin)
        if not which.isdigit():
            raise Refused(BotRefusal.UNKNOWN_BUTTON)
        gone = next(
            (
                s
                for s in table.seats
                if s.kind is SeatKind.COMPUTER and name_index(s.name) == int(which)
            ),
            None,
        )
        if gone is None:
            raise Refused(BotRefusal.COMPUTER_GONE)
        rest = [spec for s, spec in zip(table.seats, seat_specs(table), strict=True) if s != gone]
        async with self.ctx.repo.unit() as tx:
            await tx.replace_seats(table.id, rest)
        return await self.ctx.lobby_screen(await self.ctx.reload(table), options_view=COMPUTERS)

    async def _may_seat_computers(
        self, table: Table, generation: int, user_id: int, is_admin: IsAdmin
    ) -> None:
        """The lobby is still seating a game, and the presser is its creator or an admin."""
        self.ctx.lobby_at(table, generation)
        await self.ctx.role(table, user_id, is_admin)
        if not table.row.game:
            raise Refused(BotRefusal.PICK_A_GAME_FIRST)
        if not (await self.ctx.people.chat_settings(table.row.chat_id)).computers:
            raise Refused(BotRefusal.COMPUTERS_OFF)
