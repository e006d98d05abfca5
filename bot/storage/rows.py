"""What the storage hands out: frozen rows, the same for every implementation."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Protocol, TypedDict

from bot.keys import OutboxKey
from bot.storage.settings import ChatSettings, UserSettings


class TableStatus(StrEnum):
    """Where a table is in its life (the ``tables.status`` column)."""

    LOBBY = "lobby"  # players gather; nothing dealt yet
    RUNNING = "running"  # a match is being played
    ENDED = "ended"  # a match ended; the table may start another
    CLOSED = "closed"  # gone: cancelled, timed out, or its topic closed


class Hands(StrEnum):
    """Where a table's hands go (the ``tables.hands`` column, fixed when it is opened)."""

    PRIVATE = "private"  # each player's private chat
    GROUP = "group"  # the group, as ephemeral messages each seen only by its owner


class TableKind(StrEnum):
    """What a table is for (the ``tables.kind`` column): a practice table is never rated, and
    nothing of it is booked; nor is a teaching one, which offers 💡 to every person at it. A
    practice table's kind is fixed when it opens; a group's table is made a teaching one (or
    back) by its creator in the lobby, before the start."""

    GROUP = "group"  # a group's table: people seat themselves, the matches are rated
    PRACTICE = "practice"  # /practice in private: one person and computers, never rated
    TEACHING = "teaching"  # a group's table for learning: never rated, 💡 for everyone at it
    DAILY = "daily"  # /daily: one person's try at the day's deal against computers, unrated


OPEN_STATUSES = (TableStatus.LOBBY, TableStatus.RUNNING, TableStatus.ENDED)
OPEN_SQL = "(" + ", ".join(f"'{s.value}'" for s in OPEN_STATUSES) + ")"
"""``OPEN_STATUSES`` as an SQL list, for ``status IN …``."""


class SeatKind(StrEnum):
    HUMAN = "human"  # a Telegram user
    COMPUTER = "computer"  # nobody's: the computer always plays it


class Bar(StrEnum):
    """Why a seat's owner may no longer act at its table (the computer keeps the seat)."""

    NONE = ""  # he may
    LEFT = "left"  # he left the group or was banned from it
    KICKED = "kick"  # an admin's /kick


@dataclass(frozen=True, slots=True)
class ChatRow:
    id: int
    title: str
    language: str | None
    settings: ChatSettings = field(default_factory=ChatSettings)  # §15; language: above


@dataclass(frozen=True, slots=True)
class UserRow:
    id: int
    first_name: str
    username: str | None
    language_code: str | None
    language: str | None
    private_ok: bool
    settings: UserSettings = field(default_factory=UserSettings)  # §15; language: above


@dataclass(frozen=True, slots=True)
class TableRow:
    """A table of a group: its game and options, status, and move counter.

    ``generation`` counts the matches finished; ``moves`` the actions logged (all matches)."""

    id: int
    chat_id: int
    game: str
    options: dict[str, Any]
    status: TableStatus
    creator_id: int
    join_code: str
    generation: int
    moves: int
    thread_id: int | None = None  # the forum topic it lives in (None: no topic, or General)
    turn_timeout_s: float | None = None  # set when opened (a chat's /settings); None: operator's
    hands: Hands = Hands.PRIVATE  # where its hands go, fixed when opened
    seats_at: float = 0.0  # when its seats last changed hands (wall clock; 0: never since)
    kind: TableKind = TableKind.GROUP  # a practice or teaching table is never rated

    @property
    def practice(self) -> bool:
        return self.kind is TableKind.PRACTICE

    @property
    def teaching(self) -> bool:
        return self.kind is TableKind.TEACHING

    @property
    def daily(self) -> bool:
        return self.kind is TableKind.DAILY

    @property
    def alone(self) -> bool:
        """One person and computers in his private chat: practice, or the day's deal."""
        return self.kind in (TableKind.PRACTICE, TableKind.DAILY)

    @property
    def rated(self) -> bool:
        """Its matches are rated and its money booked: a group's table, not one for practice
        or teaching."""
        return self.kind is TableKind.GROUP


