"""A fake Telegram Bot API server on 127.0.0.1 (aiohttp), with Telegram's error behaviour.

The bot under test talks to it over real HTTP (aiogram's AiohttpSession with
``TelegramAPIServer.from_base(fake.base_url)``); tests play users through :class:`SimUser`.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import web

from tests.fakeapi.html import HtmlError, parse_html, strip_text
from tests.fakeapi.model import (
    ApiCall,
    ApiError,
    CallbackAnswer,
    FakeUsageError,
    MessageVersion,
    SentMessage,
)

if TYPE_CHECKING:
    from tests.fakeapi.users import SimGroup, SimUser

__all__ = ["ChatState", "FakeTelegram"]

JsonDict = dict[str, Any]

NOT_MODIFIED = (
    "Bad Request: message is not modified: specified new message content and reply markup "
    "are exactly the same as a current content and reply markup of the message"
)
QUERY_TOO_OLD = "Bad Request: query is too old and response timeout expired or query ID is invalid"
CONFLICT = (
    "Conflict: terminated by other getUpdates request; "
    "make sure that only one bot instance is running"
)
MAX_TEXT = 4096
_COUNTED = frozenset({"sendmessage", "editmessagetext", "editmessagereplymarkup"})
_STRING_FIELDS = frozenset(
    {
        "text",
        "caption",
        "parse_mode",
        "callback_query_id",
        "inline_query_id",
        "inline_message_id",
        "url",
        "description",
        "short_description",
        "name",
        "language_code",
        "action",
        "next_offset",
        "switch_pm_text",
        "switch_pm_parameter",
        "message_effect_id",
        "business_connection_id",
        "title",
    }
)
_ACTION_KEYS = frozenset(
    {
        "url",
        "callback_data",
        "web_app",
        "login_url",
        "switch_inline_query",
        "switch_inline_query_current_chat",
        "switch_inline_query_chosen_chat",
        "copy_text",
        "callback_game",
        "pay",
    }
)


def _bad(description: str) -> ApiError:
    return ApiError(400, f"Bad Request: {description}")


@dataclass
class ChatState:
    """The fake's view of one chat (private: id = the user's id)."""

    id: int
    type: str
    title: str | None = None
    username: str | None = None
    first_name: str | None = None
    is_forum: bool = False
    next_id: int = 1
    messages: dict[int, SentMessage] = field(default_factory=dict)
    members: dict[int, str] = field(default_factory=dict)  # user id -> status
    bot_status: str = "member"
    migrated_to: int | None = None
    menu_button: JsonDict | None = None

    def as_chat(self) -> JsonDict:
        chat: JsonDict = {"id": self.id, "type": self.type}
        if self.type == "private":
            chat["first_name"] = self.first_name or ""
            if self.username:
                chat["username"] = self.username
        else:
            chat["title"] = self.title or ""
            if self.username:
                chat["username"] = self.username
            if self.is_forum:
                chat["is_forum"] = True
        return chat


@dataclass
class _Fault:
    method: str
    error: ApiError
    chat_id: int | None
    times: int


class FakeTelegram:
    """The fake server. ``await start()``, point the bot at ``base_url``, ``await stop()``."""

    def __init__(
        self,
        token: str = "123456:TEST-token",
        bot_username: str = "mushka_test_bot",
        *,
        bot_name: str = "Mushka Test",
        privacy_mode: bool = True,
        inline_feedback: bool = True,
    ) -> None:
        self.token = token
        self.bot_id = int(token.split(":", 1)[0])
        self.bot_username = bot_username
        self.bot_name = bot_name
        self.privacy_mode = privacy_mode
        self.inline_feedback = inline_feedback
        self.requests: list[ApiCall] = []
        self.users: dict[int, SimUser] = {}
        self.groups: dict[int, SimGroup] = {}
        self.chats: dict[int, ChatState] = {}
        self.commands: dict[tuple[str, str], list[JsonDict]] = {}
        self.callback_answers: dict[str, CallbackAnswer] = {}
        self.inline_answers: dict[str, JsonDict] = {}
        self.updates: list[JsonDict] = []  # every update ever queued, in order
        self._queue: list[JsonDict] = []  # not yet confirmed
        self._next_update_id = 1
        self._delivered_upto = 0
        self._allowed: list[str] | None = None
        self._poll_serial = itertools.count(1)
        self._poll_current = 0
        self._waiters: set[asyncio.Future[None]] = set()
        self._closing = False
        self._inflight = 0
        self._last_activity = 0.0
        self._rate: tuple[int, float] | None = None
        self._sent_times: dict[int, list[float]] = {}
        self._faults: list[_Fault] = []
        self._pending_callbacks: dict[str, asyncio.Future[CallbackAnswer]] = {}
        self._pressed_at: dict[str, float] = {}
        self._pending_inline: dict[str, asyncio.Future[list[JsonDict]]] = {}
        self._ids = itertools.count(1)
        self._runner: web.AppRunner | None = None
        self.base_url = ""
        self._methods: dict[str, Callable[[JsonDict], Any]] = {
            name.lower(): getattr(self, f"_m_{name}")
            for name in (
                "getMe",
                "deleteWebhook",
                "getWebhookInfo",
                "setMyCommands",
                "getMyCommands",
                "deleteMyCommands",
                "setMyDescription",
                "setMyShortDescription",
                "setChatMenuButton",
                "getChatMenuButton",
                "sendMessage",
                "editMessageText",
                "editMessageReplyMarkup",
                "deleteMessage",
                "deleteMessages",
                "answerCallbackQuery",
                "answerInlineQuery",
                "getChatMember",
                "getChatAdministrators",
                "getChat",
                "sendChatAction",
            )
        }

    # ------------------------------------------------------------------ lifecycle

    async def start(self) -> None:
        app = web.Application()
        app.router.add_route("*", "/bot{token}/{method}", self._handle)
        self._runner = web.AppRunner(app, handler_cancellation=True, shutdown_timeout=1.0)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        server = site._server
        assert server is not None
        sockets = getattr(server, "sockets", None) or []
        port = sockets[0].getsockname()[1]
        self.base_url = f"http://127.0.0.1:{port}"
        self._last_activity = time.monotonic()

    async def stop(self) -> None:
        self._closing = True
        self._notify()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> FakeTelegram:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    # ------------------------------------------------------------------ test-side setup

    @property
    def bot_user(self) -> JsonDict:
        return {
            "id": self.bot_id,
            "is_bot": True,
            "first_name": self.bot_name,
            "username": self.bot_username,
        }

    def add_user(
        self,
        user_id: int,
        first_name: str,
        *,
        language_code: str | None = "ru",
        username: str | None = None,
        last_name: str | None = None,
    ) -> SimUser:
        from tests.fakeapi.users import SimUser

        if user_id in self.users or user_id <= 0:
            raise FakeUsageError(f"user id {user_id} is taken or not positive")
        user = SimUser(self, user_id, first_name, language_code, username, last_name)
        self.users[user_id] = user
        return user

    def add_group(
        self,
        chat_id: int,
        title: str,
        *,
        admins: list[int] | tuple[int, ...] = (),
        members: list[int] | tuple[int, ...] = (),
        creator: int | None = None,
        supergroup: bool = True,
        is_forum: bool = False,
        username: str | None = None,
        with_bot: bool = True,
        bot_admin: bool = False,
    ) -> SimGroup:
        """A group (supergroup unless told). ``with_bot``: the bot is already a member."""
        from tests.fakeapi.users import SimGroup

        if chat_id >= 0 or chat_id in self.chats:
            raise FakeUsageError(f"group id {chat_id} must be negative and unused")
        chat = ChatState(
            chat_id,
            "supergroup" if supergroup else "group",
            title=title,
            username=username,
            is_forum=is_forum,
        )
        for uid in members:
            chat.members[uid] = "member"
        for uid in admins:
            chat.members[uid] = "administrator"
        if creator is not None:
            chat.members[creator] = "creator"
        chat.bot_status = ("administrator" if bot_admin else "member") if with_bot else "left"
        self.chats[chat_id] = chat
        group = SimGroup(self, chat_id)
        self.groups[chat_id] = group
        return group

    def add_bot_to(self, group: SimGroup, *, by: SimUser, admin: bool = False) -> None:
        """``by`` adds the bot to ``group``: ``my_chat_member`` + a ``new_chat_members`` message."""
        from tests.fakeapi.users import add_bot_to

        add_bot_to(self, group, by=by, admin=admin)

    def remove_bot_from(self, group: SimGroup, *, by: SimUser) -> None:
        """``by`` removes the bot from ``group``; later sends there get 403 (kicked)."""
        from tests.fakeapi.users import remove_bot_from

        remove_bot_from(self, group, by=by)

    def migrate_group(self, group: SimGroup, new_id: int) -> SimGroup:
        """The basic group becomes a supergroup with ``new_id`` (service messages in both)."""
        old = group.state
        if old.type != "group" or new_id in self.chats:
            raise FakeUsageError("only a basic group can migrate, to an unused id")
        new = self.add_group(new_id, old.title or "", username=old.username)
        new.state.members.update(old.members)
        new.state.bot_status = old.bot_status
        old.migrated_to = new_id
        actor = next(iter(self.users.values()))
        for chat, extra in (
            (old, {"migrate_to_chat_id": new_id}),
            (new.state, {"migrate_from_chat_id": old.id}),
        ):
            message = self.store_message(
                chat,
                MessageVersion("", "", (), None),
                sender_id=actor.id,
                from_bot=False,
                extra=extra,
            )
            self.push_update("message", self.message_dict(message))
        return new

    def chat(self, chat_id: int) -> ChatState:
        try:
            return self.chats[chat_id]
        except KeyError:
            raise FakeUsageError(f"no chat {chat_id}") from None

    def private_chat(self, user: SimUser) -> ChatState:
        chat = self.chats.get(user.id)
        if chat is None:
            chat = ChatState(user.id, "private", first_name=user.first_name)
            chat.username = user.username
            chat.members[user.id] = "member"
            self.chats[user.id] = chat
        return chat

    def rate_limit(self, per_chat: int | None = 3, window: float = 1.0) -> None:
        """Answer 429 when a chat gets more than ``per_chat`` sends/edits within ``window`` s."""
        self._rate = None if per_chat is None else (per_chat, window)
        self._sent_times.clear()

    def fail_next(
        self,
        method: str,
        error_code: int = 400,
        description: str = "Bad Request: injected failure",
        *,
        chat_id: int | None = None,
        times: int = 1,
        parameters: JsonDict | None = None,
    ) -> None:
        """Make the next ``times`` calls of ``method`` (to ``chat_id``) fail with this error."""
        error = ApiError(error_code, description, parameters)
        self._faults.append(_Fault(method.lower(), error, chat_id, times))

    def expire(self, message: SentMessage) -> None:
        """From now on editing ``message`` fails with "message can't be edited" (too old)."""
        message.editable = False

    # ------------------------------------------------------------------ test-side queries

    def messages(self, chat_id: int) -> list[SentMessage]:
        """Every message the bot sent (or a user sent via the bot) to the chat, deleted too."""
        chat = self.chats.get(chat_id)
        if chat is None:
            return []
        return [m for m in chat.messages.values() if m.from_bot or m.via_bot]

    def mark(self) -> int:
        """A position in ``requests``; pass it as ``since=`` to count only later calls."""
        return len(self.requests)

    def count(
        self,
        method: str | None = None,
        chat_id: int | None = None,
        *,
        ok: bool | None = None,
        since: int = 0,
    ) -> int:
        """How many calls (of ``method``, to ``chat_id``, that succeeded/failed) were made."""
        return sum(
            1
            for c in self.requests[since:]
            if (method is None or c.method.lower() == method.lower())
            and (chat_id is None or c.chat_id == chat_id)
            and (ok is None or c.ok == ok)
        )

    def calls(self, method: str | None = None) -> list[ApiCall]:
        return [c for c in self.requests if method is None or c.method.lower() == method.lower()]

    @property
    def pending_updates(self) -> int:
        """Updates queued but not yet fetched by the bot."""
        return sum(1 for u in self._queue if u["update_id"] > self._delivered_upto)

    def commands_for(
        self, scope: JsonDict | None = None, language_code: str = ""
    ) -> list[JsonDict]:
        return list(self.commands.get((_scope_key(scope), language_code), []))

    async def wait_until(
        self,
        predicate: Callable[[], object],
        timeout: float = 5.0,  # noqa: ASYNC109
        interval: float = 0.005,
    ) -> None:
        deadline = time.monotonic() + timeout
        while not predicate():
            if time.monotonic() > deadline:
                raise TimeoutError(f"condition not met within {timeout} s: {predicate!r}")
            await asyncio.sleep(interval)

    async def settle(self, quiet: float = 0.2, timeout: float = 10.0) -> None:  # noqa: ASYNC109
        """Wait until every queued update was fetched and no call arrived for ``quiet`` s."""
        deadline = time.monotonic() + timeout
        while True:
            now = time.monotonic()
            if (
                self.pending_updates == 0
                and self._inflight == 0
                and now - self._last_activity >= quiet
            ):
                return
            if now > deadline:
                raise TimeoutError(
                    f"fake Telegram did not settle within {timeout} s: "
                    f"{self.pending_updates} update(s) not fetched, {self._inflight} call(s) "
                    f"in flight, last call {now - self._last_activity:.2f} s ago"
                )
            await asyncio.sleep(min(0.01, quiet / 4 or 0.01))

    # ------------------------------------------------------------------ updates

    def next_id(self) -> str:
        return str(next(self._ids))

    def push_update(self, kind: str, payload: JsonDict) -> int:
        update_id = self._next_update_id
        self._next_update_id += 1
        update = {"update_id": update_id, kind: payload}
        self.updates.append(update)
        self._queue.append(update)
        self._notify()
        return update_id

    def _notify(self) -> None:
        for waiter in self._waiters:
            if not waiter.done():
                waiter.set_result(None)
        self._waiters.clear()

    def expect_callback_answer(self, query_id: str) -> asyncio.Future[CallbackAnswer]:
        future: asyncio.Future[CallbackAnswer] = asyncio.get_running_loop().create_future()
        self._pending_callbacks[query_id] = future
        self._pressed_at[query_id] = time.monotonic()
        return future

    def expect_inline_answer(self, query_id: str) -> asyncio.Future[list[JsonDict]]:
        future: asyncio.Future[list[JsonDict]] = asyncio.get_running_loop().create_future()
        self._pending_inline[query_id] = future
        return future

    def store_message(
        self,
        chat: ChatState,
        version: MessageVersion,
        *,
        sender_id: int,
        from_bot: bool,
        **fields: Any,
    ) -> SentMessage:
        message = SentMessage(
            message_id=chat.next_id,
            chat_id=chat.id,
            sender_id=sender_id,
            date=int(time.time()),
            version=version,
            from_bot=from_bot,
            history=[version],
            **fields,
        )
        chat.next_id += 1
        chat.messages[message.message_id] = message
        return message

    def message_dict(self, message: SentMessage, *, nested: bool = False) -> JsonDict:
        """The Bot API ``Message`` object for a stored message."""
        chat = self.chats[message.chat_id]
        sender = self.bot_user if message.from_bot else self.users[message.sender_id].as_user()
        out: JsonDict = {
            "message_id": message.message_id,
            "from": sender,
            "chat": chat.as_chat(),
            "date": message.date,
        }
        if message.thread_id is not None:
            out["message_thread_id"] = message.thread_id
            out["is_topic_message"] = True
        if message.reply_to is not None and not nested:
            target = chat.messages.get(message.reply_to)
            if target is not None and not target.deleted:
                out["reply_to_message"] = self.message_dict(target, nested=True)
        if message.via_bot:
            out["via_bot"] = self.bot_user
        if message.edit_date is not None:
            out["edit_date"] = message.edit_date
        if message.text:
            out["text"] = message.text
        if message.entities:
            out["entities"] = [dict(e) for e in message.entities]
        if message.link_preview_options:
            out["link_preview_options"] = message.link_preview_options
        if message.reply_markup and "inline_keyboard" in message.reply_markup:
            out["reply_markup"] = message.reply_markup
        out.update(message.extra)
        return out

    # ------------------------------------------------------------------ HTTP

    async def _handle(self, request: web.Request) -> web.Response:
        method = request.match_info["method"]
        if request.match_info["token"] != self.token:
            return web.json_response(
                {"ok": False, "error_code": 401, "description": "Unauthorized"}, status=401
            )
        params = await _read_params(request)
        call = ApiCall(method=method, params=params, at=time.monotonic())
        self.requests.append(call)
        polling = method.lower() == "getupdates"
        if not polling:
            self._inflight += 1
            self._last_activity = time.monotonic()
        try:
            if polling:
                result: Any = await self._get_updates(params, request)
            else:
                handler = self._methods.get(method.lower())
                if handler is None:
                    raise ApiError(404, "Not Found: method not found")
                self._check_fault(method.lower(), params)
                result = handler(params)
        except ApiError as error:
            call.ok, call.error_code, call.description = False, error.error_code, error.description
            return web.json_response(error.body(), status=error.error_code)
        finally:
            if not polling:
                self._inflight -= 1
                self._last_activity = time.monotonic()
        call.result = result
        return web.json_response({"ok": True, "result": result})

    def _check_fault(self, method: str, params: JsonDict) -> None:
        for fault in self._faults:
            if fault.method == method and fault.chat_id in (None, params.get("chat_id")):
                fault.times -= 1
                if fault.times <= 0:
                    self._faults.remove(fault)
                raise fault.error

    async def _get_updates(self, params: JsonDict, request: web.Request) -> list[JsonDict]:
        serial = next(self._poll_serial)
        self._poll_current = serial  # a newer poll terminates older ones (409)
        self._notify()
        offset = params.get("offset")
        limit = min(max(int(params.get("limit") or 100), 1), 100)
        timeout = max(float(params.get("timeout") or 0), 0.0)
        if "allowed_updates" in params and isinstance(params["allowed_updates"], list):
            self._allowed = list(params["allowed_updates"]) or None
        if isinstance(offset, int):
            if offset < 0:
                self._queue = self._queue[offset:]
            else:
                self._queue = [u for u in self._queue if u["update_id"] >= offset]
        deadline = time.monotonic() + timeout
        while True:
            if self._poll_current != serial:
                raise ApiError(409, CONFLICT)
            self._drop_unwanted()
            if self._queue or self._closing:
                break
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                break
            waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            self._waiters.add(waiter)
            try:
                await asyncio.wait_for(waiter, remaining)
            except TimeoutError:
                pass
            finally:
                self._waiters.discard(waiter)
        batch = self._queue[:limit]
        transport = request.transport
        if batch and transport is not None and not transport.is_closing():
            self._delivered_upto = max(self._delivered_upto, batch[-1]["update_id"])
            self._last_activity = time.monotonic()
        return [json.loads(json.dumps(u)) for u in batch]

    def _drop_unwanted(self) -> None:
        allowed = self._allowed
        if allowed is None:
            default_off = {"chat_member", "message_reaction", "message_reaction_count"}
            keep = [u for u in self._queue if not (set(u) & default_off)]
        else:
            keep = [u for u in self._queue if set(u) & set(allowed)]
        for update in self._queue:
            if update not in keep:
                self._delivered_upto = max(self._delivered_upto, update["update_id"])
        self._queue = keep

    # ------------------------------------------------------------------ checks

    def _target_chat(self, params: JsonDict, *, write: bool = True) -> ChatState:
        raw = params.get("chat_id")
        if raw is None or raw == "":
            raise _bad("chat_id is empty")
        chat: ChatState | None
        if isinstance(raw, str) and raw.startswith("@"):
            chat = next((c for c in self.chats.values() if c.username == raw[1:]), None)
        elif isinstance(raw, int):
            chat = self.chats.get(raw)
        else:
            chat = None
        if chat is None:
            user = self.users.get(raw) if isinstance(raw, int) else None
            if user is not None and write:
                raise ApiError(403, "Forbidden: bot can't initiate conversation with a user")
            raise _bad("chat not found")
        if chat.migrated_to is not None:
            raise ApiError(
                400,
                "Bad Request: group chat was upgraded to a supergroup chat",
                {"migrate_to_chat_id": chat.migrated_to},
            )
        if chat.type == "private":
            user = self.users[chat.id]
            if user.blocked:
                raise ApiError(403, "Forbidden: bot was blocked by the user")
            if not user.started and write:
                raise ApiError(403, "Forbidden: bot can't initiate conversation with a user")
        elif chat.bot_status == "kicked":
            raise ApiError(403, f"Forbidden: bot was kicked from the {chat.type} chat")
        elif chat.bot_status == "left":
            raise ApiError(403, f"Forbidden: bot is not a member of the {chat.type} chat")
        return chat

    def _check_rate(self, method: str, chat: ChatState) -> None:
        if self._rate is None or method not in _COUNTED:
            return
        limit, window = self._rate
        now = time.monotonic()
        times = [t for t in self._sent_times.get(chat.id, []) if now - t < window]
        self._sent_times[chat.id] = times
        if len(times) >= limit:
            retry = max(1, math.ceil(window - (now - times[0])))
            raise ApiError(429, f"Too Many Requests: retry after {retry}", {"retry_after": retry})
        times.append(now)

    def _render(self, params: JsonDict) -> tuple[str, str, list[JsonDict], str | None]:
        raw = params.get("text")
        source = "" if raw is None else str(raw)
        mode = params.get("parse_mode")
        mode = mode if isinstance(mode, str) and mode else None
        if mode is not None and mode.lower() == "html":
            try:
                plain, entities = parse_html(source)
            except HtmlError as error:
                raise _bad(f"can't parse entities: {error}") from None
        elif mode is not None and mode.lower() not in ("markdown", "markdownv2"):
            raise _bad(f"unsupported parse_mode {mode!r}")
        else:
            given = params.get("entities")
            plain, entities = source, list(given) if isinstance(given, list) else []
        plain, entities = strip_text(plain, entities)
        if not plain:
            raise _bad("message text is empty")
        if len(plain) > MAX_TEXT:
            raise _bad("message is too long")
        return plain, source, entities, mode

    def _markup(self, params: JsonDict) -> JsonDict | None:
        markup = params.get("reply_markup")
        if markup is None:
            return None
        if not isinstance(markup, dict):
            raise _bad("can't parse reply keyboard markup JSON object")
        if "inline_keyboard" not in markup:
            return markup
        rows = markup["inline_keyboard"]
        if not isinstance(rows, list) or not all(isinstance(r, list) for r in rows):
            raise _bad('field "inline_keyboard" of the InlineKeyboardMarkup must be an Array')
        for row in rows:
            for button in row:
                _check_button(button)
        rows = [row for row in rows if row]
        return {"inline_keyboard": rows} if rows else None

    def _message(self, chat: ChatState, params: JsonDict, verb: str) -> SentMessage:
        message_id = params.get("message_id")
        if not isinstance(message_id, int):
            raise _bad("message identifier is not specified")
        message = chat.messages.get(message_id)
        if message is None or message.deleted:
            raise _bad(f"message to {verb} not found")
        return message

    # ------------------------------------------------------------------ methods

    def _m_getMe(self, params: JsonDict) -> JsonDict:
        return {
            **self.bot_user,
            "can_join_groups": True,
            "can_read_all_group_messages": not self.privacy_mode,
            "supports_inline_queries": True,
            "can_connect_to_business": False,
            "has_main_web_app": False,
        }

    def _m_deleteWebhook(self, params: JsonDict) -> bool:
        if params.get("drop_pending_updates"):
            for update in self._queue:
                self._delivered_upto = max(self._delivered_upto, update["update_id"])
            self._queue.clear()
        return True

    def _m_getWebhookInfo(self, params: JsonDict) -> JsonDict:
        return {
            "url": "",
            "has_custom_certificate": False,
            "pending_update_count": len(self._queue),
        }

    def _m_setMyCommands(self, params: JsonDict) -> bool:
        commands = params.get("commands")
        if not isinstance(commands, list):
            raise _bad('parameter "commands" is required')
        if len(commands) > 100:
            raise _bad("too many commands")
        for command in commands:
            name = command.get("command", "") if isinstance(command, dict) else ""
            desc = command.get("description", "") if isinstance(command, dict) else ""
            valid = (
                1 <= len(name) <= 32
                and all(c.islower() or c.isdigit() or c == "_" for c in name)
                and name.isascii()
            )
            if not valid or not 1 <= len(str(desc)) <= 256:
                raise _bad("BOT_COMMAND_INVALID")
        key = (_scope_key(params.get("scope")), str(params.get("language_code") or ""))
        self.commands[key] = [dict(c) for c in commands]
        return True

    def _m_getMyCommands(self, params: JsonDict) -> list[JsonDict]:
        key = (_scope_key(params.get("scope")), str(params.get("language_code") or ""))
        return [dict(c) for c in self.commands.get(key, [])]

    def _m_deleteMyCommands(self, params: JsonDict) -> bool:
        key = (_scope_key(params.get("scope")), str(params.get("language_code") or ""))
        self.commands.pop(key, None)
        return True

    def _m_setMyDescription(self, params: JsonDict) -> bool:
        return True

    def _m_setMyShortDescription(self, params: JsonDict) -> bool:
        return True

    def _m_setChatMenuButton(self, params: JsonDict) -> bool:
        button = params.get("menu_button")
        if "chat_id" in params:
            self._target_chat(params).menu_button = button
        return True

    def _m_getChatMenuButton(self, params: JsonDict) -> JsonDict:
        if "chat_id" in params:
            return self._target_chat(params).menu_button or {"type": "default"}
        return {"type": "commands"}

    def _m_sendMessage(self, params: JsonDict) -> JsonDict:
        chat = self._target_chat(params)
        plain, source, entities, mode = self._render(params)
        markup = self._markup(params)
        reply_to = params.get("reply_to_message_id")
        reply_parameters = params.get("reply_parameters")
        allow_missing = bool(params.get("allow_sending_without_reply"))
        if isinstance(reply_parameters, dict):
            reply_to = reply_parameters.get("message_id")
            allow_missing = bool(reply_parameters.get("allow_sending_without_reply"))
        if reply_to is not None:
            target = chat.messages.get(reply_to) if isinstance(reply_to, int) else None
            if target is None or target.deleted:
                if not allow_missing:
                    raise _bad("message to be replied not found")
                reply_to = None
        self._check_rate("sendmessage", chat)
        thread = params.get("message_thread_id")
        message = self.store_message(
            chat,
            MessageVersion(plain, source, tuple(entities), markup),
            sender_id=self.bot_id,
            from_bot=True,
            parse_mode=mode,
            reply_to=reply_to,
            thread_id=thread if isinstance(thread, int) else None,
            disable_notification=bool(params.get("disable_notification")),
            link_preview_options=params.get("link_preview_options"),
        )
        return self.message_dict(message)

    def _edit_target(self, params: JsonDict) -> SentMessage:
        inline_id = params.get("inline_message_id")
        if inline_id:
            for chat in self.chats.values():
                for message in chat.messages.values():
                    if message.inline_message_id == inline_id and not message.deleted:
                        return message
            raise _bad("MESSAGE_ID_INVALID")
        chat = self._target_chat(params)
        message = self._message(chat, params, "edit")
        if not message.from_bot or not message.editable:
            raise _bad("message can't be edited")
        return message

    def _apply_edit(self, message: SentMessage, version: MessageVersion, method: str) -> Any:
        if version.key() == message.version.key():
            raise ApiError(400, NOT_MODIFIED)
        self._check_rate(method, self.chats[message.chat_id])
        message.version = version
        message.history.append(version)
        message.edits += 1
        message.edit_date = int(time.time())
        if message.inline_message_id is not None and message.via_bot:
            return True
        return self.message_dict(message)

    def _m_editMessageText(self, params: JsonDict) -> Any:
        message = self._edit_target(params)
        plain, source, entities, mode = self._render(params)
        version = MessageVersion(plain, source, tuple(entities), self._markup(params))
        message.parse_mode = mode
        if "link_preview_options" in params:
            message.link_preview_options = params["link_preview_options"]
        return self._apply_edit(message, version, "editmessagetext")

    def _m_editMessageReplyMarkup(self, params: JsonDict) -> Any:
        message = self._edit_target(params)
        old = message.version
        version = MessageVersion(old.text, old.html, old.entities, self._markup(params))
        return self._apply_edit(message, version, "editmessagereplymarkup")

    def _m_deleteMessage(self, params: JsonDict) -> bool:
        chat = self._target_chat(params)
        message = self._message(chat, params, "delete")
        self._delete(chat, message)
        return True

    def _m_deleteMessages(self, params: JsonDict) -> bool:
        chat = self._target_chat(params)
        ids = params.get("message_ids")
        if not isinstance(ids, list) or not 1 <= len(ids) <= 100:
            raise _bad("message_ids must be a non-empty array")
        found = [chat.messages[i] for i in ids if i in chat.messages]
        live = [m for m in found if not m.deleted]
        if not live:
            raise _bad("message to delete not found")
        for message in live:
            self._delete(chat, message)
        return True

    def _delete(self, chat: ChatState, message: SentMessage) -> None:
        if (
            not message.from_bot
            and chat.type != "private"
            and chat.bot_status not in ("administrator", "creator")
        ):
            raise _bad("message can't be deleted")
        message.deleted = True

    def _m_answerCallbackQuery(self, params: JsonDict) -> bool:
        query_id = str(params.get("callback_query_id") or "")
        future = self._pending_callbacks.get(query_id)
        if query_id in self.callback_answers or future is None:
            raise ApiError(400, QUERY_TOO_OLD)
        text = params.get("text")
        if text is not None and len(str(text)) > 200:
            raise _bad("MESSAGE_TOO_LONG")
        url = params.get("url")
        if url is not None:
            prefixes = (f"https://t.me/{self.bot_username}?", f"t.me/{self.bot_username}?")
            if not str(url).startswith(prefixes):
                raise _bad("URL_INVALID")
        answer = CallbackAnswer(
            query_id=query_id,
            text=None if text is None else str(text),
            show_alert=bool(params.get("show_alert")),
            url=None if url is None else str(url),
            cache_time=params.get("cache_time"),
            latency=time.monotonic() - self._pressed_at.pop(query_id, time.monotonic()),
        )
        self.callback_answers[query_id] = answer
        del self._pending_callbacks[query_id]
        if not future.done():
            future.set_result(answer)
        return True

    def _m_answerInlineQuery(self, params: JsonDict) -> bool:
        query_id = str(params.get("inline_query_id") or "")
        future = self._pending_inline.get(query_id)
        if query_id in self.inline_answers or future is None:
            raise ApiError(400, QUERY_TOO_OLD)
        results = params.get("results")
        if not isinstance(results, list) or len(results) > 50:
            raise _bad("RESULTS_TOO_MUCH" if isinstance(results, list) else "results is empty")
        seen: set[str] = set()
        for result in results:
            rid = str(result.get("id", "")) if isinstance(result, dict) else ""
            if not rid or len(rid.encode()) > 64:
                raise _bad("RESULT_ID_INVALID")
            if rid in seen:
                raise _bad("RESULT_ID_DUPLICATE")
            seen.add(rid)
            if result.get("type") == "article" and not (
                result.get("title") and isinstance(result.get("input_message_content"), dict)
            ):
                raise _bad("RESULT_INVALID")
            if "reply_markup" in result:
                self._markup({"reply_markup": result["reply_markup"]})
        self.inline_answers[query_id] = dict(params)
        del self._pending_inline[query_id]
        if not future.done():
            future.set_result([dict(r) for r in results])
        return True

    def _member_dict(self, chat: ChatState, user_id: int) -> JsonDict:
        if user_id == self.bot_id:
            status, user = chat.bot_status, self.bot_user
        else:
            sim = self.users.get(user_id)
            if sim is None:
                raise _bad("user not found")
            status, user = chat.members.get(user_id, "left"), sim.as_user()
        return member_object(user, status)

    def _m_getChatMember(self, params: JsonDict) -> JsonDict:
        chat = self._target_chat(params, write=False)
        user_id = params.get("user_id")
        if not isinstance(user_id, int):
            raise _bad("invalid user_id specified")
        return self._member_dict(chat, user_id)

    def _m_getChatAdministrators(self, params: JsonDict) -> list[JsonDict]:
        chat = self._target_chat(params, write=False)
        if chat.type == "private":
            raise _bad("there are no administrators in the private chat")
        ids = [uid for uid, s in chat.members.items() if s in ("creator", "administrator")]
        out = [self._member_dict(chat, uid) for uid in ids]
        if chat.bot_status == "administrator":
            out.append(self._member_dict(chat, self.bot_id))
        return out

    def _m_getChat(self, params: JsonDict) -> JsonDict:
        chat = self._target_chat(params, write=False)
        return {
            **chat.as_chat(),
            "accent_color_id": 0,
            "max_reaction_count": 11,
            "accepted_gift_types": {
                "unlimited_gifts": False,
                "limited_gifts": False,
                "unique_gifts": False,
                "premium_subscription": False,
                "gifts_from_channels": False,
            },
        }

    def _m_sendChatAction(self, params: JsonDict) -> bool:
        self._target_chat(params)
        if not params.get("action"):
            raise _bad("wrong parameter action in request")
        return True


def member_object(user: JsonDict, status: str) -> JsonDict:
    """A ``ChatMember`` object of the given status, with every field aiogram requires."""
    out: JsonDict = {"user": user, "status": status}
    if status == "creator":
        out["is_anonymous"] = False
    elif status == "administrator":
        out.update(
            dict.fromkeys(
                (
                    "can_be_edited",
                    "is_anonymous",
                    "can_promote_members",
                    "can_post_stories",
                    "can_edit_stories",
                    "can_delete_stories",
                ),
                False,
            )
        )
        out.update(
            dict.fromkeys(
                (
                    "can_manage_chat",
                    "can_delete_messages",
                    "can_manage_video_chats",
                    "can_restrict_members",
                    "can_change_info",
                    "can_invite_users",
                    "can_pin_messages",
                    "can_send_welcome_messages",
                ),
                True,
            )
        )
    elif status == "kicked":
        out["until_date"] = 0
    return out


def _check_button(button: object) -> None:
    if not isinstance(button, dict) or not isinstance(button.get("text"), str):
        raise _bad("can't parse inline keyboard button: Text buttons are unallowed")
    actions = _ACTION_KEYS & set(button)
    if not actions:
        raise _bad("text buttons are unallowed in the inline keyboard")
    if "callback_data" in button:
        data = button["callback_data"]
        if not isinstance(data, str) or not 1 <= len(data.encode("utf-8")) <= 64:
            raise _bad("BUTTON_DATA_INVALID")
    if "url" in button:
        url = button["url"]
        if not isinstance(url, str) or not url or any(c.isspace() for c in url):
            raise _bad("BUTTON_URL_INVALID")


def _scope_key(scope: object) -> str:
    if not scope:
        return json.dumps({"type": "default"})
    return json.dumps(scope, sort_keys=True)


async def _read_params(request: web.Request) -> JsonDict:
    raw: dict[str, Any] = dict(request.query)
    if request.content_type == "application/json":
        body = await request.json()
        if isinstance(body, dict):
            raw.update(body)
        return raw
    if request.can_read_body:
        form = await request.post()
        for key, value in form.items():
            raw[key] = value if isinstance(value, str) else f"<file {key}>"
    return {key: _decode(key, value) for key, value in raw.items()}


def _decode(key: str, value: Any) -> Any:
    if not isinstance(value, str) or key in _STRING_FIELDS:
        return value
    try:
        return json.loads(value)
    except ValueError:
        return value
