"""/record: a finished game's RECORD.md record, its transcript (PRODUCT.md §18) and its chart
(#35, where the game has one)."""

from __future__ import annotations

from aiogram import Router
from aiogram.filters import Command
from aiogram.types import Message

from bot.caches.people import People
from bot.delivery import Delivery
from bot.i18n import Translator
from bot.records import Records, transcript
from bot.render.games.charts import chart
from bot.routers.common import say, topic
from bot.runtime.runtime import TableRuntime
from engine.record import write_jsonl


def make_router() -> Router:
    router = Router(name="records")

    @router.message(Command("record"))
    async def record(
        message: Message,
        records: Records,
        runtime: TableRuntime,
        people: People,
        delivery: Delivery,
        chat_tr: Translator,
        user_tr: Translator,
    ) -> None:
        assert message.from_user is not None
        private = message.chat.type == "private"
        tr = user_tr if private else chat_tr
        found = (
            await records.last_over(user_id=message.from_user.id)
            if private
            else await records.last_over(chat_id=message.chat.id)
        )
        if found is None:
            now = None if private else await runtime.now_playing(message.chat.id, topic(message))
            playing = now is not None
            text = (
                tr.html("The record comes when the game is over.")
                if playing
                else tr.html("No finished games yet.")
            )
            say(delivery, message, text, reply=not private)
            return
        chat = await people.chat(found.table.chat_id)
        box = delivery.presenter.outbox
        reply_to = None if private else message.message_id
        box.post_document(
            message.chat.id,
            f"{found.filename}.jsonl",
            write_jsonl(found.lines).encode(),
            reply_to=reply_to,
            thread=topic(message),
        )
        title = chat.title if chat else ""
        words = transcript(found, title, tr)
        box.post_document(
            message.chat.id, f"{found.filename}.txt", words.encode(), thread=topic(message)
        )
        game = found.table.game
        png = chart(game, title, found.no, found.names, found.lines, tr)  # #35, if it has one
        if png is not None:
            box.post_photo(message.chat.id, f"{found.filename}.png", png, thread=topic(message))

    return router
