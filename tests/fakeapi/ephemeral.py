"""Ephemeral messages (Bot API 10.2–10.3) in the fake, as aiogram 3.31 models them.

An ephemeral message is sent to a group or supergroup for one member only, its *receiver*:
``sendMessage`` with ``ephemeral_message_parameters`` = ``{receiver_user_id, callback_query_id?,
replace_callback_query_message?}`` (the deprecated top-level ``receiver_user_id`` and
``callback_query_id`` of API 10.2 are read too). Telegram answers a ``Message`` with
``message_id`` 0, ``ephemeral_message_id`` (unique per chat here; never reused) and
``receiver_user``; the bot then addresses it by (chat, receiver, ephemeral id) through
``editEphemeralMessageText``, ``editEphemeralMessageReplyMarkup`` and ``deleteEphemeralMessage``
(each answers True). The fake's rules — strict where Telegram's documentation is silent:

* Only group and supergroup chats: else 400 "Bad Request: ephemeral messages can be sent
  only to group and supergroup chats".
* The receiver is a member of the group (member, administrator, creator, or restricted but
  still in it) and no bot: else 400 "Bad Request: receiver not found" / "Bad Request: receiver
  is a bot".
* The bot may send it when it is an administrator of the group (``add_group(bot_admin=True)``,
  :meth:`EphemeralMethods.set_bot_admin`), or when ``callback_query_id`` names a query the
  receiver pressed in that very chat within ``ephemeral_callback_validity`` seconds (15 min;
  answered or not). Otherwise 400 "Bad Request: not enough rights to send ephemeral messages".
  A ``callback_query_id`` that is given must be valid even for an admin bot: unknown or too old
  → 400 "Bad Request: callback query not found"; pressed by another user or in another chat →
  400 "Bad Request: callback query was sent by another user or in another chat".
* ``replace_callback_query_message`` True needs a ``callback_query_id`` (400 "Bad Request:
  replace_callback_query_message needs callback_query_id") whose message is no ephemeral one
  (400 "Bad Request: the message of an ephemeral callback query can't be replaced; edit it
  instead"). The receiver then sees the new message in place of the pressed one
  (``SentMessage.replaces``; :meth:`EphemeralViews.shown_in_place_of`) until it is deleted.
* Replies: an ephemeral message may reply to a group message (``reply_parameters.message_id``,
  checked as for any send: "message to be replied not found" — and never with
  ``allow_sending_without_reply``, always False for ephemeral messages). ``reply_parameters.
  ephemeral_message_id`` names a command its receiver sent ephemerally, and gives a bot that
  is no administrator the right to send it (:mod:`tests.fakeapi.ephemeral_commands`: its
  checks); on a non-ephemeral send it is 400 "Bad Request: a reply to an ephemeral message
  must be an ephemeral message".
* Buttons of ephemeral messages: ``login_url`` is refused (400 "Bad Request: BUTTON_TYPE_INVALID").
* Edits: "message is not modified" when nothing changes, "message to edit not found" for an
  unknown, deleted or other receiver's message; without ``reply_markup`` the keyboard goes (as
  editMessageText). Delete: unknown → 400 "Bad Request: message to delete not found".
* Rate: while :meth:`FakeTelegram.rate_limit` is on, ephemeral sends and edits count in a budget
  of their own per (chat, receiver), ``ephemeral_rate`` (default :data:`EPHEMERAL_RATE`), never
  in the group's window; 429 with ``retry_after`` when spent.
* Undelivered: ``user.offline = True`` or :meth:`EphemeralMethods.drop_ephemeral` make sends
  succeed at the API (Telegram reports nothing) while the receiver never sees the message
  (``SentMessage.delivered`` False); edits and deletes of it succeed too.

Visibility: ephemeral messages live in ``ChatState.ephemeral``, never in ``ChatState.messages``,
so ``group.messages`` / ``group.visible`` / ``fake.messages()`` (what every member sees) never
hold them; ``user.ephemeral(group)`` holds those shown to him, ``fake.ephemeral_sends()`` every
text ever sent ephemerally with its receiver (for privacy checks), ``ApiCall.ephemeral`` marks
the calls. A press on an ephemeral button works like any press, for its receiver only; its
callback query carries the ephemeral ``Message``.

Inline buttons (any message): ``style`` must be "primary", "success" or "danger" (else 400
"Bad Request: BUTTON_STYLE_INVALID"); ``disabled`` must be an object (aiogram's
``DisabledButton`` is ``{}``; else 400). Both are kept (``Button.style``, ``Button.disabled``).
A button has exactly one kind, ``disabled`` being one (400 "BUTTON_TYPE_INVALID" for two), so
a disabled button carries no press: pressing it is a ``FakeUsageError``, as it does nothing.
``setMyCommands`` keeps ``is_ephemeral`` of each command (a bool, else 400).
"""

