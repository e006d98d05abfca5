"""A member's standing is aiogram's ChatMemberStatus from Telegram's answer on, never a string
compared in several places: every status is placed (belongs, runs the group) once."""

from __future__ import annotations

from aiogram import Bot
from aiogram.enums import ChatMemberStatus

from bot.caches.members import Membership
from bot.routers.incoming import member_lookup
from tests.fakeapi import FakeTelegram

S = ChatMemberStatus


def test_every_member_status_belongs_or_not_and_runs_the_group_or_not() -> None:
    placed = {s: (Membership(s).belongs, Membership(s).is_admin) for s in ChatMemberStatus}
    assert placed == {
        S.CREATOR: (True, True),
        S.ADMINISTRATOR: (True, True),
        S.MEMBER: (True, False),
        S.RESTRICTED: (True, False),  # restricted, still in the group
        S.LEFT: (False, False),
        S.KICKED: (False, False),
    }
    assert not Membership(S.RESTRICTED, is_member=False).belongs  # restricted from outside


async def test_telegrams_answer_is_a_membership_typed_by_its_status(
    fake_telegram: FakeTelegram, outbox_bot: Bot
) -> None:
    fake = fake_telegram
    for user_id, name in [(101, "Anna"), (102, "Boris"), (103, "Vera"), (104, "Gleb")]:
        fake.add_user(user_id, name)
    group = fake.add_group(-1001, "Пятница", creator=101, members=[102, 103, 104])
    group.state.members[103] = "kicked"
    group.state.members[104] = "restricted"
    group.state.restricted_out.add(104)  # restricted, and no longer in the group
    lookup = member_lookup(outbox_bot)
    found = [await lookup(group.id, user_id) for user_id in (101, 102, 103, 104, 105)]
    assert [m.status if m else None for m in found] == [
        S.CREATOR, S.MEMBER, S.KICKED, S.RESTRICTED, S.LEFT,
    ]  # fmt: skip
    assert all(m is not None and type(m.status) is ChatMemberStatus for m in found)
    assert [m.belongs if m else None for m in found] == [True, True, False, False, False]
