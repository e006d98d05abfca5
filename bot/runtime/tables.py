"""The runtime's shared context: open tables in memory, per-table locks, loading a table from
the log, the facts screens need, and the checks every press shares, each written once.

:class:`Context` is the one object every concern (lobby, play, absent, groups, computers) is
built with; the concerns never inherit it or each other (:mod:`bot.runtime.handle`)."""

from __future__ import annotations

import secrets
import string
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any, TypedDict, TypeGuard

from bot import slow
from bot.caches.members import Members, Standing
from bot.caches.people import People
from bot.callbacks import CANCEL_ACTS, NOTICE_ACTS, Kind, LobbyAct, Press
from bot.clock import Clock
from bot.coordination.locks import Locks, TableLocks, Turn
from bot.keys import OutboxKey
from bot.presses.meaning import HandUI
from bot.refused import BotRefusal, Refused
from bot.runtime.daily_deals import daily_deals
from bot.runtime.deals import Deals, deals_of, stored_chance
from bot.runtime.outcome import Facts, LobbyScreen, Outcome, keys
from bot.storage.protocol import Repository
from bot.storage.rows import (
    Deadline,
    DeadlineKind,
    HandRow,
    Hands,
    LedgerRow,
    MatchRow,
    SeatRow,
    TableRow,
    TableStatus,
)
from bot.storage.settings import ChatHands, ChatSettings, UserHands, hands_in_group
from engine.chance import Chance
from engine.core import State
from engine.games import GAMES, new_game

NewGame = Callable[..., State]
IsAdmin = Callable[[], Awaitable[bool]]
# Start's gap (its private notes on their way) is a stored deadline, so every worker sees it
# and holds a join back; should Start's second half never come (its worker died), it falls due
# and the lobby seats again (:meth:`~bot.runtime.lobby.Lobby.start_lapsed`).


CARDS_GAP_S = 5.0
"""The table's 🂠 sends a person's cards anew once per this many seconds (taps ten a second
queued a send each, and the group's budget of messages for one member delayed the others'
hands). Seven players tapping without pause then send 84 a minute, within the group's 120
(``BOT_EPHEMERAL_PER_MINUTE``); a hand Telegram lost comes back with a tap 5 s later. Stored
with the seat (``cards_at``), so every worker keeps it."""


def join_code() -> str:
    alphabet = string.ascii_letters + string.digits
    return "".join(secrets.choice(alphabet) for _ in range(6))


def seat_range(game: str) -> tuple[int, int]:
    counts = GAMES[game].seat_counts
    return min(counts), max(counts)


def hand_ui(row: HandRow | None) -> HandUI:
    return HandUI.stored(row.marks, row.mode) if row else HandUI()


@dataclass(slots=True)
class Match:
    """The running (or last) match of a table: its engine state, rebuilt from the log."""

    state: State
    no: int
    first_seq: int
    last: dict[int, object] = field(default_factory=dict)  # seat → its last action (typed)


@dataclass(slots=True)
class Table:
    """An open table in memory. Only the runtime changes it, after its unit of work commits."""

    row: TableRow
    seats: list[SeatRow]
    hands: dict[int, HandUI]
    match: Match | None = None
    deadline: bool = False  # a computer move is stored as due
    starting: bool = False  # Start was pressed; the players' private notes are on their way
    # (stored: a STARTING deadline, so every worker knows)
    menus: set[int] = field(default_factory=set)  # seats whose hand message shows the ⋯ menu
    # seats whose hand in the group was put away (↩️ To the table): not shown till their turn
    hidden: set[int] = field(default_factory=set)
    reminded: bool = False  # the group shows a turn reminder (deleted when the player acts)
    turn_ends: float | None = None  # when the person to act runs out of time (his timer runs)
    last_human: float = 0.0  # when a person last pressed a hand (0: not since the start)
    acted: dict[int, float] = field(default_factory=dict)  # seat → its person's last move
    version: int = -1  # shared locks: the table's turn this copy is current at (-1: unknown)

    @property
    def id(self) -> int:
        return self.row.id

    def creator_name(self) -> str:
        return next((s.name for s in self.seats if s.user_id == self.row.creator_id), "?")

    def seat_of(self, user_id: int) -> SeatRow | None:
        return next((s for s in self.seats if s.user_id == user_id), None)


class RuntimeOptions(TypedDict, total=False):
    """The runtime's settings (the operator's, or a test's), each as :class:`Context` takes it
    and with its default there."""

    new_game_fn: NewGame
    seeds: Callable[[], int] | None
    clock: Clock
    computer_delay: float
    turn_timeout: float
    lobby_timeout: float
    idle_timeout: float
    away_level: str
    ping_quiet: float
    notify_delay: float
    notify_gap: float
    locks: Locks | None
    hands_in_group: bool
    bot_id: int


