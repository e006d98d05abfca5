"""What a game's result and /score show beyond the game, as data: the chat's all-time money of
the people seated (:class:`LedgerLine`), each seat's rating change (:class:`Rated`), the
leaderboards (:class:`Board`). Built by :mod:`bot.runtime.standings`; drawn by
:mod:`bot.render.results` and :mod:`bot.render.score`."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class LedgerLine:
    """One player's all-time line in a chat for one game (for results and /score)."""

    user_id: int
    name: str
    balance: int
    played: int
    won: int


@dataclass(frozen=True, slots=True)
class Rated:
    """One seat's rating in the chat after the game just ended, and its change;
    ``computer``: the computer made most of its person's decisions — the seat was rated as the
    computer, not as him."""

    name: str
    rating: int
    change: int
    computer: bool = False


@dataclass(frozen=True, slots=True)
class BoardLine:
    """One line of a game's leaderboard: a person (``name``) or a computer ``level``; the
    rating (None: no game rated yet — played before ratings), games (``people``: of the rated
    ones, those where another person made his own decisions), money and the game's own
    points."""

    user_id: int
    name: str
    level: str
    rating: int | None
    games: int
    people: int
    money: int
    points: int = 0


@dataclass(frozen=True, slots=True)
class Board:
    """A game's leaderboard in a chat (or a person's lines across chats): best first."""

    game: str
    entries: tuple[BoardLine, ...]

    def rank(self, user_id: int) -> int | None:
        """The person's place among the rated (1 best; None: not rated here)."""
        rated = [e for e in self.entries if e.rating is not None]
        for i, e in enumerate(rated, start=1):
            if e.user_id == user_id and not e.level:
                return i
        return None


@dataclass(frozen=True, slots=True)
class Standings:
    """What a game's result says beyond the game: the chat's all-time money of the people
    seated, and each seat's rating change (none for a game before ratings, or abandoned)."""

    ledger: tuple[LedgerLine, ...] = ()
    rated: tuple[Rated, ...] = ()
