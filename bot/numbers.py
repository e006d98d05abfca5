"""Figures as the screens write them: a real minus sign (−5, never -5), a change with its
plus."""

from __future__ import annotations


def num(value: int) -> str:
    """``5`` / ``−7`` / ``0``: a count or any figure without a plus (a real minus sign)."""
    return f"−{-value}" if value < 0 else str(value)


def whole(value: int) -> str:
    """``27`` / ``−9``: a figure that is no change (a rating), with a real minus sign."""
    return f"−{-value}" if value < 0 else str(value)


def signed(value: int) -> str:
    """``+27`` / ``−9`` / ``0`` (a real minus sign)."""
    if value > 0:
        return f"+{value}"
    if value < 0:
        return f"−{-value}"
    return "0"
