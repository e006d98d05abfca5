"""Game records for players and operators (PRODUCT.md §18): every match a table played,
rebuilt from the action log as its RECORD.md record (its readable transcript is
:mod:`bot.render.transcript`'s).

A record is handed to players only once its game is over (or abandoned): before that it would
reveal the deck. The operator's export takes running games too, up to now.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bot.clock import Clock
from bot.keys import MessageKey
from bot.runtime.deals import stored_chance
from bot.storage.protocol import Reads, Repository
from bot.storage.rows import TableRow, TableStatus
from engine.core import Line, Result, State
from engine.record import write_jsonl

NewGame = Callable[..., State]
CLAIM_LAPSE_S = 120.0
"""A record claimed for a chat and never shown there (the bot killed before it went, Telegram
refusing it) may be claimed again after this many seconds."""


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One match of a table as its record; ``over``: finished or abandoned (never running)."""

    table: TableRow
    no: int
    names: tuple[str, ...]
    lines: tuple[Line, ...]
    over: bool
    result: Result | None = None  # how it ended (None: running)

    @property
    def filename(self) -> str:
        return f"{self.table.game}-{abs(self.table.chat_id)}-{self.table.id}-{self.no}"

    @property
    def key(self) -> MessageKey:
        """Its record's message key in a chat it is sent to (its ``.jsonl``)."""
        return MessageKey.record(self.table.id, self.no)


class RecordPosts:
    """A game's record goes to a chat once (a group, or a player's private chat): whoever asks
    first claims it — one statement, so of several workers asking at once one wins — and a
    later ask is pointed to the post. A claim whose post never showed lapses
    (:data:`CLAIM_LAPSE_S`)."""

    def __init__(self, repo: Repository, clock: Clock) -> None:
        self.repo = repo
        self.clock = clock

    async def claim(self, chat_id: int, record: GameRecord) -> bool:
        """Whether this ask is the one that sends ``record`` to the chat."""
        now = self.clock()
        return await self.repo.claim_post(chat_id, record.key, now, now - CLAIM_LAPSE_S)


class Records:
    def __init__(self, repo: Reads, new_game_fn: NewGame) -> None:
        self.repo = repo
        self._new_game = new_game_fn

    async def of_table(self, table: TableRow, *, snapshot: bool = False) -> list[GameRecord]:
        """Every match of the table, in order (a match cut off by closing the table is
        abandoned, §0.11; the running one is as far as it got — or, with ``snapshot``, ends
        there with RECORD.md §R5.7's abandoned line, since a record always ends, §R1.3)."""
        matches = await self.repo.matches(table.id)
        if not matches:
            return []
        seats = await self.repo.seats(table.id)
        names = tuple(s.name for s in seats)
        log = await self.repo.actions(table.id, matches[0].first_seq)
        start = matches[0].first_seq
        draws = await self.repo.draws(table.id, start)
        out = []
        for k, match in enumerate(matches):
            end = matches[k + 1].first_seq if k + 1 < len(matches) else None
            actions = log[match.first_seq - start : None if end is None else end - start]
            chance = stored_chance(match, draws, end)  # the decks as drawn (None: the seed's)
            state = self._new_game(
                table.game,
                len(seats),
                match.seed,
                table.options,
                chance=chance,
                prev_dealer=match.prev_dealer,
            )
            for seat, action in actions:
                state.apply(seat, action)
            running = end is None and table.status == TableStatus.RUNNING
            if not state.is_over and (snapshot or not running):
                state.abandon()
                running = running and not snapshot
            over = state.is_over and not running
            result = state.result if over else None
            out.append(GameRecord(table, match.no, names, tuple(state.record()), over, result))
        return out

    async def last_over(
        self, *, chat_id: int | None = None, user_id: int | None = None
    ) -> GameRecord | None:
        """The newest finished (or abandoned) match of a chat, or of a player anywhere."""
        for table in await self.repo.tables(chat_id=chat_id, user_id=user_id):
            over = [r for r in await self.of_table(table) if r.over]
            if over:
                return over[-1]
        return None

    async def export(self) -> list[tuple[str, str]]:
        """Every table's matches as RECORD.md JSON Lines, one file per table: its name and
        text, oldest table first."""
        files = []
        for table in reversed(await self.repo.tables()):
            records = await self.of_table(table, snapshot=True)
            if records:
                text = "".join(write_jsonl(r.lines) for r in records)
                files.append((f"table-{table.id}-{table.game}.jsonl", text))
        return files
