"""The clock type every part is handed (never read from a global): seconds, wall or monotonic."""

from __future__ import annotations

from collections.abc import Callable

Clock = Callable[[], float]
"""A function of no arguments returning seconds (``time.time``, ``time.monotonic``, a test's)."""