class Context:
    """What every concern shares: the repository, people and members, the clock and the
    operator's timings, the locks, and the open tables in memory (loaded from the log once)."""

    def __init__(
        self,
        repo: Repository,
        people: People,
        members: Members,
        *,
        new_game_fn: NewGame = new_game,
        seeds: Callable[[], int] | None = None,
        clock: Clock = time.time,
        computer_delay: float = 0.0,
        turn_timeout: float = 90.0,
        lobby_timeout: float = 900.0,
        idle_timeout: float = 1800.0,
        away_level: str = "normal",
        ping_quiet: float = 0.0,
        notify_delay: float = 60.0,
        notify_gap: float = 1800.0,
        locks: Locks | None = None,
        hands_in_group: bool = False,
        bot_id: int = 0,
    ) -> None:
        self.repo = repo
        self.people = people
        self.members = members
        self.locks: Locks = locks or TableLocks()
        self.new_game = new_game_fn  # also how records are rebuilt (bot.records)
        self.deals = deals_of(seeds)  # cryptographic unless a test gives seeds
        self.clock = clock
        self.computer_delay = computer_delay
        self.turn_timeout = turn_timeout
        self.lobby_timeout = lobby_timeout
        self.idle_timeout = idle_timeout
        self.away_level = away_level
        self.ping_quiet = ping_quiet  # no turn ping for a person who moved this recently
        self.notify_delay = notify_delay  # a new table's /notify pings go this much later …
        self.notify_gap = notify_gap  # … and reach a subscriber once per this, per group
        self.hands_in_group = hands_in_group  # the operator's BOT_HANDS_IN_GROUP
        self.bot_id = bot_id  # whether the bot is an admin of a group decides "auto"
        self.cards_gap = CARDS_GAP_S  # the table's 🂠 sends a person's cards once per this
        self.tables: dict[int, Table] = {}  # the open tables in memory
        self._turns: dict[int, int] = {}  # table → the turn held now (shared locks)
        self._stale: dict[int, Table] = {}  # a copy dropped as stale: its in-memory marks

    @asynccontextmanager
    async def hold(self, table_id: int) -> AsyncIterator[Turn]:
        """The table's lock. With shared locks (several workers) the copy in memory is used
        only if no other worker held the table since this one's last turn (the turn counter
        went up by exactly one); otherwise it is read again from the database."""
        async with self.locks.hold(table_id) as turn:
            if not self.locks.shared:
                yield turn
                return
            cached = self.tables.get(table_id)
            if cached is not None and cached.version != turn.version - 1:
                self._stale[table_id] = self.tables.pop(table_id)
            self._turns[table_id] = turn.version
            try:
                yield turn
            finally:
                del self._turns[table_id]
                self._stale.pop(table_id, None)
                table = self.tables.get(table_id)
                if table is not None:
                    table.version = turn.version  # current: this turn's changes are in it

    def turn_of(self, table_id: int) -> int | None:
        """The turn held on the table now (shared locks; None: in-process, or not held)."""
        return self._turns.get(table_id)

    # --- memory ------------------------------------------------------------------------

    async def load(self, table_id: int) -> Table | None:
        """The table (from memory, else from the database and the action log)."""
        cached = self.tables.get(table_id)
        if cached is not None:
            return cached
        row = await self.repo.table(table_id)
        if row is None:
            return None
        table = Table(row, await self.repo.seats(table_id), {})
        if row.status == TableStatus.CLOSED:
            return table  # not kept
        table.hands = {s: hand_ui(h) for s, h in (await self.repo.hands(table_id)).items()}
        no = row.generation + 1 if row.status == TableStatus.RUNNING else row.generation
        match = await self.repo.match(table_id, no) if row.game and no > 0 else None
        if match is not None:
            chance = await self.stored_chance(row, match)
            state = self.new_game(
                row.game,
                len(table.seats),
                match.seed,
                row.options,
                chance=chance,
                prev_dealer=match.prev_dealer,
            )
            for seat, action in await self.repo.actions(table_id, match.first_seq):
                state.apply(seat, action)
            table.match = Match(state, no, match.first_seq)
        deadlines = await self.repo.deadlines(table_id)
        table.deadline = any(d.kind == DeadlineKind.COMPUTER for d in deadlines)
        table.turn_ends = turn_ends(deadlines, table.row.moves, self.turn_time(table))
        table.starting = any(d.kind == DeadlineKind.STARTING for d in deadlines)  # by any worker
        stale = self._stale.pop(table_id, None)
        if stale is not None:  # marks only this memory had (another worker's copy lacks them)
            table.menus, table.reminded, table.last_human, table.hidden = (
                stale.menus,
                stale.reminded,
                stale.last_human,
                stale.hidden,
            )
        self.tables[table_id] = table
        return table

    async def stored_chance(self, row: TableRow, match: MatchRow) -> Chance | None:
        """The running match's chance, loaded again: the outcomes stored with it, then more
        from the table's source (None: a match stored before outcomes were, its seed's)."""
        given = stored_chance(match, await self.repo.draws(row.id, match.first_seq))
        return None if given is None else (await self.deals_at(row)).resumed(match.seed, given)

    async def deals_at(self, row: TableRow) -> Deals:
        """Where the table's matches draw from: at a day's deal's table its day's secret (every
        try at it alike), elsewhere the runtime's source."""
        return await daily_deals(self.repo, row.id) if row.daily else self.deals

    def forget(self, table_id: int) -> None:
        self.tables.pop(table_id, None)

    async def opened(self, table_id: int) -> Table:
        table = await self.load(table_id)
        if table is None or table.row.status == TableStatus.CLOSED:
            raise Refused(BotRefusal.TABLE_CLOSED)
        return table

    async def facts(self, table: Table) -> Facts:
        chat = await self.people.chat(table.row.chat_id)
        return Facts(
            table.row,
            tuple(table.seats),
            chat.title if chat else "",
            await self.people.chat_locale(table.row.chat_id),
            table.match.no if table.match else table.row.generation + 1,
            chat.settings.computers if chat else True,
            self.turn_of(table.id),
            self.turn_left(table),
            table.reminded,
        )

    def turn_left(self, table: Table) -> int | None:
        """The seconds the person to act has left (None: no turn timer runs)."""
        if table.turn_ends is None or table.match is None or table.match.state.to_act is None:
            return None
        return max(0, round(table.turn_ends - self.clock()))

    async def lobby_screen(self, table: Table, **how: Any) -> Outcome:
        """The lobby's message as it stands (``how``: its pane, a question, a notice)."""
        return Outcome.of(LobbyScreen(await self.facts(table), **how))

    async def running(self, table_id: int) -> Table:
        """The table, which must be running a match: else "This table is closed."."""
        table = await self.load(table_id)
        if not is_running(table):
            raise Refused(BotRefusal.TABLE_CLOSED)
        return table

    async def table_of(self, table_id: int) -> tuple[str, int] | None:
        """A table's game and chat (for a reply), if open."""
        table = await self.load(table_id)
        if table is None or table.row.status == TableStatus.CLOSED:
            return None
        return table.row.game, table.row.chat_id

    async def open_table_id(self, chat_id: int, thread: int | None = None) -> int | None:
        row = await self.repo.open_table(chat_id, thread)
        return row.id if row is not None else None

    async def ledger(
        self, *, chat_id: int | None = None, user_id: int | None = None
    ) -> list[LedgerRow]:
        return await self.repo.ledger(chat_id=chat_id, user_id=user_id)

    async def deadlines(self) -> list[Deadline]:
        return await self.repo.deadlines()

    # --- where hands go ----------------------------------------------------------------

    async def hands_of(self, chat_id: int, settings: ChatSettings) -> Hands:
        """Where the hands of a table opened now in the group go: the group's setting ("auto":
        in the group when the bot is an administrator there, so it may send them at any
        time), only where the operator offers it (``BOT_HANDS_IN_GROUP``)."""
        if not self.hands_in_group:
            return Hands.PRIVATE
        admin = settings.hands is ChatHands.AUTO and await self.members.is_admin(
            chat_id, self.bot_id
        )
        return Hands.GROUP if hands_in_group(settings, admin) else Hands.PRIVATE

    async def in_group(self, table: Table, seat: SeatRow) -> bool:
        """Whether the seat's hand is an ephemeral message in the group: the table's hands go
        there, the seat's did not go to private (a failed send, ⋯ «В личку»), and its owner
        did not choose "always in private"."""
        if table.row.hands is not Hands.GROUP or seat.private or seat.user_id is None:
            return False
        return (await self.people.user_settings(seat.user_id)).hands is not UserHands.PRIVATE

    def turn_time(self, table: Table) -> float:
        """A person's time for one turn at this table: the chat's setting when it was opened
        (PRODUCT.md §15), else the operator's."""
        return table.row.turn_timeout_s or self.turn_timeout

    def idle_time(self, table: Table) -> float:
        """How long the table waits for a human move before it closes (§13): the operator's
        idle time, longer for long turns (:func:`bot.slow.idle_time`)."""
        return slow.idle_time(self.turn_time(table), self.idle_timeout)

    # --- checks every press shares -----------------------------------------------------------

    @staticmethod
    def check_message(table: Table, press: Press, key: OutboxKey | None) -> None:
        """§7.2 step 4 for the group's buttons: a press counts only on the table's own message
        that carries it (its key, as the outbox knows it). A client can send any data on any
        message, in any chat."""
        k = keys(table.id)
        if key is not None and (
            (press.kind is Kind.END and key == k.result)
            or (
                press.kind is Kind.LOBBY
                and (
                    (key == k.lobby and press.act != LobbyAct.WITHOUT)
                    or (key == k.cancel and press.act in CANCEL_ACTS)
                    or (key == k.notice and press.act in NOTICE_ACTS)
                )
            )
        ):
            return
        raise Refused(BotRefusal.UNKNOWN_BUTTON)

    async def standing_in(self, table: Table, user_id: int) -> Standing:
        """Whether the user is in the table's group: a member or an outsider — asked again when
        the answer at hand is older than the table's last change of seats (``seats_at``: a ban
        the bot was not told of is found at the next press). When Telegram can't tell (429, a
        network error) the press is refused for now, never let through."""
        chat_id, since = table.row.chat_id, table.row.seats_at
        standing = await self.members.standing(chat_id, user_id, since=since)
        if standing is Standing.UNKNOWN:
            raise Refused(
                BotRefusal.MEMBERSHIP_UNKNOWN,
                chat=await self.chat_title(table),
            )
        return standing

    async def chat_title(self, table: Table) -> str:
        chat = await self.people.chat(table.row.chat_id)
        return chat.title if chat else ""

    async def ensure_member(self, table: Table, user_id: int) -> None:
        """Only members of the table's group may press its buttons or join it (§3, §4.3)."""
        if await self.standing_in(table, user_id) is Standing.MEMBER:
            return
        raise Refused(
            BotRefusal.NOT_IN_GROUP,
            chat=await self.chat_title(table),
        )

    async def role(self, table: Table, user_id: int, is_admin: IsAdmin) -> None:
        if user_id == table.row.creator_id or await is_admin():
            return
        raise Refused(BotRefusal.CREATOR_OR_ADMIN, creator=table.creator_name())

    @staticmethod
    def lobby_at(table: Table, generation: int | None) -> None:
        if generation is not None and generation != table.row.generation:
            raise Refused(BotRefusal.STALE_BUTTON)
        if table.row.status != TableStatus.LOBBY:
            raise Refused(BotRefusal.GAME_STARTED)

    async def reload(self, table: Table) -> Table:
        """After a unit of work changed rows the cache does not follow: read them again."""
        self.forget(table.id)
        fresh = await self.load(table.id)
        assert fresh is not None
        fresh.menus, fresh.reminded, fresh.last_human, fresh.acted, fresh.hidden = (
            table.menus,
            table.reminded,
            table.last_human,
            table.acted,
            table.hidden,
        )
        return fresh


