"""The package as the image installs it (``pip install <wheel>``, no source tree): built from
the files the Dockerfile's builder copies, installed into a fresh venv, it plays a game in the
terminal in both languages and the bot starts against the fake Bot API with its commands
translated — its catalogues come with it."""

from __future__ import annotations

import asyncio
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

from tests.fakeapi import FakeTelegram

ROOT = Path(__file__).resolve().parents[1]
BUILT_FROM = ("pyproject.toml", "README.md", "engine", "bot", "locales")  # the builder's COPYs


def _run(
    argv: list[str], cwd: Path, code: int = 0, **kwargs: object
) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        argv, cwd=cwd, capture_output=True, text=True, timeout=180, check=False, **kwargs
    )  # type: ignore[call-overload]
    assert done.returncode == code, done.stdout[-2000:] + done.stderr[-2000:]
    return done  # type: ignore[no-any-return]


def _env(**extra: str) -> dict[str, str]:
    """No BOT_ setting, no PYTHONPATH: only what the venv has installed."""
    env = {k: v for k, v in os.environ.items() if k in ("PATH", "LANG", "LC_ALL", "HOME")}
    env.update(extra)
    return env


def _installed(tmp_path: Path) -> Path:
    """The wheel built from a copy of the builder's files, in a venv of its own: its python."""
    source = tmp_path / "src"
    source.mkdir()
    for name in BUILT_FROM:
        if (ROOT / name).is_dir():
            shutil.copytree(
                ROOT / name,
                source / name,
                symlinks=True,  # bot/locales stays the link it is in git
                ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"),
            )
        else:
            shutil.copy2(ROOT / name, source / name)
    wheels = tmp_path / "wheels"
    _run(
        [
            *(sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation"),
            *("-w", str(wheels), str(source)),
        ],
        tmp_path,
        env=_env(PIP_NO_INDEX="1"),  # offline: a test talks to nothing but loopback
    )
    [wheel] = wheels.glob("*.whl")
    venv = tmp_path / "venv"
    _run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)], tmp_path)
    python = venv / "bin" / "python"
    pip = [str(python), "-m", "pip", "install", "-q", "--no-deps", "--no-build-isolation"]
    _run([*pip, str(wheel)], tmp_path, env=_env(PIP_NO_INDEX="1"))
    return python


async def test_the_installed_wheel_plays_and_serves(
    fake_telegram: FakeTelegram, tmp_path: Path
) -> None:
    python = _installed(tmp_path)
    away = tmp_path / "elsewhere"  # no checkout on the path: cwd is neither the repo nor src
    away.mkdir()
    where = _run([str(python), "-c", "import bot; print(bot.__file__)"], away, env=_env())
    site = _run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
        away,
        env=_env(),
    )
    installed = Path(where.stdout.strip())
    assert installed.is_relative_to(Path(site.stdout.strip())), installed
    assert installed.is_relative_to(tmp_path / "venv"), installed  # not this checkout's
    assert (installed.parent / "locales" / "ru" / "LC_MESSAGES" / "messages.po").is_file()

    for lang, seat in (("ru", "Ваши карты:"), ("en", "Your cards:")):
        played = _run(
            [str(python), "-m", "bot", "play", "mushka", "--lang", lang, "--seed", "3"],
            away,
            1,  # stopped before its end
            env=_env(),
            input="?\nq\ny\n",
        )
        assert seat in played.stdout, played.stdout[-2000:]
        assert played.stderr == ""

    fake = fake_telegram
    env = _env(
        BOT_TOKEN=fake.token,
        BOT_API_BASE=fake.base_url,
        BOT_DATABASE=str(tmp_path / "bot.sqlite3"),
        BOT_LOG_LEVEL="WARNING",
    )
    proc = await asyncio.create_subprocess_exec(
        str(python),
        "-m",
        "bot",
        cwd=away,
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        group = {"type": "all_group_chats"}
        await fake.wait_until(
            lambda: fake.count("getUpdates") > 0 and bool(fake.commands_for(group, "en")),
            timeout=60,
        )
        ru = fake.commands_for(group, "ru")
        en = fake.commands_for(group, "en")
        proc.send_signal(signal.SIGTERM)
        _, err = await asyncio.wait_for(proc.communicate(), timeout=30)
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
    assert proc.returncode == 0, err.decode()[-2000:]
    assert {c["command"]: c["description"] for c in ru}["rules"] == "Правила"
    assert {c["command"]: c["description"] for c in en}["rules"] == "Rules"
