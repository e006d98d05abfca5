"""The repository's shape: statement groups that are plain classes given a runner, each method of
the storage protocol answered by exactly one of them, on either backend's runner (and, in a unit
of work, on the unit's).

PostgreSQL's cases need ``BOT_TEST_DATABASE`` (``.ci/run`` always sets it) and skip without it.
"""

from __future__ import annotations

import inspect
from collections import Counter
from typing import Any

from bot.storage.chats_sql import ChatStatements
from bot.storage.daily_sql import DailyStatements
from bot.storage.outbox_sql import OutboxStatements
from bot.storage.pacing_sql import PacingStatements
from bot.storage.play_sql import PlayStatements
from bot.storage.protocol import Store, Writes
from bot.storage.ratings_sql import RatingStatements
from bot.storage.repository import SqlRepository
from bot.storage.reviews_sql import ReviewStatements
from bot.storage.rows import ResultRow, ResultSeat
from bot.storage.runner import Backend
from bot.storage.tables_sql import TableStatements
from bot.storage.upkeep_sql import UpkeepStatements
from tests.bot.test_storage_backends import CHAT, USER, seeded

GROUPS = (
    ChatStatements,
    TableStatements,
    PlayStatements,
    UpkeepStatements,
    OutboxStatements,
    RatingStatements,
    PacingStatements,
    ReviewStatements,
    DailyStatements,
)
BACKEND_OWN = frozenset({"schema_version", "close"})  # the runner's own, not a statement's


def declared(cls: type) -> set[str]:
    """The public methods a class declares itself."""
    return {n for n, v in vars(cls).items() if callable(v) and not n.startswith("_")}


def protocol_methods(protocol: type) -> set[str]:
    """Every method of a storage protocol, its bases' too."""
    return {
        name
        for base in protocol.__mro__
        if base.__module__ == "bot.storage.protocol"
        for name in declared(base)
    }


def every_method() -> set[str]:
    """What a repository answers: the store's methods and a unit of work's writes."""
    return (protocol_methods(Store) | protocol_methods(Writes)) - {"unit"}


def answering(method: Any) -> object:
    """The object a bound method runs on."""
    return method.__self__


def test_every_statement_group_is_a_plain_class_given_a_runner() -> None:
    for group in GROUPS:
        assert group.__mro__ == (group, object), group  # nothing inherited, nothing to override
        assert next(iter(inspect.signature(group).parameters)) == "runner", group


def test_no_method_is_declared_by_two_statement_groups() -> None:
    counts = Counter(name for group in GROUPS for name in declared(group))
    assert [name for name, n in counts.items() if n > 1] == []


def test_every_protocol_method_is_a_statement_group_s_or_the_runner_s() -> None:
    statements = {name for group in GROUPS for name in declared(group)}
    assert every_method() - statements == BACKEND_OWN
    assert declared(Backend) == BACKEND_OWN  # what a runner on a whole database adds


async def test_the_repository_answers_each_method_from_one_group_on_its_runner(
    repo: Store,
) -> None:
    assert isinstance(repo, SqlRepository)
    for name in every_method() - BACKEND_OWN:
        group = answering(getattr(repo, name))
        assert isinstance(group, GROUPS), name
        assert name in declared(type(group)), name
        assert group.runner is repo.runner, name
    for name in BACKEND_OWN:
        assert answering(getattr(repo, name)) is repo.runner


async def test_a_unit_s_writes_are_the_groups_on_the_unit_s_runner(repo: Store) -> None:
    assert isinstance(repo, SqlRepository)
    table_id = await seeded(repo)
    seats = (ResultSeat(USER, "", "Anna", 1, 5), ResultSeat(0, "easy", "🤖 Фёдор", 2, -5))
    async with repo.unit() as tx:
        assert isinstance(tx, SqlRepository)
        for name in protocol_methods(Writes):
            group = answering(getattr(tx, name))
            assert group.runner is tx.runner, name  # type: ignore[attr-defined]  # every group's
        await tx.lock_ratings()  # PostgreSQL: an advisory lock, held to the end of the unit
        await tx.add_result(ResultRow(table_id, 1, CHAT, "mushka", False, seats))
        assert await tx.result(table_id, 1) is not None  # the unit reads its own writes
    group = RatingStatements(repo.runner)  # a group alone, on the backend's runner
    assert [(r.table_id, r.seats) for r in await group.results()] == [(table_id, seats)]
