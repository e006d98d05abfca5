"""``python -m bot export --database PATH|URL --out DIR``: every game as RECORD.md JSON Lines,
one file per table (PRODUCT.md §18).

The database is only read, never changed, even while the bot runs on it: a SQLite file is
opened with ``mode=ro``, PostgreSQL in read-only transactions, and nothing is migrated. A
schema other than this bot's (a newer bot wrote it, or an older one that was not started
since) is refused: its tables may not be what these statements read. The files hold the
hidden cards of running games: they are readable by their owner only (0600), in a folder made
for them with 0700.

Each file is created anew (``O_CREAT | O_EXCL | O_NOFOLLOW``, in the folder opened once): never
written through a link planted in the folder, a dangling one included, and never over a file
that is there already — a name that exists stops the export with one line before anything is
written (export into a new or empty folder; an earlier export is never overwritten).

Exit codes: 0 written; 2 no such file, bad arguments, or a file of the export already in the
folder; 8 the database cannot be read, or its schema is not this bot's (``bot.startup.Exit``).
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


class Unreadable(Exception):
    """What export says instead of writing anything (one line on stderr, exit 8)."""


async def _records(database: Path | str) -> list[tuple[str, str]]:
    from bot.records import Records
    from bot.storage import latest_schema, open_repository
    from engine.games import new_game

    label = database_label(database)
    try:
        repo = await open_repository(database, readonly=True)
    except Exception as error:
        raise Unreadable(f"database {label} cannot be read ({error})") from error
    try:
        try:
            version = await repo.schema_version()
        except Exception as error:  # a file that is not a database, a server gone meanwhile
            raise Unreadable(f"database {label} cannot be read ({error})") from error
        known = latest_schema(database)
        if version != known:
            who = "a newer" if version > known else "an older"
            hint = (
                "run that version's export"
                if version > known
                else "run that version's export, or start this bot on it once (it migrates)"
            )
            raise Unreadable(
                f"database {label} has schema {version}, this export reads {known}: it was "
                f"written by {who} version of the bot — {hint}; nothing was written"
            )
        return await Records(repo, new_game).export()
    finally:
        await repo.close()


class Clash(Exception):
    """A file of the export is already in its folder (or a link by its name): nothing of it is
    written over (one line on stderr, exit 2)."""


CREATE: Final = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0)


def write_all(folder: Path, files: list[tuple[str, str]]) -> None:
    """Each ``(name, text)`` as a new file of ``folder``, readable and writable by its owner
    only. A name already there — a file, a folder, a link, a dangling link — is a
    :class:`Clash`, found before anything is written; one planted meanwhile fails its
    exclusive create (the files written before it stay)."""
    where = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | getattr(os, "O_CLOEXEC", 0))
    try:
        taken = [name for name, _ in files if _exists(name, where)]
        if taken:
            raise Clash(
                f"{folder / taken[0]} is already there ({len(taken)} of the export's files are)"
            )
        for number, (name, text) in enumerate(files):
            try:
                fd = os.open(name, CREATE, FILE_MODE, dir_fd=where)
            except FileExistsError:
                raise Clash(
                    f"{folder / name} appeared while exporting ({number} written)"
                ) from None
            with open(fd, "w", encoding="utf-8") as out:
                os.fchmod(out.fileno(), FILE_MODE)  # the file just made: never a link's target
                out.write(text)
    finally:
        os.close(where)


def _exists(name: str, folder: int) -> bool:
    """Whether ``name`` is in the folder, a link too (its target is not asked)."""
    try:
        os.stat(name, dir_fd=folder, follow_symlinks=False)
    except FileNotFoundError:
        return False
    return True


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
    except Unreadable as refused:
        sys.stderr.write(f"export: {refused}\n")
        return int(Exit.DATABASE)
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True, mode=FOLDER_MODE)
    try:
        write_all(out, files)
    except Clash as clash:
        sys.stderr.write(f"export: {clash}: nothing is written over — export into a new folder\n")
        return int(Exit.CONFIGURATION)
    sys.stdout.write(f"{len(files)} table(s) written to {out}\n")
    return 0
