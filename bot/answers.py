"""Answers to commands in a group: to the asker alone where Telegram allows it, once per
person and command a window, and never ahead of what the table owes the group.

* Where. A command the member sent ephemerally (only the bot saw it) is answered to him alone,
  as a reply to it — a bot that is no administrator may answer him alone only so, and only
  within a few seconds; any command is, when the bot is an administrator of the group (it may
  send such a message to any member at any time), as a reply to his command. A message written
  as the group or a channel names nobody: it is answered in the group, as is everything else,
  in the group's queue of answers (:meth:`bot.sending.outbox.Outbox.answer`), which never goes
  ahead of the table and takes at most half of the group's budget.
* How often. An answer is a keyed message per person, command and forum topic (a group's
  /score and /settings: the group's one, as before), shown in place while it was sent anew
  within the group's window — a repeat with the same text costs no call at all, another text
  is an edit — and sent anew after it. Every answer to a member is counted in his quota
  (:class:`bot.sending.rates.Quota`): what it has no room for is dropped.

Whether the bot is an administrator is getChatMember's answer (cached a minute, asked before a
group command is handled: :class:`bot.middlewares.standing.BotStanding`); an answer is decided
at once, in order with the others, when the handler gives it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.caches.members import Members
from bot.keys import NamedKey
from bot.rendered import Rendered
from bot.sending.outbox import Old, Outbox


@dataclass(frozen=True, slots=True)
class Asked:
    """A command written in a group, as its answer needs it."""

    chat_id: int
    asker: int  # who wrote it (a message written as a chat: Telegram's stand-in sender)
    command: str  # "help", "score" … ("" for a message that is no command)
    message_id: int | None  # its message in the group (None: sent ephemerally)
    ephemeral_id: int | None = None  # sent ephemerally (only the bot saw it): its id
    thread: int | None = None  # the forum topic it was written in
    person: bool = True  # written by a person (not as the group or a channel)


def answer_key(
    asker: int, command: str, *, alone: bool, thread: int | None = None, page: int = 1
) -> NamedKey:
    """The keyed message of a member's answer to a command (``alone``: shown to him alone, an
    ephemeral message: a namespace of its own; ``thread``: the forum topic it was asked in,
    each its own); a long answer's later pages ``…:2``, ``…:3``."""
    return shared_key(
        f"answer:{asker}:{command}" + (":alone" if alone else ""), thread=thread, page=page
    )


def shared_key(name: str, *, thread: int | None = None, page: int = 1) -> NamedKey:
    """The keyed message ``name`` of a group (its /score, its /settings), in the forum topic
    ``thread`` (None: a plain group's, or the General topic's); its later pages."""
    key = name if thread is None else f"{name}@{thread}"
    return NamedKey(key if page == 1 else f"{key}:{page}")


class Answers:
    """Where and how often a command's answer in a group goes (see the module)."""

    def __init__(self, outbox: Outbox, members: Members, bot_id: int) -> None:
        self.outbox = outbox
        self.members = members
        self.bot_id = bot_id

    async def learn(self, chat_id: int) -> None:
        """Ask whether the bot is an administrator of the group (trusted a minute)."""
        await self.members.is_admin(chat_id, self.bot_id)

    def alone(self, asked: Asked) -> bool:
        """Whether the answer goes to the asker alone: a person's command sent ephemerally, or
        any person's where the bot is known to be an administrator."""
        if not asked.person:
            return False
        if asked.ephemeral_id is not None:
            return True
        standing = self.members.cached(asked.chat_id, self.bot_id)
        return standing is not None and standing.is_admin

    def key(self, asked: Asked, *, shared: str | None = None, page: int = 1) -> NamedKey:
        """The answer's keyed message: the asker's own, or (``shared``, in the group) the
        group's one of that name."""
        alone = self.alone(asked)
        if shared is not None and not alone:
            return shared_key(shared, thread=asked.thread, page=page)
        return answer_key(asked.asker, asked.command, alone=alone, thread=asked.thread, page=page)

    def answer(
        self,
        asked: Asked,
        rendered: Rendered,
        *,
        reply: bool = False,
        reply_to: int | None = None,
        shared: str | None = None,
        old: Old = Old.KEEP,
        page: int = 1,
    ) -> None:
        """Answer ``asked`` with ``rendered``: to him alone (a reply to his command, or to
        ``reply_to`` when given), or in the group (a reply when ``reply``, or to ``reply_to``);
        ``shared``: the group's keyed message of that name, when in the group; ``old``: what
        becomes of the message the key named when it is sent anew."""
        alone = self.alone(asked)
        key = self.key(asked, shared=shared, page=page)
        if alone:
            target = reply_to if reply_to is not None else asked.message_id
            self.outbox.answer(
                asked.chat_id,
                key,
                rendered,
                asker=asked.asker,
                receiver=asked.asker,
                reply_to=target if page == 1 else None,
                replying=asked.ephemeral_id if page == 1 else None,
                thread=asked.thread,
                old=old,
            )
            return
        if reply_to is None and reply and page == 1:
            reply_to = asked.message_id
        self.outbox.answer(
            asked.chat_id,
            key,
            rendered,
            asker=asked.asker,
            reply_to=reply_to if page == 1 else None,
            thread=asked.thread,
            old=old,
        )

    def pages(
        self,
        asked: Asked,
        pages: Sequence[Rendered],
        *,
        shared: str | None = None,
        old: Old = Old.KEEP,
    ) -> None:
        """A long answer as several messages (the first a reply); the pages a longer answer
        before had beyond these go."""
        for no, page in enumerate(pages, start=1):
            self.answer(asked, page, reply=True, shared=shared, old=old, page=no)
        receiver = asked.asker if self.alone(asked) else None
        extra = len(pages) + 1
        while True:
            key = self.key(asked, shared=shared, page=extra)
            if self.outbox.message_id(asked.chat_id, key) is None:
                return
            self.outbox.delete(asked.chat_id, key, receiver=receiver)
            extra += 1
