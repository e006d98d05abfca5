"""Callback data, PRODUCT.md §7.1: ``kind:tid:seat:mv:act[:arg]~tag`` (base36, HMAC tag)."""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from aiogram.filters import Filter
from aiogram.types import CallbackQuery

from bot.lru import Lru

MAX_BYTES: Final = 64
PARSED: Final = 64  # presses whose parse a codec keeps (the updates being handled)
_ARG: Final = re.compile(r"^[A-Za-z0-9.=_\-+]*$")
_B36: Final = "0123456789abcdefghijklmnopqrstuvwxyz"


class Kind(StrEnum):
    HAND = "h"
    TABLE = "t"  # the table message's own buttons (🂠 My cards, where hands are in the group)
    LOBBY = "l"
    END = "e"
    GROUP = "g"
    PRIVATE = "s"
    REVIEW = "v"  # 🔎 a finished deal's review: ``version`` the match, ``arg`` "deal[.step]"


class LobbyAct(StrEnum):
    """What a lobby button does (and the buttons of the /cancel question and of the unreachable
    players' notice). The values are the wire codes of §7.1: buttons drawn earlier keep working."""

    JOIN = "j"  # ✋ Join
    LEAVE = "e"  # 🚪 Leave
    COMPUTERS = "a"  # 🤖 Add computer: the computers pane
    ADD_COMPUTER = "m"  # seat one at the level ``arg``
    REMOVE_COMPUTER = "d"  # ✖️ the computer numbered ``arg``
    OPTIONS = "o"  # ⚙️ Options: the options pane
    SET_OPTION = "v"  # an option's next value, ``arg`` = "name=value"
    TEACHING = "t"  # 🎓 a teaching table (unrated, 💡 for all) or not: ``arg`` "1" or "0"
    TURN = "u"  # ⏱ the table's turn time: ``arg`` the next one, in seconds (bot.slow.TURN_TIMES)
    BACK = "b"  # ↩️ Back from a pane
    PICK = "k"  # the game ``arg`` picked
    START = "s"  # ▶️ Start
    ASK_CANCEL = "c"  # ✖️ Cancel: asks once
    CANCEL = "x"  # ✖️ Yes, close it
    WITHOUT = "n"  # ▶️ Start anyway without the unreachable players
    WAIT = "w"  # ⏳ Wait / ↩️ No: the question or the notice goes
    AGREE = "y"  # ✅ I agree: to close the table that is playing (its question)


CANCEL_ACTS: Final = frozenset({LobbyAct.CANCEL, LobbyAct.WAIT, LobbyAct.AGREE})  # /cancel's reply
NOTICE_ACTS: Final = frozenset({LobbyAct.WITHOUT, LobbyAct.WAIT})  # the unreachable notice's


class SeatAct(StrEnum):
    """The runtime's own buttons of a hand message (bot.runtime.absent); a family's acts are
    lowercase and mean what the family says."""

    MENU = "M"  # ⋯ the menu
    MENU_BACK = "R"  # ↩️ Back out of the menu
    HAND_OVER = "O"  # 🤖 Let the computer play
    BACK = "W"  # 🙋 I'm back
    TO_PRIVATE = "P"  # 💬 To private: the hand in the group goes to the private chat
    TO_TABLE = "T"  # ↩️ To the table: a waiting hand in the group put away till his turn
    HINT = "H"  # 💡 what the strongest computer would do, and why (where hints are allowed)


class EndAct(StrEnum):
    """The buttons of a match's result (§4.7)."""

    ANOTHER = "r"  # 🔁 another match
    FINISH = "f"  # 🏁 Finish
    CHART = "g"  # 📈 the game's chart


class ReviewAct(StrEnum):
    """The buttons of a deal's review: 🔎 on the deal's result (or /record's), and the review's
    own ◀ ▶ ⏮ ⏭ (a step, ``arg`` "deal.step") and ✖️."""

    OPEN = "o"  # 🔎 the review of deal ``arg``, for the presser alone
    STEP = "s"  # ◀ ▶ ⏮ ⏭: step ``arg``'s second number, edited in place
    CLOSE = "x"  # ✖️ the review goes


