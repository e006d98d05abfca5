"""Telegram's HTML parse mode, as the Bot API applies it: text + entities, or a 400 reason.

Only the tags Telegram supports are accepted; anything else (an unescaped ``<`` in a player's
name, say) is refused the way the real server refuses it, so the bot's escaping is tested.
Offsets and lengths of entities are in UTF-16 code units, like the real API.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

__all__ = ["HtmlError", "parse_html", "strip_text", "utf16_len"]

_TAGS: dict[str, str] = {
    "b": "bold",
    "strong": "bold",
    "i": "italic",
    "em": "italic",
    "u": "underline",
    "ins": "underline",
    "s": "strikethrough",
    "strike": "strikethrough",
    "del": "strikethrough",
    "tg-spoiler": "spoiler",
    "span": "spoiler",
    "a": "text_link",
    "code": "code",
    "pre": "pre",
    "blockquote": "blockquote",
    "tg-emoji": "custom_emoji",
}
_NAME = re.compile(r"([A-Za-z][A-Za-z0-9-]*)")
_ATTR = re.compile(r"""\s*([A-Za-z-]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+)))?""")
_CHARREF = re.compile(r"&(#[xX][0-9A-Fa-f]{1,6}|#[0-9]{1,7}|lt|gt|amp|quot);")
_NAMED = {"lt": "<", "gt": ">", "amp": "&", "quot": '"'}


class HtmlError(ValueError):
    """The reason text after ``Bad Request: can't parse entities: ``."""


def utf16_len(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


@dataclass
class _Open:
    name: str
    kind: str
    start: int
    attrs: dict[str, str] = field(default_factory=dict)


def _byte_offset(src: str, index: int) -> int:
    return len(src[:index].encode("utf-8"))


def _attrs(rest: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for m in _ATTR.finditer(rest.rstrip("/ ")):
        out[m.group(1).lower()] = next((g for g in m.groups()[1:] if g is not None), "")
    return out


def parse_html(src: str) -> tuple[str, list[dict[str, Any]]]:
    """``(plain text, entities)`` or :class:`HtmlError` with Telegram's reason."""
    out: list[str] = []
    pos = 0  # UTF-16 offset in the output
    stack: list[_Open] = []
    entities: list[dict[str, Any]] = []
    i = 0
    while i < len(src):
        ch = src[i]
        if ch == "<":
            end = src.find(">", i)
            if end == -1:
                raise HtmlError(
                    f"Can't find end of the tag starting at byte offset {_byte_offset(src, i)}"
                )
            inner = src[i + 1 : end]
            if inner.startswith("/"):
                name = inner[1:].strip().lower()
                if not stack:
                    raise HtmlError(
                        f'Unexpected end tag "{name}" at byte offset {_byte_offset(src, i)}'
                    )
                top = stack.pop()
                if name != top.name:
                    raise HtmlError(
                        f"Unmatched end tag at byte offset {_byte_offset(src, i)}, "
                        f'expected "</{top.name}>", found "</{name}>"'
                    )
                _close(top, pos, entities)
            else:
                m = _NAME.match(inner)
                name = m.group(1).lower() if m else ""
                attrs = _attrs(inner[m.end() :]) if m else {}
                if name not in _TAGS or (name == "span" and attrs.get("class") != "tg-spoiler"):
                    raise HtmlError(
                        f'Unsupported start tag "{name}" at byte offset {_byte_offset(src, i)}'
                    )
                stack.append(_Open(name, _TAGS[name], pos, attrs))
            i = end + 1
        elif ch == "&" and (ref := _CHARREF.match(src, i)) is not None:
            body = ref.group(1)
            if body.startswith("#"):
                code = int(body[2:], 16) if body[1] in "xX" else int(body[1:])
                text = chr(code) if 0 < code <= 0x10FFFF else "\ufffd"
            else:
                text = _NAMED[body]
            out.append(text)
            pos += utf16_len(text)
            i = ref.end()
        else:
            out.append(ch)
            pos += utf16_len(ch)
            i += 1
    if stack:
        raise HtmlError(f'Can\'t find end tag corresponding to start tag "{stack[-1].name}"')
    entities.sort(key=lambda e: (e["offset"], -e["length"]))
    return "".join(out), entities


def _close(tag: _Open, pos: int, entities: list[dict[str, Any]]) -> None:
    length = pos - tag.start
    if length <= 0:
        return
    entity: dict[str, Any] = {"type": tag.kind, "offset": tag.start, "length": length}
    if tag.kind == "text_link":
        if "href" not in tag.attrs:
            return
        entity["url"] = tag.attrs["href"]
    elif tag.kind == "custom_emoji":
        entity["custom_emoji_id"] = tag.attrs.get("emoji-id", "")
    elif tag.kind == "blockquote" and "expandable" in tag.attrs:
        entity["type"] = "expandable_blockquote"
    entities.append(entity)


def strip_text(text: str, entities: list[dict[str, Any]]) -> tuple[str, list[dict[str, Any]]]:
    """Trim surrounding whitespace as Telegram does, moving and clipping the entities."""
    lead = utf16_len(text) - utf16_len(text.lstrip())
    stripped = text.strip()
    size = utf16_len(stripped)
    kept: list[dict[str, Any]] = []
    for entity in entities:
        start = max(entity["offset"] - lead, 0)
        end = min(entity["offset"] + entity["length"] - lead, size)
        if end > start:
            kept.append({**entity, "offset": start, "length": end - start})
    return stripped, kept
