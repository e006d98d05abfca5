"""A game's chart drawn off the event loop.

Drawing a chart is Pillow's CPU work (about 20 ms, more for a long game: :mod:`bot.render.chart`):
on the event loop it would hold every other chat's presses back meanwhile. So a chart is drawn in
a worker thread (the default executor's, as the computers' search, :mod:`bot.runtime.thinking`),
at most :data:`AT_ONCE` at a time — ten ``/record`` commands at once draw two by two and leave
the other threads to the computers. Each drawing is logged from its own thread with how long it
waited for its turn, its wall time and its thread's CPU time.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import time
from collections.abc import Sequence

from bot.i18n import Catalogues, Translator
from bot.render.games.charts import chart
from bot.runtime.outcome import ChartScreen, Outcome
from engine.core import Line

logger = logging.getLogger(__name__)
AT_ONCE = 2  # charts drawn at the same time, at most (a chart is one thread's CPU)


class Drawing:
    """Charts drawn in worker threads, ``at_once`` at a time at most; the others wait."""

    def __init__(self, catalogues: Catalogues, at_once: int = AT_ONCE) -> None:
        self.catalogues = catalogues
        self._slots = asyncio.Semaphore(at_once)
        self._drawing = 0  # charts being drawn now (for the log)

    async def chart(
        self,
        game: str,
        chat_title: str,
        no: int,
        names: Sequence[str],
        lines: Sequence[Line],
        tr: Translator,
    ) -> bytes | None:
        """The chart of a finished game as PNG bytes (None: its game has none), drawn in a
        worker thread (:func:`bot.render.games.charts.chart`)."""
        asked = time.perf_counter()
        async with self._slots:
            self._drawing += 1
            try:
                return await asyncio.to_thread(
                    _drawn,
                    game,
                    chat_title,
                    no,
                    tuple(names),
                    tuple(lines),
                    tr,
                    asked,
                    self._drawing,
                )
            finally:
                self._drawing -= 1

    async def drawn(self, outcome: Outcome) -> Outcome:
        """``outcome`` with every chart it shows drawn already (:attr:`ChartScreen.png`), so
        that presenting it draws nothing on the event loop."""
        screens = []
        for screen in outcome.screens:
            if isinstance(screen, ChartScreen) and screen.png is None:
                facts = screen.facts
                tr = self.catalogues.tr(facts.chat_locale)
                png = await self.chart(
                    facts.table.game,
                    facts.chat_title,
                    facts.match_no,
                    facts.names,
                    screen.lines,
                    tr,
                )
                screen = dataclasses.replace(screen, png=png)
            screens.append(screen)
        return dataclasses.replace(outcome, screens=tuple(screens))


def _drawn(
    game: str,
    chat_title: str,
    no: int,
    names: tuple[str, ...],
    lines: tuple[Line, ...],
    tr: Translator,
    asked: float,
    drawing: int,
) -> bytes | None:
    """The chart, in a worker thread; its times to the log (written from that thread)."""
    started, cpu = time.perf_counter(), time.thread_time()
    png = chart(game, chat_title, no, names, lines, tr)
    logger.info(
        "chart game=%s drawing=%d queued_ms=%.1f wall_ms=%.1f cpu_ms=%.1f",
        game,
        drawing,
        1000 * (started - asked),
        1000 * (time.perf_counter() - started),
        1000 * (time.thread_time() - cpu),
    )
    return png


__all__ = ["AT_ONCE", "Drawing"]
