"""The top of the one input path for what is not an update: a command the scheduler fires or
the outbox reports goes to the runtime's ``handle`` and its outcome to delivery, here, so
nothing below calls back up (the scheduler and the outbox only hand commands on)."""

from __future__ import annotations

from bot.delivery import Delivery
from bot.runtime.commands import Command
from bot.runtime.handle import Runtime
from bot.tasks import Background


class Bus:
    """``handle`` then delivery: awaited (:meth:`fire`, the scheduler's deadlines one after
    another) or in an owned task of its own (:meth:`send`, the outbox's reports, which may not
    wait in the middle of a send)."""

    def __init__(self, runtime: Runtime, delivery: Delivery, background: Background) -> None:
        self.runtime = runtime
        self.delivery = delivery
        self.background = background

    async def fire(self, cmd: Command) -> None:
        self.delivery(await self.runtime.handle(cmd))

    def send(self, cmd: Command) -> None:
        self.background.spawn(self.fire(cmd), name=type(cmd).__name__)
