"""The repository protocol's semantics, the same on SQLite and on PostgreSQL, and the two
backends' schemas in step (a SQLite migration without its PostgreSQL twin fails here).

PostgreSQL's cases need ``BOT_TEST_DATABASE`` (``.ci/run`` always sets it) and skip without it.
"""

from __future__ import annotations

import asyncio
import dataclasses
import re
from pathlib import Path

import pytest
from pydantic import SecretStr, ValidationError

from bot.config import Settings, database_label
from bot.keys import outbox_key
from bot.storage import latest_schema, open_repository
from bot.storage.db import MIGRATIONS, PG_MIGRATIONS, migrations
from bot.storage.protocol import Store
from bot.storage.rows import (
    Claim,
    Deadline,
    OwedRef,
    OwedState,
    SeatKind,
    StoredMessage,
    TableStatus,
)
from tests.databases import PgDatabases, db_rows

CHAT = -1_001_234_567_890  # a supergroup's id: past 32 bits
USER = 7_000_000_001  # user ids past 2**32 exist
OTHER = 7_000_000_002


async def seeded(repo: Store) -> int:
    async with repo.unit() as tx:
        await tx.upsert_chat(CHAT, "Friday")
        await tx.upsert_user(USER, "Anna", "anna", "ru")
        await tx.upsert_user(OTHER, "Boris", None, None)
        table_id = await tx.create_table(CHAT, "mushka", {"target": 15}, USER, "c0de", 1.5)
        await tx.replace_seats(
            table_id,
            [(SeatKind.HUMAN, USER, "Anna"), (SeatKind.COMPUTER, None, "🤖 Фёдор", "easy")],
        )
    return table_id


def test_every_sqlite_migration_has_its_postgresql_twin() -> None:
    names = [p.name for p in sorted(MIGRATIONS.glob("*.sql"))]
    twins = [p.name for p in sorted(PG_MIGRATIONS.glob("*.sql"))]
    assert [n[:4] for n in twins] == [n[:4] for n in names]
    assert len(migrations(PG_MIGRATIONS)) == len(migrations(MIGRATIONS))


async def test_the_two_schemas_have_the_same_tables_and_columns(
    tmp_path: Path, pg_databases: PgDatabases | None
) -> None:
    if pg_databases is None:
        pytest.skip("BOT_TEST_DATABASE is not set")
    path = tmp_path / "bot.sqlite3"
    await (await open_repository(path)).close()  # opened: every migration ran
    tables = [t for (t,) in db_rows(path, "SELECT name FROM sqlite_master WHERE type = 'table'")]
    lite = {
        (table, name, bool(notnull or pk))
        for table in tables
        if not table.startswith("sqlite_")
        for (_, name, _, notnull, _, pk) in db_rows(path, f"PRAGMA table_info({table})")
    }
    url = pg_databases.fresh()
    try:
        pg = {
            (table, name, nullable == "NO")
            for table, name, nullable in db_rows(
                url,
                "SELECT table_name, column_name, is_nullable FROM information_schema.columns"
                " WHERE table_schema = 'public' AND table_name != 'schema_version'",
            )
        }
    finally:
        pg_databases.drop(url)
    assert pg == lite


async def test_concurrent_starts_apply_each_migration_once(
    pg_databases: PgDatabases | None,
) -> None:
    """Workers starting together on an empty database: the advisory lock lets one migrate."""
    if pg_databases is None:
        pytest.skip("BOT_TEST_DATABASE is not set")
    url = pg_databases.fresh(empty=True)
    try:
        opened = await asyncio.gather(*(open_repository(url) for _ in range(4)))
        assert [await r.schema_version() for r in opened] == [latest_schema(url)] * 4
        for r in opened:
            await r.close()
        versions = db_rows(url, "SELECT version FROM schema_version ORDER BY version")
        assert [v for (v,) in versions] == list(range(1, latest_schema(url) + 1))
    finally:
        pg_databases.drop(url)


async def test_a_unit_commits_once_and_its_reads_see_its_writes(repo: Store) -> None:
    table_id = await seeded(repo)
    with pytest.raises(RuntimeError):
        async with repo.unit() as tx:
            await tx.update_table(
                table_id, status=TableStatus.RUNNING, moves=2, options={"target": 30}
            )
            await tx.add_match(table_id, 1, 2**31 - 1, None, 0)
            await tx.add_action(table_id, 0, 0, "card 7♠")
            seen = await tx.table(table_id)  # the unit's own reads see its writes
            assert seen is not None and (seen.status, seen.moves) == ("running", 2)
            assert await tx.actions(table_id, 0) == [(0, "card 7♠")]
            raise RuntimeError("a failure mid-way")
    table = await repo.table(table_id)
    assert table is not None and (table.status, table.moves, table.options) == (
        "lobby",
        0,
        {"target": 15},
    )
    assert await repo.matches(table_id) == [] and await repo.actions(table_id, 0) == []
    seats = await repo.seats(table_id)
    assert [(s.kind, s.user_id, s.level, s.computer) for s in seats] == [
        (SeatKind.HUMAN, USER, "normal", False),
        (SeatKind.COMPUTER, None, "easy", True),
    ]