class SettingsAct(StrEnum):
    """The buttons of the /settings panes (§15): a group's (its admins'), a person's own."""

    LANGUAGE = "n"  # 🌐 the next language
    TIMEOUT = "t"  # ⏱ the next turn time (a group's)
    COMPUTERS = "c"  # 🤖 computer players, yes or no (a group's)
    GAME = "g"  # a game's default options pane (a group's)
    OPTION = "v"  # a default option's next value, ``arg`` = "game.name=value" (a group's)
    BACK = "b"  # ↩️ back from a game's pane (a group's)
    PINGS = "p"  # 🔔 turn pings (a person's)
    WORDS = "w"  # cards in words (a person's)
    HANDS = "h"  # 🃏 where hands go (both)
    TIPS = "i"  # 📖 one-line tips on the hand (a person's)
    QUIET = "q"  # 🌙 quiet hours on or off (a person's): ``arg`` "1" or "0"
    ZONE = "z"  # 🕰 his time zone for quiet hours (a person's): ``arg`` its index in bot.slow.ZONES
    HIDDEN = "a"  # 🕶 his name on boards across chats hidden or shown (a person's): "1" or "0"


GROUP_SETTINGS: Final = frozenset(SettingsAct) - {
    SettingsAct.PINGS,
    SettingsAct.WORDS,
    SettingsAct.TIPS,
    SettingsAct.QUIET,
    SettingsAct.ZONE,
    SettingsAct.HIDDEN,
}
MY_SETTINGS: Final = frozenset(
    {
        SettingsAct.LANGUAGE,
        SettingsAct.PINGS,
        SettingsAct.WORDS,
        SettingsAct.HANDS,
        SettingsAct.TIPS,
        SettingsAct.QUIET,
        SettingsAct.ZONE,
        SettingsAct.HIDDEN,
    }
)

REFRESH: Final = "u"  # ↻ Refresh, in the seat menu: the hand drawn again
MY_CARDS: Final = "c"  # 🂠 My cards on the table message: the presser's hand, for him alone

SEAT_ACTS: Final = frozenset(SeatAct)

STILL: Final = 36**4 - 1
"""The move counter drawn on a *still* waiting hand (``FamilyPresses.still_waiting``): its
buttons carry no current move, so the message is the same after others' moves and the outbox
leaves it alone. A press on one is "not your turn" (or, once it is, out of date): never an
action (bot.runtime.play). ``zzzz`` in base 36: no table reaches that many moves, and the one
that did would only see its buttons as out of date at that move."""

ACTS: Final[dict[Kind, frozenset[str]]] = {
    # the family says what each lowercase act means; uppercase ones are the runtime's own
    Kind.HAND: frozenset("abcdefghijklmnopqrstuvwxyz") | SEAT_ACTS,
    Kind.LOBBY: frozenset(LobbyAct),
    Kind.END: frozenset(EndAct),
    Kind.TABLE: frozenset({MY_CARDS}),
    Kind.GROUP: frozenset("l") | GROUP_SETTINGS,  # l: /language; the rest: /settings
    Kind.PRIVATE: frozenset("l") | MY_SETTINGS,
    Kind.REVIEW: frozenset(ReviewAct),
}


def b36(value: int) -> str:
    if value < 0:
        raise ValueError("negative")
    out = ""
    while True:
        value, digit = divmod(value, 36)
        out = _B36[digit] + out
        if value == 0:
            return out


def unb36(text: str) -> int:
    if not text or len(text) > 8 or any(c not in _B36 for c in text):
        raise ValueError(text)
    return int(text, 36)


@dataclass(frozen=True, slots=True)
class Press:
    """One button: ``kind:tid:seat:mv:act[:arg]~tag`` once packed."""

    kind: Kind
    table: int
    seat: int | None
    version: int  # the move counter (or lobby generation) the button was drawn at
    act: str
    arg: str | None = None  # RECORD.md cards joined by ".", a suit, "name=value"


