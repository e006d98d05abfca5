"""The reliability proofs' figures: each proof adds what it tried (kills, forged
presses, 429s) to its test's report (``user_properties``, which pytest-xdist carries from a
worker to the run's summary too); ``tests/bot/conftest.py`` prints their sums at the end."""

from __future__ import annotations

from collections.abc import Iterable

import pytest

FIGURE = "figure: "  # the prefix of a figure among a report's user properties


def add_figure(request: pytest.FixtureRequest, name: str, value: int) -> None:
    """Add ``value`` to one of the run's proof figures (its sum is printed at the end)."""
    item = request.node
    assert isinstance(item, pytest.Item), item
    item.user_properties.append((FIGURE + name, value))


def figures_of(reports: Iterable[object]) -> dict[str, int]:
    """The figures' sums over the tests' reports (each test's call report counts once)."""
    figures: dict[str, int] = {}
    for report in reports:
        if not isinstance(report, pytest.TestReport) or report.when != "call":
            continue
        for key, value in report.user_properties:
            if isinstance(key, str) and key.startswith(FIGURE) and isinstance(value, int):
                name = key.removeprefix(FIGURE)
                figures[name] = figures.get(name, 0) + value
    return figures
