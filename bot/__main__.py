"""``python -m bot``: read the settings, start long polling, stop cleanly on Ctrl-C/SIGTERM."""

from __future__ import annotations

import asyncio
import logging
import signal
import sys

from pydantic import ValidationError

from bot.config import Settings


def _problem(error: ValidationError) -> str:
    first = error.errors()[0]
    field = "BOT_" + ".".join(str(p) for p in first["loc"]).upper()
    if first["type"] == "missing":
        return f"configuration error: {field} is missing (see .env.example)"
    message = str(first["msg"]).removeprefix("Value error, ")
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


def main() -> int:
    try:
        settings = Settings()  # type: ignore[call-arg]  # the token comes from the environment
    except ValidationError as error:
        sys.stderr.write(_problem(error) + "\n")
        return 2
    logging.basicConfig(
        level=settings.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    asyncio.run(_run(settings))
    return 0


if __name__ == "__main__":
    sys.exit(main())
