"""The storage seam: what the services may read and write, and the explicit unit of work.

Services receive a :class:`Repository`; every write happens inside ``async with repo.unit() as
tx``, which commits once at the end (or rolls back on an exception). SQL lives only in an
implementation: :mod:`bot.storage.sqlite` (the default) and :mod:`bot.storage.postgres`;
:func:`bot.storage.open_repository` picks one from ``BOT_DATABASE``.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractAsyncContextManager
from enum import StrEnum
from typing import Any, Protocol, Unpack

from bot.keys import OutboxKey
from bot.storage.daily_sql import DailyEntry, DailyPlace, DailyStanding, DailyTry
from bot.storage.reviews_sql import ReviewKey, StoredMarks
from bot.storage.rows import (
    ChatRow,
    Claim,
    Deadline,
    Decided,
    HandRow,
    LedgerRow,
    MatchRow,
    OwedRef,
    OwedRow,
    RatingRow,
    ResultRow,
    ResultSeat,
    SeatMarks,
    SeatRow,
    SeatSpec,
    StoredMessage,
    Subscriber,
    TableFields,
    TableRow,
    UserRow,
)
from bot.storage.settings import ChatSettings, UserSettings


class SecretName(StrEnum):
    """The bot's own secrets, kept in the database (table ``secrets``)."""

    CALLBACK = "callback"  # the key of the buttons' tags (bot.callbacks.PressCodec)


class MessageStore(Protocol):
    """Where the outbox remembers its keyed messages (the database, so restarts keep it), and
    what it owes the chats (the durable outbox: :mod:`bot.storage.outbox_sql`)."""

    async def messages(self) -> list[StoredMessage]: ...

    async def put_message(self, message: StoredMessage, owed: OwedRef | None = None) -> None:
        """What the message is and shows now (a send it was marked for is settled; ``owed``:
        the owed entry it showed is settled in the same transaction)."""

    async def intend_message(
        self, chat_id: int, key: OutboxKey, owed: OwedRef | None = None
    ) -> Claim:
        """Message ``key`` is about to be sent (anew): marked before the request goes out.
        ``owed``: the owed entry it shows is claimed in the same transaction; unless the claim
        is :attr:`Claim.MINE` (settled or claimed by another sender, or held behind an earlier
        entry of its chat), nothing is marked and nothing is to be sent now."""

    async def intents(self) -> list[tuple[int, OutboxKey]]:
        """The keyed messages marked as being sent and never settled (a kill in between)."""

    async def drop_message(self, chat_id: int, key: OutboxKey) -> None: ...

    async def owed(self) -> list[OwedRow]:
        """Every owed entry not settled, oldest first."""

    async def claim_owed(self, owed: OwedRef) -> Claim:
        """A one-off owed post (no key) is about to be sent: claimed as in
        :meth:`intend_message`."""

    async def hold_owed(self, owed: OwedRef) -> bool:
        """The entry this sender claimed (``owed``: its ``tries`` as the claim left them) could
        not be sent for now: held, to be sent again while the bot runs (False: not this
        sender's any more)."""

    async def settle_owed(self, owed: OwedRef) -> None:
        """The entry was shown, or never can be: nothing more is owed."""

    async def prune_owed(self) -> None:
        """Forget the settled entries (at start-up)."""


