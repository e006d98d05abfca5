"""The named checks commands declare (:class:`~bot.runtime.commands.Guard`), each written once
and run by :meth:`Runtime.handle <bot.runtime.handle.Runtime.handle>` in the order the command
lists them, under its lock: a guard refuses (raises :class:`~bot.refused.Refused`), ends the
command with an outcome of its own (``may_act``: a member gone from the group is barred now), or
lets it on, noting what it found in the :class:`Call` (the pressed message's key, the seat)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any, Final

from bot.callbacks import STILL, Kind, Press
from bot.keys import OutboxKey
from bot.presses.families import family_presses
from bot.refused import BotRefusal, Refused
from bot.runtime.absent import Absent
from bot.runtime.closing import Closing
from bot.runtime.commands import Guard
from bot.runtime.computers import Computers
from bot.runtime.groups import Groups
from bot.runtime.lobby import Lobby
from bot.runtime.message_book import MessageBook, Pressed
from bot.runtime.outcome import Outcome, is_hand_key, keys
from bot.runtime.play import Play
from bot.runtime.redraw import Redraw
from bot.runtime.settings import SettingsPanes
from bot.runtime.tables import Context, Table, is_running, own_seat
from bot.storage.rows import TableStatus


@dataclass(frozen=True, slots=True)
class Parts:
    """What handlers and guards work with: the shared context, the concerns that own the
    table's work (none locks: the lock is ``handle``'s), and the message book."""

    ctx: Context
    lobby: Lobby
    computers: Computers
    play: Play
    absent: Absent
    closing: Closing
    groups: Groups
    redraw: Redraw
    settings: SettingsPanes
    book: MessageBook


@dataclass(slots=True)
class Call:
    """One command being handled: its table (loaded by its key; None: none, or no table key)
    and what the guards found."""

    table: Table | None
    held: tuple[int, ...] = ()  # the tables whose locks are held, by id
    key: OutboxKey | None = None  # the pressed message, as the book knows it
    looked_up: bool = False  # ``key`` asked of the book already (before the lock was taken)
    seat: int = -1  # the presser's own seat (``own_seat``)

    @property
    def open(self) -> Table:
        assert self.table is not None  # guarded by ``open``, ``running`` or ``here``
        return self.table


GuardFn = Callable[[Parts, Call, Any], Awaitable[Outcome | None]]


async def opened(rt: Parts, call: Call, cmd: Any) -> None:
    """The table exists and is not closed: else "This table is closed."."""
    if call.table is None or call.table.row.status == TableStatus.CLOSED:
        raise Refused(BotRefusal.TABLE_CLOSED)


async def here(rt: Parts, call: Call, cmd: Any) -> None:
    """A command about "the table here": there is an open one in this chat (or topic)."""
    if call.table is None:
        raise Refused(BotRefusal.NO_OPEN_TABLE)
    await opened(rt, call, cmd)


async def running(rt: Parts, call: Call, cmd: Any) -> None:
    """The table runs a match: the guard of every hand press."""
    if not is_running(call.table):
        raise Refused(BotRefusal.TABLE_CLOSED)


async def look_up(book: MessageBook, message: Pressed) -> OutboxKey | None:
    """Which keyed message was pressed. A hand's is asked before the command's lock is taken
    (:meth:`bot.runtime.handle.Runtime.handle`): with several workers the shared book may take a
    few short waits for a hand another worker sent a moment ago, and no lock is held meanwhile.
    The table's own messages (lobby, question, notice) are asked by their guard, under the lock."""
    return await book.key_of(message.chat_id, message.message_id, ephemeral=message.ephemeral)


async def _key(rt: Parts, call: Call, message: Pressed) -> OutboxKey | None:
    if not call.looked_up:
        call.key, call.looked_up = await look_up(rt.book, message), True
    return call.key


async def current_message(rt: Parts, call: Call, cmd: Any) -> None:
    """§7.2 step 4 for the group's buttons: a press counts only on the table's own message
    that carries it (a client can send any data on any message, in any chat)."""
    await _key(rt, call, cmd.message)
    if not keys(cmd.press.table).carries(cmd.press, call.key):
        raise Refused(BotRefusal.UNKNOWN_BUTTON)


