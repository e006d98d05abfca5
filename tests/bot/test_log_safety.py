"""What someone types never drives the operator's terminal: a command, a name, an
inline query with escape codes, line breaks or other unprintable characters reach the log
only escaped visibly, whichever logger writes the line, and a long value is cut."""

from __future__ import annotations

import logging
import sys

import pytest

from bot.app import RunningBot
from bot.logsafe import LIMIT, safe
from bot.middlewares.updates import KeyValueFormatter
from tests.bot.helpers import lobby_message
from tests.fakeapi import FakeTelegram

CLEAR = "\x1b[2J\x1b[H"  # an ANSI "clear the screen, cursor home"
NASTY = ["\x1b", "\n", "\r", "\x07", "\x7f", "\x9b", "\u2028", "\u202e", "\ud800", "\u200b"]


def unprintable(text: str) -> list[str]:
    return [c for c in text if not c.isprintable()]


def lines_of(caplog: pytest.LogCaptureFixture) -> list[tuple[str, str]]:
    """Every captured record: its message, and its line as the bot's log writes it."""
    formatter = KeyValueFormatter()
    return [(r.getMessage(), formatter.format(r)) for r in caplog.records]


async def test_control_characters_a_user_types_reach_the_log_escaped(
    fake_telegram: FakeTelegram, bot: RunningBot, caplog: pytest.LogCaptureFixture
) -> None:
    fake = fake_telegram
    caplog.set_level(logging.DEBUG)
    eve = fake.add_user(101, "Eve\n\x1b[31mlevel=ERROR", language_code="ru")
    boris = fake.add_user(102, "Boris", language_code="ru")
    group = fake.add_group(-1001, "Пятница\x1b]0;pwned\x07", members=[101, 102])
    await eve.start_bot()
    await eve.send(group, f"/help{CLEAR}")
    await eve.send(group, "/newgame mushka target=5\x1b[2J\u202eevil")  # refused: an option
    await eve.send(group, "/newgame mushka")
    await fake.wait_until(lambda: lobby_message(group) is not None, timeout=10)
    lobby = lobby_message(group)
    assert lobby is not None
    await boris.press(lobby, "✋")
    await boris.press_raw(lobby, data=f"l:zz{CLEAR}")  # garbage callback data
    await eve.inline_query(f"мушка{CLEAR}")
    await eve.send_private("/" + "x\x1b" * 200)  # a long one
    await fake.settle(quiet=0.1)

    lines = lines_of(caplog)
    assert lines
    for message, line in lines:
        assert unprintable(message) == [], message
        # the line itself (a traceback's own line breaks aside) has none either
        assert all(unprintable(part) == [] for part in line.split("\n")), line
    updates = [m for m, _ in lines if m.startswith("event=update")]
    assert any("action=/help\\x1b[2J\\x1b[H ms=" in m for m in updates), updates
    [long] = [m.split(" action=")[1].split(" ms=")[0] for m in updates if "x\\x1bx" in m]
    # 401 characters typed: the first 64 kept (each ESC written as 4), then "…"
    assert long == "/" + "x\\x1b" * 31 + "x…", long


def test_safe_escapes_every_unprintable_character_visibly_and_cuts_long_values() -> None:
    for char in NASTY:
        shown = safe(f"a{char}b")
        assert unprintable(shown) == [] and shown.startswith("a\\") and shown.endswith("b")
    assert safe("a\nb\x1bc") == "a\\nb\\x1bc"
    assert safe("Пятница 🃏 «ok» = fine") == "Пятница 🃏 «ok» = fine"  # printable stays
    assert safe(None) == "-"
    assert safe("x" * (LIMIT + 50)) == "x" * LIMIT + "…"


def test_the_formatter_escapes_any_logger_s_line_and_keeps_a_traceback_s_breaks() -> None:
    try:
        raise ValueError(f"bad {CLEAR}value\ninjected=line")
    except ValueError:
        exc_info = sys.exc_info()
    record = logging.LogRecord(
        "aiogram.x", logging.ERROR, __file__, 1, "got %s", (f"x{CLEAR}",), exc_info
    )
    line = KeyValueFormatter().format(record)
    first, *trace = line.split("\n")
    assert first.endswith(' msg="got x\\x1b[2J\\x1b[H"'), first
    assert trace and all(unprintable(part) == [] for part in trace), trace
    # every line of the traceback indented: the exception's own break can't start a record
    assert all(part.startswith("  ") for part in trace), trace
    assert trace[-2:] == ["  ValueError: bad \\x1b[2J\\x1b[Hvalue", "  injected=line"]
