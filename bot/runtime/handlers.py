"""One handler a command type (:data:`HANDLERS`), each ``(parts, call, command) -> Outcome``:
run after :meth:`Runtime.handle <bot.runtime.handle.Runtime.handle>` took the command's lock,
loaded its table and ran its guards. A handler never locks and never sends; it calls the
concern that owns the work (:mod:`bot.runtime.lobby`, :mod:`~bot.runtime.play`, …).

Read top to bottom: a lobby button's act picks one handler of :data:`LOBBY_ACTS`, a stored
deadline's kind one of :data:`DEADLINE_KINDS` (every kind named, no default), a hand press the
family's meaning (:meth:`Play.card_press <bot.runtime.play.Play.card_press>`)."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any, Final

from bot.callbacks import EndAct, LobbyAct, SeatAct, b36
from bot.refused import BotRefusal, Refused
from bot.runtime.absent import TIMER_KINDS
from bot.runtime.chat_handlers import CHAT_HANDLERS
from bot.runtime.closing import begun
from bot.runtime.commands import (
    AskToClose,
    ChartPressed,
    DeadlineDue,
    DeliveryFailed,
    EndPressed,
    Failure,
    HandPressed,
    JoinByLink,
    LobbyPressed,
    MyCardsPressed,
    OwedHeld,
    RefreshHand,
    SeatPressed,
    StartReached,
)
from bot.runtime.guards import Call, Parts
from bot.runtime.outcome import ChartScreen, Outcome, StripMessage, chart_key, events_of, keys
from bot.storage.rows import Bar, Deadline, DeadlineKind, Hands, TableStatus
from bot.storage.settings import UserHands

Handler = Callable[[Parts, Call, Any], Awaitable[Outcome]]


# --- the lobby's buttons ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class LobbyCall:
    """A lobby button pressed, its guards passed: the table and who pressed what."""

    rt: Parts
    call: Call
    cmd: LobbyPressed

    @property
    def generation(self) -> int:  # the lobby generation the button was drawn at
        return self.cmd.press.version

    @property
    def arg(self) -> str:
        return self.cmd.press.arg or ""

    def is_admin(self) -> Awaitable[bool]:
        return self.rt.ctx.members.is_admin(self.cmd.message.chat_id, self.cmd.user_id)


async def on_lobby_pressed(rt: Parts, call: Call, cmd: LobbyPressed) -> Outcome:
    if call.open.starting and cmd.press.act != LobbyAct.JOIN:  # seating is final while notes go
        raise Refused(BotRefusal.TABLE_STARTING)
    act = LOBBY_ACTS.get(LobbyAct(cmd.press.act))
    if act is None:
        raise Refused(BotRefusal.UNKNOWN_BUTTON)
    return await act(LobbyCall(rt, call, cmd))


async def _join(c: LobbyCall) -> Outcome:
    """✋ Join: at once where the table's hands go to the group (and his do: not "always in
    private"), else only someone the bot can write to in private (his cards go there)."""
    table, user_id, people = c.call.open, c.cmd.user_id, c.rt.ctx.people
    if table.row.hands is Hands.GROUP:
        mine = await people.user_settings(user_id)
        if mine.hands is not UserHands.PRIVATE:
            return await c.rt.lobby.join(table, c.generation, user_id, c.cmd.name)
    user = await people.user(user_id)
    if user is None or not user.private_ok:
        c.rt.ctx.lobby_at(table, c.generation)  # still the same lobby?
        raise Refused(
            BotRefusal.OPEN_PRIVATE_CHAT,
            alert=True,
            link=f"j_{b36(table.id)}_{table.row.join_code}",
        )
    return await c.rt.lobby.join(table, c.generation, user_id, c.cmd.name)


async def _cancel(c: LobbyCall) -> Outcome:
    """✖️ Yes, close it: a table not begun closes (§4.9); once begun, an admin's alone."""
    table = c.call.open
    if begun(table):
        return await c.rt.closing.close_now(table, c.generation, c.cmd.name, c.is_admin)
    return await c.rt.lobby.cancel(table, c.generation, c.cmd.user_id, c.is_admin, c.call.key)


