"""The table runtime: the one entry for every input that changes a table.

Routers parse an update and call one method here; it locks the table, checks the input, runs
the engine, commits one unit of work, and returns an :class:`~bot.runtime.outcome.Outcome`.
Nothing here sends anything or calls back up.

:class:`TableRuntime` is a facade over plain concerns, each built with what it needs (none
inherits another): the shared :class:`~bot.runtime.core.Context` (repository, people, clock,
locks, the tables in memory), :class:`~bot.runtime.lobby.Lobby`,
:class:`~bot.runtime.computers.Computers`, :class:`~bot.runtime.play.Play`,
:class:`~bot.runtime.absent.Absent`, :class:`~bot.runtime.closing.Closing`,
:class:`~bot.runtime.groups.Groups`,
:class:`~bot.runtime.redraw.Redraw`, and :class:`~bot.runtime.press.Presses`, which sends each
press and deadline to its handler.

A press, walked: ``bot.routers.lobby`` gets a callback query whose data
:class:`~bot.callbacks.PressFilter` parsed once into a frozen :class:`~bot.callbacks.Press`
(``act`` one of :class:`~bot.callbacks.LobbyAct`); the router calls :meth:`lobby_press` here,
which is :meth:`Presses.lobby_press <bot.runtime.press.Presses.lobby_press>`: the table locked
and loaded, its message and the presser's membership checked, then ``lobby_acts[press.act]``
picks one handler (✋ Join → :meth:`Lobby.join <bot.runtime.lobby.Lobby.join>`), which writes
its unit of work and returns the Outcome (the lobby's screen) that the router hands to the
presenter. A hand press goes the same way through :meth:`Presses.press
<bot.runtime.press.Presses.press>` (running table, own seat, the gate) to
:meth:`Play.card_press <bot.runtime.play.Play.card_press>` or :meth:`Absent.seat_press
<bot.runtime.absent.Absent.seat_press>`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Unpack

from bot.caches.members import Members
from bot.caches.people import People
from bot.callbacks import Press
from bot.clock import Clock
from bot.runtime import standings
from bot.runtime.absent import Absent, HandOver
from bot.runtime.closing import Closing
from bot.runtime.computers import Computers
from bot.runtime.core import Context, IsAdmin, NewGame, RuntimeOptions, Table
from bot.runtime.deals import Deals
from bot.runtime.groups import Groups
from bot.runtime.lobby import Lobby
from bot.runtime.outcome import Facts, Outcome
from bot.runtime.play import Play, PressSource
from bot.runtime.press import Presses
from bot.runtime.redraw import Redraw
from bot.runtime.scoreboard import Board
from bot.storage.protocol import Repository
from bot.storage.rows import Deadline, LedgerRow, OwedRef

__all__ = ["PressSource", "TableRuntime"]


class TableRuntime:
    """Composes the concerns; every method is one delegation to the concern that owns it."""

    def __init__(
        self, repo: Repository, people: People, members: Members, **options: Unpack[RuntimeOptions]
    ) -> None:
        self.ctx = Context(repo, people, members, **options)
        self.play = Play(self.ctx)
        self.lobby = Lobby(self.ctx, start_match=self.play.start_match)
        self.computers = Computers(self.ctx)
        self.closing = Closing(self.ctx)
        self.absent = Absent(self.ctx, play=self.play, lobby=self.lobby, closing=self.closing)
        self.groups = Groups(self.ctx, lobby=self.lobby, absent=self.absent, closing=self.closing)
        self.redraw = Redraw(self.ctx, play=self.play)
        self.presses = Presses(
            self.ctx,
            lobby=self.lobby,
            computers=self.computers,
            play=self.play,
            absent=self.absent,
            closing=self.closing,
            groups=self.groups,
            redraw=self.redraw,
        )

    # --- what the context holds ----------------------------------------------------------

    @property
    def repo(self) -> Repository:
        return self.ctx.repo

    @property
    def people(self) -> People:
        return self.ctx.people

    @property
    def members(self) -> Members:
        return self.ctx.members

    @property
    def deals(self) -> Deals:
        return self.ctx.deals

    @property
    def new_game(self) -> NewGame:
        return self.ctx.new_game

    @property
    def clock(self) -> Clock:
        return self.ctx.clock

    @property
    def turn_timeout(self) -> float:
        return self.ctx.turn_timeout

    @property
    def _tables(self) -> Mapping[int, Table]:
        return self.ctx.tables

    @property
    def toggle_gap(self) -> float:
        """§13: a person hands his seat over or takes it back once per this many seconds."""
        return self.absent.toggle_gap

    @toggle_gap.setter
    def toggle_gap(self, seconds: float) -> None:
        self.absent.toggle_gap = seconds

    @property
    def cards_gap(self) -> float:
        """The table's 🂠 sends a person's cards once per this many seconds."""
        return self.presses.cards_gap

    @cards_gap.setter
    def cards_gap(self, seconds: float) -> None:
        self.presses.cards_gap = seconds

    async def _load(self, table_id: int) -> Table | None:
        return await self.ctx.load(table_id)

    def forget(self, table_id: int) -> None:
        self.ctx.forget(table_id)

    async def facts(self, table: Table) -> Facts:
        return await self.ctx.facts(table)

    async def table_of(self, table_id: int) -> tuple[str, int] | None:
        return await self.ctx.table_of(table_id)

    async def open_table_id(self, chat_id: int, thread: int | None = None) -> int | None:
        return await self.ctx.open_table_id(chat_id, thread)

    async def ledger(
        self, *, chat_id: int | None = None, user_id: int | None = None
    ) -> list[LedgerRow]:
        return await self.ctx.ledger(chat_id=chat_id, user_id=user_id)

    async def deadlines(self) -> list[Deadline]:
        return await self.ctx.deadlines()

    async def boards(
        self, *, chat_id: int | None, user_id: int | None = None, game: str | None = None
    ) -> list[Board]:
        """/score's leaderboards (#35, :func:`bot.runtime.standings.boards`)."""
        return await standings.boards(self.ctx.repo, chat_id=chat_id, user_id=user_id, game=game)

    # --- presses and deadlines (bot.runtime.press) ------------------------------------------

    async def lobby_press(
        self, press: Press, user_id: int, name: str, key: str | None, is_admin: IsAdmin
    ) -> Outcome:
        return await self.presses.lobby_press(press, user_id, name, key, is_admin)

    async def end_press(
        self, press: Press, user_id: int, key: str | None, is_admin: IsAdmin
    ) -> Outcome:
        return await self.presses.end_press(press, user_id, key, is_admin)

    async def chart_press(
        self, press: Press, user_id: int, key: str | None, reply_to: int | None, shown: bool
    ) -> tuple[Outcome, str]:
        return await self.presses.chart_press(press, user_id, key, reply_to, shown)

    async def press(self, press: Press, data: str, user_id: int, source: PressSource) -> Outcome:
        return await self.presses.press(press, data, user_id, source)

    async def my_cards(self, table_id: int, user_id: int, query_id: str) -> tuple[Outcome, str]:
        return await self.presses.my_cards(table_id, user_id, query_id)

    async def ephemeral_failed(self, table_id: int, seat: int) -> Outcome:
        return await self.absent.ephemeral_failed(table_id, seat)

    async def due(self, deadline: Deadline) -> Outcome:
        return await self.presses.due(deadline)

    async def start_reached(
        self, table_id: int, generation: int, reached: dict[int, bool]
    ) -> Outcome:
        return await self.presses.start_reached(table_id, generation, reached)

    async def join_by_link(self, table_id: int, code: str, user_id: int, name: str) -> Outcome:
        return await self.presses.join_by_link(table_id, code, user_id, name)

    # --- the lobby (bot.runtime.lobby) ------------------------------------------------------

    async def seeded_options(
        self, chat_id: int, game: str, given: Mapping[str, str] | None = None
    ) -> dict[str, object]:
        return await self.lobby.seeded_options(chat_id, game, given)

    async def cancel_question(
        self,
        chat_id: int,
        user_id: int,
        is_admin: IsAdmin,
        reply_to: int,
        thread: int | None = None,
    ) -> Outcome:
        return await self.presses.cancel_question(chat_id, user_id, is_admin, reply_to, thread)

    async def lobby_expired(self, deadline: Deadline) -> Outcome:
        return await self.lobby.lobby_expired(deadline)

    # --- a running table (bot.runtime.play, bot.runtime.absent) -------------------------------

    async def refresh(self, table_id: int, seat: int, source: PressSource) -> Outcome:
        return await self.play.refresh(table_id, seat, source)

    async def my_hands(self, user_id: int, only: int | None = None) -> tuple[Outcome, int]:
        return await self.absent.my_hands(user_id, only)

    async def hand_over(self, table_id: int, seat: int, why: HandOver) -> Outcome:
        return await self.absent.hand_over(table_id, seat, why)

    async def member_left(self, chat_id: int, user_id: int) -> Outcome:
        return await self.absent.member_left(chat_id, user_id)

    async def unreachable(self, table_id: int, seat: int) -> Outcome:
        return await self.absent.unreachable(table_id, seat)

    # --- groups (bot.runtime.groups) --------------------------------------------------------

    async def open(
        self,
        chat_id: int,
        user_id: int,
        name: str,
        game: str,
        options: dict[str, str] | None = None,
        thread: int | None = None,
    ) -> Outcome:
        return await self.groups.open(chat_id, user_id, name, game, options, thread)

    async def kick(
        self,
        chat_id: int,
        target: tuple[int, str] | None,
        is_admin: IsAdmin,
        reply_to: int,
        thread: int | None = None,
    ) -> Outcome:
        return await self.groups.kick(chat_id, target, is_admin, reply_to, thread)

    async def lobbies_of(self, user_id: int) -> list[Facts]:
        return await self.groups.lobbies_of(user_id)

    async def bot_removed(self, chat_id: int) -> Outcome:
        return await self.groups.bot_removed(chat_id)

    async def topic_gone(self, table_id: int) -> Outcome:
        return await self.groups.topic_gone(table_id)

    async def toggle_notify(
        self, chat_id: int, user_id: int, reply_to: int, thread: int | None = None
    ) -> Outcome:
        return await self.groups.toggle_notify(chat_id, user_id, reply_to, thread)

    # --- screens drawn again (bot.runtime.redraw) ---------------------------------------------

    async def resume(self) -> list[tuple[Outcome, int]]:
        return await self.redraw.resume()

    async def held(self, owed: OwedRef, seconds: float) -> Outcome:
        return await self.redraw.held(owed, seconds)

    async def now_playing(
        self, chat_id: int, thread: int | None = None
    ) -> tuple[str, int, list[tuple[str, int]]] | None:
        return await self.redraw.now_playing(chat_id, thread)

    async def refresh_hands(self, user_id: int) -> Outcome:
        return await self.redraw.refresh_hands(user_id)

    async def refresh_chat(self, chat_id: int) -> Outcome:
        return await self.redraw.refresh_chat(chat_id)

    async def migrate_chat(self, old: int, new: int) -> Outcome:
        return await self.redraw.migrate_chat(old, new)
