"""What the runtime returns: which screens must show what, in which language, and what is due.

Screens are data, not messages: :mod:`bot.delivery` renders each with the game's pure screen
functions and hands it to the outbox. Nothing here calls anything.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Literal

from bot.callbacks import CANCEL_ACTS, MY_CARDS, NOTICE_ACTS, Kind, LobbyAct, Press
from bot.keys import MessageKey, MessageKind, OutboxKey
from bot.presses.meaning import HandUI
from bot.refused import BotRefusal
from bot.runtime.daily_deals import DailyTold
from bot.runtime.scoreboard import Standings
from bot.storage.daily_sql import DailyStanding
from bot.storage.rows import Deadline, OwedRef, SeatRow, TableRow
from bot.storage.settings import ChatSettings, UserSettings
from engine.core import Line, View
from engine.lines import LineKind, is_kind
from engine.players.advice import Advice
from engine.tips import TipKind

Pane = bool | Literal["computers"]
"""What the seating message shows under its lines: False the lobby's buttons, True the options
(§4.2 ⚙️), "computers" the computers to seat or remove (§4.2 🤖)."""


class QuestionEnd(StrEnum):
    """Why the question to close a running table went without closing it."""

    NO = "no"  # someone said no
    LAPSED = "lapsed"  # nobody answered in time


@dataclass(frozen=True, slots=True)
class Facts:
    """A table as every screen of it needs it (the group's title and language included)."""

    table: TableRow
    seats: tuple[SeatRow, ...]
    chat_title: str
    chat_locale: str
    match_no: int
    computers: bool = True  # the chat allows computer seats (its /settings, PRODUCT.md §15)
    rev: int | None = None  # shared locks: the table's turn these facts were taken at
    turn_left: int | None = None  # seconds the person to act has left (None: no timer runs)
    reminded: bool = False  # he was reminded (⅓ of his time left)

    @property
    def chat_id(self) -> int:
        return self.table.chat_id

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(s.name for s in self.seats)


@dataclass(frozen=True, slots=True)
class LobbyScreen:
    """The lobby message as its table is; a closed table's (it timed out, §4.2) says so, without
    buttons. ``options_view``: which pane (:data:`Pane`: the options, or the
    computers)."""

    facts: Facts
    options_view: Pane = False
    unreachable: tuple[str, ...] = ()  # names (plain text) of seats it can't write to
    confirm_cancel: bool = False


@dataclass(frozen=True, slots=True)
class LobbyClosed:
    """The lobby closed: its message says so if the game never started, else a new message."""

    facts: Facts
    started: bool


@dataclass(frozen=True, slots=True)
class LobbyStarted:
    facts: Facts
    seats_line: Line  # the record's public ``seats`` line (the first-dealer draw)


@dataclass(frozen=True, slots=True)
class TableScreen:
    """The group's live table message; ``fresh``: a new message (the old one loses buttons)."""

    facts: Facts
    view: View[Any, Any]
    fresh: bool = False


@dataclass(frozen=True, slots=True)
class EndedTable:
    """The table message's last state when its deal ended (before the deal result)."""

    facts: Facts
    before: View[Any, Any]
    events: tuple[Line, ...]


@dataclass(frozen=True, slots=True)
class DealResult:
    """A deal's result for the group; ``owed``: the entry its action wrote."""

    facts: Facts
    events: tuple[Line, ...]
    view: View[Any, Any]
    owed: OwedRef | None = None


@dataclass(frozen=True, slots=True)
class MatchResult:
    """The group's result of one game: its record's ``end`` line and the engine's winner
    (``Result.winner``: Копилка's partia winner, RULES.md §2.6.7, is not in the line)."""

    facts: Facts
    end: Line
    winner: int | None
    standings: Standings
    owed: OwedRef | None = None  # the entry its action wrote


@dataclass(frozen=True, slots=True)
class ChartScreen:
    """A finished game's chart for the group, once per match: drawn from its record
    (``lines``, no deck), a reply to its result message (``reply_to``: that message's id)."""

    facts: Facts
    lines: tuple[Line, ...]
    reply_to: int | None = None
    png: bytes | None = None  # drawn already, off the event loop (bot.drawing)


@dataclass(frozen=True, slots=True)
class HandScreen:
    """One seat's private hand message, in its owner's language; ``fresh``: sent anew."""

    facts: Facts
    seat: int
    user_id: int
    locale: str
    view: View[Any, Any]
    ui: HandUI
    fresh: bool = False
    away: bool = False  # the computer plays the seat: the message offers 🙋 I'm back
    menu: bool = False  # the ⋯ menu is open
    words: bool = False  # the owner's «Cards in words» (PRODUCT.md §12): cards named in full
    in_group: bool = False  # an ephemeral message in the group, only its owner sees it
    answering: str | None = None  # the press it answers (a bot no admin may send it then)
    replace: bool = False  # shown in place of the pressed message, for its owner alone
    hints: bool = False  # the table allows hints: the hand offers 💡 at its owner's turn
    hint: Advice | None = None  # 💡's answer, shown under the hand (bot.render.hint)
    tip: TipKind | None = None  # the rule of his decision now, under the head (bot.render.tips)


@dataclass(frozen=True, slots=True)
class TurnPing:
    """A short new private message when a player's turn starts (so the phone notifies);
    ``in_group``: an ephemeral one in the group instead."""

    facts: Facts
    user_id: int
    locale: str
    seat: int = 0
    in_group: bool = False


@dataclass(frozen=True, slots=True)
class Reminder:
    """⅓ of the turn's time left (PRODUCT.md §13): a private reminder in place of the turn
    ping, and a short mention in the group (deleted when he acts)."""

    facts: Facts
    user_id: int
    locale: str
    seat: int
    seconds: int
    in_group: bool = False  # the reminder itself ephemeral in the group
    again: bool = False  # drawn again after a restart: in place, nothing if shown


@dataclass(frozen=True, slots=True)
class Gone:
    """A keyed message is deleted (a turn reminder once the player acted; ``receiver``: a
    group's message for him alone, his hand put away)."""

    chat_id: int
    key: OutboxKey
    receiver: int | None = None


@dataclass(frozen=True, slots=True)
class PingGone:
    """The player acted (or the turn passed): his turn ping is deleted, wherever it is (a
    private message, or an ephemeral one in group ``chat_id`` for seat ``seat``)."""

    user_id: int
    table_id: int
    chat_id: int
    seat: int


@dataclass(frozen=True, slots=True)
class HandGone:
    """A seat's hand loses its buttons and its key is let go, wherever it is (private, or an
    ephemeral message in group ``chat_id``): the table closed, or its owner may no longer act."""

    chat_id: int
    user_id: int
    table_id: int
    seat: int


@dataclass(frozen=True, slots=True)
class EphemeralGone:
    """A seat's ephemeral hand (and turn ping) in the group is deleted: its hands go to the
    owner's private chat from now on."""

    chat_id: int
    user_id: int
    table_id: int
    seat: int


@dataclass(frozen=True, slots=True)
class Note:
    """A one-off message: ``msgid`` (or a bot refusal, said as a message of its own) with
    ``params`` (plain text: escaped when it is drawn) in ``locale``; ``link``: a deep-link
    button (its payload) labelled ``button``; ``wait``: the caller wants to know if it got
    through."""

    chat_id: int
    locale: str
    msgid: str | BotRefusal
    params: dict[str, Any] = field(default_factory=dict)
    link: str | None = None
    button: str = ""
    wait: bool = False
    reply_to: int | None = None
    thread: int | None = None  # a group's forum topic (the table's, or the command's)
    moves: tuple[str, ...] = ()  # actions (RECORD.md notation) said in words as ``{moves}``
    # shown in group ``chat_id`` to this member alone, as keyed message ``key`` sent anew
    alone: tuple[int, MessageKey] | None = None  # (receiver, key)
    owed: OwedRef | None = None  # the entry its action wrote


@dataclass(frozen=True, slots=True)
class DailyResult:
    """A try at the day's deal of ``game``, told: to ``name`` himself as it ends (or at a
    second /daily that day), or as his line in the group he started it from; ``score`` in
    the game's terms, ``standing`` among the day's finished tries."""

    chat_id: int
    locale: str
    told: DailyTold
    game: str
    name: str
    score: int
    standing: DailyStanding
    stood_in: bool = False  # the computer played some of his turns (he was away): said so


@dataclass(frozen=True, slots=True)
class CancelQuestion:
    """/cancel's question to the group, an answer to ``asker``'s command."""

    facts: Facts
    reply_to: int
    asker: int


@dataclass(frozen=True, slots=True)
class CloseQuestion:
    """The question to close a running table, in the group: the seats asked (``asked``:
    the people playing; who agreed is on the facts' seats), whether the game is then rated as it
    stands (``rated``: a deal is over). ``reply_to``: a new question, a reply to the /cancel
    (None: the open one drawn again); ``end``: it went without closing the table (``by``: who
    said no), its buttons go."""

    facts: Facts
    asked: tuple[int, ...]
    rated: bool
    reply_to: int | None = None
    end: QuestionEnd | None = None
    by: str = ""  # plain text, as the user wrote it


@dataclass(frozen=True, slots=True)
class UnreachableNotice:
    facts: Facts
    names: tuple[str, ...]  # plain text, as the players wrote them


@dataclass(frozen=True, slots=True)
class Strip:
    """A keyed message's buttons go, and (``forget``) they no longer count."""

    chat_id: int
    key: OutboxKey
    forget: bool = True


@dataclass(frozen=True, slots=True)
class StripMessage:
    """An old message no key names any more (a stale hand) loses its buttons."""

    chat_id: int
    message_id: int


@dataclass(frozen=True, slots=True)
class GroupSettingsScreen:
    """A group's /settings pane (§15) as message ``key`` of the chat (``receiver``: shown to
    him alone); ``game``: that game's default options (``options``) instead."""

    chat_id: int
    key: OutboxKey
    receiver: int | None
    title: str
    locale: str
    settings: ChatSettings
    timeout: float
    hands: bool  # the row of where hands go (the operator's BOT_HANDS_IN_GROUP)
    game: str = ""
    options: dict[str, Any] | None = None


@dataclass(frozen=True, slots=True)
class MySettingsScreen:
    """A person's own /settings pane, message ``key`` of his private chat."""

    user_id: int
    key: OutboxKey
    locale: str
    settings: UserSettings
    hands: bool


Screen = (
    LobbyScreen
    | LobbyClosed
    | LobbyStarted
    | TableScreen
    | EndedTable
    | DealResult
    | MatchResult
    | ChartScreen
    | HandScreen
    | TurnPing
    | Reminder
    | Gone
    | PingGone
    | HandGone
    | EphemeralGone
    | Note
    | DailyResult
    | CancelQuestion
    | CloseQuestion
    | UnreachableNotice
    | GroupSettingsScreen
    | MySettingsScreen
    | Strip
    | StripMessage
)


@dataclass(frozen=True, slots=True)
class Outcome:
    """What one input (a press, a command, a deadline) changed: screens in order, deadlines due,
    deadlines no longer due (``(table_id, kind)``), and what a press is answered with (a msgid,
    "" for nothing)."""

    screens: tuple[Screen, ...] = ()
    due: tuple[Deadline, ...] = ()
    undue: tuple[tuple[int, str], ...] = ()
    said: str = ""

    def __add__(self, other: Outcome) -> Outcome:
        return Outcome(
            self.screens + other.screens,
            self.due + other.due,
            self.undue + other.undue,
            self.said or other.said,
        )

    @staticmethod
    def of(*screens: Screen) -> Outcome:
        return Outcome(tuple(screens))


@dataclass(frozen=True, slots=True)
class TableKeys:
    """The outbox keys of a table's group messages."""

    lobby: MessageKey
    table: MessageKey
    result: MessageKey
    cancel: MessageKey
    notice: MessageKey

    def carries(self, press: Press, key: OutboxKey | None) -> bool:
        """§7.2 step 4 for the group's buttons: whether the table's message ``key`` is the
        one that carries this press (the result its END buttons, the lobby its own, the close
        question and the unreachable notice theirs, the table its 🂠)."""
        if key is None:
            return False
        if press.kind is Kind.END:
            return key == self.result
        if press.kind is Kind.TABLE:
            return key == self.table and press.act == MY_CARDS
        return press.kind is Kind.LOBBY and (
            (key == self.lobby and press.act != LobbyAct.WITHOUT)
            or (key == self.cancel and press.act in CANCEL_ACTS)
            or (key == self.notice and press.act in NOTICE_ACTS)
        )


def keys(table_id: int) -> TableKeys:
    """The outbox keys of a table's group messages."""

    def key(kind: MessageKind) -> MessageKey:
        return MessageKey(kind, table_id)

    return TableKeys(
        key(MessageKind.LOBBY),
        key(MessageKind.TABLE),
        key(MessageKind.RESULT),
        key(MessageKind.CANCEL),
        key(MessageKind.NOTICE),
    )


def reminder_key(table_id: int) -> MessageKey:
    """The group's turn reminder of a table (one at a time)."""
    return MessageKey(MessageKind.REMIND, table_id)


def chart_key(table_id: int, match_no: int) -> MessageKey:
    """The chart of a table's match ``match_no`` in the group."""
    return MessageKey.chart(table_id, match_no)


def hand_key(table_id: int, seat: int) -> MessageKey:
    return MessageKey.hand(table_id, seat)


def ehand_key(table_id: int, seat: int) -> MessageKey:
    """A seat's hand as an ephemeral message in the group."""
    return MessageKey.ehand(table_id, seat)


def eping_key(table_id: int, seat: int) -> MessageKey:
    """A seat's turn ping (and reminder) as an ephemeral message in the group."""
    return MessageKey.eping(table_id, seat)


def is_hand_key(key: OutboxKey | None, table_id: int, seat: int) -> bool:
    """Whether ``key`` is the seat's hand message, private or in the group."""
    return key is not None and key in (hand_key(table_id, seat), ehand_key(table_id, seat))


def ping_key(table_id: int) -> MessageKey:
    """A player's turn ping of one table, in his private chat."""
    return MessageKey(MessageKind.PING, table_id)


def events_of(lines: Sequence[Line]) -> tuple[Line, ...]:
    """Record lines for the screens: a ``deal`` line's deck is never passed on."""
    return tuple(
        {k: v for k, v in ln.items() if k != "deck"} if is_kind(ln, LineKind.DEAL) else ln
        for ln in lines
    )