async def _wait(c: LobbyCall) -> Outcome:
    """⏳ Wait / ↩️ No: a notice's or a question's buttons go; on the open question to close
    a table that is playing, a no."""
    table, user_id = c.call.open, c.cmd.user_id
    if c.call.key == keys(table.id).cancel and await c.rt.closing.asking(table):
        return await c.rt.closing.refuse(table, c.generation, user_id, c.cmd.name, c.is_admin)
    return await c.rt.lobby.dismiss(table, c.generation, user_id, c.is_admin, c.call.key)


async def _set_option(c: LobbyCall) -> Outcome:
    option, _, value = c.arg.partition("=")
    return await c.rt.lobby.set_option(c.call.open, c.generation, c.cmd.user_id, option, value)


async def _start_without(c: LobbyCall) -> Outcome:
    """▶️ Start anyway: the notice goes and the match starts without the unreachable."""
    table, user_id = c.call.open, c.cmd.user_id
    await c.rt.ctx.role(table, user_id, c.is_admin)
    out = await c.rt.lobby.dismiss(table, c.generation, user_id, c.is_admin, c.call.key)
    return out + await c.rt.lobby.start(table, c.generation, None, without=True)


LOBBY_ACTS: Final[Mapping[LobbyAct, Callable[[LobbyCall], Awaitable[Outcome]]]] = {
    LobbyAct.JOIN: _join,
    LobbyAct.LEAVE: lambda c: c.rt.lobby.leave(c.call.open, c.generation, c.cmd.user_id),
    LobbyAct.OPTIONS: lambda c: c.rt.lobby.options_view(
        c.call.open, c.generation, c.cmd.user_id, True
    ),
    LobbyAct.BACK: lambda c: c.rt.lobby.back(c.call.open, c.generation, c.cmd.user_id, c.is_admin),
    LobbyAct.COMPUTERS: lambda c: c.rt.computers.computers_view(
        c.call.open, c.generation, c.cmd.user_id, c.is_admin
    ),
    LobbyAct.ADD_COMPUTER: lambda c: c.rt.computers.add_computer(
        c.call.open, c.generation, c.cmd.user_id, c.is_admin, c.arg
    ),
    LobbyAct.REMOVE_COMPUTER: lambda c: c.rt.computers.remove_computer(
        c.call.open, c.generation, c.cmd.user_id, c.is_admin, c.arg
    ),
    LobbyAct.SET_OPTION: _set_option,
    LobbyAct.TEACHING: lambda c: c.rt.lobby.set_teaching(
        c.call.open, c.generation, c.cmd.user_id, c.arg == "1"
    ),
    LobbyAct.TURN: lambda c: c.rt.lobby.set_turn(c.call.open, c.generation, c.cmd.user_id, c.arg),
    LobbyAct.PICK: lambda c: c.rt.lobby.pick(c.call.open, c.generation, c.cmd.user_id, c.arg),
    LobbyAct.ASK_CANCEL: lambda c: c.rt.lobby.ask_cancel(
        c.call.open, c.generation, c.cmd.user_id, c.is_admin
    ),
    LobbyAct.CANCEL: _cancel,
    LobbyAct.AGREE: lambda c: c.rt.closing.agree(c.call.open, c.generation, c.cmd.user_id),
    LobbyAct.START: lambda c: c.rt.lobby.check_start(
        c.call.open, c.generation, c.cmd.user_id, c.is_admin
    ),
    LobbyAct.WITHOUT: _start_without,
    LobbyAct.WAIT: _wait,
}


# --- the match result's buttons, the table's 🂠 ----------------------------------------------------


async def on_end_pressed(rt: Parts, call: Call, cmd: EndPressed) -> Outcome:
    """Another match, or finish (§4.7)."""
    table, press = call.open, cmd.press

    def is_admin() -> Awaitable[bool]:
        return rt.ctx.members.is_admin(cmd.message.chat_id, cmd.user_id)

    if press.act == EndAct.ANOTHER:
        return await rt.lobby.another(table, press.version, cmd.user_id, is_admin)
    return await rt.lobby.finish(table, press.version, cmd.user_id, is_admin)


