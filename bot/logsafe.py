"""What a log line may carry of a value someone else gave: a command as typed, options, a name or
a title, a client's malformed request, an exception's text.

:func:`safe` is the one helper every log call passes such a value through: every character
that is not printable — C0 and C1 controls (ESC, the line breaks, DEL), Unicode's line and
paragraph separators, format characters (bidi overrides, zero-width joiners), lone surrogates —
is written as a visible escape (``\\x1b``, ``\\n``, ``\\u2028``), so a value can neither drive
the operator's terminal nor forge a line of its own; a long value is cut. The log's formatter
(:class:`bot.middlewares.updates.KeyValueFormatter`) escapes every line it writes the same way
(a traceback keeps its own line breaks), whatever logger wrote it.
"""

from __future__ import annotations

from typing import Final

LIMIT: Final = 200  # characters of one value a log line keeps (then "…")
NAMED: Final = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def safe(value: object, limit: int = LIMIT) -> str:
    """``value`` as one log line may show it: unprintable characters escaped visibly, cut to
    ``limit`` characters (marked with "…"); None is "-"."""
    text = "-" if value is None else str(value)
    if len(text) > limit:
        text = text[:limit] + "…"
    return text if text.isprintable() else escaped(text)


def escaped(text: str, keep: str = "") -> str:
    """Every unprintable character of ``text`` but those in ``keep`` as its visible escape."""
    return "".join(c if c.isprintable() or c in keep else _escape(c) for c in text)


def _escape(char: str) -> str:
    named = NAMED.get(char)
    if named is not None:
        return named
    code = ord(char)
    if code < 0x100:
        return f"\\x{code:02x}"
    if code < 0x10000:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"