class Reads(Protocol):
    async def chat(self, chat_id: int) -> ChatRow | None: ...

    async def user(self, user_id: int) -> UserRow | None: ...

    async def table(self, table_id: int) -> TableRow | None: ...

    async def open_table(self, chat_id: int, thread_id: int | None = None) -> TableRow | None:
        """The newest table in a lobby, running, or ended (not closed) of the chat's forum topic
        ``thread_id`` (None: a plain group, or a forum's General topic)."""
        ...

    async def open_tables(self, chat_id: int | None = None) -> list[TableRow]:
        """Every open table (of one chat, in any of its topics), oldest first."""
        ...

    async def tables_of_user(self, user_id: int) -> list[TableRow]: ...

    async def seats(self, table_id: int) -> list[SeatRow]: ...

    async def match(self, table_id: int, no: int) -> MatchRow | None: ...

    async def matches(self, table_id: int) -> list[MatchRow]:
        """Every match of the table, in order."""
        ...

    async def finished_matches(self, user_id: int, game: str) -> int:
        """How many matches of ``game`` the user sat at to their end (practice ones too)."""
        ...

    async def tables(
        self, *, chat_id: int | None = None, user_id: int | None = None
    ) -> list[TableRow]:
        """Every table (of a chat, or where the user sat), closed ones too, newest first."""
        ...

    async def actions(self, table_id: int, from_seq: int) -> list[tuple[int, str]]: ...

    async def deciders(self, table_id: int, from_seq: int) -> list[Decided]:
        """Who decided the logged actions from ``from_seq`` on (a match's): per seat, how many
        its own player and how many a computer for its person (by level)."""
        ...

    async def draws(self, table_id: int, from_seq: int) -> list[tuple[int, str]]:
        """``(seq, drawn)`` of the logged actions from ``from_seq`` on that drew random
        outcomes, in order (:func:`bot.runtime.deals.drawn`)."""
        ...

    async def hands(self, table_id: int) -> dict[int, HandRow]: ...

    async def ledger(
        self, *, chat_id: int | None = None, user_id: int | None = None
    ) -> list[LedgerRow]: ...

    async def deadlines(self, table_id: int | None = None) -> list[Deadline]:
        """Every stored deadline (of one table)."""
        ...

    async def result(self, table_id: int, no: int) -> ResultRow | None:
        """Match ``no`` of the table as rated (None: not finished, or before ratings)."""
        ...

    async def results(self) -> list[ResultRow]:
        """Every rated match, in the order it was rated."""
        ...

    async def season_results(
        self, month: str, *, chat_id: int | None = None, game: str | None = None
    ) -> list[ResultRow]:
        """The matches rated in ``month`` (``YYYY-MM``, their season), of one chat and game
        where given, in the order they were rated."""
        ...

    async def ratings(
        self,
        scope: int,
        *,
        game: str | None = None,
        user_id: int | None = None,
        players: Sequence[tuple[int, str]] | None = None,
    ) -> list[RatingRow]:
        """The ratings of a scope (a chat; 0: across chats), of one game, person or of the
        given ``(user_id, level)`` players: by game, then best (μ − 3σ) first."""
        ...

    async def notified(self, chat_id: int) -> list[int]:
        """Who wants a private ping when a table opens in the chat (/notify), by user id."""
        ...

    async def subscribers(self, chat_id: int) -> list[Subscriber]:
        """The chat's /notify subscribers, each with when he was last pinged from it."""
        ...

    async def alive_at(self) -> float | None:
        """When the bot last said it was alive (None: never)."""
        ...

    async def daily_try(self, day: str, game: str, user_id: int) -> DailyTry | None:
        """The person's try at the day's deal of ``game`` (None: not tried that day)."""
        ...

    async def daily_try_at(self, table_id: int) -> DailyTry | None:
        """The try played at the table (None: it is no day's deal's table)."""
        ...

    async def daily_standing(self, day: str, game: str, score: int) -> DailyStanding:
        """``score`` among the finished tries at the day's deal of ``game``."""
        ...

    async def stored_daily_secret(self, day: str, game: str) -> str | None:
        """The day's deal's secret, if drawn (for its table loaded again; never shown)."""
        ...

    async def daily_board(self, first: str, last: str, game: str, limit: int) -> list[DailyEntry]:
        """The best ``limit`` people by their finished tries' total at the game's day's deals
        of the days ``first`` to ``last`` (``YYYY-MM-DD``, both included)."""
        ...

    async def daily_place(
        self, first: str, last: str, game: str, user_id: int
    ) -> DailyPlace | None:
        """The person's place on :meth:`daily_board`'s board (None: no finished try there)."""
        ...


