"""``python -m bot``: read the settings, start long polling (or serve the webhook when
``BOT_WEBHOOK_URL`` is set), stop cleanly on Ctrl-C/SIGTERM; logs are ``key=value`` lines.

With ``BOT_WORKERS=N`` (webhook mode and ``BOT_REDIS_URL``) it starts N worker processes on
one port instead (``bot/workers.py``).

``python -m bot check [--quick]``: settings, database, token and webhook checked, one line each
(``bot/check.py``); exit 0 when all is fine.

``python -m bot export --database PATH --out DIR``: every game in the database (finished,
abandoned, and running ones up to now) as RECORD.md JSON Lines, one file per table
(PRODUCT.md §18); ``python -m engine replay DIR/*.jsonl`` replays them. Needs no token.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import signal
import sys
from pathlib import Path

from pydantic import ValidationError

from bot.config import Settings


def _problem(error: ValidationError) -> str:
    first = error.errors()[0]
    message = str(first["msg"]).removeprefix("Value error, ")
    if not first["loc"]:  # a check across settings names them itself
        return f"configuration error: {message}"
    field = "BOT_" + ".".join(str(p) for p in first["loc"]).upper()
    if first["type"] == "missing":
        return f"configuration error: {field} is missing (see .env.example)"
    return f"configuration error: {field}: {message}"


async def _run(settings: Settings) -> None:
    from bot.app import running_bot

    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    async with running_bot(settings) as running:
        waiter = asyncio.create_task(stop.wait())
        await asyncio.wait({waiter, running.task}, return_when=asyncio.FIRST_COMPLETED)
        waiter.cancel()


async def _records(database: Path) -> list[tuple[str, str]]:
    from bot.records import Records
    from bot.storage.db import Database
    from bot.storage.sqlite import SqliteRepository
    from engine.games import new_game

    db = await Database.open(database)
    try:
        return await Records(SqliteRepository(db), new_game).export()
    finally:
        await db.close()


def export_main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot export", description="game records")
    parser.add_argument("--database", type=Path, required=True)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    if not args.database.is_file():
        sys.stderr.write(f"export: no database at {args.database}\n")
        return 2
    files = asyncio.run(_records(args.database))
    args.out.mkdir(parents=True, exist_ok=True)
    for name, text in files:
        (args.out / name).write_text(text, encoding="utf-8")
    sys.stdout.write(f"{len(files)} table(s) written to {args.out}\n")
    return 0


def main() -> int:
    if sys.argv[1:2] == ["export"]:
        return export_main(sys.argv[2:])
    try:
        settings = Settings()  # type: ignore[call-arg]  # the token comes from the environment
    except ValidationError as error:
        sys.stderr.write(_problem(error) + "\n")
        return 2
    if sys.argv[1:2] == ["check"]:
        from bot.check import check_main

        logging.basicConfig(level=logging.WARNING)
        return check_main(sys.argv[2:], settings)
    if sys.argv[1:]:
        sys.stderr.write("usage: python -m bot [check [--quick] | export --database P --out D]\n")
        return 2
    from bot.updates import KeyValueFormatter

    handler = logging.StreamHandler()
    handler.setFormatter(KeyValueFormatter())
    logging.basicConfig(level=settings.log_level, handlers=[handler])
    if settings.log_level != "DEBUG":  # bot.updates has the one line per update
        logging.getLogger("aiogram.event").setLevel(logging.WARNING)
    if settings.workers > 1 and settings.worker_index is None:
        from bot.workers import supervise

        return asyncio.run(supervise(settings))  # N worker processes, each a python -m bot
    asyncio.run(_run(settings))
    return 0


if __name__ == "__main__":
    sys.exit(main())
