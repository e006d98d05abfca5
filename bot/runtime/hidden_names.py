"""Names hidden on boards across chats: a person who chose so in /settings (``hidden``) is
«Player 1», «Player 2»… on ``/daily top`` and on the season's board of all groups — numbered in
the order he appears on each board, so the same number is the same person within a board. His
groups' own boards show his name, and so does any board shown to himself."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from bot.caches.people import People


async def hidden_numbers(
    people: People, user_ids: Iterable[int], seen_by: int | None
) -> Mapping[int, int]:
    """Of the people on a board (``user_ids`` in its order; 0: a computer's line), those who
    hide their names, each with his number on it (from 1); ``seen_by`` (the asker) never."""
    numbers: dict[int, int] = {}
    for user_id in user_ids:
        if not user_id or user_id == seen_by or user_id in numbers:
            continue
        if (await people.user_settings(user_id)).hidden:
            numbers[user_id] = len(numbers) + 1
    return numbers