async def test_an_action_at_a_taken_seq_fails_and_its_unit_leaves_nothing(repo: Store) -> None:
    table_id = await seeded(repo)
    async with repo.unit() as tx:
        await tx.add_match(table_id, 1, 7, None, 0)
        await tx.add_action(table_id, 0, 0, "pass")
    with pytest.raises(Exception, match=re.compile("unique|primary", re.I)):
        async with repo.unit() as tx:
            await tx.update_table(table_id, moves=1)
            await tx.add_action(table_id, 0, 1, "buy 2")  # the same seq: a second writer
    assert await repo.actions(table_id, 0) == [(0, "pass")]
    table = await repo.table(table_id)
    assert table is not None and table.moves == 0
    (match,) = await repo.matches(table_id)
    assert (match.no, match.seed, match.prev_dealer, match.first_seq, match.net) == (
        1,
        7,
        None,
        0,
        None,
    )
    async with repo.unit() as tx:
        await tx.set_match_net(table_id, 1, [3, -3])
    assert (await repo.match(table_id, 1)) == match.__class__(1, 7, None, 0, [3, -3])


async def test_people_tables_and_standings(repo: Store) -> None:
    table_id = await seeded(repo)
    async with repo.unit() as tx:
        await tx.set_chat_language(CHAT, "en")
        await tx.set_user_language(USER, "en")
        await tx.set_private_ok(USER, True)
        await tx.set_notify(CHAT, OTHER, True)
        await tx.set_notify(CHAT, OTHER, True)  # twice: still one row
        await tx.set_notify(CHAT, USER, True)
        await tx.set_notify(CHAT, USER, False)
        await tx.set_away(table_id, 0, True)
        await tx.set_expiries(table_id, 0, 2)
        await tx.book(CHAT, "mushka", USER, 12, True, 5)
        await tx.book(CHAT, "mushka", USER, -2, False)
        await tx.book(CHAT, "mushka", OTHER, 10, True)
        second = await tx.create_table(CHAT, "pamfil", {}, OTHER, "beef", 2.0)
    chat, user = await repo.chat(CHAT), await repo.user(USER)
    assert chat is not None and (chat.title, chat.language) == ("Friday", "en")
    assert user is not None and (user.language, user.private_ok, user.username) == (
        "en",
        True,
        "anna",
    )
    assert await repo.notified(CHAT) == [OTHER]
    (seat, _) = await repo.seats(table_id)
    assert (seat.away, seat.expiries, seat.computer) == (True, 2, True)
    assert [(r.name, r.balance, r.played, r.won, r.points) for r in await repo.ledger()] == [
        ("Anna", 10, 2, 1, 5),
        ("Boris", 10, 1, 1, 0),
    ]
    assert [t.id for t in await repo.tables(chat_id=CHAT)] == [second, table_id]
    assert [t.id for t in await repo.tables(user_id=USER)] == [table_id]
    assert [t.id for t in await repo.tables_of_user(USER)] == [table_id]
    newest = await repo.open_table(CHAT)
    assert newest is not None and newest.id == second
    async with repo.unit() as tx:
        await tx.update_table(second, status=TableStatus.CLOSED)
    assert [t.id for t in await repo.open_tables()] == [table_id]


async def test_deadlines_hands_and_alive(repo: Store) -> None:
    table_id = await seeded(repo)
    async with repo.unit() as tx:
        await tx.put_deadline(Deadline(table_id, "turn", 100.25, 3))
        await tx.put_deadline(Deadline(table_id, "turn", 200.5, 4))  # replaces the first
        await tx.put_deadline(Deadline(table_id, "lobby", 50.0, 0))
        await tx.shift_deadlines(10.0)
        await tx.drop_deadline(table_id, "lobby")
        await tx.set_hand_ui(table_id, 0, "7♠", "x")
        await tx.set_hand_ui(table_id, 0, "8♠", "")
        await tx.set_alive(1234.5)
    assert await repo.deadlines(table_id) == [Deadline(table_id, "turn", 210.5, 4)]
    assert await repo.deadlines(table_id + 1) == []
    assert [(h.seat, h.marks, h.mode) for h in (await repo.hands(table_id)).values()] == [
        (0, "8♠", "")
    ]
    assert await repo.alive_at() == 1234.5
    async with repo.unit() as tx:
        await tx.clear_hand_ui(table_id)
    assert await repo.hands(table_id) == {}


