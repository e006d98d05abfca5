"""Telegram HTML parse mode as the fake applies it."""

from __future__ import annotations

import pytest

from tests.fakeapi.html import HtmlError, parse_html, strip_text, utf16_len


def test_entities_use_utf16_offsets() -> None:
    text, entities = parse_html("🂠 <b>Аня</b> &amp; <i>Борис</i>")
    assert text == "🂠 Аня & Борис"
    assert utf16_len("🂠") == 2
    assert entities == [
        {"type": "bold", "offset": 3, "length": 3},
        {"type": "italic", "offset": 9, "length": 5},
    ]


def test_nested_links_spoilers_and_char_refs() -> None:
    text, entities = parse_html(
        '<b><a href="https://t.me/x?start=s">open</a></b> '
        '<span class="tg-spoiler">s</span> &#9824;&#x2665;&quot;'
    )
    assert text == 'open s ♠♥"'
    assert {"type": "text_link", "offset": 0, "length": 4, "url": "https://t.me/x?start=s"} in (
        entities
    )
    assert {"type": "bold", "offset": 0, "length": 4} in entities
    assert {"type": "spoiler", "offset": 5, "length": 1} in entities


def test_unknown_named_entity_is_literal() -> None:
    assert parse_html("a &nbsp; b &")[0] == "a &nbsp; b &"


@pytest.mark.parametrize(
    ("source", "reason"),
    [
        ("<br>", 'Unsupported start tag "br" at byte offset 0'),
        ("Д <x", "Can't find end of the tag starting at byte offset 3"),
        ("Tom <3 and <b>x</b>", 'Unsupported start tag "" at byte offset 4'),
        ("<b>x</i>", 'Unmatched end tag at byte offset 4, expected "</b>", found "</i>"'),
        ("<b>x", 'Can\'t find end tag corresponding to start tag "b"'),
        ("x</b>", 'Unexpected end tag "b" at byte offset 1'),
        ('<span class="red">x</span>', 'Unsupported start tag "span" at byte offset 0'),
    ],
)
def test_malformed_html_is_refused(source: str, reason: str) -> None:
    with pytest.raises(HtmlError) as error:
        parse_html(source)
    assert str(error.value) == reason


def test_strip_moves_and_clips_entities() -> None:
    text, entities = strip_text("\n  <b>x</b> \n", [])
    assert text == "<b>x</b>"
    text, entities = parse_html("\n <b>ab </b>\n")
    text, entities = strip_text(text, entities)
    assert (text, entities) == ("ab", [{"type": "bold", "offset": 0, "length": 2}])
