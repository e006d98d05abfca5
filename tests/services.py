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


class RedisProcess:
    """A ``redis-server`` of its own on a fixed port that a test may stop and start again (an
    outage): with ``persist``, its data survive the restart (an append-only file, as the
    deployment's Redis has, docker-compose.yml)."""

    def __init__(self, workdir: str, *, persist: bool = False) -> None:
        executable = shutil.which("redis-server")
        assert executable is not None, "redis-server is not installed"
        self.port = free_port()
        self.args = [executable, "--bind", "127.0.0.1", "--port", str(self.port)]
        self.args += ["--dir", workdir, "--save", "", "--protected-mode", "yes"]
        self.args += ["--appendonly", "yes" if persist else "no", "--appendfsync", "always"]
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        process = subprocess.Popen(self.args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.process = process
        deadline = time.monotonic() + START_S
        while not _answers(self.port):
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"redis-server did not start on port {self.port}")
            time.sleep(0.05)

    def stop(self) -> None:
        """Shut it down (SIGTERM: an append-only file is flushed first)."""
        process, self.process = self.process, None
        if process is None:
            return
        process.terminate()
        try:
            process.wait(5)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@contextlib.contextmanager
def redis_process(*, persist: bool = False) -> Iterator[RedisProcess]:
    """A started :class:`RedisProcess`, stopped after."""
    with tempfile.TemporaryDirectory(prefix="mushka-redis-") as workdir:
        server = RedisProcess(workdir, persist=persist)
        server.start()
        try:
            yield server
        finally:
            server.stop()


@contextlib.contextmanager
def redis_server() -> Iterator[str]:
    """A Redis URL: ``BOT_TEST_REDIS``'s, or a ``redis-server`` started here and stopped after."""
    given = os.environ.get("BOT_TEST_REDIS")
    if given:
        yield given
        return
    with redis_process() as server:
        yield server.url
