"""Outcome → screens → outbox: each screen rendered by the game's pure functions, in its
audience's language, and handed to the outbox under its key. Nothing here reads storage or
calls the runtime."""

from __future__ import annotations

import asyncio
import dataclasses
from typing import Any

from bot.callbacks import STILL, PressCodec
from bot.i18n import Catalogues, Translator
from bot.keys import MessageKey
from bot.render import lobby as lobby_render
from bot.render import seat_menu
from bot.render.cards import with_card_words
from bot.render.common import Button, Html, Rendered, esc, keyboard
from bot.render.context import TableContext, game_name
from bot.render.games.base import GameUI
from bot.render.moves import words_of
from bot.runtime.core import family_ui
from bot.runtime.outcome import (
    CancelQuestion,
    DealResult,
    EndedTable,
    Facts,
    Gone,
    HandScreen,
    LobbyClosed,
    LobbyScreen,
    LobbyStarted,
    MatchResult,
    Note,
    Outcome,
    PingGone,
    Reminder,
    Screen,
    Strip,
    StripMessage,
    TableScreen,
    TurnPing,
    UnreachableNotice,
    hand_key,
    keys,
    ping_key,
    reminder_key,
)
from bot.runtime.scheduler import Scheduler
from bot.sending.outbox import Old, Outbox
from bot.storage.rows import TableStatus


