"""Figures as the screens write them: a real minus sign (−5, never -5), a change with its
plus."""

from __future__ import annotations


def num(value: int) -> str:
    """``5`` / ``−7`` / ``0``: a count or any figure without a plus (a real minus sign)."""
    return f"−{-value}" if value < 0 else str(value)


RATING_BASE = 1000
"""Where a rating starts as the players read it: the model's conservative figure (0 for a
newcomer, :func:`bot.rating.shown`) is shown from this base, so a first game lost reads
``996 (−4)``, never a negative figure beside the money (PRODUCT.md §20). Only the showing adds
it: the stored figures and the model stay as they are."""


def rating(value: int) -> str:
    """``1013`` / ``996``: a rating as shown (:data:`RATING_BASE` added; a real minus sign if
    it ever falls below the base's reach)."""
    return num(RATING_BASE + value)


def signed(value: int) -> str:
    """``+27`` / ``−9`` / ``0`` (a real minus sign)."""
    if value > 0:
        return f"+{value}"
    if value < 0:
        return f"−{-value}"
    return "0"
