"""aiogram's HTTP session with a lighter path for the calls a press makes.

aiogram encodes every method as a ``multipart``-capable ``FormData`` (every nested object
JSON-dumped, URL-quoted field by field) and validates every answer into its pydantic type, an
edited message coming back whole, keyboard and all, though nobody reads it. On the calls a
press makes that encoding and decoding, not the HTTP, is most of the request's CPU.
:class:`JsonSession` changes only those two:

* a method without files is sent as one ``application/json`` body (the Bot API takes JSON), its
  values prepared by aiogram's own ``prepare_value`` (defaults such as ``parse_mode`` resolved
  the same way), ``None`` and ``""`` left out as aiogram leaves them out (``0`` and ``false``
  are sent: ``cache_time=0`` means something);
* the answer of an edit, a delete or a callback answer is not validated when it is ``ok``: an
  edit returns ``True`` (as for an inline message) instead of the ``Message``, a delete or an
  answer its ``true``. Everything else, and every error, goes through aiogram's
  ``check_response`` unchanged, so the same exceptions reach the same middlewares;
* a pressed button's update carries the whole message it is on, keyboard and formatting and
  all, which nobody reads (the outbox knows what every message of the bot offers and shows):
  ``getUpdates`` drops ``callback_query.message``'s ``reply_markup`` and ``entities`` before
  the updates are validated into aiogram's types (its chat, id and text stay); so does
  ``sendMessage`` of the message it returns (the outbox reads its id).

The body is built from the method's own fields without dumping the model: a plain value is
taken as is, a default (``parse_mode``) resolved by ``prepare_value``, and the screens'
:class:`~bot.rendered.Keyboard` written as its JSON. :class:`EditText` and
:class:`SendText` (and :class:`EditEphemeralText`) are aiogram's ``editMessageText`` and
``sendMessage`` (``editEphemeralMessageText``) that carry such a
keyboard instead of the pydantic ``InlineKeyboardMarkup`` (checked by ``isinstance`` only, and
dumped right by any aiogram session). A method with any other kind of value (a list, a nested
model) is dumped and prepared whole, as aiogram does; methods with files (``sendDocument``: a
record) take aiogram's own path.
"""

from __future__ import annotations

import contextlib
from http import HTTPStatus
from typing import TYPE_CHECKING, Any, Final, cast

from aiogram import __version__ as aiogram_version
from aiogram.client.default import Default
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.exceptions import TelegramNetworkError
from aiogram.methods import (
    AnswerCallbackQuery,
    DeleteEphemeralMessage,
    DeleteMessage,
    EditEphemeralMessageReplyMarkup,
    EditEphemeralMessageText,
    EditMessageReplyMarkup,
    EditMessageText,
    GetUpdates,
    Response,
    SendMessage,
)
from aiogram.methods.base import TelegramType
from aiogram.types import InlineKeyboardMarkup, InputFile, Message, Update
from aiohttp import ClientError, ClientSession, ClientTimeout, DummyCookieJar
from aiohttp.hdrs import USER_AGENT
from aiohttp.http import SERVER_SOFTWARE
from pydantic import PrivateAttr, ValidationError
from yarl import URL

from bot.rendered import Keyboard

if TYPE_CHECKING:
    from aiogram import Bot
    from aiogram.methods import TelegramMethod

JSON_HEADERS: Final = {"Content-Type": "application/json"}
UNREAD: Final = (
    EditMessageText,
    EditMessageReplyMarkup,
    DeleteMessage,
    AnswerCallbackQuery,
    EditEphemeralMessageText,
    EditEphemeralMessageReplyMarkup,
    DeleteEphemeralMessage,
)
"""Methods whose successful result nobody reads beyond "it worked" (see the module's doc)."""
LIGHTER: Final = (*UNREAD, GetUpdates, SendMessage)
UPDATES: Final = Response[list[Update]]
SENT: Final = Response[Message]
UNREAD_PARTS: Final = ("reply_markup", "entities")  # of a message the bot sent itself
PLAIN: Final = (str, int, float)  # bool is an int, a StrEnum a str: JSON as they are