class Writes(Reads, Protocol):
    """The writes of one unit of work (reads see its own writes)."""

    async def upsert_chat(self, chat_id: int, title: str) -> None: ...

    async def set_chat_language(self, chat_id: int, language: str) -> None: ...

    async def set_chat_settings(self, chat_id: int, settings: ChatSettings) -> None:
        """Store the chat's settings (PRODUCT.md §15) as JSON: what differs from the defaults
        (``settings.model_dump_json(exclude_defaults=True)``); read back with
        :func:`bot.storage.settings.chat_settings`."""
        ...

    async def set_user_settings(self, user_id: int, settings: UserSettings) -> None:
        """The same for a user's settings (:func:`bot.storage.settings.user_settings`)."""
        ...

    async def upsert_user(
        self, user_id: int, first_name: str, username: str | None, language_code: str | None
    ) -> None: ...

    async def set_user_language(self, user_id: int, language: str) -> None: ...

    async def set_private_ok(self, user_id: int, ok: bool) -> None: ...

    async def set_notify(self, chat_id: int, user_id: int, on: bool) -> None: ...

    async def set_pinged(self, chat_id: int, user_ids: Sequence[int], at: float) -> None:
        """These subscribers were pinged about a new table of the chat ``at``."""
        ...

    async def create_table(
        self,
        chat_id: int,
        game: str,
        options: dict[str, Any],
        creator: int,
        code: str,
        now: float,
        thread_id: int | None = None,
    ) -> int: ...

    async def update_table(self, table_id: int, **fields: Unpack[TableFields]) -> None:
        """Set the given columns (at least one) of a table."""
        ...

    async def replace_seats(self, table_id: int, seats: Sequence[SeatSpec]) -> None:
        """The seats in order: (kind, user id or None, name[, computer level])."""
        ...

    async def set_away(self, table_id: int, seat: int, away: bool) -> None: ...

    async def set_expiries(self, table_id: int, seat: int, expiries: int) -> None: ...

    async def set_seat_marks(self, table_id: int, seat: int, marks: SeatMarks) -> None:
        """A seat's bar, its last group line's deal and its owner's last toggle."""
        ...

    async def set_agreed(self, table_id: int, seat: int | None, agreed: bool) -> None:
        """The seat's person agreed to close the running table (``seat`` None: every seat)."""
        ...

    async def set_seat_private(self, table_id: int, seat: int) -> None:
        """The seat's hands go to its owner's private chat for the rest of the table."""
        ...

    async def set_cards_at(self, table_id: int, seat: int, at: float) -> None:
        """The table's 🂠 sent the seat's cards anew ``at`` (its throttle)."""
        ...

    async def add_match(
        self, table_id: int, no: int, seed: int, prev_dealer: int | None, first_seq: int
    ) -> None: ...

    async def set_match_drawn(self, table_id: int, no: int, drawn: str | None) -> None:
        """The random outcomes of the match's start: its draw, its first deal."""
        ...

    async def set_match_net(self, table_id: int, no: int, net: list[int]) -> None: ...

    async def add_action(
        self,
        table_id: int,
        seq: int,
        seat: int,
        action: str,
        drawn: str | None = None,
        stand_in: str = "",
    ) -> None:
        """Log one action (``drawn``: the random outcomes it drew; ``stand_in``: the level of
        the computer that decided it for the seat's person, "" his own decision); a second
        action at ``seq`` fails (the primary key)."""
        ...

    async def set_hand_ui(self, table_id: int, seat: int, marks: str, mode: str) -> None: ...

    async def clear_hand_ui(self, table_id: int) -> None: ...

    async def book(
        self, chat_id: int, game: str, user_id: int, money: int, won: bool, points: int = 0
    ) -> None:
        """Add one finished game to a player's standing: money, a win, the game's points."""

    async def put_deadline(self, deadline: Deadline) -> None: ...

    async def lock_ratings(self) -> None:
        """Hold the ratings until the unit of work ends (games ending at once rate in turn)."""
        ...

    async def add_result(self, row: ResultRow) -> None:
        """A finished match's standing, the ratings' source."""
        ...

    async def tell_season(self, chat_id: int, month: str) -> bool:
        """The group is to be told ``month``'s season is over: True for the one unit that
        writes it first (then this unit tells it), False ever after."""
        ...

    async def set_result_seats(self, table_id: int, no: int, seats: Sequence[ResultSeat]) -> None:
        """The match's seats as rated again (a rebuild)."""
        ...

    async def put_rating(self, row: RatingRow) -> None: ...

    async def clear_ratings(self) -> None:
        """Forget every rating (a rebuild computes them again from the results)."""
        ...

    async def drop_deadline(self, table_id: int, kind: str) -> None: ...

    async def set_alive(self, at: float) -> None: ...

    async def owe(self, ref: str, chat_id: int, key: OutboxKey | None, what: str) -> None:
        """Something a chat is owed because of this unit's action (a deal's result, a match's
        result, a notice): ``ref`` its own name, ``key`` the message key it shows under (None:
        a one-off post), ``what`` the screen as data (:mod:`bot.runtime.owed`); a second
        entry of one ``ref`` is ignored."""

    async def shift_deadlines(self, by: float) -> None: ...

    async def add_try(self, row: DailyTry) -> None:
        """A person's try at the day's deal starts (one a day and game: a second fails)."""
        ...

    async def finish_try(self, table_id: int, score: int, at: float) -> None:
        """The try at the table is over with ``score`` (a finished one keeps its own)."""
        ...

    async def migrate_chat(self, old: int, new: int) -> bool:
        """A group became a supergroup: its chat row (title, language), tables (closed ones
        too) and standings follow the new id; the outbox's messages remembered in the old chat
        are forgotten (they can't be edited from the new one). False: nothing was left under
        ``old`` (already migrated), nothing changed."""
        ...