async def on_chart_pressed(rt: Parts, call: Call, cmd: ChartPressed) -> Outcome:
    """📈 on the match result: the game's chart posted in the group once, a reply to the
    result; pressed again (the book has it, sent or on its way), only told so. Anyone in the
    group may press it."""
    table, press = call.open, cmd.press
    match = table.match
    if (
        table.row.status != TableStatus.ENDED
        or match is None
        or press.version != table.row.generation
    ):
        raise Refused(BotRefusal.STALE_BUTTON)
    if await rt.book.posted(cmd.message.chat_id, chart_key(table.id, press.version)):
        return Outcome(said="The chart is above.")
    lines = events_of(match.state.record())  # the record, without its decks
    facts = await rt.ctx.facts(table)
    return Outcome.of(ChartScreen(facts, lines, cmd.message.message_id))


async def on_my_cards(rt: Parts, call: Call, cmd: MyCardsPressed) -> Outcome:
    """🂠 My cards on the table message, where its hands are in the group: the
    presser's hand sent anew, for him alone in place of the table message (so one tap brings
    back a hand his client lost); a hand that goes to private is sent anew there. Once per
    ``cards_gap`` a person (:data:`~bot.runtime.tables.CARDS_GAP_S`): a tap sooner is refused
    and sends nothing."""
    table, ctx = call.open, rt.ctx
    if table.match is None or table.row.status == TableStatus.LOBBY:  # no hands now
        raise Refused(BotRefusal.TABLE_CLOSED)
    mine = table.seat_of(cmd.user_id)
    if mine is None or mine.barred is not Bar.NONE:
        raise Refused(BotRefusal.NOT_PLAYING_HERE)
    now = ctx.clock()
    wait = mine.cards_at + ctx.cards_gap - now
    if wait > 0:  # a tap more sends nothing: the one before is shown, or on its way
        raise Refused(BotRefusal.CARDS_JUST_SENT, seconds=max(1, math.ceil(wait)))
    ended = table.row.status == TableStatus.ENDED  # his last hand, as it ended
    gone = None if ended else await rt.absent.gate(table, mine.seat, cmd.user_id)
    if gone is not None:
        return gone
    async with ctx.repo.unit() as tx:  # every worker's next tap sees it
        await tx.set_cards_at(table.id, mine.seat, now)
    table.seats[mine.seat] = dataclasses.replace(mine, cards_at=now)
    facts = await ctx.facts(table)
    if not await ctx.in_group(table, mine):
        hand = await rt.play.hands(table, facts, only=mine.seat, fresh=True)
        return Outcome(tuple(hand), said="Your cards are in our private chat.")
    hand = await rt.play.hands(table, facts, only=mine.seat, answering=cmd.query_id)
    return Outcome(tuple(hand))


# --- a hand message's buttons ----------------------------------------------------------------


async def on_hand_pressed(rt: Parts, call: Call, cmd: HandPressed) -> Outcome:
    """A family's button: what it means is the family's (:meth:`Play.card_press
    <bot.runtime.play.Play.card_press>`)."""
    return await rt.play.card_press(call.open, call.seat, cmd.press)


async def on_seat_pressed(rt: Parts, call: Call, cmd: SeatPressed) -> Outcome:
    """The seat menu's buttons (:meth:`bot.runtime.absent.Absent.seat_press`)."""
    return await rt.absent.seat_press(call.open, call.seat, SeatAct(cmd.press.act))


async def on_refresh_hand(rt: Parts, call: Call, cmd: RefreshHand) -> Outcome:
    message = cmd.message
    known = await rt.book.key_of(message.chat_id, message.message_id, ephemeral=message.ephemeral)
    # an old message the book no longer knows loses its buttons (an unknown ephemeral one: left be)
    stale = (
        StripMessage(message.chat_id, message.message_id)
        if known is None and not message.ephemeral
        else None
    )
    return await rt.play.refresh(call.table, cmd.seat, stale)


# --- commands, Start's second half, the deep link ----------------------------------------------


async def on_ask_to_close(rt: Parts, call: Call, cmd: AskToClose) -> Outcome:
    """/cancel (§4.9) at the table here: once its match has begun, the people playing are
    asked (:meth:`Closing.ask <bot.runtime.closing.Closing.ask>`); before, once."""
    table = call.open

    def is_admin() -> Awaitable[bool]:
        return rt.ctx.members.is_admin(cmd.chat_id, cmd.user_id)

    if begun(table):
        return await rt.closing.ask(table, cmd.user_id, is_admin, cmd.reply_to)
    return await rt.lobby.cancel_question(table, cmd.user_id, is_admin, cmd.reply_to)


