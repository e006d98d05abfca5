"""``python -m bot export --database PATH|URL --out DIR``: every game as RECORD.md JSON Lines,
one file per table (PRODUCT.md §18).

The database is only read, never changed, even while the bot runs on it: a SQLite file is
opened with ``mode=ro``, PostgreSQL in read-only transactions, and nothing is migrated. A
schema other than this bot's (a newer bot wrote it, or an older one that was not started
since) is refused: its tables may not be what these statements read. The files hold the
hidden cards of running games: they are readable by their owner only (0600), in a folder made
for them with 0700.

Exit codes: 0 written; 2 no such file (or bad arguments); 8 the database cannot be read, or
its schema is not this bot's (``bot.startup.Exit``).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from pathlib import Path
from typing import Final

from bot.config import database_label, existing_database
from bot.startup import Exit

FILE_MODE: Final = 0o600
FOLDER_MODE: Final = 0o700


class Refused(Exception):
    """What export says instead of writing anything (one line on stderr, exit 8)."""


async def _records(database: Path | str) -> list[tuple[str, str]]:
    from bot.records import Records
    from bot.storage import latest_schema, open_repository
    from engine.games import new_game

    label = database_label(database)
    try:
        repo = await open_repository(database, readonly=True)
    except Exception as error:
        raise Refused(f"database {label} cannot be read ({error})") from error
    try:
        try:
            version = await repo.schema_version()
        except Exception as error:  # a file that is not a database, a server gone meanwhile
            raise Refused(f"database {label} cannot be read ({error})") from error
        known = latest_schema(database)
        if version != known:
            who = "a newer" if version > known else "an older"
            hint = (
                "run that version's export"
                if version > known
                else "run that version's export, or start this bot on it once (it migrates)"
            )
            raise Refused(
                f"database {label} has schema {version}, this export reads {known}: it was "
                f"written by {who} version of the bot — {hint}; nothing was written"
            )
        return await Records(repo, new_game).export()
    finally:
        await repo.close()


def write_private(path: Path, text: str) -> None:
    """``text`` into ``path``, readable and writable by its owner only (an old file too)."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, FILE_MODE)
    with open(fd, "w", encoding="utf-8") as out:
        os.fchmod(out.fileno(), FILE_MODE)
        out.write(text)


def export_main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot export", description="game records")
    parser.add_argument("--database", required=True, help="the SQLite file, or a postgresql:// URL")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    database = existing_database(args.database)
    if database is None:
        sys.stderr.write(f"export: no database at {args.database}\n")
        return int(Exit.CONFIGURATION)
    try:
        files = asyncio.run(_records(database))
    except Refused as refused:
        sys.stderr.write(f"export: {refused}\n")
        return int(Exit.DATABASE)
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True, mode=FOLDER_MODE)
    for name, text in files:
        write_private(out / name, text)
    sys.stdout.write(f"{len(files)} table(s) written to {out}\n")
    return 0