from __future__ import annotations

import math
import random
import time
from typing import TYPE_CHECKING, Any, NamedTuple

from tests.fakeapi.ephemeral_commands import EphemeralCommands
from tests.fakeapi.methods import NOT_MODIFIED, ApiMethods
from tests.fakeapi.model import ApiError, ChatState, FakeUsageError, MessageVersion, SentMessage

if TYPE_CHECKING:
    from tests.fakeapi.server import FakeTelegram
    from tests.fakeapi.users import SimGroup

__all__ = [
    "BUTTON_STYLES",
    "CALLBACK_VALIDITY_S",
    "EPHEMERAL_RATE",
    "EPHEMERAL_WRITES",
    "EphemeralMethods",
    "EphemeralSend",
    "EphemeralViews",
]

JsonDict = dict[str, Any]

EPHEMERAL_RATE: tuple[int, float] = (3, 1.0)  # sends+edits per (chat, receiver) per window s
CALLBACK_VALIDITY_S = 15 * 60.0
BUTTON_STYLES = frozenset({"primary", "success", "danger"})
_MEMBER = frozenset({"member", "administrator", "creator", "restricted"})
EPHEMERAL_WRITES = frozenset(  # in FakeTelegram.storm's default methods
    ("editephemeralmessagetext", "editephemeralmessagereplymarkup", "deleteephemeralmessage")
)
_BOT_IDS = frozenset({1087968824, 136817688})  # GroupAnonymousBot, Channel_Bot

NOT_GROUP = "ephemeral messages can be sent only to group and supergroup chats"
NO_RECEIVER = "receiver not found"
RECEIVER_BOT = "receiver is a bot"
NO_RIGHTS = "not enough rights to send ephemeral messages"
QUERY_NOT_FOUND = "callback query not found"
QUERY_MISMATCH = "callback query was sent by another user or in another chat"
REPLACE_NEEDS_QUERY = "replace_callback_query_message needs callback_query_id"
REPLACE_EPHEMERAL = "the message of an ephemeral callback query can't be replaced; edit it instead"
REPLY_NOT_EPHEMERAL = "a reply to an ephemeral message must be an ephemeral message"


def _bad(description: str) -> ApiError:
    return ApiError(400, f"Bad Request: {description}")


class EphemeralSend(NamedTuple):
    """One text an ephemeral message showed (its first send or a text edit)."""

    chat_id: int
    receiver_id: int
    text: str


