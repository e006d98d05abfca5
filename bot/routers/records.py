"""/record: a finished game's RECORD.md record, its transcript (PRODUCT.md §18), its replay
page (one HTML file anyone can open), its chart (where the game has one) and 🔎 a button a deal
for its review (:mod:`bot.routers.reviews`) — once per game in a chat (a group, or a player's
private chat); asked again, by anyone, any time later, a short answer points to that post."""

from __future__ import annotations

import asyncio
import functools

from aiogram import Router
from aiogram.filters import Command
from aiogram.types import Message

from bot.caches.people import People
from bot.callbacks import PressCodec
from bot.delivery import Delivery
from bot.drawing import Drawing
from bot.i18n import Translator
from bot.markup import Html, esc
from bot.records import GameRecord, RecordPosts, Records
from bot.render.replay_html import replay_html
from bot.render.review_chat import deals_message
from bot.render.transcript import transcript
from bot.reviews import Reviews
from bot.routers.incoming import say, topic
from bot.runtime.queries import Queries
from engine.record import write_jsonl
from engine.review import deal_numbers

SUPERGROUP_PREFIX = "-100"  # a supergroup's chat id; its links drop it: t.me/c/<rest>/<message>


def message_link(message: Message, message_id: int) -> str | None:
    """A link to a message of the supergroup ``message`` was written in (None: a basic group's
    or a private chat's messages have none — a reply points to them instead)."""
    text = str(message.chat.id)
    if message.chat.type != "supergroup" or not text.startswith(SUPERGROUP_PREFIX):
        return None
    return f"https://t.me/c/{text.removeprefix(SUPERGROUP_PREFIX)}/{message_id}"


def make_router() -> Router:
    router = Router(name="records")

    @router.message(Command("record"))
    async def record(
        message: Message,
        records: Records,
        record_posts: RecordPosts,
        queries: Queries,
        people: People,
        delivery: Delivery,
        drawing: Drawing,
        chat_tr: Translator,
        user_tr: Translator,
        codec: PressCodec,
        reviews: Reviews,
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
            now = None if private else await queries.now_playing(message.chat.id, topic(message))
            playing = now is not None
            text = (
                tr.html("The record comes when the game is over.")
                if playing
                else tr.html("No finished games yet.")
            )
            say(delivery, message, text, reply=not private)
            return
        chat_id = message.chat.id
        shown = await delivery.message_id(chat_id, found.key)
        going = delivery.presenter.outbox.queued(chat_id, found.key)
        if shown is None and not going and await record_posts.claim(chat_id, found):
            await post(message, found, tr, people, delivery, drawing, reviews)
            offer = deals_message(found.table.id, found.no, deal_numbers(found.lines), tr, codec)
            if offer is not None:  # 🔎 each deal's review, for whoever presses it
                delivery.presenter.outbox.post(chat_id, offer, thread=topic(message))
            return
        if shown is None:  # claimed a moment ago: on its way
            say(delivery, message, tr.html("📎 This game's record is on its way."), reply=True)
            return
        link = message_link(message, shown)
        if link is None:  # a basic group, a private chat: a reply to the record itself
            say(delivery, message, tr.html("📎 This game's record is above."), reply_to=shown)
            return
        anchor = Html(f'<a href="{esc(link)}">{esc(found.filename)}.jsonl</a>')
        text = tr.html("📎 This game's record is above: {link}", link=anchor)
        say(delivery, message, text, reply=True)

    return router


async def post(
    message: Message,
    found: GameRecord,
    tr: Translator,
    people: People,
    delivery: Delivery,
    drawing: Drawing,
    reviews: Reviews,
) -> None:
    """The record (keyed: a repeat finds it), its transcript, its replay page (with the marks
    of the deals reviewed) and its chart, in that order; all made off the event loop first."""
    private = message.chat.type == "private"
    chat = await people.chat(found.table.chat_id)
    title = chat.title if chat else ""
    game = found.table.game
    png = await drawing.chart(game, title, found.no, found.names, found.lines, tr)  # if it has one
    marked = await reviews.page_marks(found, tr)
    page = await asyncio.to_thread(
        functools.partial(
            replay_html,
            found.lines,
            found.names,
            tr,
            chat_title=title,
            game_no=found.no,
            marks=marked.marks,
            marked=marked.deals,
        )
    )
    box, chat_id, thread = delivery.presenter.outbox, message.chat.id, topic(message)
    box.post_document(
        chat_id,
        f"{found.filename}.jsonl",
        write_jsonl(found.lines).encode(),
        key=found.key,
        reply_to=None if private else message.message_id,
        thread=thread,
    )
    words = transcript(found, title, tr)
    box.post_document(chat_id, f"{found.filename}.txt", words.encode(), thread=thread)
    box.post_document(chat_id, f"{found.filename}.html", page.encode(), thread=thread)
    if png is not None:
        box.post_photo(chat_id, f"{found.filename}.png", png, thread=thread)