async def member(rt: Parts, call: Call, cmd: Any) -> None:
    """Only members of the table's group may press its buttons or join it (§3, §4.3)."""
    await rt.ctx.ensure_member(call.open, cmd.user_id)


async def own(rt: Parts, call: Call, cmd: Any) -> None:
    """The hand button was drawn for the presser's own seat, pressed in his private chat or
    on a message of the group only he sees."""
    message: Pressed = cmd.message
    call.seat = own_seat(call.open, cmd.press.seat, cmd.user_id, message.chat_id, message.ephemeral)


async def may_act(rt: Parts, call: Call, cmd: Any) -> Outcome | None:
    """He may act at the table (§3, §13): a barred seat refuses; one whose owner left the
    group is barred now, and what that shows ends the press."""
    return await rt.absent.gate(call.open, call.seat, cmd.user_id)


async def on_hand(rt: Parts, call: Call, cmd: Any) -> None:
    """Pressed on the seat's current hand message (private, or in the group): an older hand
    of his (sent anew since) is stale, his hand shown again; for the seat menu's buttons,
    any other message is not his cards."""
    await _key(rt, call, cmd.message)
    if is_hand_key(call.key, call.open.id, call.seat):
        return
    if cmd.stale_refresh:
        raise Refused(BotRefusal.STALE_HAND, refresh=call.seat)
    raise Refused(BotRefusal.NOT_YOUR_CARDS)


async def current_move(rt: Parts, call: Call, cmd: Any) -> None:
    """The button was drawn at the table's current move (or is a still waiting hand's, whose
    turn has not come); a button of a move gone is refused with what the family says of it
    (e.g. that card is played already), else as stale."""
    table, seat, press = call.open, call.seat, cmd.press
    assert table.match is not None
    presses = family_presses(table.row.game)
    assert presses is not None
    stale = Refused(BotRefusal.STALE_HAND, refresh=seat)
    # a still waiting hand's button (no move on it, FamilyPresses.still_waiting) goes the ordinary
    # way, to "It's X's turn"; once its turn came, the acting screen is on its way
    still = press.version == STILL != table.row.moves and presses.still_waiting
    if still and table.match.state.to_act == seat:
        raise stale
    if press.version != table.row.moves and not still:
        last = table.match.last.get(seat)
        deny = presses.stale(last, press.act, press.arg) if last is not None else None
        if deny is not None:
            raise Refused(deny.reason, refresh=seat, **deny.params)
        raise stale


async def offered(rt: Parts, call: Call, cmd: Any) -> None:
    """§6.4: the pressed message offers this very button now (an older revision of it — marks
    or mode changed since, at the same move — is stale)."""
    press: Press = cmd.press
    chat_id = cmd.message.chat_id
    if call.key is None or not await rt.book.offers(chat_id, call.key, press):
        raise Refused(BotRefusal.STALE_HAND, refresh=call.seat)


async def settings_message(rt: Parts, call: Call, cmd: Any) -> None:
    """A settings press counts on the current pane only (an older one's buttons are stale)."""
    if await _key(rt, call, cmd.message) != cmd.pane:
        raise Refused(BotRefusal.STALE_BUTTON)


async def settings_admin(rt: Parts, call: Call, cmd: Any) -> None:
    """A group's settings are its admins' (a person's own, his)."""
    if cmd.press.kind is not Kind.GROUP:
        return
    if not await rt.ctx.members.is_admin(cmd.message.chat_id, cmd.user_id):
        raise Refused(BotRefusal.SETTINGS_ADMINS_ONLY)


GUARDS: Final[Mapping[Guard, GuardFn]] = {
    Guard.OPEN: opened,
    Guard.HERE: here,
    Guard.RUNNING: running,
    Guard.CURRENT_MESSAGE: current_message,
    Guard.MEMBER: member,
    Guard.OWN_SEAT: own,
    Guard.MAY_ACT: may_act,
    Guard.ON_HAND: on_hand,
    Guard.CURRENT_MOVE: current_move,
    Guard.OFFERED: offered,
    Guard.SETTINGS_MESSAGE: settings_message,
    Guard.SETTINGS_ADMIN: settings_admin,
}
