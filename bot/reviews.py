"""A finished deal's review for one viewer (🔎): who may open it, and its texts — computed
off the event loop once, then kept in storage for every later page and every worker.

Who. A day's deal's is opened only to a person who finished his own try at it that day
(:mod:`bot.runtime.daily`). A deal still being played has no review (its record goes only up
to its deal line: the engine reviews finished deals alone, so no running deal's cards show
through it). A deal
over is reviewed for a person who sat at it (his own decisions summed up first); for anyone
else only once the whole match is over (its every card is public then, as its record is).

Where the work runs. The review's search takes up to a couple of seconds of CPU: it never runs
under a table's lock nor on the event loop. This is a read (as /record's is, no command): the
record is rebuilt from what is stored, the right checked, and the search runs in a worker
thread (:func:`asyncio.to_thread`), at most :data:`AT_ONCE` at a time; the same review asked
again while it is computed waits for that one. Its texts are stored (``reviews``) before they
are shown, so a page, a restart or another worker reads them and never searches again — nor
replays the record: a review stored for his seat was his to read, and still is (a deal once
over stays over, a match once over too, and a record never changes: never stale either).
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from bot.i18n import Translator
from bot.message_limits import MAX_TEXT, truncate
from bot.records import GameRecord, Records
from bot.render.games import game_ui
from bot.render.replay_html import ReplayMark, review_marks
from bot.render.review import step_text, summary_text
from bot.render.review_chat import NotYet
from bot.render.table_context import TableContext
from bot.runtime.outcome import events_of
from bot.storage.protocol import Repository
from bot.storage.reviews_sql import ReviewKey
from bot.storage.rows import TableRow
from engine.review import DealReview, deal_numbers, review_deal

logger = logging.getLogger(__name__)

AT_ONCE = 1  # reviews computed at the same time, at most (one is a thread's CPU for a while)
ON_RECORD = 6  # reviews /record computes for its page's marks, at most (~0.5 s CPU each)
NOBODY = -1  # the seat of a viewer who did not play the deal (no decisions of his)


@dataclass(frozen=True, slots=True)
class ReviewPages:
    """A deal's review as one viewer reads it: the summary of his decisions ("": none) and
    each step's text, in order (step 0: the deal as dealt; the last: its end)."""

    key: ReviewKey
    summary: str
    steps: tuple[str, ...]

    def step(self, index: int) -> str | None:
        """Step ``index``'s text; None: there is no such step."""
        return self.steps[index] if 0 <= index < len(self.steps) else None


@dataclass(frozen=True, slots=True)
class Computed:
    """A review just computed: its pages, and the viewer's costliest decisions as the replay
    page marks them (none for a viewer who did not play the deal)."""

    pages: ReviewPages
    marks: tuple[ReplayMark, ...]


@dataclass(frozen=True, slots=True)
class PageMarks:
    """The marks a game's replay page carries: of every deal reviewed in its language, and
    which deals those are (the rest carry none)."""

    marks: tuple[ReplayMark, ...]
    deals: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Opened:
    """A review the viewer may read, and the table it is of (where its hands go)."""

    table: TableRow
    pages: ReviewPages


def search_seed(key: ReviewKey) -> int:
    """The review's search seed: the deal's own, so every worker computes the same review."""
    return (key.table_id * 1_000 + key.match_no) * 1_000 + key.deal_no


def compute(record: GameRecord, key: ReviewKey, tr: Translator) -> Computed:
    """The review's texts and marks (CPU: run in a worker thread)."""
    seats = () if key.seat == NOBODY else (key.seat,)
    review = review_deal(list(record.lines), key.deal_no, search_seed(key), seats=seats)
    names = record.names
    summary = "" if key.seat == NOBODY else summary_text(review, key.seat, tr, names)
    steps: list[str] = [step_text(review, i, tr, names) for i in range(len(review.steps))]
    result = result_text(record, review, tr)
    if result:  # the last step: and the deal's result, as the group was shown it
        steps[-1] = truncate(f"{steps[-1]}\n\n{result}", MAX_TEXT)
    marks = () if key.seat == NOBODY else review_marks(review, tr)
    return Computed(ReviewPages(key, summary, tuple(steps)), marks)


def result_text(record: GameRecord, review: DealReview, tr: Translator) -> str:
    """The deal's result (its 📋 text) as the family's screens word it, from the state the
    deal ended in — as a restart draws an owed result again ("" for a game without screens)."""
    table = record.table
    ui = game_ui(table.game)
    if ui is None:
        return ""
    state = review.steps[-1].state
    ctx = TableContext(
        table_id=table.id,
        game=table.game,
        chat_title="",
        names=record.names,
        match_no=record.no,
        moves=table.moves,
        bot_username="",
        options=table.options,
        practice=table.practice,
        teaching=table.teaching,
    )
    return ui.deal_result(ctx, events_of(state.record()), state.view(None), tr)


def timed(record: GameRecord, key: ReviewKey, tr: Translator) -> tuple[Computed, float]:
    """:func:`compute`, and the CPU seconds its thread spent."""
    started = time.thread_time()
    done = compute(record, key, tr)
    return done, time.thread_time() - started


def body_of(pages: ReviewPages) -> str:
    return json.dumps([pages.summary, *pages.steps], ensure_ascii=False)


