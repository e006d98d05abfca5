"""Whether a person sees a one-line tip on his hand now (bot.render.tips draws it): his
/settings «Tips», and for «auto» whether he is still new to the game — fewer than
``NEWCOMER_MATCHES`` of its matches finished, counted from the stored matches (nothing kept
for it: the count is what the tables already record)."""

from __future__ import annotations

from typing import Any

from bot.storage.protocol import Reads
from bot.storage.settings import NEWCOMER_MATCHES, Tips, UserSettings
from engine.core import View
from engine.tips import TipKind, tip_kind


async def tip_for(
    reads: Reads, user_id: int, settings: UserSettings, view: View[Any, Any]
) -> TipKind | None:
    """The tip for the decision ``view``'s seat faces, if its owner is to see it."""
    if settings.tips is Tips.OFF:
        return None
    kind = tip_kind(view)
    if kind is None or settings.tips is Tips.ON:
        return kind
    finished = await reads.finished_matches(user_id, view.game)
    return kind if finished < NEWCOMER_MATCHES else None