def is_running(table: Table | None) -> TypeGuard[Table]:
    """The table is running a match (its ``match`` is set): the guard of every hand press, deadline
    and hand-over."""
    return table is not None and table.row.status == TableStatus.RUNNING and table.match is not None


def own_seat(
    table: Table, seat: int | None, user_id: int, chat_id: int, ephemeral: bool = False
) -> int:
    """The seat a hand button was drawn for, which must be the presser's own, pressed in his
    private chat or on a message of the table's group only he sees (``ephemeral``): else
    "These aren't your cards." (card presses and the seat menu alike)."""
    if seat is None or seat >= len(table.seats):
        raise Refused(BotRefusal.NOT_YOUR_CARDS)
    where = table.row.chat_id if ephemeral else user_id
    if table.seats[seat].user_id != user_id or chat_id != where:
        raise Refused(BotRefusal.NOT_YOUR_CARDS)
    return seat


def turn_ends(deadlines: Iterable[Deadline], moves: int, turn_time: float) -> float | None:
    """When the turn at move ``moves`` runs out, by its stored timer: the expiry itself, or the
    reminder's time plus the third of the turn left after it (None: no timer runs)."""
    mine = {d.kind: d for d in deadlines if d.moves == moves}
    if DeadlineKind.TURN in mine:  # stored once reminded (a held reminder's too)
        return mine[DeadlineKind.TURN].due_at
    if DeadlineKind.REMIND in mine:
        return mine[DeadlineKind.REMIND].due_at + turn_time / 3
    return None
