"""A person's quiet hours at a long-turn table (:mod:`bot.slow`): whether they hold his pings
now, and the reminder they held, sent when they end (a stored ``quiet`` deadline, so a restart
or another worker sends it once)."""

from __future__ import annotations

from bot import slow
from bot.runtime.tables import Context, Table


async def until(ctx: Context, table: Table, user_id: int | None) -> float | None:
    """When the person's quiet hours end if they hold his pings at ``table`` now: the table
    has long turns and his quiet hours are on (None: nothing is held)."""
    if user_id is None or not slow.is_long(ctx.turn_time(table)):
        return None
    settings = await ctx.people.user_settings(user_id)
    if not settings.quiet:
        return None
    locale = await ctx.people.user_locale(user_id)
    return slow.quiet_until(ctx.clock(), slow.zone(settings.zone, locale))