class EphemeralMethods(EphemeralCommands, ApiMethods):
    """Mixed into :class:`tests.fakeapi.FakeTelegram` (before :class:`ApiMethods`)."""

    updates: list[JsonDict]
    _methods: dict[str, Any]

    def _init_ephemeral(self) -> None:
        self.ephemeral_rate: tuple[int, float] | None = EPHEMERAL_RATE
        self.ephemeral_callback_validity = CALLBACK_VALIDITY_S
        self._ephemeral_times: dict[tuple[int, int], list[float]] = {}
        self._ephemeral_drop: tuple[random.Random, float] | None = None
        self._answered_pressed_at: dict[str, float] = {}
        self._ephemeral_of: dict[int, list[SentMessage]] = {}  # receiver → his, oldest first
        self._methods["editephemeralmessagetext"] = self._m_editEphemeralMessageText
        self._methods["editephemeralmessagereplymarkup"] = self._m_editEphemeralMessageReplyMarkup
        self._methods["deleteephemeralmessage"] = self._m_deleteEphemeralMessage
        self._init_ephemeral_commands()

    # ------------------------------------------------------------------ test-side

    def set_bot_admin(self, chat_id: int, admin: bool = True) -> None:
        """Make the bot an administrator of the group (or a plain member again); the bot is
        not told (no ``my_chat_member``)."""
        chat = self.chats.get(chat_id)
        if chat is None or chat.type == "private":
            raise FakeUsageError(f"no group {chat_id}")
        chat.bot_status = "administrator" if admin else "member"

    def drop_ephemeral(self, share: float, seed: int = 0) -> None:
        """From now on a ``share`` (0..1) of ephemeral sends, drawn from ``Random(seed)``, is
        accepted but never delivered; ``share`` 0 ends it."""
        if not 0.0 <= share <= 1.0:
            raise FakeUsageError(f"share {share} is not within 0..1")
        self._ephemeral_drop = (random.Random(seed), share) if share > 0 else None

    def ephemeral(self, chat_id: int) -> list[SentMessage]:
        """Every ephemeral message sent to the chat, to any receiver, deleted and undelivered
        ones too, oldest first."""
        chat = self.chats.get(chat_id)
        return [] if chat is None else list(chat.ephemeral.values())

    def ephemeral_of(self, receiver_id: int) -> list[SentMessage]:
        """Every ephemeral message sent for this user, in any chat, deleted and undelivered
        ones too, oldest first (without a walk over every chat)."""
        return list(self._ephemeral_of.get(receiver_id, ()))

    def ephemeral_sends(self) -> list[EphemeralSend]:
        """Every text ever shown ephemerally, with its chat and receiver (edits too)."""
        out: list[EphemeralSend] = []
        for chat in self.chats.values():
            for message in chat.ephemeral.values():
                assert message.receiver_id is not None
                texts = [v.text for v in message.history]
                for i, text in enumerate(texts):
                    if i == 0 or text != texts[i - 1]:
                        out.append(EphemeralSend(chat.id, message.receiver_id, text))
        return out

    # ------------------------------------------------------------------ overrides

    def message_dict(self, message: SentMessage, *, nested: bool = False) -> JsonDict:
        out = super().message_dict(message, nested=nested)
        if message.ephemeral_id is not None and message.receiver_id is not None:
            out["ephemeral_message_id"] = message.ephemeral_id
            out["receiver_user"] = self.users[message.receiver_id].as_user()
        return out

    def _markup(self, params: JsonDict) -> JsonDict | None:
        markup = super()._markup(params)
        for row in (markup or {}).get("inline_keyboard", []):
            for button in row:
                style = button.get("style")
                if style is not None and style not in BUTTON_STYLES:
                    raise _bad("BUTTON_STYLE_INVALID")
                if "disabled" in button and not isinstance(button["disabled"], dict):
                    raise _bad(
                        'can\'t parse inline keyboard button: field "disabled" must be an Object'
                    )
        return markup

    def _m_setMyCommands(self, params: JsonDict) -> bool:
        commands = params.get("commands")
        for command in commands if isinstance(commands, list) else []:
            flag = command.get("is_ephemeral") if isinstance(command, dict) else None
            if flag is not None and not isinstance(flag, bool):
                raise _bad('field "is_ephemeral" must be of type Boolean')
        return super()._m_setMyCommands(params)

    def _m_answerCallbackQuery(self, params: JsonDict) -> bool:
        query_id = str(params.get("callback_query_id") or "")
        pressed = self._pressed_at.get(query_id)
        result = super()._m_answerCallbackQuery(params)
        if pressed is not None:
            self._answered_pressed_at[query_id] = pressed
        return result

    def _m_sendMessage(self, params: JsonDict) -> JsonDict:
        eph = params.get("ephemeral_message_parameters")
        if eph is None and "receiver_user_id" in params:  # API 10.2's top-level form
            eph = {
                "receiver_user_id": params.get("receiver_user_id"),
                "callback_query_id": params.get("callback_query_id"),
            }
        reply = params.get("reply_parameters")
        to_ephemeral = isinstance(reply, dict) and reply.get("ephemeral_message_id") is not None
        if eph is None:
            if to_ephemeral:
                raise _bad(REPLY_NOT_EPHEMERAL)
            return super()._m_sendMessage(params)
        if not isinstance(eph, dict):
            raise _bad("can't parse ephemeral message parameters JSON object")
        return self._send_ephemeral(params, eph)

    # ------------------------------------------------------------------ sending

    def _send_ephemeral(self, params: JsonDict, eph: JsonDict) -> JsonDict:
        chat = self._target_chat(params)
        if chat.type not in ("group", "supergroup"):
            raise _bad(NOT_GROUP)
        receiver_id = self._receiver(chat, eph.get("receiver_user_id"))
        plain, source, entities, mode = self._render(params)
        markup = self._markup(params)
        for row in (markup or {}).get("inline_keyboard", []):
            if any("login_url" in button for button in row):
                raise _bad("BUTTON_TYPE_INVALID")
        query = self._trigger(chat, receiver_id, eph.get("callback_query_id"))
        reply_to, command = self._ephemeral_reply(chat, params, receiver_id)
        if (
            query is None
            and command is None
            and chat.bot_status not in ("administrator", "creator")
        ):
            raise _bad(NO_RIGHTS)
        replaces: int | None = None
        if eph.get("replace_callback_query_message"):
            if query is None:
                raise _bad(REPLACE_NEEDS_QUERY)
            pressed = query.get("message")
            if not isinstance(pressed, dict) or "ephemeral_message_id" in pressed:
                raise _bad(REPLACE_EPHEMERAL)
            replaces = int(pressed["message_id"])
        self._check_ephemeral_rate(chat, receiver_id)
        version = MessageVersion(plain, source, tuple(entities), markup)
        message = SentMessage(
            message_id=0,
            chat_id=chat.id,
            sender_id=self.bot_id,
            date=int(time.time()),
            version=version,
            history=[version],
            parse_mode=mode,
            reply_to=reply_to,
            thread_id=self._thread(chat, params, reply_to),
            disable_notification=bool(params.get("disable_notification")),
            link_preview_options=params.get("link_preview_options"),
            ephemeral_id=chat.next_ephemeral_id,
            receiver_id=receiver_id,
            replaces=replaces,
            reply_to_ephemeral=command,
            delivered=self._delivers(receiver_id),
        )
        chat.ephemeral[chat.next_ephemeral_id] = message
        chat.next_ephemeral_id += 1
        self._ephemeral_of.setdefault(receiver_id, []).append(message)
        return self.message_dict(message)

    def _ephemeral_reply(
        self, chat: ChatState, params: JsonDict, receiver_id: int
    ) -> tuple[int | None, int | None]:
        """What an ephemeral send replies to, checked: a group message (as for any send, but
        never without it), or a command its receiver sent ephemerally (its id, second)."""
        reply = params.get("reply_parameters")
        reply_to = params.get("reply_to_message_id")
        if isinstance(reply, dict):
            if reply.get("ephemeral_message_id") is not None:
                return None, self._replied_command(chat, receiver_id, reply["ephemeral_message_id"])
            reply_to = reply.get("message_id")
        if reply_to is None:
            return None, None
        target = chat.messages.get(reply_to) if isinstance(reply_to, int) else None
        if target is None or target.deleted:  # allow_sending_without_reply: always False
            raise _bad("message to be replied not found")
        return target.message_id, None

    def _receiver(self, chat: ChatState, raw: object) -> int:
        if not isinstance(raw, int) or isinstance(raw, bool):
            raise _bad("receiver_user_id is not specified")
        if raw == self.bot_id or raw in _BOT_IDS:
            raise _bad(RECEIVER_BOT)
        if (
            raw not in self.users
            or chat.members.get(raw) not in _MEMBER
            or raw in chat.restricted_out
        ):
            raise _bad(NO_RECEIVER)
        return raw

    def _trigger(self, chat: ChatState, receiver_id: int, raw: object) -> JsonDict | None:
        """The callback query ``raw`` names, checked; None when none is named."""
        if raw is None or raw == "":
            return None
        query_id = str(raw)
        pressed = self._pressed_at.get(query_id, self._answered_pressed_at.get(query_id))
        query = next(
            (
                u["callback_query"]
                for u in reversed(self.updates)
                if u.get("callback_query", {}).get("id") == query_id
            ),
            None,
        )
        if (
            query is None
            or pressed is None
            or time.monotonic() - pressed > self.ephemeral_callback_validity
        ):
            raise _bad(QUERY_NOT_FOUND)
        message = query.get("message")
        in_chat = isinstance(message, dict) and message.get("chat", {}).get("id") == chat.id
        if query.get("from", {}).get("id") != receiver_id or not in_chat:
            raise _bad(QUERY_MISMATCH)
        return dict(query)

    def _delivers(self, receiver_id: int) -> bool:
        delivered = not getattr(self.users[receiver_id], "offline", False)
        if self._ephemeral_drop is not None:
            rng, share = self._ephemeral_drop
            if rng.random() < share:
                delivered = False
        return delivered

    def _check_ephemeral_rate(self, chat: ChatState, receiver_id: int) -> None:
        if self._rate is None or self.ephemeral_rate is None:
            return
        limit, window = self.ephemeral_rate
        key = (chat.id, receiver_id)
        now = time.monotonic()
        times = [t for t in self._ephemeral_times.get(key, []) if now - t < window]
        self._ephemeral_times[key] = times
        if len(times) >= limit:
            retry = max(1, math.ceil(window - (now - times[0])))
            raise ApiError(429, f"Too Many Requests: retry after {retry}", {"retry_after": retry})
        times.append(now)

    # ------------------------------------------------------------------ edits, deletes

    def _ephemeral_target(self, params: JsonDict, verb: str) -> SentMessage:
        chat = self._target_chat(params)
        ephemeral_id = params.get("ephemeral_message_id")
        receiver_id = params.get("receiver_user_id")
        if not isinstance(ephemeral_id, int):
            raise _bad("ephemeral message identifier is not specified")
        if not isinstance(receiver_id, int):
            raise _bad("receiver_user_id is not specified")
        message = chat.ephemeral.get(ephemeral_id)
        if message is None or message.deleted or message.receiver_id != receiver_id:
            raise _bad(f"message to {verb} not found")
        return message

    def _edit_ephemeral(self, message: SentMessage, version: MessageVersion) -> bool:
        if version.key() == message.version.key():
            raise ApiError(400, NOT_MODIFIED)
        assert message.receiver_id is not None
        self._check_ephemeral_rate(self.chats[message.chat_id], message.receiver_id)
        message.version = version
        message.history.append(version)
        message.edits += 1
        message.edit_date = int(time.time())
        return True

    def _m_editEphemeralMessageText(self, params: JsonDict) -> bool:
        message = self._ephemeral_target(params, "edit")
        plain, source, entities, mode = self._render(params)
        version = MessageVersion(plain, source, tuple(entities), self._markup(params))
        result = self._edit_ephemeral(message, version)
        message.parse_mode = mode
        if "link_preview_options" in params:
            message.link_preview_options = params["link_preview_options"]
        return result

    def _m_editEphemeralMessageReplyMarkup(self, params: JsonDict) -> bool:
        message = self._ephemeral_target(params, "edit")
        old = message.version
        version = MessageVersion(old.text, old.html, old.entities, self._markup(params))
        return self._edit_ephemeral(message, version)

    def _m_deleteEphemeralMessage(self, params: JsonDict) -> bool:
        self._ephemeral_target(params, "delete").deleted = True
        return True