SeatSpec = tuple[SeatKind, int | None, str] | tuple[SeatKind, int | None, str, str]
"""A seat to write: kind, user id (None for a computer seat), name, and optionally the level."""


@dataclass(frozen=True, slots=True)
class SeatRow:
    seat: int
    user_id: int | None  # None: a computer seat
    name: str
    away: bool = False  # the computer plays this seat until its owner is back
    kind: SeatKind = SeatKind.HUMAN
    level: str = "normal"  # the computer's level (engine.players.LEVELS) when it plays the seat
    expiries: int = 0  # the owner's turn timer ran out this many times in a row
    barred: Bar = Bar.NONE  # the owner may no longer act here (left, banned, /kick)
    noticed: int = 0  # the deal (``deal_mark``) of the last group line about this seat
    toggled_at: float = 0.0  # when the owner last handed the seat over or took it back
    private: bool = False  # his hands go to private at this table all the same
    agreed: bool = False  # he agreed to the open question to close the running table
    cards_at: float = 0.0  # when the table's 🂠 last sent its owner's cards anew (its throttle)

    def marks(self) -> SeatMarks:
        return SeatMarks(self.barred, self.noticed, self.toggled_at)

    @property
    def computer(self) -> bool:
        """Whether the computer plays the seat now (a computer seat, or its owner is away)."""
        return self.kind is SeatKind.COMPUTER or self.away


@dataclass(frozen=True, slots=True)
class SeatMarks:
    """What :meth:`~bot.storage.protocol.Writes.set_seat_marks` writes of a seat."""

    barred: Bar = Bar.NONE
    noticed: int = 0
    toggled_at: float = 0.0


@dataclass(frozen=True, slots=True)
class Subscriber:
    """A /notify subscriber of a chat, and when he was last pinged about a new table there
    (wall-clock seconds; 0: never)."""

    user_id: int
    pinged_at: float = 0.0


def deal_mark(match_no: int, deal_no: int) -> int:
    """One number per deal of a table: its match's number, then the deal's within the match."""
    return match_no * 100_000 + deal_no


@dataclass(frozen=True, slots=True)
class MatchRow:
    """One match (a pulka, a partia, …) of a table: how to rebuild it from the action log."""

    no: int
    seed: int
    prev_dealer: int | None
    first_seq: int
    net: list[int] | None
    drawn: str | None = None  # the start's random outcomes (bot.runtime.deals; None: seeded)


@dataclass(frozen=True, slots=True)
class Decided:
    """How many of a match's actions at a seat one decider made: ``stand_in`` "" the seat's own
    player (a person himself, or a computer seat's computer), else the level of the computer that
    decided for the seat's person (the ``actions.stand_in`` column)."""

    seat: int
    stand_in: str
    count: int


@dataclass(frozen=True, slots=True)
class HandRow:
    """A seat's unsent choices on its hand message (marks, a sub-mode)."""

    seat: int
    marks: str
    mode: str


@dataclass(frozen=True, slots=True)
class LedgerRow:
    chat_id: int
    game: str
    user_id: int
    name: str
    balance: int
    played: int
    won: int
    points: int = 0  # the game's own points summed (Копилка, Кончинка); 0 where it has none


class DeadlineKind(StrEnum):
    """What a table's scheduled work is (the ``deadlines.kind`` column)."""

    COMPUTER = "computer"  # the computer moves for the seat to act
    REMIND = "remind"  # the turn timer's first step: the group is reminded
    TURN = "turn"  # the turn timer ran out: the computer takes the seat over
    QUIET = "quiet"  # a reminder held by the player's quiet hours is sent (bot.slow)
    IDLE = "idle"  # a table nobody plays closes
    LOBBY = "lobby"  # a lobby nobody starts closes (§4.2)
    STARTING = "starting"  # a start being held for late presses
    CLOSE = "close"  # a question to close the running table lapses unanswered
    NOTIFY = "notify"  # a new lobby's /notify pings, if it still seats then
    OWED = "owed"  # the entries held for the table's chat are sent again (bot.sending.held)


