"""Storage: the repository protocol and its implementations, opened by one factory.

:func:`open_repository` is the only place that knows which backend ``BOT_DATABASE`` names: a
file path opens SQLite (:mod:`bot.storage.sqlite`), a ``postgresql://`` URL PostgreSQL
(:mod:`bot.storage.postgres`, needs the ``postgres`` extra: ``pip install '.[postgres]'``).
Either is :class:`bot.storage.repository.SqlRepository` on that backend's runner.
"""

from __future__ import annotations

from pathlib import Path

from bot.storage.db import MIGRATIONS, PG_MIGRATIONS, migrations
from bot.storage.protocol import Store


async def open_repository(database: Path | str, *, readonly: bool = False) -> Store:
    """The database opened and migrated; ``close()`` it when done. ``readonly`` (``python -m
    bot export``): opened as it is, never migrated or written — a SQLite file with
    ``mode=ro``, PostgreSQL in read-only transactions only."""
    if isinstance(database, str):
        from bot.storage.postgres import open_postgres  # asyncpg only when it is used

        return await open_postgres(database, readonly=readonly)
    from bot.storage.sqlite import open_sqlite

    return await open_sqlite(database, readonly=readonly)


def latest_schema(database: Path | str) -> int:
    """The number of the newest migration of the backend ``database`` names."""
    return len(migrations(PG_MIGRATIONS if isinstance(database, str) else MIGRATIONS))
