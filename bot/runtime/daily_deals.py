"""The day's deal's setting and its chance (STYLE.md §6): the one typed place that says how
each game's day's deal is played, and where its cards come from.

Each UTC day and game has one secret, 32 bytes from ``secrets``, stored once (the first worker
to store it wins; :meth:`~bot.storage.protocol.Repository.daily_secret`). Two seeds derive
from it by HMAC, apart from each other: the decks' (every shuffle and take of every try at it,
``random.Random`` over that seed, so the same actions meet the same cards) and the record's
``seed`` label, which seeds the computers (``f"{label}:{seat}:{ply}"``, as at every table), so
the same actions get the same answers. Neither seed shows the other nor the secret: the label
is in the records of the people who played it, the decks' seed nowhere, the secret never."""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType
from typing import Final

from bot.runtime.deals import LABEL_BITS
from bot.storage.protocol import Reads
from bot.storage.rows import TableRow
from engine.chance import Chance, ResumedChance, SeededChance, StackedChance
from engine.core import Line, State
from engine.lines import LineKind, first, has

SEATS: Final = 4  # the person and three computers, in every game
SEAT: Final = 0  # the person's seat (the first dealer is drawn, the same for everyone)
LEVEL: Final = "normal"  # the computers everyone meets
SECRET_BYTES: Final = 32


class DailyEnd(StrEnum):
    """Where a try at the day's deal ends."""

    DEAL = "deal"  # with its first deal (the engine's match goes on: the table closes there)
    MATCH = "match"  # with the match (Копилка's partia; Лентюрлю's one deal)


class DailyTold(StrEnum):
    """Whom a try's result is told to, and when."""

    ENDED = "ended"  # the person, as his try ends
    AGAIN = "again"  # the person, at a second /daily the same day
    GROUP = "group"  # the group he started it from: one line


class DailyScore(StrEnum):
    """How a try's score reads (always higher is better)."""

    WRITTEN_OFF = "written_off"  # the trick family: points written off, less the remise
    NET = "net"  # the money won or lost (Копилка, Лентюрлю)
    POINTS = "points"  # the deal's points (Кончинка)


@dataclass(frozen=True, slots=True)
class DailySetup:
    """A game's day's deal: its options (over RULES.md's defaults), where the try ends and
    how its score reads."""

    options: Mapping[str, str]
    ends: DailyEnd
    scored: DailyScore


TRICK: Final = DailySetup(MappingProxyType({"target": "10"}), DailyEnd.DEAL, DailyScore.WRITTEN_OFF)
SETUPS: Final[Mapping[str, DailySetup]] = MappingProxyType(
    {
        "mushka": TRICK,
        "pamfil": TRICK,
        "shutikha": TRICK,
        "mistigri": TRICK,
        "kopilka": DailySetup(MappingProxyType({}), DailyEnd.MATCH, DailyScore.NET),
        "lenturlu": DailySetup(MappingProxyType({}), DailyEnd.MATCH, DailyScore.NET),
        "konchinka": DailySetup(MappingProxyType({}), DailyEnd.DEAL, DailyScore.POINTS),
    }
)
"""Every game's day's deal, in RULES.md order."""


def day_of(at: float) -> str:
    """The UTC day of the wall-clock time ``at``: ``YYYY-MM-DD``."""
    return time.strftime("%Y-%m-%d", time.gmtime(at))


def fresh_secret() -> str:
    return secrets.token_hex(SECRET_BYTES)


def _derived(secret: str, purpose: bytes) -> bytes:
    return hmac.digest(bytes.fromhex(secret), purpose, hashlib.sha256)


def label_of(secret: str) -> int:
    """The record's seed (the computers' too): :data:`LABEL_BITS` bits of its own HMAC."""
    return int.from_bytes(_derived(secret, b"label")) >> (256 - LABEL_BITS)


def deck_seed(secret: str) -> int:
    return int.from_bytes(_derived(secret, b"deck"))


@dataclass(frozen=True, slots=True)
class DailyDeals:
    """A day's deal's chance (:class:`bot.runtime.deals.Deals`): the same for every try."""

    secret: str

    def fresh(self) -> tuple[int, Chance]:
        return label_of(self.secret), SeededChance.from_seed(deck_seed(self.secret))

    def resumed(self, seed: int, given: StackedChance) -> Chance:
        return ResumedChance(given, SeededChance.from_seed(deck_seed(self.secret)), shadow=True)


async def daily_deals(repo: Reads, table_id: int) -> DailyDeals:
    """The chance of the day's deal played at the table (its try and secret stored first)."""
    tried = await repo.daily_try_at(table_id)
    assert tried is not None  # stored in the unit that opened the table
    secret = await repo.stored_daily_secret(tried.day, tried.game)
    assert secret is not None  # stored before the table opened
    return DailyDeals(secret)


def try_over(game: str, lines: Sequence[Line]) -> bool:
    """Whether ``lines`` (one step's) end a try at the game's day's deal."""
    setup = SETUPS[game]
    return has(lines, LineKind.END if setup.ends is DailyEnd.MATCH else LineKind.DEAL_END)


def daily_over(row: TableRow, lines: Sequence[Line]) -> bool:
    """Whether ``lines`` (one step's) end the try at the day's deal played at ``row``."""
    return row.daily and try_over(row.game, lines)


def score_of(game: str, lines: Sequence[Line], state: State) -> int:
    """The person's score of the try that ``lines`` ended (:func:`try_over`)."""
    setup = SETUPS[game]
    if setup.ends is DailyEnd.MATCH:
        result = state.result
        assert result is not None  # the match is over
        return result.net[SEAT]
    end = first(lines, LineKind.DEAL_END)
    assert end is not None
    mine = next(s for s in end["seats"] if s["seat"] == SEAT)
    if setup.scored is DailyScore.WRITTEN_OFF:
        return int(mine.get("written_off", 0)) - int(mine.get("remise", 0))
    return int(mine["points"])