@dataclass(frozen=True, slots=True)
class Deadline:
    """Scheduled work of a table: ``kind`` (a :class:`DeadlineKind`) due at ``due_at``
    (wall-clock seconds), valid while the table's move counter is still ``moves``.

    Read back from storage, ``kind`` is a :class:`DeadlineKind`; callers may still write it as
    its value."""

    table_id: int
    kind: DeadlineKind | str
    due_at: float
    moves: int


@dataclass(frozen=True, slots=True)
class StoredMessage:
    """What a keyed message is and shows: its Telegram id and the digest of its content.

    An ephemeral message (shown in a group to one member alone) is numbered apart from the
    chat's messages; its id is kept negated (:func:`stored_id`), so both live in one table."""

    chat_id: int
    key: OutboxKey
    message_id: int  # as stored: an ephemeral message's id negated
    digest: str
    keyboard: bool = True  # whether it (may) still show buttons

    @property
    def ephemeral(self) -> bool:
        return self.message_id < 0

    @property
    def telegram_id(self) -> int:
        """The id Telegram knows it by (``message_id``, or ``ephemeral_message_id``)."""
        return -self.message_id if self.message_id < 0 else self.message_id


class OwedState(StrEnum):
    """Where an entry of the durable outbox stands."""

    PENDING = "pending"  # written with the action that caused it; not sent yet
    SENT = "sent"  # its request is going out (a kill now: sent again, perhaps a second copy)
    # its send failed past the Bot API's patience, or an earlier entry of its chat's did: sent
    # again while the bot runs (a stored deadline), in the chat's order
    HELD = "held"
    SETTLED = "settled"  # shown, or it never can be (refused): nothing more to do


class Claim(StrEnum):
    """What a sender found when it claimed an owed entry to send it."""

    MINE = "mine"  # claimed: this sender sends it now
    TAKEN = "taken"  # settled, or claimed by another sender since it was read: not to be sent
    BEHIND = "behind"  # an earlier entry of its chat is held: it is held behind it (in order)


@dataclass(frozen=True, slots=True)
class OwedRef:
    """An owed entry as a sender names it: its ``ref``, and the ``tries`` it was read at (a
    claim to send it holds only while they are unchanged)."""

    ref: str  # the entry's own name: deal:12:1:40, result:12:1, note:12:40:2
    tries: int = 0


@dataclass(frozen=True, slots=True)
class OwedRow:
    """What the bot owes a chat (the ``owed`` table): the message key it shows under (None: a
    one-off notice), the screen as data (JSON, :mod:`bot.runtime.owed`), where it stands."""

    ref: OwedRef
    chat_id: int
    key: OutboxKey | None
    what: str
    state: OwedState


def stored_id(message_id: int, *, ephemeral: bool = False) -> int:
    """A message's id as stored: an ephemeral message's negated (see :class:`StoredMessage`)."""
    return -message_id if ephemeral else message_id


class TableFields(TypedDict, total=False):
    """What :meth:`~bot.storage.protocol.Writes.update_table` may set (at least one)."""

    game: str
    options: dict[str, Any]
    status: TableStatus
    creator_id: int
    generation: int
    moves: int
    turn_timeout_s: float | None
    hands: Hands
    seats_at: float
    kind: TableKind


TABLE_FIELDS = frozenset(TableFields.__annotations__)
"""The names of :class:`TableFields`, checked before they go into SQL."""
TABLE_COLUMNS = (
    "id, chat_id, game, options, status, creator_id, join_code, generation, moves, thread_id,"
    " turn_timeout_s, hands, seats_at, kind"
)
"""The ``tables`` columns :func:`table_row` reads, in every backend."""
T_COLUMNS = ", ".join(f"t.{c.strip()}" for c in TABLE_COLUMNS.split(","))  # joined as ``t``


class Row(Protocol):
    """A database row read by column name (``aiosqlite.Row``, ``asyncpg.Record``)."""

    def __getitem__(self, key: str) -> Any: ...


