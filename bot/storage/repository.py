"""The repository of either backend: the statement groups composed over one runner.

Each method of :class:`bot.storage.protocol.Store` is one group's method, named here once: which
code answers ``repo.seats(…)`` is read off this file, not worked out from a method resolution
order. The groups are written once for both backends (:mod:`bot.storage.runner`); the backend is
the runner :mod:`bot.storage.sqlite` or :mod:`bot.storage.postgres` gives.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from bot.storage.chats_sql import ChatStatements
from bot.storage.daily_sql import DailyStatements
from bot.storage.outbox_sql import OutboxStatements
from bot.storage.pacing_sql import PacingStatements
from bot.storage.play_sql import PlayStatements
from bot.storage.protocol import Writes
from bot.storage.ratings_sql import RatingStatements
from bot.storage.reviews_sql import ReviewStatements
from bot.storage.runner import Backend
from bot.storage.tables_sql import TableStatements
from bot.storage.upkeep_sql import UpkeepStatements


class SqlRepository:
    """:class:`bot.storage.protocol.Store` on a backend's runner; a unit of work's writes are
    the same groups on the unit's runner."""

    def __init__(self, runner: Backend) -> None:
        self.runner = runner
        ratings = RatingStatements(runner)
        chats = ChatStatements(runner, ratings)
        tables = TableStatements(runner)
        play = PlayStatements(runner)
        upkeep = UpkeepStatements(runner)
        outbox = OutboxStatements(runner)
        pacing = PacingStatements(runner)
        reviews = ReviewStatements(runner)
        daily = DailyStatements(runner)

        # chats and users
        self.upsert_chat = chats.upsert_chat
        self.chat = chats.chat
        self.set_chat_settings = chats.set_chat_settings
        self.set_chat_language = chats.set_chat_language
        self.upsert_user = chats.upsert_user
        self.user = chats.user
        self.set_user_settings = chats.set_user_settings
        self.set_user_language = chats.set_user_language
        self.set_private_ok = chats.set_private_ok
        self.notified = chats.notified
        self.set_notify = chats.set_notify
        self.migrate_chat = chats.migrate_chat

        # tables, seats, hand messages
        self.create_table = tables.create_table
        self.table = tables.table
        self.open_table = tables.open_table
        self.open_tables = tables.open_tables
        self.update_table = tables.update_table
        self.tables_of_user = tables.tables_of_user
        self.tables = tables.tables
        self.seats = tables.seats
        self.set_away = tables.set_away
        self.set_expiries = tables.set_expiries
        self.set_seat_marks = tables.set_seat_marks
        self.set_agreed = tables.set_agreed
        self.set_seat_private = tables.set_seat_private
        self.replace_seats = tables.replace_seats
        self.hands = tables.hands
        self.set_hand_ui = tables.set_hand_ui
        self.clear_hand_ui = tables.clear_hand_ui

        # matches, the action log, the ledger
        self.add_match = play.add_match
        self.set_match_drawn = play.set_match_drawn
        self.match = play.match
        self.matches = play.matches
        self.finished_matches = play.finished_matches
        self.set_match_net = play.set_match_net
        self.add_action = play.add_action
        self.deciders = play.deciders
        self.actions = play.actions
        self.draws = play.draws
        self.book = play.book
        self.ledger = play.ledger

        # results and ratings
        self.lock_ratings = ratings.lock_ratings
        self.add_result = ratings.add_result
        self.set_result_seats = ratings.set_result_seats
        self.result = ratings.result
        self.results = ratings.results
        self.ratings = ratings.ratings
        self.put_rating = ratings.put_rating
        self.clear_ratings = ratings.clear_ratings
        self.season_results = ratings.season_results
        self.tell_season = ratings.tell_season

        # pacing
        self.subscribers = pacing.subscribers
        self.set_pinged = pacing.set_pinged
        self.set_cards_at = pacing.set_cards_at
        self.claim_post = pacing.claim_post

        # the deals' reviews, once computed
        self.review = reviews.review
        self.put_review = reviews.put_review
        self.review_marks = reviews.review_marks

        # the day's deals: their secrets, each person's try
        self.daily_secret = daily.daily_secret
        self.stored_daily_secret = daily.stored_daily_secret
        self.daily_try = daily.daily_try
        self.daily_try_at = daily.daily_try_at
        self.daily_standing = daily.daily_standing
        self.daily_board = daily.daily_board
        self.daily_place = daily.daily_place
        self.add_try = daily.add_try
        self.finish_try = daily.finish_try

        # the outbox's messages and what the chats are owed
        self.messages = outbox.messages
        self.intend_message = outbox.intend_message
        self.claim_owed = outbox.claim_owed
        self.hold_owed = outbox.hold_owed
        self.intents = outbox.intents
        self.put_message = outbox.put_message
        self.drop_message = outbox.drop_message
        self.owe = outbox.owe
        self.owed = outbox.owed
        self.settle_owed = outbox.settle_owed
        self.prune_owed = outbox.prune_owed

        # upkeep: deadlines, being alive, updates taken, secrets, the operator's questions
        self.deadlines = upkeep.deadlines
        self.put_deadline = upkeep.put_deadline
        self.drop_deadline = upkeep.drop_deadline
        self.shift_deadlines = upkeep.shift_deadlines
        self.alive_at = upkeep.alive_at
        self.set_alive = upkeep.set_alive
        self.claim_update = upkeep.claim_update
        self.prune_updates = upkeep.prune_updates
        self.ping = upkeep.ping
        self.secret = upkeep.secret
        self.count = upkeep.count

        # the backend's own
        self.schema_version = runner.schema_version
        self.close = runner.close

    @asynccontextmanager
    async def unit(self) -> AsyncIterator[Writes]:
        """One unit of work: the groups on the unit's runner (SQLite's is this repository's
        own — its transaction is the task's —, PostgreSQL's a connection in its transaction)."""
        async with self.runner.unit() as runner:
            yield self if runner is self.runner else SqlRepository(runner)
