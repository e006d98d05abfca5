"""``python -m bot ratings --rebuild [--database PATH|URL]``: every rating computed again from
the stored results — after a change of the rating model, or to rate the games that
finished before ratings (their results are first read back from the action log). The bot may
run meanwhile: the rebuild is one transaction, so players see the old ratings or the new ones.

The database is ``--database`` or ``BOT_DATABASE`` (a SQLite file path, or a ``postgresql://``
URL). Exit codes: 0 rebuilt; 2 no database given, or no such file; 8 the database cannot be
opened (``bot.startup.Exit``).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from pathlib import Path

from bot.config import database_label, existing_database
from bot.startup import Exit


async def _rebuild(database: Path | str) -> tuple[int, int]:
    from bot.runtime.ratings import backfill, rebuild
    from bot.storage import open_repository

    repo = await open_repository(database)
    try:
        added = await backfill(repo)
        return added, await rebuild(repo)
    finally:
        await repo.close()


def ratings_main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot ratings", description="skill ratings")
    parser.add_argument(
        "--rebuild",
        action="store_true",
        required=True,
        help="compute every rating again from the stored results",
    )
    parser.add_argument(
        "--database",
        default=os.environ.get("BOT_DATABASE"),
        help="the SQLite file, or a postgresql:// URL (default: BOT_DATABASE)",
    )
    args = parser.parse_args(argv)
    if not args.database:
        sys.stderr.write("ratings: no database: --database or BOT_DATABASE\n")
        return int(Exit.CONFIGURATION)
    database = existing_database(args.database)
    if database is None:
        sys.stderr.write(f"ratings: no database at {args.database}\n")
        return int(Exit.CONFIGURATION)
    try:
        added, rated = asyncio.run(_rebuild(database))
    except Exception as error:  # a file that is no database, a server gone: one line
        sys.stderr.write(f"ratings: database {database_label(database)}: {error}\n")
        return int(Exit.DATABASE)
    sys.stdout.write(f"{rated} game(s) rated ({added} of them read back from the action log)\n")
    return 0