async def test_the_outbox_store_and_update_claims(repo: Store) -> None:
    await repo.put_message(StoredMessage(CHAT, outbox_key("table:1"), 2**31 + 5, "d1"))
    await repo.put_message(
        StoredMessage(CHAT, outbox_key("table:1"), 2**31 + 6, "d2", keyboard=False)
    )
    await repo.put_message(StoredMessage(CHAT, outbox_key("hand:1:0"), 9, "d3"))
    await repo.drop_message(CHAT, outbox_key("hand:1:0"))
    assert await repo.messages() == [
        StoredMessage(CHAT, outbox_key("table:1"), 2**31 + 6, "d2", False)
    ]
    assert await repo.claim_update(2**40, 10.0)
    assert not await repo.claim_update(2**40, 11.0)  # a redelivery acts once
    await repo.prune_updates(before=20.0)
    assert await repo.claim_update(2**40, 30.0)  # pruned: a day later it is new again
    assert await repo.ping() and await repo.count("updates") == 1


async def test_what_the_chats_are_owed_is_claimed_once_and_settled_with_its_message(
    repo: Store,
) -> None:
    async with repo.unit() as tx:  # written with the action that owes them, in its order
        await tx.owe("deal:1:1:40", CHAT, outbox_key("deal:1:1:40"), '{"kind": "deal"}')
        await tx.owe("note:1:idle", CHAT, None, '{"kind": "note"}')
        await tx.owe("deal:1:1:40", CHAT, outbox_key("deal:1:1:40"), "again")  # one entry a ref
    deal, note = await repo.owed()
    assert (deal.ref, deal.key, deal.what, deal.state) == (
        OwedRef("deal:1:1:40"),
        outbox_key("deal:1:1:40"),
        '{"kind": "deal"}',
        OwedState.PENDING,
    )
    assert (note.ref.ref, note.chat_id, note.key) == ("note:1:idle", CHAT, None)
    # two senders (a restart's resume beside a live queue): the claim goes to one
    assert await repo.intend_message(CHAT, outbox_key("deal:1:1:40"), deal.ref) is Claim.MINE
    assert await repo.intend_message(CHAT, outbox_key("deal:1:1:40"), deal.ref) is Claim.TAKEN
    assert await repo.intents() == [(CHAT, outbox_key("deal:1:1:40"))]
    resumed = [r for r in await repo.owed() if r.key is not None]
    assert [(r.state, r.ref.tries) for r in resumed] == [(OwedState.SENT, 1)]
    assert await repo.claim_owed(resumed[0].ref) is Claim.MINE  # read again: the resume may
    await repo.put_message(StoredMessage(CHAT, outbox_key("deal:1:1:40"), 77, "d"), resumed[0].ref)
    assert await repo.intents() == []
    assert [r.ref.ref for r in await repo.owed()] == ["note:1:idle"]  # settled with the id
    assert await repo.claim_owed(OwedRef("deal:1:1:40", 2)) is Claim.TAKEN  # settled: nobody
    assert await repo.claim_owed(note.ref) is Claim.MINE
    await repo.settle_owed(note.ref)
    assert await repo.owed() == []
    await repo.prune_owed()
    assert await repo.count("owed") == 0
    async with repo.unit() as tx:  # a group that becomes a supergroup takes its debts along
        await tx.owe("note:1:over", CHAT, None, "{}")
        await tx.upsert_chat(CHAT, "Friday")
    async with repo.unit() as tx:
        assert await tx.migrate_chat(CHAT, CHAT - 1)
    assert [r.chat_id for r in await repo.owed()] == [CHAT - 1]


