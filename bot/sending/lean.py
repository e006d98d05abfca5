"""aiogram's HTTP session with a lighter path for the calls a press makes.

Measured with py-spy under ``bench/side_by_side.py``: about a third of the bot's CPU per press
went to aiogram's request path, and most of that was not the HTTP itself but the encoding (a
``multipart``-capable ``FormData`` with every nested object JSON-dumped, URL-quoted field by field)
and the decoding (every answer validated into its pydantic type: an edited message comes back
whole, keyboard and all, and nobody reads it). :class:`LeanSession` changes only those two:

* a method without files is sent as one ``application/json`` body (the Bot API takes JSON), its
  values prepared by aiogram's own ``prepare_value`` (defaults such as ``parse_mode`` resolved
  the same way), ``None`` and ``""`` left out as aiogram leaves them out (``0`` and ``false``
  are sent: ``cache_time=0`` means something);
* the answer of an edit, a delete or a callback answer is not validated when it is ``ok``: an
  edit returns ``True`` (as for an inline message) instead of the ``Message``, a delete or an
  answer its ``true``. Everything else, and every error, goes through aiogram's
  ``check_response`` unchanged, so the same exceptions reach the same middlewares.

Methods with files (``sendDocument``: a record) take aiogram's own path.
"""

from __future__ import annotations

from http import HTTPStatus
from typing import TYPE_CHECKING, Any, Final, cast

from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.exceptions import TelegramNetworkError
from aiogram.methods import (
    AnswerCallbackQuery,
    DeleteMessage,
    EditMessageReplyMarkup,
    EditMessageText,
)
from aiogram.methods.base import TelegramType
from aiogram.types import InputFile
from aiohttp import ClientError, ClientTimeout

if TYPE_CHECKING:
    from aiogram import Bot
    from aiogram.methods import TelegramMethod

JSON_HEADERS: Final = {"Content-Type": "application/json"}
UNREAD: Final = frozenset(
    {EditMessageText, EditMessageReplyMarkup, DeleteMessage, AnswerCallbackQuery}
)
"""Methods whose successful result nobody reads beyond "it worked" (see the module's doc)."""


class LeanSession(AiohttpSession):
    """:class:`AiohttpSession` with JSON bodies and unread results left unparsed."""

    def json_body(self, bot: Bot, method: TelegramMethod[Any]) -> str | None:
        """The method as one JSON object, or ``None`` when it carries a file."""
        files: dict[str, InputFile] = {}
        body: dict[str, Any] = {}
        for key, value in method.model_dump(warnings=False).items():
            prepared = self.prepare_value(value, bot=bot, files=files, _dumps_json=False)
            if prepared is not None and prepared != "":  # what aiogram's form leaves out
                body[key] = prepared
        if files:
            return None
        return self.json_dumps(body)

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
        url = self.api.api_url(token=bot.token, method=method.__api_method__)
        try:
            async with session.post(
                url,
                data=body,
                headers=JSON_HEADERS,
                timeout=ClientTimeout(total=self.timeout if timeout is None else timeout),
            ) as resp:
                raw = await resp.text()
                status = resp.status
        except TimeoutError as e:
            raise TelegramNetworkError(method=method, message="Request timeout error") from e
        except ClientError as e:
            raise TelegramNetworkError(method=method, message=f"{type(e).__name__}: {e}") from e
        if type(method) in UNREAD and HTTPStatus.OK <= status <= HTTPStatus.IM_USED:
            try:
                data = self.json_loads(raw)
            except ValueError:
                data = None
            if isinstance(data, dict) and data.get("ok") is True:
                return cast(TelegramType, True)
        response = self.check_response(bot=bot, method=method, status_code=status, content=raw)
        return cast(TelegramType, response.result)
