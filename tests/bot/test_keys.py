"""The outbox's keys: typed above the storage, text only where stored, and the text read back
is the very key it was written from (no migration: the stored form is today's)."""

from __future__ import annotations

import pytest

from bot.answers import answer_key, shared_key
from bot.keys import MessageKey, MessageKind, NamedKey, outbox_key
from bot.runtime.outcome import keys


@pytest.mark.parametrize(
    ("key", "text"),
    [
        (keys(12).lobby, "lobby:12"),
        (MessageKey.hand(12, 0), "hand:12:0"),
        (MessageKey.deal(12, 1, 40), "deal:12:1:40"),
        (MessageKey(MessageKind.PING, 7), "ping:7"),
        (shared_key("settings"), "settings"),
        (shared_key("score", thread=5, page=2), "score@5:2"),
        (answer_key(7, "help", alone=True, thread=3), "answer:7:help:alone@3"),
    ],
)
def test_a_key_is_stored_as_todays_text_and_read_back_as_itself(key: object, text: str) -> None:
    assert str(key) == text
    assert outbox_key(text) == key
    assert type(outbox_key(text)) is type(key)


def test_a_text_that_is_no_tables_key_as_written_is_a_chats_own() -> None:
    # "hand:012:0" reads as hand 12/0, but that key is written "hand:12:0": not this text's
    assert outbox_key("hand:012:0") == NamedKey("hand:012:0")
    assert str(outbox_key("hand:012:0")) == "hand:012:0"


@pytest.mark.parametrize("name", ["hand:12:0", "table:3", ""])
def test_a_chats_own_key_never_takes_a_tables_text(name: str) -> None:
    with pytest.raises(ValueError, match="not a chat's own message key"):
        NamedKey(name)