class Presenter:
    def __init__(
        self, outbox: Outbox, catalogues: Catalogues, codec: PressCodec, bot_username: str
    ) -> None:
        self.outbox = outbox
        self.catalogues = catalogues
        self.codec = codec
        self.bot_username = bot_username

    def link(self, payload: str) -> str:
        return f"https://t.me/{self.bot_username}?start={payload}"

    def context(self, facts: Facts) -> TableContext:
        row = facts.table
        return TableContext(
            table_id=row.id,
            game=row.game,
            chat_title=facts.chat_title,
            names=facts.names,
            match_no=facts.match_no,
            moves=row.moves,
            bot_username=self.bot_username,
            options=row.options,
            away=tuple(s.away for s in facts.seats),  # a person the computer stands in for
        )

    def present(self, outcome: Outcome) -> list[asyncio.Future[int | None]]:
        """Queue every screen; the futures of the notes that asked to be waited for."""
        waits = []
        for screen in outcome.screens:
            facts = getattr(screen, "facts", None)
            self.outbox.rev = facts.rev if isinstance(facts, Facts) else None
            try:
                done = self._show(screen)
            finally:
                self.outbox.rev = None
            if done is not None:
                waits.append(done)
        return waits

    def _group(self, facts: Facts) -> Translator:
        return self.catalogues.tr(facts.chat_locale)

    def _ui(self, facts: Facts) -> GameUI[Any]:
        ui = family_ui(facts.table.game)
        assert ui is not None
        return ui

    def _show(self, screen: Screen) -> asyncio.Future[int | None] | None:
        box = self.outbox
        if isinstance(screen, HandScreen):
            tr = self.catalogues.tr(screen.locale)
            ctx = self.context(screen.facts)
            ui = self._ui(screen.facts)
            if ui.still_waiting and screen.view.to_act != screen.seat:
                ctx = dataclasses.replace(ctx, moves=STILL)  # the same after others' moves
            rendered = ui.hand(ctx, screen.view, screen.ui, tr, self.codec)
            if screen.words:  # the text names the cards in full; the buttons stay as they are
                text = with_card_words(rendered.text, screen.view.hand, tr)
                rendered = Rendered(text, rendered.markup)
            if screen.facts.table.status == TableStatus.RUNNING:  # a finished game's hand: nothing
                rendered = seat_menu.dress(
                    rendered, ctx, screen.seat, tr, self.codec, away=screen.away, menu=screen.menu
                )
            key = hand_key(screen.facts.table.id, screen.seat)
            box.show(screen.user_id, key, rendered, fresh=screen.fresh, old=Old.DELETE)
            return None
        if isinstance(screen, Reminder):
            self._reminder(screen)
            return None
        if isinstance(screen, Gone):
            box.delete(screen.chat_id, screen.key)
            return None
        if isinstance(screen, TurnPing):
            tr = self.catalogues.tr(screen.locale)
            facts = screen.facts
            text = tr.html(
                "🔔 Your turn — {game}, «{chat}»",
                game=game_name(facts.table.game, tr.locale),
                chat=facts.chat_title,
            )
            key = ping_key(facts.table.id)
            box.show(screen.user_id, key, Rendered(text), fresh=True, old=Old.DELETE)
            return None
        if isinstance(screen, PingGone):
            box.delete(screen.user_id, ping_key(screen.table_id))
            return None
        if isinstance(screen, Note):
            tr = self.catalogues.tr(screen.locale)
            markup = None
            if screen.link is not None:
                button = Button(text=tr(screen.button), url=self.link(screen.link))
                markup = keyboard([[button]])
            params = dict(screen.params)
            if screen.moves:  # the moves in the reader's words, as his hand names them
                params["moves"] = "; ".join(words_of(m, tr) for m in screen.moves)
            rendered = Rendered(tr.html(screen.msgid, **params), markup)
            done = box.post(
                screen.chat_id, rendered, reply_to=screen.reply_to, thread=screen.thread
            )
            return done if screen.wait else None
        if isinstance(screen, Strip):
            box.strip(screen.chat_id, screen.key, forget=screen.forget)
            return None
        if isinstance(screen, StripMessage):
            box.strip_message(screen.chat_id, screen.message_id)
            return None
        facts = screen.facts
        chat, k, tr = facts.chat_id, keys(facts.table.id), self._group(facts)
        th = facts.table.thread_id  # every group message goes to the table's forum topic
        if isinstance(screen, TableScreen):
            rendered = self._ui(facts).table(self.context(facts), screen.view, tr)
            box.show(chat, k["table"], rendered, fresh=screen.fresh, old=Old.STRIP, thread=th)
        elif isinstance(screen, EndedTable):
            ctx = self.context(facts)
            ended = self._ui(facts).ended_table(ctx, screen.before, screen.events, tr)
            box.show(chat, k["table"], ended, thread=th)
        elif isinstance(screen, DealResult):
            ctx = self.context(facts)
            text = self._ui(facts).deal_result(ctx, screen.events, screen.view, tr)
            if text:  # keyed by the match and the move it ended at: shown once, a restart's
                # repeat is skipped (a match won at its first deal ends at the last one's move)
                key = str(MessageKey.deal(facts.table.id, facts.match_no, facts.table.moves))
                box.show(chat, key, Rendered(text), thread=th)
        elif isinstance(screen, MatchResult):
            ctx = self.context(facts)
            rendered = self._ui(facts).match_result(
                ctx,
                screen.end,
                screen.winner,
                screen.standings,
                facts.table.generation,
                tr,
                self.codec,
            )
            box.show(chat, k["result"], rendered, fresh=True, thread=th)
        elif isinstance(screen, LobbyScreen):
            rendered = lobby_render.lobby(
                facts.table,
                facts.seats,
                tr,
                self.codec,
                options_view=screen.options_view,
                unreachable=screen.unreachable,
                link=self.link("s"),
                confirm_cancel=screen.confirm_cancel,
                computers=facts.computers,
            )
            box.show(chat, k["lobby"], rendered, thread=th)
        elif isinstance(screen, LobbyStarted):
            text = lobby_render.started(facts.table, facts.seats, screen.seats_line, tr)
            box.show(chat, k["lobby"], Rendered(text), thread=th)
        elif isinstance(screen, LobbyClosed):
            closed = Rendered(lobby_render.closed(tr))
            if screen.started or box.message_id(chat, k["lobby"]) is None:
                box.post(chat, closed, thread=th)
            else:
                box.show(chat, k["lobby"], closed, thread=th)
        elif isinstance(screen, CancelQuestion):
            rendered = lobby_render.cancel_question(facts.table, tr, self.codec)
            self._notice(chat, k["cancel"], rendered, screen.reply_to, th)
        elif isinstance(screen, UnreachableNotice):
            rendered = lobby_render.unreachable_notice(
                facts.table, screen.names, tr, self.codec, self.link("s")
            )
            # one message per lobby, edited again on a later Start (#28: pressing Start again
            # and again never posts a new group message)
            box.show(chat, k["notice"], rendered, thread=th)
        return None

    def _reminder(self, screen: Reminder) -> None:
        """PRODUCT.md §13: ⅓ of the time left — in private in place of the turn ping (so the
        phone notifies again), and a short mention in the group."""
        facts = screen.facts
        tr = self.catalogues.tr(screen.locale)
        text = tr.html(
            "⏳ {seconds} s left — your move in «{chat}»",
            seconds=screen.seconds,
            chat=facts.chat_title,
        )
        box = self.outbox
        box.show(
            screen.user_id, ping_key(facts.table.id), Rendered(text), fresh=True, old=Old.DELETE
        )
        ctr = self._group(facts)
        name = esc(facts.seats[screen.seat].name)
        mention = ctr.html(
            "⏳ {name}, your move ({seconds} s)",
            name=Html(f'<a href="tg://user?id={screen.user_id}">{name}</a>'),
            seconds=screen.seconds,
        )
        key = reminder_key(facts.table.id)
        box.show(
            facts.chat_id,
            key,
            Rendered(mention),
            fresh=True,
            old=Old.DELETE,
            thread=facts.table.thread_id,
        )

    def _notice(
        self, chat: int, key: str, rendered: Rendered, reply_to: int | None, thread: int | None
    ) -> None:
        """A group notice with table buttons replaces (and strips) the previous one; only the
        newest one's buttons count (PRODUCT.md §7.2 step 4)."""
        self.outbox.strip(chat, key, forget=True)
        self.outbox.show(chat, key, rendered, fresh=True, reply_to=reply_to, thread=thread)


