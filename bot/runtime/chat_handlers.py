"""The handlers of a group's commands, of its members and of the chat itself, and of a
restart's redraws (:data:`CHAT_HANDLERS`, part of :data:`bot.runtime.handlers.HANDLERS`): each
``(parts, call, command) -> Outcome``, run under the command's lock — a chat's, or a chat and
all its tables, or a user's tables (:meth:`Runtime.handle <bot.runtime.handle.Runtime.handle>`)
— never locking, never sending."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import Any, Final

from bot.callbacks import Kind
from bot.i18n import N_
from bot.runtime.chat_commands import (
    BotRemoved,
    ChatMigrated,
    ClosePractice,
    Kick,
    MemberLeft,
    OpenDaily,
    OpenPractice,
    OpenTable,
    RedrawChat,
    RedrawHands,
    Resume,
    ResumeOwed,
    ShowHands,
    ToggleNotify,
)
from bot.runtime.commands import SettingsPressed
from bot.runtime.daily import open_daily
from bot.runtime.guards import Call, Parts
from bot.runtime.outcome import HandScreen, Outcome
from bot.runtime.practice import close_practice, open_practice

NOT_PLAYING: Final = N_("You're not playing at any table.")
NOT_PLAYING_HERE: Final = N_("You're not playing at this table.")
SHOWN_HERE: Final = N_("Your cards are shown to you here, in the group.")
SHOWN_PRIVATE: Final = N_("Your cards are in our private chat.")


async def on_open_table(rt: Parts, call: Call, cmd: OpenTable) -> Outcome:
    """/newgame: a lobby opens here, its subscribers' pings stored for later."""
    return await rt.groups.open(
        cmd.chat_id, cmd.user_id, cmd.name, cmd.game, cmd.options, cmd.thread
    )


async def on_kick(rt: Parts, call: Call, cmd: Kick) -> Outcome:
    """/kick at the open table here (:meth:`Groups.kick <bot.runtime.groups.Groups.kick>`)."""

    def is_admin() -> Awaitable[bool]:
        return rt.ctx.members.is_admin(cmd.chat_id, cmd.user_id)

    return await rt.groups.kick(
        call.table, cmd.chat_id, cmd.target, is_admin, cmd.reply_to, cmd.thread
    )


async def on_toggle_notify(rt: Parts, call: Call, cmd: ToggleNotify) -> Outcome:
    return await rt.groups.toggle_notify(cmd.chat_id, cmd.user_id, cmd.reply_to, cmd.thread)


async def on_show_hands(rt: Parts, call: Call, cmd: ShowHands) -> Outcome:
    """/hand: his hands sent anew; what he is told (``said``): where they are, or that he
    plays nowhere (here)."""
    only = cmd.only
    if cmd.here is not None:  # a /hand in a group: the table here only
        row = await rt.ctx.repo.open_table(*cmd.here)
        only = row.id if row is not None else -1
    out, shown = await rt.absent.my_hands(cmd.user_id, call.held, only)
    if not shown:
        said = NOT_PLAYING_HERE if cmd.only is not None else NOT_PLAYING
    elif cmd.here is None:
        said = ""
    elif any(isinstance(s, HandScreen) and s.in_group for s in out.screens):
        said = SHOWN_HERE  # shown to him alone in the group
    else:
        said = SHOWN_PRIVATE
    return Outcome(out.screens, out.due, out.undue, said)


async def on_member_left(rt: Parts, call: Call, cmd: MemberLeft) -> Outcome:
    return await rt.absent.member_left(cmd.chat_id, cmd.user_id)


async def on_bot_removed(rt: Parts, call: Call, cmd: BotRemoved) -> Outcome:
    return await rt.groups.bot_removed(cmd.chat_id)


async def on_chat_migrated(rt: Parts, call: Call, cmd: ChatMigrated) -> Outcome:
    return await rt.redraw.migrate_chat(cmd.old, cmd.new)


async def on_redraw_hands(rt: Parts, call: Call, cmd: RedrawHands) -> Outcome:
    return await rt.redraw.refresh_hands(cmd.user_id)


async def on_redraw_chat(rt: Parts, call: Call, cmd: RedrawChat) -> Outcome:
    return await rt.redraw.refresh_chat(cmd.chat_id)


async def on_resume_owed(rt: Parts, call: Call, cmd: ResumeOwed) -> Outcome:
    return await rt.redraw.resume_owed(call.held)


async def on_resume(rt: Parts, call: Call, cmd: Resume) -> Outcome:
    return await rt.redraw.resume(cmd.table_id, cmd.reminded)


async def on_settings_pressed(rt: Parts, call: Call, cmd: SettingsPressed) -> Outcome:
    """A settings press applied; the pane to show next, and what a language changed shows
    anew at once (the group's tables; a person's hands, which also show his cards in words)."""
    arg, chat_id = cmd.press.arg or "", cmd.message.chat_id
    if cmd.press.kind is not Kind.GROUP:
        await rt.settings.change_mine(cmd.user_id, cmd.act, arg)
        pane = await rt.settings.my_pane(cmd.user_id, cmd.pane)
        return Outcome.of(pane) + await rt.redraw.refresh_hands(cmd.user_id)
    game, language = await rt.settings.change_group(chat_id, cmd.act, arg)
    receiver = cmd.user_id if cmd.message.ephemeral else None
    out = Outcome.of(await rt.settings.group_pane(chat_id, cmd.pane, receiver, game))
    return out + await rt.redraw.refresh_chat(chat_id) if language else out


CHAT_HANDLERS: Final[Mapping[type, Callable[[Parts, Call, Any], Awaitable[Outcome]]]] = {
    OpenTable: on_open_table,
    OpenPractice: open_practice,
    OpenDaily: open_daily,
    ClosePractice: close_practice,
    Kick: on_kick,
    ToggleNotify: on_toggle_notify,
    ShowHands: on_show_hands,
    MemberLeft: on_member_left,
    BotRemoved: on_bot_removed,
    ChatMigrated: on_chat_migrated,
    RedrawHands: on_redraw_hands,
    RedrawChat: on_redraw_chat,
    ResumeOwed: on_resume_owed,
    Resume: on_resume,
    SettingsPressed: on_settings_pressed,
}
