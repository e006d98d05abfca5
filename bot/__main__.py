"""``python -m bot``: read the settings, start long polling (or serve the webhook when
``BOT_WEBHOOK_URL`` is set), stop cleanly on Ctrl-C/SIGTERM; logs are ``key=value`` lines.

With ``BOT_WORKERS=N`` (webhook mode and ``BOT_REDIS_URL``) it starts N worker processes on
one port instead (``bot/workers.py``).

``python -m bot check [--quick]``: settings, database, token and webhook checked, one line each
(``bot/check.py``); exit 0 when all is fine.

``python -m bot delete-webhook``: delete the webhook Telegram has (pending updates kept), so the
bot can poll; the bot itself never deletes one (``bot/startup.py``).

``python -m bot ratings --rebuild [--database PATH|URL]``: every skill rating computed again
from the stored results (``bot/ratings_cli.py``); needs no token.

``python -m bot play <game> …``: one person against the computer players in a terminal
(``bot/terminal/play.py``); needs no token.

``python -m bot review FILE.jsonl [--deal D] [--seat S] [--lang ru|en]``: finished deals of a
record reviewed step by step, each decision's cost, in the terminal (``bot/terminal/review.py``);
needs no token.

``python -m bot export --database PATH|URL --out DIR``: every game in the database (finished,
abandoned, and running ones up to now) as RECORD.md JSON Lines, one file per table
(PRODUCT.md §18); ``python -m engine replay DIR/*.jsonl`` replays them. Needs no token; reads
the database read-only and only at this bot's schema (``bot/export.py``).

Exit codes of ``python -m bot`` (each failure is one or two lines on stderr saying what to do;
a traceback only with ``BOT_LOG_LEVEL=DEBUG``; ``bot.startup.Exit``):

* 0 — stopped cleanly (Ctrl-C, SIGTERM);
* 1 — anything unexpected;
* 2 — a setting missing or malformed (``configuration error: …``);
* 3 — ``BOT_TOKEN`` is still the placeholder of ``.env.example``;
* 4 — Telegram rejected the token (401 from ``getMe``): wrong or revoked;
* 5 — the Bot API at ``BOT_API_BASE`` is unreachable (DNS, refused, TLS, timeout);
* 6 — another instance is polling with this token (409 Conflict from ``getUpdates``);
* 7 — polling mode, but Telegram has a webhook set: ``python -m bot delete-webhook`` to poll,
  or set ``BOT_WEBHOOK_URL`` to serve it;
* 8 — ``BOT_DATABASE`` cannot be opened, written or migrated, is damaged (SQLite's ``PRAGMA
  quick_check``), or its schema is newer than this bot's migrations.

The event loop is uvloop's where it is installed (``BOT_EVENT_LOOP``, :func:`event_loop`).

Once running, a lost connection to the Bot API is retried with back-off and logged once when it
goes and once when it is back (``bot/sending/outage.py``).
"""

from __future__ import annotations

import asyncio
import gc
import logging
import signal
import sys
from collections.abc import Callable, Coroutine
from typing import Any, Final, TypeVar

from pydantic import ValidationError

from bot.config import Settings

T = TypeVar("T")


def _problem(error: ValidationError) -> str:
    first = error.errors()[0]
    message = str(first["msg"]).removeprefix("Value error, ")
    if not first["loc"]:  # a check across settings names them itself
        return f"configuration error: {message}"
    field = "BOT_" + ".".join(str(p) for p in first["loc"]).upper()
    if first["type"] == "missing":
        return f"configuration error: {field} is missing (see .env.example)"
    return f"configuration error: {field}: {message}"


async def _delete_webhook(settings: Settings) -> str:
    from bot.app import build_bot
    from bot.startup import delete_webhook

    bot = build_bot(settings)
    try:
        return await delete_webhook(bot, settings)
    finally:
        await bot.session.close()


