"""The Dockerfile and docker-compose.yml, checked without a Docker engine: a
non-root user, the data volume, a HEALTHCHECK the bot understands, the CMD, two stages, and
every file it copies exists; the wheel it builds carries the migrations."""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def instructions() -> list[tuple[str, str]]:
    """``(INSTRUCTION, arguments)`` of the Dockerfile, continuation lines joined."""
    text = re.sub(r"\\\n", " ", (ROOT / "Dockerfile").read_text(encoding="utf-8"))
    out = []
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            word, _, rest = line.partition(" ")
            out.append((word.upper(), " ".join(rest.split())))
    return out


def final_stage() -> list[tuple[str, str]]:
    steps = instructions()
    last_from = max(i for i, (word, _) in enumerate(steps) if word == "FROM")
    return steps[last_from:]


def test_two_stages_the_wheel_is_built_in_the_first() -> None:
    froms = [args for word, args in instructions() if word == "FROM"]
    assert len(froms) == 2 and froms[0].endswith(" AS builder")
    assert all(f.startswith("python:3.11-slim") for f in froms)
    stage = final_stage()
    assert ("COPY", "--from=builder /wheels /wheels") in stage
    assert not any(w == "COPY" and a.split()[0] in ("bot", "engine") for w, a in stage)


def test_runs_as_a_non_root_user_with_the_data_volume() -> None:
    stage = final_stage()
    users = [args for word, args in stage if word == "USER"]
    assert users and users[-1].split(":")[0] not in ("root", "0")
    run = " ".join(args for word, args in stage if word == "RUN")
    assert f"--uid {users[-1].split(':')[0]}" in run and "chown" in run
    volumes = [json.loads(args) for word, args in stage if word == "VOLUME"]
    assert volumes == [["/app/data"]]
    env = " ".join(args for word, args in stage if word == "ENV")
    assert "BOT_DATABASE=/app/data/" in env  # the database is on the volume
    words = [word for word, _ in stage]
    assert words.index("USER") < words.index("CMD")


def test_healthcheck_and_cmd_are_the_bots_own_commands() -> None:
    stage = dict(final_stage())
    health = stage["HEALTHCHECK"]
    assert health.startswith("--interval=")
    assert json.loads(health.partition(" CMD ")[2]) == ["python", "-m", "bot", "check", "--quick"]
    assert json.loads(stage["CMD"]) == ["python", "-m", "bot"]
    assert stage["STOPSIGNAL"] == "SIGTERM"
    assert "8080" in stage["EXPOSE"]


def test_every_copied_file_exists() -> None:
    copies = [args.split() for word, args in instructions() if word == "COPY"]
    sources = [src for parts in copies if not parts[0].startswith("--") for src in parts[:-1]]
    assert sources
    missing = [src for src in sources if not (ROOT / src).exists()]
    assert missing == []


def _packaged() -> set[Path]:
    """The files of the bot package its wheel carries beside the code (package data)."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = config["tool"]["setuptools"]["package-data"]["bot"]
    return {p for pattern in patterns for p in (ROOT / "bot").glob(pattern)}


def test_the_wheel_carries_the_migrations() -> None:
    storage = ROOT / "bot" / "storage"
    migrations = sorted([*storage.glob("migrations/*.sql"), *storage.glob("pg_migrations/*.sql")])
    assert migrations
    assert set(migrations) <= _packaged()


def test_the_wheel_carries_the_charts_font_and_its_licence() -> None:
    fonts = ROOT / "bot" / "assets" / "fonts"  # DejaVu Sans (Cyrillic), read as package data
    assert {fonts / "DejaVuSans.ttf", fonts / "LICENSE"} <= _packaged()


def test_compose_has_a_polling_service_and_a_webhook_profile() -> None:
    text = (ROOT / "docker-compose.yml").read_text(encoding="utf-8")
    block = text.partition("\nservices:\n")[2].partition("\nvolumes:\n")[0]
    services = re.findall(r"^  ([a-z-]+):$", block, flags=re.MULTILINE)
    assert services == ["bot", "bot-webhook", "postgres", "bot-workers", "redis"]
    polling, webhook = block.split("\n  postgres:\n")[0].split("\n  bot-webhook:\n")
    assert "profiles:" not in polling and 'BOT_WEBHOOK_URL: ""' in polling
    assert 'profiles: ["webhook"]' in webhook and "8080:8080" in webhook
    assert text.count("bot-data:/app/data") == 3  # polling, webhook, the scaled workers