Markup = Keyboard | InlineKeyboardMarkup  # what EditText and SendText carry


class EditText(EditMessageText):
    """``editMessageText`` with a screen's :class:`Keyboard` (or aiogram's own markup), and the
    forum topic of the message it edits: an edit names no topic, but a message that can't be
    edited is sent anew, in the topic it was in (:mod:`bot.sending.session`). The topic is no
    part of the request."""

    reply_markup: Markup | None = None  # type: ignore[assignment]
    _topic: int | None = PrivateAttr(default=None)

    if TYPE_CHECKING:  # the fields the bot sets (aiogram's own signature names them all)

        def __init__(
            self,
            *,
            text: str,
            chat_id: int | str,
            message_id: int,
            reply_markup: Markup | None = None,
            topic: int | None = None,
            **rest: Any,
        ) -> None: ...

    else:

        def __init__(self, *, topic: int | None = None, **fields: Any) -> None:
            super().__init__(**fields)
            self._topic = topic

    @property
    def topic(self) -> int | None:
        """The forum topic the edited message is in (None: none, or a private chat)."""
        return self._topic


class EditEphemeralText(EditEphemeralMessageText):
    """``editEphemeralMessageText`` with a screen's :class:`Keyboard`, as in
    :class:`EditText`."""

    reply_markup: Markup | None = None  # type: ignore[assignment]

    if TYPE_CHECKING:

        def __init__(
            self,
            *,
            chat_id: int | str,
            receiver_user_id: int,
            ephemeral_message_id: int,
            text: str,
            reply_markup: Markup | None = None,
            **rest: Any,
        ) -> None: ...


class SendText(SendMessage):
    """``sendMessage`` with a screen's :class:`Keyboard` (or aiogram's own inline markup)."""

    reply_markup: Markup | None = None  # type: ignore[assignment]

    if TYPE_CHECKING:

        def __init__(
            self,
            *,
            chat_id: int | str,
            text: str,
            reply_markup: Markup | None = None,
            **rest: Any,
        ) -> None: ...


def _trim(message: object) -> None:
    """A message's parts nobody reads, dropped before it is validated."""
    if isinstance(message, dict):
        for part in UNREAD_PARTS:
            message.pop(part, None)


