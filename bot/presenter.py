"""Screens → outbox: each screen of an :class:`~bot.runtime.outcome.Outcome` rendered by the
game's pure functions, in its audience's language, and handed to the outbox under its key.
Nothing here reads storage or calls the runtime (:mod:`bot.delivery` routes an outcome here)."""

from __future__ import annotations

import asyncio
import dataclasses
from typing import Any

from bot.callbacks import MY_CARDS, STILL, Kind, Press, PressCodec
from bot.game_names import game_name
from bot.i18n import Catalogues, Translator
from bot.keys import MessageKey
from bot.presses.families import family_presses
from bot.refused import BotRefusal
from bot.render import closing as closing_render
from bot.render import lobby as lobby_render
from bot.render import reminders, seat_menu
from bot.render import settings as settings_render
from bot.render.action_words import words_of
from bot.render.cards import with_card_words
from bot.render.daily import daily_text
from bot.render.games import game_ui
from bot.render.games.charts import chart
from bot.render.games.game_ui import GameUI
from bot.render.hint import hint_html
from bot.render.refusals import sentence
from bot.render.review_chat import ended_deal, review_button
from bot.render.table_context import TableContext
from bot.render.tips import with_tip
from bot.rendered import Button, Rendered, keyboard
from bot.runtime.outcome import (
    CancelQuestion,
    ChartScreen,
    CloseQuestion,
    DailyResult,
    DealResult,
    EndedTable,
    EphemeralGone,
    Facts,
    Gone,
    GroupSettingsScreen,
    HandGone,
    HandScreen,
    LobbyClosed,
    LobbyScreen,
    LobbyStarted,
    MatchResult,
    MySettingsScreen,
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
    chart_key,
    ehand_key,
    eping_key,
    hand_key,
    keys,
    ping_key,
    reminder_key,
)
from bot.sending.outbox import Old, Outbox
from bot.storage.rows import Hands, OwedRef, TableStatus


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
            my_cards=self.codec.pack(Press(Kind.TABLE, row.id, None, 0, MY_CARDS))
            if row.hands is Hands.GROUP
            else None,
            turn_left=facts.turn_left,
            reminded=facts.reminded,
            practice=row.practice,
            teaching=row.teaching,
        )

    def present(self, outcome: Outcome) -> list[asyncio.Future[int | None]]:
        """Queue every screen; the futures of the notes that asked to be waited for."""
        waits = []
        for screen in outcome.screens:
            done = self._show(screen)
            if done is not None:
                waits.append(done)
        return waits

    def _group(self, facts: Facts) -> Translator:
        return self.catalogues.tr(facts.chat_locale)

    def _ui(self, facts: Facts) -> GameUI[Any]:
        ui = game_ui(facts.table.game)
        assert ui is not None
        return ui

    def _show(self, screen: Screen) -> asyncio.Future[int | None] | None:
        """One screen to the outbox; a note that is to be waited for: its future."""
        box = self.outbox
        match screen:
            case HandScreen():
                self._hand(screen)
            case Reminder():
                self._reminder(screen)
            case Gone():
                box.delete(screen.chat_id, screen.key, receiver=screen.receiver)
            case TurnPing():
                self._turn_ping(screen)
            case PingGone():  # wherever it is: a step on a key never sent is needless
                box.delete(screen.user_id, ping_key(screen.table_id))
                eping = eping_key(screen.table_id, screen.seat)
                box.delete(screen.chat_id, eping, receiver=screen.user_id)
            case HandGone():
                box.strip(screen.user_id, hand_key(screen.table_id, screen.seat), forget=True)
                ehand = ehand_key(screen.table_id, screen.seat)
                box.strip(screen.chat_id, ehand, forget=True, receiver=screen.user_id)
            case EphemeralGone():
                for key in (ehand_key, eping_key):
                    box.delete(
                        screen.chat_id, key(screen.table_id, screen.seat), receiver=screen.user_id
                    )
            case Note():
                return self._note(screen)
            case DailyResult():
                tr = self.catalogues.tr(screen.locale)
                box.post(screen.chat_id, Rendered(daily_text(screen, tr)))
            case Strip():
                box.strip(screen.chat_id, screen.key, forget=screen.forget)
            case StripMessage():
                box.strip_message(screen.chat_id, screen.message_id)
            case TableScreen():
                self._table(screen)
            case EndedTable():
                self._ended_table(screen)
            case DealResult():
                self._deal_result(screen)
            case MatchResult():
                self._match_result(screen)
            case ChartScreen():
                self._chart(screen)
            case LobbyScreen():
                self._lobby(screen)
            case LobbyStarted():
                self._lobby_started(screen)
            case LobbyClosed():
                self._lobby_closed(screen)
            case CancelQuestion():
                self._cancel_question(screen)
            case CloseQuestion():
                self._close_question(screen)
            case UnreachableNotice():
                self._unreachable(screen)
            case GroupSettingsScreen():
                rendered = self.settings(screen)
                box.show(screen.chat_id, screen.key, rendered, receiver=screen.receiver)
            case MySettingsScreen():
                box.show(screen.user_id, screen.key, self.settings(screen))
        return None

    def settings(self, screen: GroupSettingsScreen | MySettingsScreen) -> Rendered:
        """A settings pane as its reader sees it."""
        return settings_render.pane(screen, self.catalogues.tr(screen.locale), self.codec)

    # --- private chats ----------------------------------------------------------------------

    def _hand(self, screen: HandScreen) -> None:
        tr = self.catalogues.tr(screen.locale)
        ctx = self.context(screen.facts)
        ui = self._ui(screen.facts)
        presses = family_presses(screen.facts.table.game)
        waiting = screen.view.to_act != screen.seat
        if presses is not None and presses.still_waiting and waiting and not screen.in_group:
            # the same after others' moves; in the group the hand may stand in place of the
            # table for him, so it follows the trick and whom the table waits for
            ctx = dataclasses.replace(ctx, moves=STILL)
        if not screen.in_group and ctx.my_cards is not None:  # a hand in private
            ctx = dataclasses.replace(ctx, my_cards=None)
        rendered = ui.hand(ctx, screen.view, screen.ui, tr, self.codec)
        if screen.hint is not None:  # 💡's answer, under his own hand only
            rendered = Rendered(f"{rendered.text}\n\n{hint_html(screen.hint, tr)}", rendered.markup)
        if screen.words:  # the text names the cards in full; the buttons stay as they are
            text = with_card_words(rendered.text, screen.view.hand, tr)
            rendered = Rendered(text, rendered.markup)
        if screen.tip is not None:  # the rule of his decision, under the hand's head
            game = screen.facts.table.game
            rendered = with_tip(rendered, screen.tip, game, tr, screen.ui.mode.kind)
        if screen.facts.table.status == TableStatus.RUNNING:  # a finished game's hand: nothing
            rendered = seat_menu.dress(
                rendered,
                ctx,
                screen.seat,
                tr,
                self.codec,
                away=screen.away,
                menu=screen.menu,
                in_group=screen.in_group,
                waiting=waiting,
                hint=screen.hints and not waiting and not screen.away,
            )
        facts = screen.facts
        if not screen.in_group:
            key = hand_key(facts.table.id, screen.seat)
            self.outbox.show(
                screen.user_id,
                key,
                rendered,
                fresh=screen.fresh,
                old=Old.DELETE,
                rev=facts.rev,
                after=facts.chat_id,  # the table (a result) before the hand
            )
            return
        self.outbox.show(  # in the group, for its owner alone
            facts.chat_id,
            ehand_key(facts.table.id, screen.seat),
            rendered,
            fresh=screen.fresh,
            old=Old.DELETE,
            thread=facts.table.thread_id,
            rev=facts.rev,
            receiver=screen.user_id,
            answering=screen.answering,
            replace=screen.replace,
            after=facts.chat_id,
        )

    def _to_player(
        self,
        facts: Facts,
        user_id: int,
        seat: int,
        in_group: bool,
        rendered: Rendered,
        fresh: bool = True,
    ) -> None:
        """A new ping or reminder for the player (so his phone notifies): in his private chat,
        or in the group for him alone; the one before it goes. ``fresh=False``: shown in
        place (a restart's reminder: nothing is sent where it is shown already)."""
        if not in_group:
            key = ping_key(facts.table.id)
            self.outbox.show(
                user_id,
                key,
                rendered,
                fresh=fresh,
                old=Old.DELETE,
                rev=facts.rev,
                notice=True,
                after=facts.chat_id,
            )
            return
        self.outbox.show(
            facts.chat_id,
            eping_key(facts.table.id, seat),
            rendered,
            fresh=fresh,
            old=Old.DELETE,
            thread=facts.table.thread_id,
            rev=facts.rev,
            receiver=user_id,
            notice=True,
            after=facts.chat_id,
        )

    def _turn_ping(self, screen: TurnPing) -> None:
        tr = self.catalogues.tr(screen.locale)
        facts = screen.facts
        text = tr.html(
            "🔔 Your turn — {game}, «{chat}»",
            game=game_name(facts.table.game, tr.locale),
            chat=facts.chat_title,
        )
        self._to_player(facts, screen.user_id, screen.seat, screen.in_group, Rendered(text))

    def note(self, screen: Note) -> Rendered:
        """A note as its reader sees it."""
        tr = self.catalogues.tr(screen.locale)
        markup = None
        if screen.link is not None:
            button = Button(text=tr(screen.button), url=self.link(screen.link))
            markup = keyboard([[button]])
        params = dict(screen.params)
        if screen.moves:  # the moves in the reader's words, as his hand names them
            params["moves"] = "; ".join(words_of(m, tr) for m in screen.moves)
        msgid = screen.msgid
        if isinstance(msgid, BotRefusal):  # the runtime says why; the words are the refusal's
            msgid = sentence(msgid)
        return Rendered(tr.html(msgid, **params), markup)

    def _note(self, screen: Note) -> asyncio.Future[int | None] | None:
        rendered = self.note(screen)
        if screen.alone is not None:  # in the group, for him alone
            receiver, key = screen.alone
            self.outbox.show(
                screen.chat_id,
                key,
                rendered,
                fresh=True,
                old=Old.DELETE,
                thread=screen.thread,
                receiver=receiver,
            )
            return None
        done = self.outbox.post(
            screen.chat_id,
            rendered,
            reply_to=screen.reply_to,
            thread=screen.thread,
            owed=screen.owed,
        )
        return done if screen.wait else None

    def _reminder(self, screen: Reminder) -> None:
        """PRODUCT.md §13: ⅓ of the time left — in private in place of the turn ping (so the
        phone notifies again), and a short mention in the group."""
        facts = screen.facts
        tr = self.catalogues.tr(screen.locale)
        text = reminders.private(screen.seconds, facts.chat_title, tr)
        fresh = not screen.again
        self._to_player(facts, screen.user_id, screen.seat, screen.in_group, Rendered(text), fresh)
        if facts.table.alone:  # the table is in his private chat: told there already
            return
        ctr = self._group(facts)
        name = facts.seats[screen.seat].name
        mention = reminders.mention(screen.user_id, name, screen.seconds, ctr)
        key = reminder_key(facts.table.id)
        self._to_group(facts, key, Rendered(mention), fresh=fresh, old=Old.DELETE)

    # --- the group ------------------------------------------------------------------------

    def _to_group(
        self,
        facts: Facts,
        key: MessageKey,
        rendered: Rendered,
        *,
        fresh: bool = False,
        old: Old = Old.KEEP,
        reply_to: int | None = None,
        owed: OwedRef | None = None,
    ) -> None:
        """Show a keyed group message: in the table's forum topic, at the table's turn
        (``owed``: the durable outbox's entry it shows)."""
        self.outbox.show(
            facts.chat_id,
            key,
            rendered,
            fresh=fresh,
            old=old,
            reply_to=reply_to,
            thread=facts.table.thread_id,
            rev=facts.rev,
            owed=owed,
        )

    def _table(self, screen: TableScreen) -> None:
        facts = screen.facts
        rendered = self._ui(facts).table(self.context(facts), screen.view, self._group(facts))
        key = keys(facts.table.id).table
        self._to_group(facts, key, rendered, fresh=screen.fresh, old=Old.STRIP)

    def _ended_table(self, screen: EndedTable) -> None:
        facts = screen.facts
        ctx, tr = self.context(facts), self._group(facts)
        ended = self._ui(facts).ended_table(ctx, screen.before, screen.events, tr)
        self._to_group(facts, keys(facts.table.id).table, ended)

    def _deal_result(self, screen: DealResult) -> None:
        facts = screen.facts
        ctx, tr = self.context(facts), self._group(facts)
        text = self._ui(facts).deal_result(ctx, screen.events, screen.view, tr)
        if text:  # keyed by the match and the move it ended at: shown once, a restart's
            # repeat is skipped (a match won at its first deal ends at the last one's move)
            key = MessageKey.deal(facts.table.id, facts.match_no, facts.table.moves)
            deal_no = ended_deal(screen.events)  # 🔎 its review, for whoever presses it
            markup = None
            if deal_no is not None:
                button = review_button(facts.table.id, facts.match_no, deal_no, tr, self.codec)
                markup = keyboard([[button]])
            self._to_group(facts, key, Rendered(text, markup), owed=screen.owed)
        elif screen.owed is not None:  # nothing to show: owed no more
            self.outbox.settle(facts.chat_id, screen.owed)

    def _match_result(self, screen: MatchResult) -> None:
        facts = screen.facts
        rendered = self._ui(facts).match_result(
            self.context(facts),
            screen.end,
            screen.winner,
            screen.standings,
            facts.table.generation,
            self._group(facts),
            self.codec,
        )
        key = keys(facts.table.id).result
        self._to_group(facts, key, rendered, fresh=True, owed=screen.owed)

    def _chart(self, screen: ChartScreen) -> None:
        """A game's chart, once per match: a keyed picture, in the table's topic."""
        facts = screen.facts
        tr = self._group(facts)
        png = screen.png or chart(  # drawn already (bot.drawing), unless it has none
            facts.table.game, facts.chat_title, facts.match_no, facts.names, screen.lines, tr
        )
        if png is None:
            return
        self.outbox.post_photo(
            facts.chat_id,
            "chart.png",
            png,
            key=chart_key(facts.table.id, facts.match_no),
            reply_to=screen.reply_to,
            thread=facts.table.thread_id,
        )

    def _lobby(self, screen: LobbyScreen) -> None:
        facts = screen.facts
        rendered = lobby_render.lobby(
            facts.table,
            facts.seats,
            self._group(facts),
            self.codec,
            options_view=screen.options_view,
            unreachable=screen.unreachable,
            link=self.link("s"),
            confirm_cancel=screen.confirm_cancel,
            computers=facts.computers,
            rules_link=self.link(f"r_{facts.table.game}") if facts.table.game else "",
        )
        self._to_group(facts, keys(facts.table.id).lobby, rendered)

    def _lobby_started(self, screen: LobbyStarted) -> None:
        facts = screen.facts
        text = lobby_render.started(facts.table, facts.seats, screen.seats_line, self._group(facts))
        self._to_group(facts, keys(facts.table.id).lobby, Rendered(text))

    def _lobby_closed(self, screen: LobbyClosed) -> None:
        facts = screen.facts
        closed = Rendered(lobby_render.closed(self._group(facts)))
        key = keys(facts.table.id).lobby
        if screen.started:
            self.outbox.post(facts.chat_id, closed, thread=facts.table.thread_id)
        else:  # edited where any worker sent it (the shared book), sent if it never went
            self._to_group(facts, key, closed)

    def _cancel_question(self, screen: CancelQuestion) -> None:
        """/cancel's answer: asked again within the group's window, the question shown
        already; later, a new one, the previous one's buttons gone (only the newest one's
        count, PRODUCT.md §7.2 step 4)."""
        facts = screen.facts
        rendered = lobby_render.cancel_question(facts.table, self._group(facts), self.codec)
        self.outbox.answer(
            facts.chat_id,
            keys(facts.table.id).cancel,
            rendered,
            asker=screen.asker,
            reply_to=screen.reply_to,
            thread=facts.table.thread_id,
            old=Old.STRIP,
        )

    def _close_question(self, screen: CloseQuestion) -> None:
        """The question to close a running table: asked anew as a reply to /cancel (the
        one before loses its buttons), else edited in place; once it went, its key goes too."""
        facts, key = screen.facts, keys(screen.facts.table.id).cancel
        rendered = closing_render.close_question(
            facts.table, facts.seats, screen.asked, screen.rated, self._group(facts), self.codec,
            end=screen.end, by=screen.by,
        )  # fmt: skip
        fresh = screen.reply_to is not None
        if fresh:
            self.outbox.strip(facts.chat_id, key, forget=True)
        self._to_group(facts, key, rendered, fresh=fresh, reply_to=screen.reply_to)
        if screen.end is not None:
            self.outbox.strip(facts.chat_id, key, forget=True)

    def _unreachable(self, screen: UnreachableNotice) -> None:
        facts = screen.facts
        rendered = lobby_render.unreachable_notice(
            facts.table, screen.names, self._group(facts), self.codec, self.link("s")
        )
        # one message per lobby, edited again on a later Start (pressing Start again
        # and again never posts a new group message)
        self._to_group(facts, keys(facts.table.id).notice, rendered)
