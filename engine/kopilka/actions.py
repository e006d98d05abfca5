"""Копилка's actions and their notation (RULES.md §2.4; RECORD.md §R4, §R7.2).

Копилка's moves are the shared ``card X``, ``buy k`` and ``pass`` (:mod:`engine.actions`).
"""

from __future__ import annotations

from engine.actions import Buy, Pass, PlayCard, parse_shared

KopilkaAction = PlayCard | Buy | Pass
"""Every action of Копилка."""

ACTIONS = (PlayCard, Buy, Pass)


def parse_action(text: str) -> KopilkaAction:
    """Read a Копилка action in RECORD.md §R4 notation.

    >>> parse_action("card 10H"), parse_action("buy 2"), parse_action("pass")
    (PlayCard(card=Card.parse('10H')), Buy(k=2), Pass())
    """
    return parse_shared(text, ACTIONS)
