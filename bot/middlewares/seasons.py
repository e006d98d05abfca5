"""An outer middleware on ``dp.update``: after a group's message or button press is handled,
the group is told the season that ended (last month's final boards,
:meth:`bot.runtime.seasons.Seasons.ended`) if it had rated games then and was not told yet.

Told at the group's next activity rather than at midnight: the news comes when people are
there to read it, a bot in thousands of groups posts no burst of boards at once into its global
limit of messages, and a group the bot has left or that went quiet is never written to. Its
final board is the same whenever it is told (a season's standings never change once its month
is over). Once only: the told month is written first, under the ratings' lock, by whichever
worker sees the group first."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

from aiogram import BaseMiddleware
from aiogram.types import Chat, TelegramObject, Update

from bot.i18n import Translator
from bot.render.seasons import season_over
from bot.rendered import Rendered
from bot.runtime.seasons import Seasons
from bot.sending.outbox import Outbox

logger = logging.getLogger(__name__)
Handler = Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]]
GROUPS = frozenset({"group", "supergroup"})


class SeasonEnd(BaseMiddleware):
    def __init__(self, seasons: Seasons, outbox: Outbox) -> None:
        self.seasons = seasons
        self.outbox = outbox

    async def __call__(self, handler: Handler, event: TelegramObject, data: dict[str, Any]) -> Any:
        answer = await handler(event, data)
        chat: Chat | None = data.get("event_chat")
        tr: Translator | None = data.get("chat_tr")
        if (
            isinstance(event, Update)
            and (event.message is not None or event.callback_query is not None)
            and chat is not None
            and chat.type in GROUPS
            and tr is not None
        ):
            await self.tell(chat.id, tr)
        return answer

    async def tell(self, chat_id: int, tr: Translator) -> None:
        try:
            news = await self.seasons.ended(chat_id)
        except Exception:  # the update is answered all the same; the next one asks again
            logger.exception("seasons: the season's news of chat %s could not be read", chat_id)
            return
        if news is None:
            return
        for page in season_over(news.month, news.boards, tr):
            self.outbox.post(chat_id, Rendered(page))