LOOKUPS = 4
LOOKUP_PAUSE_S = 0.05


class Delivery:
    """Where every outcome goes: its deadlines to the scheduler, its screens to the outbox."""

    def __init__(self, presenter: Presenter, scheduler: Scheduler) -> None:
        self.presenter = presenter
        self.scheduler = scheduler
        self._later: list[Outcome] = []  # deferred outcomes, in the order they were committed

    def __call__(self, outcome: Outcome) -> list[asyncio.Future[int | None]]:
        self.flush()  # a deferred outcome is older: its screens go first
        return self._deliver(outcome)

    def _deliver(self, outcome: Outcome) -> list[asyncio.Future[int | None]]:
        for table_id, kind in outcome.undue:
            self.scheduler.discard(table_id, kind)
        for deadline in outcome.due:
            self.scheduler.add(deadline)
        return self.presenter.present(outcome)

    def defer(self, outcome: Outcome) -> None:
        """Keep ``outcome`` (in commit order) until :meth:`flush`: a press's callback answer goes
        out before its screens are rendered, the presser's spinner stopping sooner."""
        self._later.append(outcome)

    def flush(self) -> None:
        """Present every deferred outcome, oldest first."""
        later, self._later = self._later, []
        for outcome in later:
            self._deliver(outcome)

    # Several workers: what every worker knows (the outbox's shared book); else this one's.

    async def message_key(self, chat_id: int, message_id: int) -> str | None:
        """Which keyed message of the chat this id is now (None: none, or an old one)."""
        box = self.presenter.outbox
        if box.book is None:
            return box.key_of(chat_id, message_id)
        for _ in range(LOOKUPS):  # a message another worker sent a moment ago: in the book soon
            key = await box.book.key_of(chat_id, message_id)
            if key is not None:
                return key
            await asyncio.sleep(LOOKUP_PAUSE_S)
        return None

    async def message_id(self, chat_id: int, key: str) -> int | None:
        box = self.presenter.outbox
        if box.book is None:
            return box.message_id(chat_id, key)
        known = await box.book.message(chat_id, key)
        return known.message_id if known else None

    async def offers(self, chat_id: int, key: str) -> frozenset[str] | None:
        """What message ``key`` offers: its latest queued text's buttons (several workers:
        whichever worker queued it)."""
        box = self.presenter.outbox
        if box.book is None or box.telling(chat_id, key):
            return box.offers(chat_id, key)
        return await box.book.offers(chat_id, key)

    def link(self, payload: str) -> str:
        return self.presenter.link(payload)
