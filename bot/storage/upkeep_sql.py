"""The statements of the bot's own upkeep, shared by both backends: its stored deadlines, when
it was last alive, the updates it took already, its secrets, and what the operator's
``/healthz`` and ``check`` ask."""

from __future__ import annotations

from bot.storage.protocol import SecretName
from bot.storage.rows import Deadline, deadline_row
from bot.storage.runner import Runner


class UpkeepStatements:
    """The upkeep's statements, run by the runner given."""

    def __init__(self, runner: Runner) -> None:
        self.runner = runner

    # --- when the bot was last alive (PRODUCT.md §13: downtime is not counted) ------------

    async def alive_at(self) -> float | None:
        row = await self.runner.one("SELECT at FROM alive WHERE id = 1")
        return float(row["at"]) if row is not None else None

    async def set_alive(self, at: float) -> None:
        await self.runner.run(
            "INSERT INTO alive(id, at) VALUES (1, ?)"
            " ON CONFLICT(id) DO UPDATE SET at = excluded.at",
            (at,),
        )

    async def shift_deadlines(self, by: float) -> None:
        """Every stored deadline ``by`` seconds later (the time the bot was down)."""
        await self.runner.run("UPDATE deadlines SET due_at = due_at + ?", (by,))

    # --- updates already taken (a redelivered update acts once) ---------------------------

    async def claim_update(self, update_id: int, at: float) -> bool:
        """True the first time ``update_id`` is claimed, False for a repeat (one statement)."""
        row = await self.runner.write_one(
            "INSERT INTO updates(update_id, seen_at) VALUES (?, ?) "
            "ON CONFLICT(update_id) DO NOTHING RETURNING update_id",
            (update_id, at),
        )
        return row is not None

    async def prune_updates(self, before: float) -> None:
        await self.runner.write("DELETE FROM updates WHERE seen_at < ?", (before,))

    # --- deadlines ---------------------------------------------------------------------

    async def deadlines(self, table_id: int | None = None) -> list[Deadline]:
        sql = "SELECT table_id, kind, due_at, moves FROM deadlines"
        rows = await (
            self.runner.all(sql + " WHERE table_id = ?", (table_id,))
            if table_id is not None
            else self.runner.all(sql)
        )
        return [deadline_row(r) for r in rows]

    async def put_deadline(self, deadline: Deadline) -> None:
        await self.runner.run(
            "INSERT INTO deadlines(table_id, kind, due_at, moves) VALUES (?, ?, ?, ?) "
            "ON CONFLICT(table_id, kind) DO UPDATE SET due_at = excluded.due_at, "
            "moves = excluded.moves",
            (deadline.table_id, deadline.kind, deadline.due_at, deadline.moves),
        )

    async def drop_deadline(self, table_id: int, kind: str) -> None:
        sql = "DELETE FROM deadlines WHERE table_id = ? AND kind = ?"
        await self.runner.run(sql, (table_id, kind))

    # --- for the operator: /healthz and ``check`` -----------------------------------------

    async def ping(self) -> bool:
        return await self.runner.one("SELECT 1 AS one") is not None

    async def secret(self, name: SecretName, fresh: str) -> str:
        await self.runner.write(
            "INSERT INTO secrets(name, value) VALUES (?, ?) ON CONFLICT(name) DO NOTHING",
            (name, fresh),
        )
        row = await self.runner.one("SELECT value FROM secrets WHERE name = ?", (name,))
        assert row is not None  # just stored, or stored before
        return str(row["value"])

    async def count(self, table: str) -> int:
        """Rows in ``table`` (a name the caller owns, never user input)."""
        row = await self.runner.one(f"SELECT COUNT(*) AS n FROM {table}")
        return int(row["n"]) if row is not None else 0
