"""Charts drawn off the event loop (bot/drawing.py): each in a worker thread, never more than the
bound at once however many are asked for together, and the same picture as drawn in place."""

from __future__ import annotations

import asyncio
import logging
import re
import threading

import pytest

from bot.drawing import Drawing
from bot.render.games.charts import chart
from tests.bot.test_chart import CATALOGUES, NAMES, RU, golden

ASKED = 6
BOUND = 2
DRAWING = re.compile(r"drawing=(\d+)")


async def test_charts_asked_together_are_drawn_in_worker_threads_two_at_a_time(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO, logger="bot.drawing")
    record = golden("mushka-3p-target5")[0]
    names = NAMES[:3]
    drawing = Drawing(CATALOGUES, at_once=BOUND)
    pngs = await asyncio.gather(
        *(drawing.chart("mushka", "Пятница", 1, names, record, RU) for _ in range(ASKED))
    )
    assert set(pngs) == {chart("mushka", "Пятница", 1, names, record, RU)}
    drawn = [r for r in caplog.records if r.name == "bot.drawing"]
    assert len(drawn) == ASKED
    assert all(r.thread != threading.get_ident() for r in drawn)  # none on the event loop's
    at_once = [int(m.group(1)) for r in drawn if (m := DRAWING.search(r.getMessage()))]
    assert len(at_once) == ASKED and max(at_once) <= BOUND
