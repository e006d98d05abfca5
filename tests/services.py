"""Real servers for the tests: a ``redis-server`` of its own on 127.0.0.1 (a free port, a
temporary directory, no persistence), or the one ``BOT_TEST_REDIS`` names (``redis://…``).

Tests that need Redis take the ``redis_url`` fixture (``tests/conftest.py``); they are skipped
only when ``BOT_TEST_REDIS`` is unset *and* no ``redis-server`` is installed (``.ci/run``
installs it, so CI always runs them).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator

START_S = 10.0


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def redis_available() -> bool:
    return bool(os.environ.get("BOT_TEST_REDIS")) or shutil.which("redis-server") is not None


def _answers(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5) as conn:
            conn.sendall(b"PING\r\n")
            return conn.recv(16).startswith(b"+PONG")
    except OSError:
        return False


@contextlib.contextmanager
def redis_server() -> Iterator[str]:
    """A Redis URL: ``BOT_TEST_REDIS``'s, or a ``redis-server`` started here and stopped after."""
    given = os.environ.get("BOT_TEST_REDIS")
    if given:
        yield given
        return
    executable = shutil.which("redis-server")
    assert executable is not None, "redis-server is not installed"
    port = free_port()
    with tempfile.TemporaryDirectory(prefix="mushka-redis-") as workdir:
        args = [executable, "--bind", "127.0.0.1", "--port", str(port), "--dir", workdir]
        args += ["--save", "", "--appendonly", "no", "--protected-mode", "yes"]
        process = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            deadline = time.monotonic() + START_S
            while not _answers(port):
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"redis-server did not start on port {port}")
                time.sleep(0.05)
            yield f"redis://127.0.0.1:{port}/0"
        finally:
            process.terminate()
            try:
                process.wait(5)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
