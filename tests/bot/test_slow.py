"""Long turns and quiet hours as pure rules (bot/slow.py, bot/render/durations.py): the turn
times /newgame may type, when quiet hours end, how long a long-turn table waits, and how a
span of time reads."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.i18n import Catalogues, bundled_locales
from bot.render.durations import span
from bot.runtime.tables import turn_ends
from bot.slow import idle_time, quiet_until, typed_turn, zone
from bot.storage.rows import Deadline, DeadlineKind
from engine.errors import InvalidOption


def utc(day: int, hour: int, minute: int = 0) -> float:
    return datetime(2027, 6, day, hour, minute, tzinfo=UTC).timestamp()


@pytest.mark.parametrize(
    ("typed", "seconds"),
    [("12h", 43200), ("24H", 86400), ("90", 90), ("90s", 90), ("5m", 300), ("1h", 3600)],
)
def test_newgame_turn_takes_the_allowed_times_and_is_no_game_option(
    typed: str, seconds: int
) -> None:
    given = {"turn": typed, "target": "25"}
    assert typed_turn(given) == seconds
    assert given == {"target": "25"}  # taken out: the game never sees it


@pytest.mark.parametrize("typed", ["7h", "0", "12 hours", "h", "-1h", "100000h"])
def test_newgame_turn_refuses_other_times_naming_the_allowed(typed: str) -> None:
    with pytest.raises(InvalidOption) as refused:
        typed_turn({"turn": typed})
    assert refused.value.params["allowed"] == "30s 60s 90s 180s 300s 1h 6h 12h 24h"


def test_no_turn_typed_is_none() -> None:
    assert typed_turn({"target": "25"}) is None


def test_quiet_hours_are_23_to_08_in_the_persons_zone() -> None:
    moscow = zone("", "ru")  # his language's: ru is Moscow, UTC+3
    assert quiet_until(utc(1, 23), moscow) == utc(2, 5)  # 02:00 there: until 08:00
    assert quiet_until(utc(1, 20, 30), moscow) == utc(2, 5)  # 23:30: until tomorrow's 08:00
    assert quiet_until(utc(1, 5), moscow) is None  # 08:00 sharp: over
    assert quiet_until(utc(1, 19, 59), moscow) is None  # 22:59
    assert quiet_until(utc(1, 20), moscow) == utc(2, 5)  # 23:00 sharp: begun
    english = zone("", "en")
    assert quiet_until(utc(1, 23), english) == utc(2, 8)  # 23:00 in UTC
    assert quiet_until(utc(1, 23), zone("Asia/Vladivostok", "ru")) is None  # 09:00 there


def test_a_long_turn_table_waits_three_turns_for_a_move() -> None:
    assert idle_time(43200, 1800) == 3 * 43200
    assert idle_time(90, 1800) == 1800  # short turns: the operator's idle time
    assert idle_time(3600, 604800) == 604800  # never shorter than the operator's


def test_spans_read_in_seconds_minutes_and_hours() -> None:
    catalogues = Catalogues.load(bundled_locales())
    ru, en = catalogues.tr("ru"), catalogues.tr("en")
    assert [span(s, en) for s in (45, 600, 3600, 5400, 14400, 43140)] == [
        "45 s",
        "10 min",
        "1 h",
        "1 h 30 min",
        "4 h",
        "11 h 59 min",
    ]
    assert span(7200, ru) == "2 ч" and span(5400, ru) == "1 ч 30 мин" and span(90, ru) == "90 с"


def test_a_held_reminder_leaves_the_turn_ending_when_it_did() -> None:
    """Once a held reminder is sent its ``remind`` row says when it was sent (08:00), not a third
    before the end: the stored end (``turn``) is when the turn ends, whatever the rows' order."""
    sent = Deadline(1, DeadlineKind.REMIND, utc(2, 5), 4)
    end = Deadline(1, DeadlineKind.TURN, utc(2, 7), 4)
    for stored in ([sent, end], [end, sent]):
        assert turn_ends(stored, 4, 86400) == utc(2, 7)
    assert turn_ends([sent], 4, 86400) == utc(2, 5) + 86400 / 3  # not reminded yet
    assert turn_ends([sent, end], 5, 86400) is None  # another move's