def pages_of(key: ReviewKey, body: str) -> ReviewPages:
    summary, *steps = json.loads(body)
    return ReviewPages(key, str(summary), tuple(str(s) for s in steps))


def marks_body(marks: tuple[ReplayMark, ...]) -> str:
    return json.dumps([[m.deal, m.step, m.text] for m in marks], ensure_ascii=False)


def marks_of(body: str) -> tuple[ReplayMark, ...]:
    return tuple(ReplayMark(int(d), int(s), str(t)) for d, s, t in json.loads(body))


class Reviews:
    """The deals' reviews for the chat's 🔎 (see the module)."""

    def __init__(self, repo: Repository, records: Records) -> None:
        self.repo = repo
        self.records = records
        self._at_once = asyncio.Semaphore(AT_ONCE)
        self._computing: dict[ReviewKey, asyncio.Task[Computed]] = {}
        self.computed = 0  # reviews this process searched (the rest were read back)

    async def pages(
        self,
        table_id: int,
        match_no: int,
        deal_no: int,
        user_id: int,
        tr: Translator,
        *,
        before_search: Callable[[TableRow], Awaitable[None]] | None = None,
    ) -> Opened | NotYet | None:
        """Deal ``deal_no`` of the table's match ``match_no`` as ``user_id`` may read it;
        None: no such table, match or deal (a stale or forged press). ``before_search``: run
        once his right is checked and before the search starts, only if it must (it may
        refuse: nothing is computed then)."""
        table = await self.repo.table(table_id)
        if table is None:
            return None
        if table.daily and not await self._played(table_id, user_id):
            mine = await self.repo.daily_try_at(table_id)
            return NotYet.MATCH_RUNNING if mine and mine.user_id == user_id else None
        seats = await self.repo.seats(table_id)
        seat = next((s.seat for s in seats if s.user_id == user_id), NOBODY)
        key = ReviewKey(table_id, match_no, deal_no, seat, tr.locale)
        body = await self.repo.review(key)
        if body is not None:  # stored once he might read it, and he still may: a page
            return Opened(table, pages_of(key, body))
        record = next((r for r in await self.records.of_table(table) if r.no == match_no), None)
        if record is None:
            return None
        why = closed(record, deal_no, seat)
        if why is not None:
            return why
        if before_search is not None:
            await before_search(table)
        return Opened(table, (await self._computed(record, key, tr)).pages)

    async def _played(self, table_id: int, user_id: int) -> bool:
        """Whether the person finished his own try at the day's deal played at the table: its
        cards are his to review then, never before (nor anyone's who has not played it)."""
        tried = await self.repo.daily_try_at(table_id)
        if tried is None:
            return False
        mine = await self.repo.daily_try(tried.day, tried.game, user_id)
        return mine is not None and mine.finished

    async def page_marks(
        self, record: GameRecord, tr: Translator, *, budget: int = ON_RECORD
    ) -> PageMarks:
        """The marks of the finished game ``record``'s replay page in ``tr``'s language: every
        stored review's, and — if at most ``budget`` deals×seats of its people are not yet
        reviewed — those computed now (off the event loop, as a 🔎 is); else only the stored."""
        table = record.table
        stored = await self.repo.review_marks(table.id, record.no, tr.locale)
        found = {(s.deal_no, s.seat): marks_of(s.marks) for s in stored}
        people = [s.seat for s in await self.repo.seats(table.id) if s.user_id is not None]
        missing = [
            ReviewKey(table.id, record.no, deal, seat, tr.locale)
            for deal in deal_numbers(record.lines)
            for seat in people
            if (deal, seat) not in found
        ]
        if record.over and len(missing) <= budget:
            for key in missing:
                found[key.deal_no, key.seat] = (await self._computed(record, key, tr)).marks
        marks = sorted((m for ms in found.values() for m in ms), key=lambda m: (m.deal, m.step))
        deals = tuple(sorted({m.deal for m in marks}))
        return PageMarks(tuple(marks), deals)

    async def _computed(self, record: GameRecord, key: ReviewKey, tr: Translator) -> Computed:
        """Computed once in this process however often it is asked meanwhile, then stored."""
        task = self._computing.get(key)
        if task is None:
            task = asyncio.create_task(self._compute(record, key, tr))
            self._computing[key] = task
            task.add_done_callback(lambda _: self._computing.pop(key, None))
        return await asyncio.shield(task)

    async def _compute(self, record: GameRecord, key: ReviewKey, tr: Translator) -> Computed:
        async with self._at_once:
            done, cpu_s = await asyncio.to_thread(timed, record, key, tr)
            self.computed += 1
        logger.info(
            "review table=%d match=%d deal=%d seat=%d steps=%d cpu_ms=%.0f",
            key.table_id,
            key.match_no,
            key.deal_no,
            key.seat,
            len(done.pages.steps),
            cpu_s * 1000,
        )
        await self.repo.put_review(key, body_of(done.pages), marks_body(done.marks))
        return done


def closed(record: GameRecord, deal_no: int, seat: int) -> NotYet | None:
    """Why the viewer at ``seat`` may not read deal ``deal_no`` of ``record`` (None: he may)."""
    if deal_no not in deal_numbers(record.lines):
        return NotYet.UNFINISHED if record.over else NotYet.DEAL_RUNNING
    if seat == NOBODY and not record.over:
        return NotYet.MATCH_RUNNING
    return None
