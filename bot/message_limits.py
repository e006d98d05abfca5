"""Telegram's size limits, kept on the way out (the outbox fits every message it is given).

A message's text may hold 4,096 characters after its HTML is parsed, a toast 200; callback data
64 bytes (:meth:`bot.callbacks.PressCodec.pack` refuses more).
Telegram counts UTF-16 code units (an emoji is two), and so does this module. A screen that can
grow without bound (the /score of a big group) splits itself into :func:`pages`; :func:`fit` is
the last guard for any other: too long a text is cut at a line, its open tags closed, and "…"
added, so the message still goes instead of failing with "message is too long".
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import Final

from bot.markup import Html, unmarked
from bot.rendered import Rendered

MAX_TEXT: Final = 4096
MAX_TOAST: Final = 200
MORE: Final = "…"
LABEL: Final = 64  # not a Bot API limit: about what a button shows in one line on a phone
TITLE: Final = 128  # an inline result's title or description shown whole (nor is this one)

# a tag, a character reference, or one character
_TOKEN = re.compile(
    r"<(/?)([A-Za-z][A-Za-z0-9-]*)[^>]*>|&(#[xX][0-9A-Fa-f]+|#[0-9]+|[a-z]+);|.", re.S
)


def units(text: str) -> int:
    """The length Telegram counts: UTF-16 code units."""
    return len(text.encode("utf-16-le")) // 2


def plain_length(text: str) -> int:
    """The length of an HTML text as Telegram counts it: tags removed, references decoded,
    surrounding white space trimmed."""
    return units(unmarked(text).strip())


def fits(text: str, limit: int = MAX_TEXT) -> bool:
    """Whether an HTML text is within ``limit`` as Telegram counts it. Parsing only drops
    characters (tags, references shortened), so the raw length bounds it: a screen of a press
    (a hand, a table: well under 2,000 characters) is answered without parsing."""
    return 2 * len(text) <= limit or units(text) <= limit or plain_length(text) <= limit


def _cut(text: str, budget: int) -> tuple[str, list[str]]:
    """The longest start of ``text`` whose parsed length is at most ``budget``, and the tags
    still open at its end."""
    used = 0
    opened: list[str] = []
    end = 0
    for m in _TOKEN.finditer(text):
        if m.group(2):
            name = m.group(2).lower()
            if m.group(1):
                if opened and opened[-1] == name:
                    opened.pop()
            else:
                opened.append(name)
            end = m.end()
            continue
        size = 1 if m.group(3) else units(m.group(0))
        if used + size > budget:
            break
        used += size
        end = m.end()
    return text[:end], opened


def truncate(text: str, limit: int = MAX_TEXT) -> str:
    """``text`` (Telegram HTML) within ``limit``: cut at the last line break that keeps at least
    half of it (else mid-line), open tags closed, "…" added."""
    if fits(text, limit):
        return text
    kept, _ = _cut(text, limit - units("\n" + MORE))
    line = kept.rfind("\n")
    if line >= len(kept) // 2:
        kept = kept[:line]
    kept, opened = _cut(kept, limit)  # the open tags at the chosen end
    closing = "".join(f"</{name}>" for name in reversed(opened))
    return f"{kept.rstrip()}{closing}\n{MORE}"


def fit(rendered: Rendered, limit: int = MAX_TEXT) -> Rendered:
    """The message as it can go: the same object when it fits (its digest kept)."""
    if fits(rendered.text, limit):
        return rendered
    return replace(rendered, text=type(rendered.text)(truncate(rendered.text, limit)))


def toast(text: str) -> str:
    """A callback answer's plain text within Telegram's 200 characters."""
    return label(text, MAX_TOAST)


def label(text: str, limit: int) -> str:
    """A plain text (a button's label, an inline result's title) within ``limit``."""
    if units(text) <= limit:
        return text
    out = text[:limit]  # a character is one or two units
    while units(out) > limit - units(MORE):
        out = out[:-1]
    return out.rstrip() + MORE


def pages(blocks: Sequence[Sequence[str]], limit: int = MAX_TEXT) -> list[Html]:
    """Blocks of HTML lines (a heading with its lines, say) as few messages as fit: a block is
    never split while it fits in a message of its own, a longer one is split between lines."""
    out: list[list[str]] = [[]]

    def room(lines: Iterable[str]) -> int:
        return plain_length("\n".join(lines))

    for block in blocks:
        if out[-1] and room([*out[-1], *block]) > limit:
            out.append([])
        for line in block:
            if out[-1] and room([*out[-1], line]) > limit:
                out.append([])
            out[-1].append(line if plain_length(line) <= limit else truncate(line, limit))
    return [Html("\n".join(lines).strip("\n")) for lines in out if any(s.strip() for s in lines)]