class EphemeralViews:
    """What one simulated user sees of ephemeral messages; mixed into :class:`SimUser`."""

    fake: FakeTelegram
    id: int
    first_name: str
    offline: bool = False  # True: ephemeral messages to him are never delivered

    def ephemeral(self, group: SimGroup, *, deleted: bool = False) -> list[SentMessage]:
        """The ephemeral messages shown to this user in ``group``, oldest first (``deleted``:
        the deleted ones too); undelivered ones never."""
        return [
            m
            for m in group.state.ephemeral.values()
            if m.receiver_id == self.id and m.delivered and (deleted or not m.deleted)
        ]

    def last_ephemeral(self, group: SimGroup) -> SentMessage:
        """The latest ephemeral message shown to this user in ``group``, not deleted."""
        shown = self.ephemeral(group)
        if not shown:
            raise FakeUsageError(f"{self.first_name} sees no ephemeral message in {group.title}")
        return shown[-1]

    def shown_in_place_of(self, message: SentMessage) -> SentMessage | None:
        """The ephemeral message this user sees instead of ``message`` (a group message he
        pressed, replaced by ``replace_callback_query_message``), None when he sees it."""
        chat = self.fake.chat(message.chat_id)
        found = [
            m
            for m in chat.ephemeral.values()
            if m.replaces == message.message_id
            and m.receiver_id == self.id
            and m.delivered
            and not m.deleted
        ]
        return found[-1] if found else None

    def view(self, group: SimGroup) -> list[SentMessage]:
        """The bot's messages in ``group`` as this user sees them: the group's visible ones
        (a replaced one swapped for its ephemeral stand-in), then his other ephemeral ones."""
        out: list[SentMessage] = []
        for message in group.visible:
            stand_in = self.shown_in_place_of(message)
            out.append(message if stand_in is None else stand_in)
        return out + [m for m in self.ephemeral(group) if all(m is not o for o in out)]

    def _check_ephemeral_view(self, message: SentMessage) -> None:
        """A press needs the message on this user's screen: an ephemeral one must be his and
        delivered, a group message must not be replaced by one of his ephemeral ones."""
        if message.ephemeral_id is not None:
            if message.receiver_id != self.id or not message.delivered:
                raise FakeUsageError(
                    f"{self.first_name} cannot see ephemeral message {message} "
                    "(it is another user's, or was never delivered)"
                )
        elif self.shown_in_place_of(message) is not None:
            raise FakeUsageError(
                f"{self.first_name} sees an ephemeral message in place of {message}"
            )
