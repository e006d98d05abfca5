"""``/score season [game] [YYYY-MM] [all]``: a month's boards (:mod:`bot.runtime.seasons`) —
the group's, or across groups with ``all`` (in private always); the current month unless one
is named. The words come in any order; a wrong one is answered with what is expected, and
nothing is read."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from bot.caches.people import People
from bot.game_names import game_code
from bot.i18n import Translator
from bot.markup import Html
from bot.render import seasons as season_screen
from bot.runtime.hidden_names import hidden_numbers
from bot.runtime.seasons import Month, SeasonBoard, Seasons

SEASON_WORDS = frozenset({"season", "сезон"})
"""/score's first word that asks for a season."""
ALL_WORDS = frozenset({"all", "все", "всё"})
"""The word that asks for the boards across groups."""
_LIKE_MONTH = re.compile(r"\d{2,4}[-./]\d{1,2}")


@dataclass(frozen=True, slots=True)
class SeasonAsked:
    """What ``/score season …`` asks: a month, one game or all, here or across groups."""

    month: Month
    game: str | None
    everywhere: bool


def asked(words: Sequence[str], now: Month, tr: Translator) -> SeasonAsked | Html:
    """The words after ``season`` read; a refusal's text for a word that is none of them, a
    month that does not exist or has not come yet."""
    month: Month | None = None
    game: str | None = None
    everywhere = False
    for word in words:
        if word in ALL_WORDS and not everywhere:
            everywhere = True
        elif (named := Month.parse(word)) is not None and month is None:
            if named > now:
                return tr.html("The season {month} has not begun yet.", month=word)
            month = named
        elif _LIKE_MONTH.fullmatch(word):
            return tr.html("No such month: {month}. Write it as {example}.", month=word,
                           example=str(now))  # fmt: skip
        elif (code := game_code(word)) is not None and game is None:
            game = code
        else:
            return season_screen.usage(tr)
    return SeasonAsked(month or now, game, everywhere)


async def season_pages(
    words: Sequence[str],
    title: str,
    chat_id: int | None,
    seen_by: int | None,
    seasons: Seasons,
    people: People,
    tr: Translator,
) -> list[Html]:
    """The answer to ``/score season …`` in the group ``title`` (``chat_id`` None: in
    private — across groups), shown to ``seen_by`` alone (None: to a group): across groups,
    whoever hides his name there is numbered instead (but to himself)."""
    now = seasons.now()
    ask = asked(words, now, tr)
    if not isinstance(ask, SeasonAsked):
        return [ask]
    here = None if ask.everywhere else chat_id
    boards = await seasons.boards(ask.month, chat_id=here, game=ask.game)
    if here is None:
        boards = [
            replace(b, hidden=await hidden_numbers(people, _people(b), seen_by)) for b in boards
        ]
    shown_title = title if here is not None else ""
    return season_screen.season(shown_title, ask.month, boards, tr, running=ask.month == now)


def _people(board: SeasonBoard) -> list[int]:
    """The people on a board in its order (placed, then not yet); 0 for a computer's line."""
    return [0 if x.level else x.user_id for x in (*board.placed, *board.unplaced)]