async def test_an_owed_entry_held_keeps_the_later_ones_of_its_chat_behind_it(
    repo: Store,
) -> None:
    async with repo.unit() as tx:  # deal 1, deal 2 and a notice owed to one chat, one to another
        for ref, chat in (("deal:1:1:40", CHAT), ("deal:2:1:9", CHAT - 1)):
            await tx.owe(ref, chat, outbox_key(ref), "{}")
        await tx.owe("deal:1:1:55", CHAT, outbox_key("deal:1:1:55"), "{}")
        await tx.owe("note:1:over", CHAT, None, "{}")
    first, other, second, note = (r.ref for r in await repo.owed())
    assert await repo.intend_message(CHAT, outbox_key(first.ref), first) is Claim.MINE
    assert not await repo.hold_owed(first)  # as read before the claim: not this sender's
    assert await repo.hold_owed(dataclasses.replace(first, tries=1))  # its send failed
    assert await repo.intents() == [
        (CHAT, outbox_key(first.ref))
    ]  # the sender lets its key go itself
    await repo.drop_message(CHAT, outbox_key(first.ref))
    # the chat's later entries wait behind it, nothing marked; another chat's go on
    assert await repo.intend_message(CHAT, outbox_key(second.ref), second) is Claim.BEHIND
    assert await repo.claim_owed(note) is Claim.BEHIND
    assert await repo.intents() == []
    assert await repo.intend_message(CHAT - 1, outbox_key(other.ref), other) is Claim.MINE
    held = {r.ref.ref: (r.state, r.ref.tries) for r in await repo.owed()}
    assert held == {
        first.ref: (OwedState.HELD, 1),
        other.ref: (OwedState.SENT, 1),
        second.ref: (OwedState.HELD, 0),
        note.ref: (OwedState.HELD, 0),
    }
    # tried again, in order: the first (as it reads now) is claimed; the others follow it
    again = {r.ref.ref: r.ref for r in await repo.owed()}
    assert (
        await repo.intend_message(CHAT, outbox_key(second.ref), again[second.ref]) is Claim.BEHIND
    )
    assert await repo.intend_message(CHAT, outbox_key(first.ref), again[first.ref]) is Claim.MINE
    assert await repo.intend_message(CHAT, outbox_key(first.ref), again[first.ref]) is Claim.TAKEN
    await repo.put_message(
        StoredMessage(CHAT, outbox_key(first.ref), 80, "d"), OwedRef(first.ref, 2)
    )
    again = {r.ref.ref: r.ref for r in await repo.owed()}
    assert await repo.intend_message(CHAT, outbox_key(second.ref), again[second.ref]) is Claim.MINE
    assert await repo.claim_owed(again[note.ref]) is Claim.MINE


async def test_a_group_moves_to_its_supergroup_once(repo: Store) -> None:
    table_id = await seeded(repo)
    new = CHAT - 1
    async with repo.unit() as tx:
        await tx.book(CHAT, "mushka", USER, 4, True)
        await tx.upsert_chat(new, "")
        await tx.book(new, "mushka", USER, 1, False)
    await repo.put_message(StoredMessage(CHAT, outbox_key("table:1"), 5, "d"))
    async with repo.unit() as tx:
        assert await tx.migrate_chat(CHAT, new)
    async with repo.unit() as tx:
        assert not await tx.migrate_chat(CHAT, new)
    moved = await repo.table(table_id)
    assert moved is not None and moved.chat_id == new
    chat = await repo.chat(new)
    assert chat is not None and chat.title == "Friday"
    (row,) = await repo.ledger(chat_id=new)
    assert (row.balance, row.played, row.won) == (5, 2, 1)
    assert await repo.messages() == []


def test_bot_database_names_the_backend_and_check_hides_the_password() -> None:
    def database(value: str) -> Path | str:
        return Settings(token=SecretStr("1:a"), database=value, _env_file=None).database  # type: ignore[call-arg]

    assert database("data/bot.sqlite3") == Path("data/bot.sqlite3")
    url = "postgresql://mushka:s3cret@db.internal:5432/mushka"
    assert database(url) == url and database_label(url) == (
        "postgresql://mushka:***@db.internal:5432/mushka"
    )
    assert latest_schema(url) == latest_schema(Path("x.sqlite3"))
    with pytest.raises(ValidationError, match="postgresql://user:pass@host:port/db"):
        database("mysql://root@localhost/bot")


async def test_a_match_keeps_the_outcomes_its_start_and_its_actions_drew(repo: Store) -> None:
    """Fair deals: the random outcomes are stored with what drew them and read back in
    order — the match's start on its row, each action's on its log line (None: it drew none)."""
    table_id = await seeded(repo)
    start = '[{"t":"deal","no":1,"dealer":0,"deck":["7S"]}]'
    async with repo.unit() as tx:
        await tx.add_match(table_id, 1, 2**63 - 1, None, 4)
        await tx.set_match_drawn(table_id, 1, start)
        await tx.add_action(table_id, 4, 0, "pass")
        await tx.add_action(table_id, 5, 1, "pass", '[{"t":"deal","no":2}]')
        await tx.add_action(table_id, 6, 0, "card AS", '[{"t":"event","e":"take"}]')
    (match,) = await repo.matches(table_id)
    assert (match.seed, match.drawn) == (2**63 - 1, start)  # the largest seed either backend keeps
    assert await repo.match(table_id, 1) == match
    assert await repo.draws(table_id, 4) == [
        (5, '[{"t":"deal","no":2}]'),
        (6, '[{"t":"event","e":"take"}]'),
    ]
    assert await repo.draws(table_id, 6) == [(6, '[{"t":"event","e":"take"}]')]
    assert await repo.actions(table_id, 4) == [(0, "pass"), (1, "pass"), (0, "card AS")]
