"""A fake Telegram Bot API server on 127.0.0.1 (aiohttp), with Telegram's error behaviour.

The bot under test talks to it over real HTTP (aiogram's AiohttpSession with
``TelegramAPIServer.from_base(fake.base_url)``); tests play users through :class:`SimUser`.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from aiohttp import web

from tests.fakeapi.ephemeral import EPHEMERAL_WRITES, EphemeralMethods
from tests.fakeapi.methods import CONFLICT, scope_key
from tests.fakeapi.model import (
    ApiCall,
    ApiError,
    CallbackAnswer,
    ChatState,
    FakeUsageError,
    MessageVersion,
    SentMessage,
    Upload,
)
from tests.fakeapi.webhook import WebhookMethods

if TYPE_CHECKING:
    from tests.fakeapi.users import SimGroup, SimUser

__all__ = ["ChatState", "FakeTelegram"]

JsonDict = dict[str, Any]

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


WRITE_METHODS = (
    frozenset(
        m.lower()
        for m in (
            "sendMessage",
            "editMessageText",
            "editMessageReplyMarkup",
            "deleteMessage",
            "deleteMessages",
            "answerCallbackQuery",
            "answerInlineQuery",
            "sendDocument",
            "sendPhoto",
            "sendChatAction",
        )
    )
    | EPHEMERAL_WRITES
)


@dataclass
class _Gate:
    method: str
    chat_id: int | None
    event: asyncio.Event
    whole: bool  # a held call is made when the gate opens, its client gone or not

    def holds(self, method: str, params: JsonDict) -> bool:
        return self.method == method.lower() and self.chat_id in (None, params.get("chat_id"))


@dataclass
class _Fault:
    method: str
    error: ApiError
    chat_id: int | None
    times: int
    when: Callable[[JsonDict], bool] | None = None  # only calls whose parameters it accepts


class FakeTelegram(WebhookMethods, EphemeralMethods):
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
        self.busy: list[Callable[[], bool]] = []  # clients with work queued (the bot's outbox)
        self._rate: tuple[int, float] | None = None
        self._rate_groups_only = False
        self._sent_times: dict[int, list[float]] = {}
        self._faults: list[_Fault] = []
        self._storm: tuple[random.Random, float, frozenset[str], int] | None = None
        self.storm_429s = 0
        self.other_poller = False  # True: another instance polls too, every getUpdates gets 409
        self._gates: list[_Gate] = []
        self._whole: set[asyncio.Future[Any]] = set()  # calls held whole, made when let through
        # called with each call done, before its answer goes back (a test's crash in between)
        self.on_done: list[Callable[[ApiCall], None]] = []
        self._pending_callbacks: dict[str, asyncio.Future[CallbackAnswer]] = {}
        # a press answered later than this after it was made gets 400 "query is too old"
        # (Telegram's own limit, some seconds; None: none)
        self.query_life_s: float | None = None
        self._pressed_at: dict[str, float] = {}
        self._pending_inline: dict[str, asyncio.Future[list[JsonDict]]] = {}
        self._ids = itertools.count(1)
        self._runner: web.AppRunner | None = None
        self.base_url = ""
        self._init_webhook()
        self._methods: dict[str, Callable[[JsonDict], Any]] = {
            name.lower(): getattr(self, f"_m_{name}")
            for name in (
                "getMe",
                "sendDocument",
                "sendPhoto",
                "setWebhook",
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
        self._init_ephemeral()  # its methods, its switches (tests/fakeapi/ephemeral.py)

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
        for made in list(self._whole):  # held whole, never let through
            made.cancel()
        self._notify()
        await self._stop_webhook()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> FakeTelegram:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    # ------------------------------------------------------------------ test-side setup

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

    def rate_limit(
        self, per_chat: int | None = 3, window: float = 1.0, *, groups_only: bool = False
    ) -> None:
        """Answer 429 when a chat gets more than ``per_chat`` sends/edits within ``window`` s
        (``groups_only``: group chats only, Telegram's 20 a minute)."""
        self._rate = None if per_chat is None else (per_chat, window)
        self._rate_groups_only = groups_only
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
        when: Callable[[JsonDict], bool] | None = None,
    ) -> None:
        """Make the next ``times`` calls of ``method`` (to ``chat_id``; ``when``: whose
        parameters it accepts, e.g. a text's beginning) fail with this error."""
        error = ApiError(error_code, description, parameters)
        self._faults.append(_Fault(method.lower(), error, chat_id, times, when))

    def storm(
        self,
        rng: random.Random | None,
        rate: float = 0.05,
        *,
        methods: frozenset[str] = WRITE_METHODS,
        retry_after: int = 1,
    ) -> None:
        """From now on answer each call of ``methods`` with a 429 (``retry_after`` seconds) with
        probability ``rate``, drawn from ``rng`` (seeded by the test); ``None`` ends the storm.
        ``storm_429s`` counts the 429s answered."""
        self._storm = None if rng is None else (rng, rate, methods, retry_after)

    def gate(
        self, method: str, *, chat_id: int | None = None, whole: bool = False
    ) -> asyncio.Event:
        """Hold every call of ``method`` (to ``chat_id``) until the returned event is set: a slow
        network, so that a test can act while the bot waits for an answer. A call whose client
        goes away meanwhile is dropped, as if it never arrived — unless ``whole``: it reached
        Telegram whole, and is made when the gate opens (its answer then goes nowhere)."""
        event = asyncio.Event()
        self._gates.append(_Gate(method.lower(), chat_id, event, whole))
        return event

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
        return list(self.commands.get((scope_key(scope), language_code), []))

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

    def busy_now(self) -> bool:
        """Whether a registered client still has work queued (``busy``: its checks)."""
        return any(check() for check in self.busy)

    async def settle(self, quiet: float = 0.2, timeout: float = 10.0) -> None:  # noqa: ASYNC109
        """Wait until every queued update was fetched and no call arrived for ``quiet`` s."""
        deadline = time.monotonic() + timeout
        while True:
            now = time.monotonic()
            if (
                self.pending_updates == 0
                and self._inflight == 0
                and now - self._last_activity >= quiet
                and not self.busy_now()
            ):
                return
            if now > deadline:
                raise TimeoutError(
                    f"fake Telegram did not settle within {timeout} s: "
                    f"{self.pending_updates} update(s) not fetched, {self._inflight} call(s) "
                    f"in flight, last call {now - self._last_activity:.2f} s ago; "
                    f"{self._unsettled()}"
                )
            await asyncio.sleep(min(0.01, quiet / 4 or 0.01))

    def _unsettled(self) -> str:
        """What is not fetched yet (a failure's message: which update, and its webhook posts)."""
        pending = [u for u in self._queue if u["update_id"] > self._delivered_upto][:3]
        told = []
        for update in pending:
            uid = update["update_id"]
            kind = next((k for k in update if k != "update_id"), "?")
            event = update.get(kind, {})
            what = event.get("data") or event.get("text") if isinstance(event, dict) else None
            posts = [status for u, status in getattr(self, "webhook_posts", []) if u == uid]
            told.append(f"update {uid} {kind} {what!r}, webhook answers {posts}")
        return "; ".join(told) or "no update pending"

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
                result: Any = await self._polled(call, params, request)
            else:
                gates = [g for g in self._gates if g.holds(method, params)]
                if any(g.whole for g in gates):  # made when they open, its client gone or not
                    made = asyncio.ensure_future(self._made_after(gates, call, method, params))
                    self._whole.add(made)
                    made.add_done_callback(_whole_done(self._whole))
                    result = await asyncio.shield(made)
                else:
                    for gate in gates:
                        await gate.event.wait()
                    result = self._make(call, method, params)
        except ApiError as error:
            return web.json_response(error.body(), status=error.error_code)
        finally:
            if not polling:
                self._inflight -= 1
                self._last_activity = time.monotonic()
        return web.json_response({"ok": True, "result": result})

    async def _polled(self, call: ApiCall, params: JsonDict, request: web.Request) -> Any:
        try:
            result = await self._get_updates(params, request)
        except ApiError as error:
            call.ok, call.error_code, call.description = False, error.error_code, error.description
            raise
        call.result = result
        for hook in list(self.on_done):
            hook(call)
        return result

    async def _made_after(
        self, gates: list[_Gate], call: ApiCall, method: str, params: JsonDict
    ) -> Any:
        for gate in gates:
            await gate.event.wait()
        return self._make(call, method, params)

    def _make(self, call: ApiCall, method: str, params: JsonDict) -> Any:
        """Make a call (not ``getUpdates``): its result, or the :class:`ApiError` it answers;
        either is recorded in ``call``, and the ``on_done`` hooks told of one that worked."""
        try:
            handler = self._methods.get(method.lower())
            if handler is None:
                raise ApiError(404, "Not Found: method not found")
            self._check_fault(method.lower(), params)
            result = handler(params)
        except ApiError as error:
            call.ok, call.error_code, call.description = False, error.error_code, error.description
            raise
        call.result = result
        for hook in list(self.on_done):
            hook(call)
        return result

    def _check_fault(self, method: str, params: JsonDict) -> None:
        if self._storm is not None:
            rng, rate, methods, retry_after = self._storm
            if method in methods and rng.random() < rate:
                self.storm_429s += 1
                raise ApiError(
                    429,
                    f"Too Many Requests: retry after {retry_after}",
                    {"retry_after": retry_after},
                )
        for fault in self._faults:
            if (
                fault.method == method
                and fault.chat_id in (None, params.get("chat_id"))
                and (fault.when is None or fault.when(params))
            ):
                fault.times -= 1
                if fault.times <= 0:
                    self._faults.remove(fault)
                raise fault.error

    async def _get_updates(self, params: JsonDict, request: web.Request) -> list[JsonDict]:
        self._refuse_polling()
        if self.other_poller:
            raise ApiError(409, CONFLICT)
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


def _whole_done(held: set[asyncio.Future[Any]]) -> Callable[[asyncio.Future[Any]], None]:
    """A call held whole is done: forgotten, and its error (if its client had gone, nobody
    read it) taken, so that asyncio does not report it as never retrieved."""

    def done(made: asyncio.Future[Any]) -> None:
        held.discard(made)
        if not made.cancelled():
            made.exception()

    return done


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
            if isinstance(value, str):
                raw[key] = value
            elif isinstance(value, bytes | bytearray):
                raw[key] = Upload(key, bytes(value))
            else:  # an uploaded file: kept whole (sendDocument, sendPhoto read it via attach://)
                raw[key] = Upload(str(value.filename or key), value.file.read())
    return {key: _decode(key, value) for key, value in raw.items()}


def _decode(key: str, value: Any) -> Any:
    if not isinstance(value, str) or key in _STRING_FIELDS:
        return value
    try:
        return json.loads(value)
    except ValueError:
        return value
