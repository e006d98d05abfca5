"""Computer seats' names, per locale (PRODUCT.md §4.2 "Add computer"): a seat's stored name, and
which computer a name is."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

NAMES: Final[dict[str, tuple[str, ...]]] = {
    "ru": ("Фёдор", "Марфа", "Тихон", "Прасковья", "Савелий", "Агафья", "Ерофей"),
    "en": ("Fyodor", "Marfa", "Tikhon", "Praskovya", "Savely", "Agafya", "Yerofey"),
}
"""Enough for every seat but one (a table seats at most 8, at least one of them a person)."""


def computer_name(locale: str, index: int) -> str:
    """The seat name of the ``index``-th computer, as the chat's language has it then."""
    return f"🤖 {NAMES.get(locale, NAMES['en'])[index]}"


def name_index(name: str) -> int | None:
    """Which computer a seat name is (the same in every locale), if it is one of ours."""
    for names in NAMES.values():
        for index, plain in enumerate(names):
            if name == f"🤖 {plain}":
                return index
    return None


def next_index(seated: Iterable[str]) -> int | None:
    """The first computer not seated yet (None: all are)."""
    taken = {name_index(name) for name in seated}
    return next((i for i in range(len(NAMES["en"])) if i not in taken), None)