class Repository(Reads, MessageStore, Protocol):
    """Reads outside a transaction, writes in :meth:`unit`, and the outbox's message store."""

    def unit(self) -> AbstractAsyncContextManager[Writes]:
        """One unit of work: its writes commit together at the end, or not at all."""
        ...

    async def claim_post(
        self, chat_id: int, key: OutboxKey, at: float, lapsed_before: float
    ) -> bool:
        """Post ``key`` (one that goes once per chat: a game's record) is about to be queued:
        True for the one caller that claims it — nobody had, or the claim is older than
        ``lapsed_before`` (its post never showed: a kill, a failed send). One statement."""
        ...

    async def review(self, key: ReviewKey) -> str | None:
        """A deal's review as computed for ``key`` (its texts, JSON), None: not yet."""
        ...

    async def put_review(self, key: ReviewKey, body: str, marks: str = "[]") -> None:
        """Keep a deal's review once computed (a second one for the same key is dropped), with
        its replay marks (JSON)."""
        ...

    async def review_marks(self, table_id: int, match_no: int, locale: str) -> list[StoredMarks]:
        """The replay marks of every review of the table's match ``match_no`` stored in
        ``locale`` (one row a deal and seat reviewed)."""
        ...

    async def daily_secret(self, day: str, game: str, fresh: str) -> str:
        """The day's deal's secret; ``fresh`` is stored first when there is none (of workers
        asking together, the first to store it wins and all get its value). Never shown."""
        ...


class Store(Repository, Protocol):
    """What :func:`bot.storage.open_repository` opens: the repository, the update claims of
    :class:`bot.middlewares.updates.OnceOnly`, and what the operator's ``/healthz`` and ``check``
    ask."""

    async def claim_update(self, update_id: int, at: float) -> bool: ...

    async def prune_updates(self, before: float) -> None: ...

    async def ping(self) -> bool:
        """Whether the database answers."""
        ...

    async def schema_version(self) -> int: ...

    async def secret(self, name: SecretName, fresh: str) -> str:
        """The stored secret ``name``; ``fresh`` is stored first when there is none (of
        processes asking together, the first to store it wins and all get its value)."""
        ...

    async def count(self, table: str) -> int: ...

    async def close(self) -> None: ...