class JsonSession(AiohttpSession):
    """:class:`AiohttpSession` with JSON bodies and unread results left unparsed."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._defaults: dict[tuple[str, str], Any] = {}
        # what every request would build again: its URL parsed, its timeout (few distinct)
        self._urls: dict[tuple[str, str], URL] = {}
        self._timeouts: dict[float, ClientTimeout] = {}

    async def create_session(self) -> ClientSession:
        """aiogram's own session, without a cookie jar (the Bot API sets none; aiohttp would
        filter and update one on every request)."""
        if self._should_reset_connector:
            await self.close()
        if self._session is None or self._session.closed:
            self._session = ClientSession(
                connector=self._connector_type(**self._connector_init),
                headers={USER_AGENT: f"{SERVER_SOFTWARE} aiogram/{aiogram_version}"},
                cookie_jar=DummyCookieJar(),
            )
            self._should_reset_connector = False
        return self._session

    def _url(self, bot: Bot, method: str) -> URL:
        key = (bot.token, method)
        url = self._urls.get(key)
        if url is None:
            url = self._urls[key] = URL(self.api.api_url(token=bot.token, method=method))
        return url

    def _timeout(self, seconds: float) -> ClientTimeout:
        timeout = self._timeouts.get(seconds)
        if timeout is None:
            timeout = self._timeouts[seconds] = ClientTimeout(total=seconds)
        return timeout

    def json_body(self, bot: Bot, method: TelegramMethod[Any]) -> str | None:
        """The method as one JSON object, or ``None`` when it carries a file."""
        if method.__pydantic_extra__:
            return self.dumped_body(bot, method)
        body: dict[str, Any] = {}
        written: list[str] = []  # a keyboard's JSON as its screen wrote it once
        for key, value in method.__dict__.items():
            if value is None or value == "":
                continue
            if isinstance(value, PLAIN):
                body[key] = value
            elif isinstance(value, Keyboard):
                written.append(f"{self.json_dumps(key)}:{value.dumps()}")
            elif isinstance(value, Default):
                prepared = self._default(bot, value)
                if prepared is not None and prepared != "":
                    body[key] = prepared
            else:  # a list, a nested model, a file: aiogram's own preparation of the whole
                return self.dumped_body(bot, method)
        text = self.json_dumps(body)
        if not written:
            return text
        return f"{text[:-1]}{', ' if body else ''}{', '.join(written)}}}"

    def _default(self, bot: Bot, value: Default) -> Any:
        """A default of the bot (``parse_mode``, ``link_preview_options``) as aiogram prepares
        it, prepared once per bot: its defaults are fixed when it is built."""
        key = (bot.token, value.name)
        if key not in self._defaults:
            self._defaults[key] = self.prepare_value(value, bot=bot, files={}, _dumps_json=False)
        return self._defaults[key]

    def dumped_body(self, bot: Bot, method: TelegramMethod[Any]) -> str | None:
        """:meth:`json_body` the way aiogram prepares a form: the model dumped, then every
        value prepared (``None`` when a file is among them)."""
        files: dict[str, InputFile] = {}
        body: dict[str, Any] = {}
        for key, value in method.model_dump(warnings=False).items():
            prepared = self.prepare_value(value, bot=bot, files=files, _dumps_json=False)
            if prepared is not None and prepared != "":  # what aiogram's form leaves out
                body[key] = prepared
        if files:
            return None
        return self.json_dumps(body)

    def _updates(self, bot: Bot, data: dict[str, Any]) -> list[Update]:
        """``getUpdates``' answer validated without the pressed messages' keyboards and
        formatting."""
        for update in data.get("result") or ():
            query = update.get("callback_query") if isinstance(update, dict) else None
            _trim(query.get("message") if isinstance(query, dict) else None)
        return UPDATES.model_validate(data, context={"bot": bot}).result or []

    def _sent(self, bot: Bot, data: dict[str, Any]) -> Message:
        """``sendMessage``'s answer, the message just sent, validated without its keyboard and
        formatting (the outbox reads its id)."""
        _trim(data.get("result"))
        message = SENT.model_validate(data, context={"bot": bot}).result
        assert message is not None
        return message

    async def make_request(
        self,
        bot: Bot,
        method: TelegramMethod[TelegramType],
        timeout: int | None = None,  # noqa: ASYNC109  # aiogram's signature
    ) -> TelegramType:
        body = self.json_body(bot, method)
        if body is None:
            return await super().make_request(bot, method, timeout)
        session = await self.create_session()
        try:
            async with session.post(
                self._url(bot, method.__api_method__),
                data=body,
                headers=JSON_HEADERS,
                timeout=self._timeout(self.timeout if timeout is None else timeout),
            ) as resp:
                raw = await resp.text()
                status = resp.status
        except TimeoutError as e:
            raise TelegramNetworkError(method=method, message="Request timeout error") from e
        except ClientError as e:
            raise TelegramNetworkError(method=method, message=f"{type(e).__name__}: {e}") from e
        if HTTPStatus.OK <= status <= HTTPStatus.IM_USED and isinstance(method, LIGHTER):
            try:
                data = self.json_loads(raw)
            except ValueError:
                data = None
            if isinstance(data, dict) and data.get("ok") is True:
                if isinstance(method, UNREAD):
                    return cast(TelegramType, True)
                with contextlib.suppress(ValidationError):  # then aiogram's own error below
                    if isinstance(method, SendMessage):
                        return cast(TelegramType, self._sent(bot, data))
                    return cast(TelegramType, self._updates(bot, data))
        response = self.check_response(bot=bot, method=method, status_code=status, content=raw)
        return cast(TelegramType, response.result)