def _failed(settings: Settings, run: Callable[[], T]) -> T | int:
    """``run()``, or the exit code of its failure after one or two lines on stderr."""
    from bot.startup import Exit, StartFailed

    try:
        return run()
    except StartFailed as failed:
        if settings.log_level == "DEBUG":
            logging.getLogger("bot").exception("start-up failed")
        sys.stderr.write(f"start-up failed: {failed.message}\n")
        return int(failed.code)
    except Exception as error:  # anything else: one line, the traceback only when asked
        if settings.log_level == "DEBUG":
            logging.getLogger("bot").exception("unexpected error")
        sys.stderr.write(
            f"unexpected error: {type(error).__name__}: {error} "
            "(BOT_LOG_LEVEL=DEBUG shows the traceback)\n"
        )
        return int(Exit.UNEXPECTED)


async def _run(settings: Settings) -> None:
    from bot.app import running_bot

    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    loop.add_signal_handler(signal.SIGUSR1, dump_tasks)
    async with running_bot(settings) as running:
        settle_heap()  # the resumed tables are the bulk of what lives on: out of every walk
        waiter = asyncio.create_task(stop.wait())
        await asyncio.wait({waiter, running.task}, return_when=asyncio.FIRST_COMPLETED)
        waiter.cancel()


def dump_tasks() -> None:
    """SIGUSR1: every task of the event loop and where it waits, to the log (an operator's look
    at a bot that seems stuck: ``kill -USR1 <pid>``)."""
    import io

    tasks = asyncio.all_tasks()
    out = io.StringIO()
    for task in sorted(tasks, key=lambda t: t.get_name()):
        out.write(f"--- {task.get_name()}\n")
        task.print_stack(limit=12, file=out)
    logging.getLogger("bot").warning("SIGUSR1: %d tasks\n%s", len(tasks), out.getvalue())


USAGE: Final = """\
usage: python -m bot [COMMAND]

Without a command: run the bot (settings from the environment or .env; BOT_TOKEN is needed).

Commands that need no token:
  play GAME [--players N] [--lang ru|en] …   play one game in this terminal against the
                                             computer (python -m bot play -h: the options)
  review FILE.jsonl [--deal D] [--seat S]    a record's finished deals reviewed step by step,
                                             each decision's cost (python -m bot review -h)
  export --database PATH|URL --out DIR       every game in the database as RECORD.md files
  ratings --rebuild [--database PATH|URL]    the skill ratings computed again from the results

Commands that read the settings (BOT_TOKEN …):
  check [--quick]                            settings, database, token and webhook checked
  delete-webhook                             delete Telegram's webhook, so the bot can poll
"""
"""What ``python -m bot -h`` prints: every command, and which ones need no token."""

CHECK_USAGE: Final = """\
usage: python -m bot check [--quick]

Checks the settings, the database, the token (Telegram's getMe) and the webhook, one line each;
exit 0 when all is fine. --quick (the container's health check): the running bot's /healthz
where it serves one, else the database only; never calls Telegram.
"""

HELP: Final = frozenset({"-h", "--help", "help"})
NO_TOKEN: Final = frozenset({"play", "review", "export", "ratings"})