async def on_start_reached(rt: Parts, call: Call, cmd: StartReached) -> Outcome:
    """The second half of Start: who the private notes reached is known."""
    ended = await rt.lobby.end_starting(call.open)
    return ended + await rt.lobby.start(call.open, cmd.generation, cmd.reached)


async def on_join_by_link(rt: Parts, call: Call, cmd: JoinByLink) -> Outcome:
    table = call.table
    if table is None or table.row.status == TableStatus.CLOSED or table.row.join_code != cmd.code:
        raise Refused(BotRefusal.TABLE_CLOSED)
    await rt.ctx.ensure_member(table, cmd.user_id)
    return await rt.lobby.join(table, None, cmd.user_id, cmd.name)


# --- stored deadlines --------------------------------------------------------------------------

DeadlineHandler = Callable[[Parts, Call, Deadline], Awaitable[Outcome]]

DEADLINE_KINDS: Final[Mapping[str, DeadlineHandler]] = {
    DeadlineKind.LOBBY: lambda rt, c, d: rt.lobby.lobby_expired(d),
    DeadlineKind.STARTING: lambda rt, c, d: rt.lobby.start_lapsed(d),
    DeadlineKind.CLOSE: lambda rt, c, d: rt.closing.lapsed(d),
    DeadlineKind.NOTIFY: lambda rt, c, d: rt.groups.pings_due(d),
    **dict.fromkeys(TIMER_KINDS, lambda rt, c, d: rt.absent.timer_due(d)),
    DeadlineKind.OWED: lambda rt, c, d: rt.redraw.owed_due(d, c.held),
    DeadlineKind.COMPUTER: lambda rt, c, d: rt.play.computer_due(d),
}


async def on_deadline_due(rt: Parts, call: Call, cmd: DeadlineDue) -> Outcome:
    """A stored deadline fell due: its kind's handler (a kind no handler knows: dropped)."""
    handler = DEADLINE_KINDS.get(cmd.deadline.kind)
    if handler is None:
        return Outcome(undue=((cmd.deadline.table_id, cmd.deadline.kind),))
    return await handler(rt, call, cmd.deadline)


# --- what the outbox could not deliver ----------------------------------------------------------


async def on_delivery_failed(rt: Parts, call: Call, cmd: DeliveryFailed) -> Outcome:
    """A keyed message can't go: a hand or ping in the group for its owner alone, his hands
    go to private; a hand's owner unreachable (403), the computer plays for him; a
    table's topic gone, the table closes. Anything else: nothing to do."""
    table_id, seat = cmd.message.table_id, cmd.message.seat
    match cmd.means:
        case Failure.HANDS_TO_PRIVATE if seat is not None:
            return await rt.absent.ephemeral_failed(table_id, seat)
        case Failure.UNREACHABLE if seat is not None:
            return await rt.absent.unreachable(table_id, seat)
        case Failure.TOPIC_GONE:
            return await rt.groups.topic_gone(table_id)
    return Outcome()


async def on_owed_held(rt: Parts, call: Call, cmd: OwedHeld) -> Outcome:
    """An owed entry held: when it goes again is stored (:meth:`bot.runtime.redraw.Redraw.held`)."""
    return await rt.redraw.held(cmd.owed, cmd.seconds)


HANDLERS: Final[Mapping[type, Handler]] = {
    LobbyPressed: on_lobby_pressed,
    EndPressed: on_end_pressed,
    ChartPressed: on_chart_pressed,
    MyCardsPressed: on_my_cards,
    HandPressed: on_hand_pressed,
    SeatPressed: on_seat_pressed,
    RefreshHand: on_refresh_hand,
    AskToClose: on_ask_to_close,
    StartReached: on_start_reached,
    JoinByLink: on_join_by_link,
    DeadlineDue: on_deadline_due,
    DeliveryFailed: on_delivery_failed,
    OwedHeld: on_owed_held,
    **CHAT_HANDLERS,
}
"""Every command type to its one handler."""
