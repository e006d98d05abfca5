"""A fork server for the kill proofs: imports the bot once (aiogram's types take seconds to
import), then forks a fresh ``python -m bot`` process on each ``start {json}`` line read from
stdin and ``kill -9``s (``kill PID``) or stops (``term PID``) it on request, reaping it and
answering one line on stdout (the pid, the exit code). Each child is the real bot,
``bot.__main__.main()``, with the JSON's ``env`` added to its environment, in its ``cwd``, its
output appended to its ``log``.

Run by ``tests/bot/proof_helpers.py``; not a test itself."""

from __future__ import annotations

import json
import os
import signal
import sys
from typing import Any

import bot.__main__ as bot_main
import bot.app  # noqa: F401  # the expensive import, done once before any fork


def _child(spec: dict[str, Any]) -> None:
    os.environ.update(spec["env"])
    os.chdir(spec["cwd"])
    log = os.open(spec["log"], os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    os.dup2(log, 1)
    os.dup2(log, 2)
    os.close(log)
    sys.argv = ["bot"]
    try:
        code = bot_main.main()
    except BaseException:  # a crash is the test's to see in the log
        import traceback

        traceback.print_exc()
        code = 70
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


def serve() -> None:
    children: set[int] = set()
    for line in sys.stdin:
        command, _, arg = line.strip().partition(" ")
        if command == "start":
            spec = json.loads(arg)
            pid = os.fork()
            if pid == 0:
                _child(spec)
            children.add(pid)
            answer = str(pid)
        elif command in ("kill", "term"):
            pid = int(arg)
            children.discard(pid)
            os.kill(pid, signal.SIGKILL if command == "kill" else signal.SIGTERM)
            _, status = os.waitpid(pid, 0)
            answer = str(os.waitstatus_to_exitcode(status))
        else:
            answer = "?"
        sys.stdout.write(answer + "\n")
        sys.stdout.flush()
    for pid in children:  # the test is over (or failed): no bot outlives it
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)


if __name__ == "__main__":
    serve()