def main() -> int:
    signal.signal(signal.SIGUSR1, signal.SIG_IGN)  # until the loop dumps its tasks on it
    if sys.argv[1:2] and sys.argv[1] in HELP:  # before the settings: help needs no token
        sys.stdout.write(USAGE)
        return 0
    if sys.argv[1:2] == ["check"] and HELP.intersection(sys.argv[2:]):
        sys.stdout.write(CHECK_USAGE)
        return 0
    if sys.argv[1:] and sys.argv[1] not in {"check", "delete-webhook"} | NO_TOKEN:
        sys.stderr.write(USAGE.split("\n\n", 1)[0] + " (python -m bot -h: the commands)\n")
        return 2
    if sys.argv[1:2] == ["export"]:
        from bot.export import export_main

        return export_main(sys.argv[2:])
    if sys.argv[1:2] == ["ratings"]:  # no token: the database only
        from bot.ratings_cli import ratings_main

        return ratings_main(sys.argv[2:])
    if sys.argv[1:2] == ["review"]:  # no token, no database: the record file alone
        from bot.terminal.review import review_main

        return review_main(sys.argv[2:], sys.stdout, sys.stderr)
    if sys.argv[1:2] == ["play"]:  # no token, no database, no network
        from bot.terminal.play import play_main

        return play_main(sys.argv[2:], sys.stdin, sys.stdout, sys.stderr)
    try:
        settings = Settings()  # type: ignore[call-arg]  # the token comes from the environment
    except ValidationError as error:
        sys.stderr.write(_problem(error) + "\n")
        return 2
    if sys.argv[1:2] == ["check"]:
        from bot.check import check_main

        logging.basicConfig(level=logging.WARNING)
        return check_main(sys.argv[2:], settings)
    if sys.argv[1:] == ["delete-webhook"]:
        logging.basicConfig(level=logging.WARNING)
        said = _failed(settings, lambda: asyncio.run(_delete_webhook(settings)))
        if isinstance(said, int):
            return said
        sys.stdout.write(said + "\n")
        return 0
    if sys.argv[1:]:
        sys.stderr.write(USAGE.split("\n\n", 1)[0] + " (python -m bot -h: the commands)\n")
        return 2
    from bot.middlewares.updates import KeyValueFormatter

    handler = logging.StreamHandler()
    handler.setFormatter(KeyValueFormatter())
    logging.basicConfig(level=settings.log_level, handlers=[handler])
    if settings.log_level != "DEBUG":  # bot.middlewares.updates has the one line per update
        logging.getLogger("aiogram.event").setLevel(logging.WARNING)
    if settings.workers > 1 and settings.worker_index is None:
        from bot.workers import supervise

        # N worker processes, each a python -m bot
        return _failed(settings, lambda: asyncio.run(supervise(settings)))
    tune_gc()
    code = _failed(settings, lambda: run_on_loop(_run(settings), settings.event_loop))
    return code if isinstance(code, int) else 0


LoopFactory = Callable[[], asyncio.AbstractEventLoop]


def event_loop(choice: str) -> tuple[str, LoopFactory | None]:
    """The running bot's event loop: ``uvloop`` (libuv's, the one aiogram's ``fast`` extra
    installs: about a sixth less CPU a press, measured in bench/side_by_side.py, as its
    scheduling and sockets are C), or asyncio's own. ``auto``: uvloop when it is installed.
    A factory of None is asyncio's default."""
    if choice == "asyncio":
        return "asyncio", None
    try:
        import uvloop
    except ImportError:  # "uvloop" by name was refused at settings (bot/config.py) already
        return "asyncio", None
    return "uvloop", uvloop.new_event_loop


def run_on_loop(main: Coroutine[Any, Any, T], choice: str) -> T:
    """``asyncio.run`` on the loop ``choice`` names (``asyncio.Runner``: Python 3.11 has no
    ``loop_factory`` for ``asyncio.run``)."""
    name, factory = event_loop(choice)
    logging.getLogger("bot").debug("event loop: %s", name)
    with asyncio.Runner(loop_factory=factory) as runner:
        return runner.run(main)


GC_THRESHOLDS: Final = (20_000, 20, 50)
"""The running bot's collector: a young collection every 20,000 allocations, not every 700."""


def tune_gc() -> None:
    """Python's cycle collector, set for a long-running bot (only in ``python -m bot``).

    A press allocates thousands of short-lived objects (an update, its models, screens, a
    request); with the default thresholds a young collection runs every few presses and a
    full one, over every module's objects, every few seconds, a real share of the bot's CPU.
    So what is loaded by now (modules, aiogram's and pydantic's types) is frozen out of every
    collection, and collections come about thirty times less often (``GC_THRESHOLDS``).
    Objects still die at once by reference counting; only garbage in cycles waits a little
    longer.
    """
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


def settle_heap() -> None:
    """Once the bot has started: what it loaded to resume the open tables frozen out of the
    collector's walks too (after one collection, so no garbage is frozen with it).

    A start on many open tables loads them all at once (their matches replayed, their
    screens drawn): some 50 KB of objects a table. Left in the young generations, the first
    collections under load walk them all — 130 ms (the middle generation) and 250 ms (a full
    one) with 1,000 tables, measured in ``bench/capacity.py``, every press in the meantime
    waiting: the slowest hundredth of the answers. They live as long as their tables; the
    ones that end are freed by reference counting as ever (a cycle among them, if any, stays
    until the next start: bounded by what one start loaded)."""
    gc.collect()
    gc.freeze()


if __name__ == "__main__":
    sys.exit(main())
