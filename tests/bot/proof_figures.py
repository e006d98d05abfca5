"""The reliability proofs' figures (issue #17): each proof adds what it tried (kills, forged
presses, 429s); ``tests/bot/conftest.py`` prints them at the session's end."""

from __future__ import annotations

import pytest

FIGURES = pytest.StashKey[dict[str, int]]()


def add_figure(config: pytest.Config, name: str, value: int) -> None:
    """Add ``value`` to one of the session's proof figures (printed at the session's end)."""
    figures = config.stash.setdefault(FIGURES, {})
    figures[name] = figures.get(name, 0) + value


def figures_of(config: pytest.Config) -> dict[str, int]:
    figures: dict[str, int] = config.stash.get(FIGURES, {})
    return dict(figures)