class PressCodec:
    """Packs and parses presses. The tag's key is a secret of the bot's own
    (``BOT_CALLBACK_SECRET``, or one made once and kept in the database:
    :func:`bot.startup.callback_codec`), never the token, so a token revoked at @BotFather
    leaves every button working. ``also``: keys whose tags are still accepted, never made (the
    token's, of buttons drawn before the bot had a secret of its own)."""

    def __init__(self, key: bytes, *, also: Sequence[bytes] = ()) -> None:
        self._key = key
        self._also = tuple(also)
        # each key's HMAC with its pads applied once: a tag copies it (about half the work of
        # ``hmac.new``; a hand's every button is tagged each time it is drawn)
        self._keyed = {k: hmac.new(k, digestmod=hashlib.sha256) for k in (key, *also)}
        # a press is parsed by the update's log line and by each handler's filter it meets:
        # the last few answers kept (the string is the whole key: a forged one parses to None)
        self._parsed: Lru[str, tuple[Press | None]] = Lru(PARSED)

    @classmethod
    def from_token(cls, token: str) -> PressCodec:
        """The codec of the bot's first versions: the key derived from the token."""
        return cls(_token_key(token))

    @classmethod
    def from_secret(cls, secret: str, *, token: str | None = None) -> PressCodec:
        """The key derived from ``secret``; with ``token``, the buttons the bot drew before it
        had a secret (under the current token) are still accepted."""
        key = hashlib.sha256(b"mushka-callback-secret:" + secret.encode()).digest()
        return cls(key, also=(_token_key(token),) if token is not None else ())

    def _tag(self, body: str, key: bytes | None = None) -> str:
        mac = self._keyed[self._key if key is None else key].copy()
        mac.update(body.encode())
        digest = mac.digest()[:4]
        return base64.urlsafe_b64encode(digest).decode().rstrip("=")  # 6 chars

    def _signed(self, body: str, tag: str) -> bool:
        given = tag.encode()
        return any(
            hmac.compare_digest(given, self._tag(body, key).encode())
            for key in (self._key, *self._also)
        )

    def pack(self, press: Press) -> str:
        seat = "-" if press.seat is None else str(press.seat)
        fields = [press.kind.value, b36(press.table), seat, b36(press.version), press.act]
        if press.arg is not None:
            if not _ARG.match(press.arg):
                raise ValueError(f"bad callback arg {press.arg!r}")
            fields.append(press.arg)
        body = ":".join(fields)
        data = f"{body}~{self._tag(body)}"
        if len(data.encode()) > MAX_BYTES:
            raise ValueError(f"callback data over {MAX_BYTES} bytes: {data}")
        return data

    def parse(self, data: str) -> Press | None:
        """The press, or ``None`` if malformed, unknown or forged (§7.2 steps 1–2).

        Never raises: a client can send any text (non-ASCII, lone surrogates, any length).
        """
        known = self._parsed.get(data)
        if known is not None:
            return known[0]
        press = self._parse(data)
        self._parsed.put(data, (press,))
        return press

    def _parse(self, data: str) -> Press | None:
        # §7.1: the grammar is ASCII; only then may the tag go to compare_digest (str needs ASCII)
        if not data.isascii() or len(data) > MAX_BYTES or data.count("~") != 1:
            return None
        body, tag = data.split("~")
        parts = body.split(":")
        if len(parts) not in (5, 6):
            return None
        try:
            kind = Kind(parts[0])
            table = unb36(parts[1])
            seat = None if parts[2] == "-" else int(parts[2])
            version = unb36(parts[3])
        except ValueError:
            return None
        if seat is not None and not (0 <= seat <= 7 and parts[2].isdigit()):
            return None
        act = parts[4]
        if act not in ACTS[kind] or len(act) != 1:
            return None
        arg = parts[5] if len(parts) == 6 else None
        if arg is not None and not _ARG.match(arg):
            return None
        if not self._signed(body, tag):
            return None
        return Press(kind, table, seat, version, act, arg)


def _token_key(token: str) -> bytes:
    return hashlib.sha256(b"mushka-callback:" + token.encode()).digest()


def new_callback_secret() -> str:
    """A fresh key for the buttons' tags: 256 random bits."""
    return secrets.token_urlsafe(32)


class PressFilter(Filter):
    """Passes presses of one kind and hands the handler the parsed ``press``."""

    def __init__(self, kind: Kind) -> None:
        self.kind = kind

    async def __call__(self, query: CallbackQuery, codec: PressCodec) -> bool | dict[str, Press]:
        press = codec.parse(query.data or "")
        if press is None or press.kind is not self.kind:
            return False
        return {"press": press}
