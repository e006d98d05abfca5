"""Unit tests: catalogues, callback data, storage migrations, card names."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.callbacks import MAX_BYTES, Kind, Press, PressCodec, b36, unb36
from bot.i18n import Catalogues, locale_of
from bot.render.cards import card_name, hand_by_suit, suit_rows
from bot.render.refusals import REASONS
from bot.storage.db import Database, migrations
from engine.cards import K_HIGH, parse_cards
from engine.errors import Refusal
from tests.bot.msgids import source_msgids

LOCALES = Path(__file__).resolve().parents[2] / "locales"
CODEC = PressCodec.from_token("123456:TEST-token")


def test_every_msgid_is_translated_in_both_languages() -> None:
    catalogues = Catalogues.load(LOCALES)
    ids = source_msgids()
    for locale in ("ru", "en"):
        tr = catalogues.tr(locale)
        missing = sorted(i for i in ids if not tr.has(i))
        assert not missing, f"{locale}: {missing}"
    ru = catalogues.tr("ru")
    assert ru("It's {name}'s turn.", name="Вера") == "Сейчас ходит Вера."


def test_every_engine_refusal_has_a_reason() -> None:
    assert set(REASONS) == set(Refusal)


def test_locale_of_telegram_language_codes() -> None:
    assert [locale_of(c) for c in ("ru", "uk", "be", "en", "de", None)] == [
        "ru", "ru", "ru", "en", "en", "en",
    ]  # fmt: skip


def test_6_1_card_names_per_locale() -> None:
    assert card_name("QS", "ru") == "Д♠" and card_name("QS", "en") == "Q♠"
    assert card_name("10H", "ru") == "10♥" and card_name("AD", "ru") == "Т♦"
    rows = suit_rows(parse_cards(["AS", "KS", "7H", "JC"]), K_HIGH)
    assert hand_by_suit(rows, "ru") == "♠ К Т · ♣ В · ♥ 7"


def test_7_1_largest_presses_fit_64_bytes() -> None:
    big = Press(Kind.HAND, 1_600_000, 7, 36**5, "x", "10H.10S.10D.10C.QS.u")
    data = CODEC.pack(big)
    assert len(data.encode()) <= MAX_BYTES
    assert CODEC.parse(data) == big
    option = Press(Kind.LOBBY, 1_600_000, None, 99, "v", "point_value=1000000")
    assert CODEC.parse(CODEC.pack(option)) == option


def test_7_2_forged_and_malformed_data_are_refused() -> None:
    data = CODEC.pack(Press(Kind.HAND, 5, 1, 12, "p", "QS"))
    assert CODEC.parse(data.replace(":p:QS", ":p:AS")) is None
    assert CODEC.parse(data[:-1] + ("A" if data[-1] != "A" else "B")) is None
    other = PressCodec.from_token("654321:OTHER")
    assert other.parse(data) is None
    for junk in ("", "~", "h:1:1:1:p~", "x" * 80, "h:1:9:1:p:QS~aaaaaa"):
        assert CODEC.parse(junk) is None


@given(
    kind=st.sampled_from(list(Kind)),
    table=st.integers(0, 2_000_000),
    seat=st.one_of(st.none(), st.integers(0, 7)),
    version=st.integers(0, 10**7),
    arg=st.one_of(st.none(), st.from_regex(r"[A-Z0-9.=]{0,12}", fullmatch=True)),
)
def test_7_1_round_trip(
    kind: Kind, table: int, seat: int | None, version: int, arg: str | None
) -> None:
    act = {"h": "p", "l": "j", "e": "r", "g": "l", "s": "l", "t": "c", "v": "s"}[kind.value]
    press = Press(kind, table, seat, version, act, arg)
    assert CODEC.parse(CODEC.pack(press)) == press
    assert unb36(b36(version)) == version


@given(st.text(max_size=70))
def test_7_2_garbage_never_raises(text: str) -> None:
    CODEC.parse(text)


GENUINE = [
    CODEC.pack(Press(Kind.HAND, 5, 1, 12, "p", "QS")),
    CODEC.pack(Press(Kind.HAND, 1_600_000, 7, 36**5, "x", "10H.10S.10D.10C.QS.u")),
    CODEC.pack(Press(Kind.LOBBY, 42, None, 3, "j")),
    CODEC.pack(Press(Kind.END, 9, None, 1, "r")),
]


@st.composite
def spliced(draw: st.DrawFn) -> str:
    """Genuine data with any stretch (a field, the separators, the tag) replaced by any text."""
    data = draw(st.sampled_from(GENUINE))
    start = draw(st.integers(0, len(data)))
    end = draw(st.integers(start, len(data)))
    return data[:start] + draw(st.text(max_size=12)) + data[end:]


@st.composite
def any_tag(draw: st.DrawFn) -> str:
    """A genuine body with any text as its tag."""
    body = draw(st.sampled_from(GENUINE)).partition("~")[0]
    return f"{body}~{draw(st.text(max_size=10))}"


BYTES_AS_TEXT = st.binary(max_size=80).map(lambda b: b.decode("utf-8", "surrogateescape"))


@given(st.one_of(st.text(), BYTES_AS_TEXT, spliced(), any_tag()))
def test_7_2_parse_never_raises_and_accepts_only_what_pack_makes(text: str) -> None:
    press = CODEC.parse(text)
    assert press is None or CODEC.pack(press) == text


async def test_storage_migrates_once_and_keeps_wal(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite3"
    db = await Database.open(path)
    try:
        assert await db.user_version() == len(migrations())
        row = await db.one("PRAGMA journal_mode")
        assert row is not None and row[0] == "wal"
        assert await db.migrate() == len(migrations())
    finally:
        await db.close()
    again = await Database.open(path)
    try:
        assert await again.user_version() == len(migrations())
    finally:
        await again.close()


async def test_migration_7_keeps_every_message_id_and_seat(tmp_path: Path) -> None:
    """A database of schema 6 with a running table: after 0007 its message ids are the
    outbox's keys, its seats are people's seats, its pulka is match 1, nothing is lost."""
    path = tmp_path / "old.sqlite3"
    conn = sqlite3.connect(path)
    for number, sql in migrations()[:6]:
        conn.executescript(sql)
        conn.execute(f"PRAGMA user_version = {number}")
    conn.executescript(
        "INSERT INTO chats(id, title) VALUES (-5, 'g');"
        "INSERT INTO users(id, first_name) VALUES (1, 'A'), (2, 'B');"
        "INSERT INTO tables(id, chat_id, game, status, creator_id, join_code, created_at,"
        " lobby_msg_id, table_msg_id, result_msg_id) VALUES (3, -5, 'mushka', 'running', 1,"
        " 'c', 0, 10, 11, NULL);"
        "INSERT INTO seats(table_id, seat, user_id, name, away) VALUES (3, 0, 1, 'A', 0),"
        " (3, 1, 2, 'B', 1);"
        "INSERT INTO pulkas(table_id, no, seed, first_seq) VALUES (3, 1, 42, 0);"
        "INSERT INTO hands(table_id, seat, chat_id, message_id, marks, mode) VALUES"
        " (3, 0, 1, 20, 'AS', 'x'), (3, 1, 2, 21, '', '');"
    )
    conn.commit()
    conn.close()
    db = await Database.open(path)
    try:
        assert await db.user_version() == len(migrations())
        keys = {
            (r[0], r[1]): r[2]
            for r in await db.all("SELECT chat_id, key, message_id FROM messages")
        }
        assert keys == {
            (-5, "lobby:3"): 10,
            (-5, "table:3"): 11,
            (1, "hand:3:0"): 20,
            (2, "hand:3:1"): 21,
        }
        seats = await db.all("SELECT seat, kind, user_id, away FROM seats ORDER BY seat")
        assert [tuple(r) for r in seats] == [(0, "human", 1, 0), (1, "human", 2, 1)]
        assert [tuple(r) for r in await db.all("SELECT table_id, no, seed FROM matches")] == [
            (3, 1, 42)
        ]
        assert [tuple(r) for r in await db.all("SELECT seat, marks, mode FROM hands")] == [
            (0, "AS", "x")
        ]
    finally:
        await db.close()


async def traced_commits(db: Database) -> list[str]:
    """The ``COMMIT`` statements the connection runs from now on."""
    commits: list[str] = []
    await db.conn.set_trace_callback(
        lambda sql: commits.append(sql) if sql.upper().startswith("COMMIT") else None
    )
    return commits


async def test_writes_waiting_together_commit_together_and_fail_alone(tmp_path: Path) -> None:
    """``Database.write`` commits the writes that wait for the writer in one transaction; each
    is durable when its call returns, and a failing one fails alone (the others land)."""
    path = tmp_path / "db.sqlite3"
    db = await Database.open(path)
    upsert = (
        "INSERT INTO messages (chat_id, key, message_id, digest, keyboard) VALUES (?, ?, ?, ?, 0)"
        " ON CONFLICT (chat_id, key) DO UPDATE SET message_id = excluded.message_id"
    )
    try:
        commits = await traced_commits(db)
        first = await asyncio.gather(
            *(db.write(upsert, (-1, f"k{i % 7}", i, "d")) for i in range(40))
        )
        assert first == [None] * 40
        assert len(commits) == 1  # one transaction for the 40 that waited together
        mixed = [
            db.write(upsert, (-2, "a", 1, "d")),
            db.write("INSERT INTO nowhere VALUES (1)"),  # fails: no such table
            db.write(upsert, (-2, "b", 2, "d")),
        ]
        results = await asyncio.gather(*mixed, return_exceptions=True)
        assert results[0] is None and results[2] is None
        assert isinstance(results[1], sqlite3.OperationalError)
        await db.conn.set_trace_callback(None)  # type: ignore[arg-type]  # sqlite3: None = off
    finally:
        await db.close()
    plain = sqlite3.connect(path)
    try:
        rows = dict(plain.execute("SELECT key, message_id FROM messages").fetchall())
    finally:
        plain.close()
    latest = {f"k{k}": max(i for i in range(40) if i % 7 == k) for k in range(7)}
    assert rows == {**latest, "a": 1, "b": 2}


async def test_a_transaction_is_one_trip_reads_its_own_writes_and_fails_whole(
    tmp_path: Path,
) -> None:
    """``Database.transaction`` runs its statements with ``BEGIN``/``COMMIT`` in one trip to
    aiosqlite's thread when it ends; a read inside sees what it wrote; an error inside leaves
    nothing written, and so does a statement that fails when the collected ones run."""
    path = tmp_path / "db.sqlite3"
    db = await Database.open(path)
    put = "INSERT INTO chats(id, title) VALUES (?, ?)"
    trips = 0
    real = db.conn._execute

    async def counted(fn: object, *args: object, **kwargs: object) -> object:
        nonlocal trips
        trips += 1
        return await real(fn, *args, **kwargs)  # type: ignore[no-untyped-call]

    try:
        db.conn._execute = counted  # type: ignore[method-assign]
        async with db.transaction():
            for chat in range(-1, -6, -1):
                await db.execute(put, (chat, "t"))
        assert trips == 1  # five statements, BEGIN and COMMIT: one trip
        async with db.transaction():
            await db.execute(put, (-6, "t"))
            row = await db.one("SELECT title FROM chats WHERE id = ?", (-6,))
            assert row is not None and row["title"] == "t"  # its own write, begun for it
            await db.execute(put, (-7, "t"))
        with contextlib.suppress(RuntimeError):
            async with db.transaction():
                await db.execute(put, (-8, "t"))
                raise RuntimeError("the caller fails midway")
        with contextlib.suppress(sqlite3.IntegrityError):
            async with db.transaction():
                await db.execute(put, (-9, "t"))
                await db.execute(put, (-1, "again"))  # the key exists: fails at the end
        row = await db.one("SELECT COUNT(*) FROM chats")
        assert row is not None and row[0] == 7
        assert not db.conn.in_transaction
    finally:
        db.conn._execute = real  # type: ignore[method-assign]
        await db.close()
    plain = sqlite3.connect(path)
    try:
        ids = sorted(r[0] for r in plain.execute("SELECT id FROM chats").fetchall())
    finally:
        plain.close()
    assert ids == [-7, -6, -5, -4, -3, -2, -1]


async def test_claims_waiting_together_commit_together_and_each_learns_its_row(
    tmp_path: Path,
) -> None:
    """``Database.write_one`` (an update's claim) joins the group commit; each caller gets the
    first row of its own ``RETURNING`` (none for an id claimed before)."""
    db = await Database.open(tmp_path / "db.sqlite3")
    claim = (
        "INSERT INTO updates(update_id, seen_at) VALUES (?, ?) "
        "ON CONFLICT(update_id) DO NOTHING RETURNING update_id"
    )
    try:
        commits = await traced_commits(db)
        ids = [1, 2, 3, 2, 4, 1, 5]
        rows = await asyncio.gather(*(db.write_one(claim, (i, 0.0)) for i in ids))
        assert [r[0] if r is not None else None for r in rows] == [1, 2, 3, None, 4, None, 5]
        assert len(commits) == 1
        again = await db.write_one(claim, (3, 0.0))
        assert again is None
        await db.conn.set_trace_callback(None)  # type: ignore[arg-type]  # sqlite3: None = off
    finally:
        await db.close()


def test_the_running_bot_freezes_what_it_loaded_and_collects_seldom() -> None:
    """``python -m bot`` tunes the cycle collector (bot/__main__.py ``tune_gc``); checked in a
    child process: a test process keeps its own collector."""
    import subprocess
    import sys

    code = (
        "import gc; from bot.__main__ import GC_THRESHOLDS, tune_gc; tune_gc(); "
        "print(gc.get_threshold() == GC_THRESHOLDS, gc.get_freeze_count() > 1000)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert out.stdout.split() == ["True", "True"]


def test_what_the_start_up_resumed_is_frozen_and_its_garbage_collected_first() -> None:
    """``settle_heap`` (called once ``python -m bot`` has started): the tables it resumed leave
    the collector's generations, so the first collections under load walk none of them; a
    cycle already garbage is collected, not frozen with them. In a child process."""
    import subprocess
    import sys

    code = (
        "import gc, weakref; from bot.__main__ import settle_heap, tune_gc; tune_gc()\n"
        "class Seat: pass\n"
        "tables = [[Seat() for _ in range(5)] for _ in range(2000)]\n"
        "dead = Seat(); dead.me = dead; gone = weakref.ref(dead); del dead\n"
        "before = gc.get_freeze_count(); settle_heap()\n"
        "print(gc.get_freeze_count() - before >= 12000, gone() is None, "
        "sum(len(gc.get_objects(g)) for g in range(3)) < 1000)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert out.stdout.split() == ["True", "True", "True"]


def test_the_running_bot_runs_on_uvloop_unless_told_otherwise() -> None:
    """``BOT_EVENT_LOOP`` (bot/__main__.py ``event_loop``): auto is uvloop (a dependency where
    it builds), asyncio is asyncio's own; checked in a child process, whose loop is the one
    ``python -m bot`` runs on."""
    import subprocess
    import sys

    code = (
        "import asyncio; from bot.__main__ import run_on_loop\n"
        "async def kind() -> str: return type(asyncio.get_running_loop()).__module__\n"
        "print(run_on_loop(kind(), 'auto'), run_on_loop(kind(), 'asyncio'))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    auto, plain = out.stdout.split()
    assert auto.startswith("uvloop") and plain.startswith("asyncio"), out.stdout


def test_an_event_loop_asked_for_by_name_must_be_there(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib.util

    from pydantic import ValidationError

    from bot.config import Settings

    def settings(loop: str) -> Settings:
        return Settings(token="123456:TEST-token", event_loop=loop, _env_file=None)  # type: ignore[arg-type, call-arg]

    assert settings("uvloop").event_loop == "uvloop"  # installed here
    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "uvloop" else real(name, *a)
    )
    with pytest.raises(ValidationError, match="uvloop is not installed"):
        settings("uvloop")
    assert settings("auto").event_loop == "auto"  # then asyncio's
    with pytest.raises(ValidationError):
        settings("trio")


def test_7_2_a_press_parsed_again_gets_the_same_answer() -> None:
    """The codec keeps its last answers (a press is parsed by the log line and each filter):
    a forged one stays refused, a genuine one the same press, however many came between."""
    codec = PressCodec.from_token("123456:ABC")
    genuine = codec.pack(Press(Kind.HAND, 5, 1, 12, "p", "QS"))
    forged = genuine.replace(":p:QS", ":p:AS")
    for _ in range(2):
        assert codec.parse(forged) is None
        assert codec.parse(genuine) == Press(Kind.HAND, 5, 1, 12, "p", "QS")
    for n in range(200):  # more than it keeps
        codec.parse(codec.pack(Press(Kind.LOBBY, n, None, 1, "j")))
    assert codec.parse(forged) is None
    assert codec.parse(genuine) == Press(Kind.HAND, 5, 1, 12, "p", "QS")
    assert PressCodec.from_token("654321:OTHER").parse(genuine) is None


def test_plural_forms_follow_each_catalogues_rule(tmp_path: Path) -> None:
    """``tr.n``: the form a number takes is the catalogue's own (Russian has three)."""
    for locale, forms in (
        ("ru", ("{n} карта", "{n} карты", "{n} карт")),
        ("en", ("", "{n} cards")),
    ):
        folder = tmp_path / locale / "LC_MESSAGES"
        folder.mkdir(parents=True)
        header = (LOCALES / locale / "LC_MESSAGES" / "messages.po").read_text(encoding="utf-8")
        head = header.split("\n\n", 1)[0]
        entry = 'msgid "{n} card"\nmsgid_plural "{n} cards"\n' + "".join(
            f'msgstr[{i}] "{form}"\n' for i, form in enumerate(forms)
        )
        (folder / "messages.po").write_text(f"{head}\n\n{entry}", encoding="utf-8")
    catalogues = Catalogues.load(tmp_path)
    ru, en = catalogues.tr("ru"), catalogues.tr("en")
    said = {n: ru.n("{n} card", "{n} cards", n) for n in (1, 2, 4, 5, 11, 12, 21, 22, 25, 111)}
    assert said == {
        1: "1 карта",
        2: "2 карты",
        4: "4 карты",
        5: "5 карт",
        11: "11 карт",
        12: "12 карт",
        21: "21 карта",
        22: "22 карты",
        25: "25 карт",
        111: "111 карт",
    }
    assert ru.has("{n} card") and not ru.has("{n} cards")
    # a form the catalogue leaves empty falls back to the English text
    assert en.n("{n} card", "{n} cards", 1) == "1 card"
    assert en.n("{n} card", "{n} cards", 3) == "3 cards"
    assert str(ru.n_html("{n} card for {name}", "{n} cards for {name}", 2, name="<b>")) == (
        "2 cards for &lt;b&gt;"
    )
