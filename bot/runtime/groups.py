"""Groups as they really are (issue #17): the bot removed from a group, or no longer allowed to
write there, closes the group's open table — nothing can be shown there any more."""

from __future__ import annotations

from bot.render.common import esc
from bot.render.context import game_name
from bot.runtime.absent import AbsentOps
from bot.runtime.lobby import LOBBY
from bot.runtime.outcome import Note, Outcome, PingGone, Screen, Strip, hand_key
from bot.runtime.play import COMPUTER, IDLE, REMIND, TURN

CLOSING_KINDS = (COMPUTER, REMIND, TURN, IDLE, LOBBY)


class GroupOps(AbsentOps):
    async def bot_removed(self, chat_id: int) -> Outcome:
        """The bot was removed from the group (or may not write there): its open table, lobby
        or running, is closed as an idle one is — the open match abandoned, nothing booked, its
        deadlines dropped — and every seated person is told in private once. Nothing goes to
        the group: it can't be written to."""
        row = await self.repo.open_table(chat_id)
        if row is None:
            return Outcome()
        async with self.locks.hold(row.id):
            table = await self._load(row.id)
            if table is None or table.row.status not in ("lobby", "running"):
                return Outcome()
            async with self.repo.unit() as tx:
                await tx.update_table(table.id, status="closed")
                for kind in CLOSING_KINDS:
                    await tx.drop_deadline(table.id, kind)
            facts = await self.facts(table)
            self.forget(table.id)
            screens: list[Screen] = []
            told: set[int] = set()
            for s in table.seats:
                if s.user_id is None or s.user_id in told:
                    continue
                told.add(s.user_id)
                locale = await self.people.user_locale(s.user_id)
                if table.match is not None:
                    screens.append(Strip(s.user_id, hand_key(table.id, s.seat), forget=True))
                    screens.append(PingGone(s.user_id, table.id))
                screens.append(
                    Note(
                        s.user_id,
                        locale,
                        "The «{game}» table in «{chat}» is closed: I was removed from the group.",
                        {
                            "game": game_name(table.row.game, locale) if table.row.game else "—",
                            "chat": esc(facts.chat_title),
                        },
                    )
                )
            undue = tuple((table.id, k) for k in CLOSING_KINDS)
            return Outcome(tuple(screens), undue=undue)