def table_row(row: Row) -> TableRow:
    """A ``tables`` row (SQLite's or PostgreSQL's, by column name) as a :class:`TableRow`."""
    return TableRow(
        id=row["id"],
        chat_id=row["chat_id"],
        game=row["game"],
        options=json.loads(row["options"]),
        status=TableStatus(row["status"]),
        creator_id=row["creator_id"],
        join_code=row["join_code"],
        generation=row["generation"],
        moves=row["moves"],
        thread_id=row["thread_id"],
        turn_timeout_s=row["turn_timeout_s"],
        hands=Hands(row["hands"]),
        seats_at=row["seats_at"],
        kind=TableKind(row["kind"]),
    )


def match_row(row: Row) -> MatchRow:
    """A ``matches`` row (either backend's) as a :class:`MatchRow`."""
    net = json.loads(row["net"]) if row["net"] else None
    return MatchRow(row["no"], row["seed"], row["prev_dealer"], row["first_seq"], net, row["drawn"])


def deadline_row(row: Row) -> Deadline:
    """A ``deadlines`` row (either backend's, by column name) as a :class:`Deadline`; a kind this
    version does not know stays its text (the runtime ignores it)."""
    kind = row["kind"]
    known = DeadlineKind(kind) if kind in _DEADLINE_KINDS else kind
    return Deadline(row["table_id"], known, row["due_at"], row["moves"])


_DEADLINE_KINDS = frozenset(DeadlineKind)


@dataclass(frozen=True, slots=True)
class ResultSeat:
    """One seat of a finished match as rated: who held it (``user_id`` 0 and the
    ``level``: a computer seat), its ``place`` (1 best) and ``money``, and the group's rating
    after the match with its change. ``stand_in``: the level of the computer that made most of
    a person's seat's decisions for him — the seat is then rated as that computer, not as him
    (his ``user_id`` and ``name`` kept, so the result can say the computer played for him)."""

    user_id: int
    level: str
    name: str
    place: int
    money: int
    rating: int = 0
    change: int = 0
    stand_in: str = ""

    def as_json(self) -> list[Any]:
        return [
            self.user_id,
            self.level,
            self.name,
            self.place,
            self.money,
            self.rating,
            self.change,
            self.stand_in,
        ]


@dataclass(frozen=True, slots=True)
class ResultRow:
    """A finished match's standing (the ``results`` table), the source the ratings are computed
    from; ``solo``: a table of one person and computers; ``id``: the order they are rated in."""

    table_id: int
    match_no: int
    chat_id: int
    game: str
    solo: bool
    seats: tuple[ResultSeat, ...]
    id: int = 0
    month: str = ""
    """The calendar month (UTC, ``YYYY-MM``) the match finished in: its season ("" before
    seasons)."""

    def seats_json(self) -> str:
        return json.dumps([s.as_json() for s in self.seats], ensure_ascii=False)


def result_row(r: Row) -> ResultRow:
    seats = tuple(ResultSeat(*s) for s in json.loads(r["seats"]))
    return ResultRow(
        r["table_id"],
        r["match_no"],
        r["chat_id"],
        r["game"],
        bool(r["solo"]),
        seats,
        r["id"],
        str(r["month"]),
    )


@dataclass(frozen=True, slots=True)
class RatingRow:
    """One player's rating in a scope (a chat; 0: across chats) and game: OpenSkill's ``mu``
    and ``sigma``, the games rated (``solo``: at a table of one person and computers), their
    wins and money; ``name``: the person's (``user_id`` 0: a computer ``level``, no name)."""

    scope: int
    game: str
    user_id: int
    level: str
    name: str
    mu: float
    sigma: float
    games: int
    solo: int
    won: int
    money: int


def rating_row(r: Row) -> RatingRow:
    names = (
        "scope",
        "game",
        "user_id",
        "level",
        "name",
        "mu",
        "sigma",
        "games",
        "solo",
        "won",
        "money",
    )
    return RatingRow(*(r[n] for n in names))
