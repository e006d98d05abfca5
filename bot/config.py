"""Settings from the environment and ``.env`` (prefix ``BOT_``); the only reader of either."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from typing import Literal

from pydantic import Field, SecretStr, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from bot.i18n import bundled_locales

TOKEN_FORMAT = re.compile(r"^\d{1,20}:[A-Za-z0-9_-]{1,100}$")
SECRET_FORMAT = re.compile(r"^[A-Za-z0-9_-]{16,256}$")  # Telegram allows 1-256 of these
CALLBACK_SECRET_MIN = 16  # BOT_CALLBACK_SECRET: characters at least (32 random ones are best)
POSTGRES_URL = re.compile(r"^postgres(ql)?://[^\s]+$")  # asyncpg's own DSN schemes


def existing_database(text: str) -> Path | str | None:
    """A command's ``--database``: a ``postgresql://`` URL as given, else the SQLite file's path
    if there is one (None: no such file — a command never creates a database by a typo)."""
    if POSTGRES_URL.match(text):
        return text
    path = Path(text)
    return path if path.is_file() else None


LISTEN_FORMAT = re.compile(r"^(?P<host>[A-Za-z0-9.\-]+|\[[0-9A-Fa-f:]+\]):(?P<port>\d{1,5})$")


def host_port(value: str) -> tuple[str, int]:
    """``host:port`` of a validated listen setting (an IPv6 host without its brackets)."""
    host, _, port = value.rpartition(":")
    return host.strip("[]"), int(port)


def database_label(database: Path | str) -> str:
    """The database as logs and ``check`` may show it: a URL without its password."""
    if isinstance(database, Path):
        return str(database)
    return re.sub(r"://([^:/@]*):[^@]*@", r"://\1:***@", database)


def _listen(value: str) -> str:
    found = LISTEN_FORMAT.match(value)
    if found is None or not 1 <= int(found.group("port")) <= 65535:
        raise ValueError("must be host:port with a port 1-65535 (e.g. 0.0.0.0:8080)")
    return value


class Settings(BaseSettings):
    """Operator settings. Chat settings (PRODUCT.md §15) live in the database."""

    model_config = SettingsConfigDict(env_file=".env", env_prefix="BOT_", extra="ignore")

    token: SecretStr
    # a file path: SQLite (the default); postgresql://user:pass@host:port/db: PostgreSQL
    database: Path | str = Path("data/bot.sqlite3")
    default_language: Literal["ru", "en"] = "ru"
    turn_timeout_s: float = Field(90, ge=5, le=3600)  # PRODUCT.md §13; 0 is not allowed
    lobby_timeout_s: float = Field(900, ge=5, le=86400)  # a lobby nobody starts closes (§4.2)
    idle_timeout_s: float = Field(1800, ge=5, le=604800)  # no human move: the table closes
    # the scheduler looks at the wall clock at least this often: a day-long deadline is not
    # one long sleep that misses a clock set forward (NTP, a resumed machine)
    scheduler_look_s: float = Field(30, gt=0, le=3600)
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = "INFO"
    api_base: str = "https://api.telegram.org"
    polling_timeout_s: int = Field(10, ge=0, le=50)
    # uvloop's event loop (libuv) where it is installed, else asyncio's; "uvloop": it or no start
    event_loop: Literal["auto", "uvloop", "asyncio"] = "auto"
    computer_delay_s: float = Field(1.5, ge=0, le=30)  # PRODUCT.md §10: humans can follow
    # no turn ping for a person who moved less than this ago (he is at the table; 0: always)
    ping_quiet_s: float = Field(20, ge=0, le=3600)
    # /notify: a new table's pings go this long after it opens, if it is still open (a lobby
    # cancelled or started sooner pings nobody) …
    notify_delay_s: float = Field(60, ge=0, le=3600)
    # … and a subscriber is pinged about a group's new tables at most once per this
    notify_gap_s: float = Field(1800, ge=0, le=86400)
    # how the computer plays an absent person (engine.players.LEVELS)
    away_level: Literal["easy", "normal", "hard"] = "normal"
    outbox_time_scale: float = Field(1.0, ge=0, le=10)  # Telegram's rate windows × this (tests)
    drain_s: float = Field(5.0, ge=0, le=60)  # on a clean stop, queued messages get this long
    # hands may be shown in the group itself (PRODUCT.md §19): /settings offers
    # where they go, a group's "auto" means the group where the bot is an admin; off: every
    # table's hands go to private chats, and no screen offers the choice
    hands_in_group: bool = True
    # a group's sends+edits a minute seen by all (Telegram's 20; lower leaves room for other
    # bots and people posting in busy groups)
    group_per_minute: int = Field(20, ge=1, le=20)
    # a group's messages for one member alone (hands, pings), all members together, a minute:
    # Telegram has not said what it allows (an estimate to tune); each member's own are about
    # one a second, as a private chat's
    ephemeral_per_minute: int = Field(120, ge=1, le=6000)
    # new messages to all chats together, a second (Telegram's "about 30" for bulk messages;
    # edits and callback answers are not counted); unset: 30, or 1,000 with paid broadcasts
    global_per_second: int | None = Field(None, ge=1, le=1000)
    # new messages go as paid broadcasts (allow_paid_broadcast: Telegram Stars per message, up
    # to 1,000 a second): an operator's opt-in, off by default
    paid_broadcast: bool = False

    # tests only: new matches get this seed, then +1 each (the same deals in a subprocess bot);
    # unset in production: every match draws a random seed
    test_seed: int | None = Field(None, ge=0)
    locales: Path = Field(default_factory=bundled_locales)  # the package's own catalogues
    # Webhook mode (set the URL) instead of long polling; the secret is then required
    webhook_url: str | None = None
    webhook_secret: SecretStr | None = None
    # the key of the buttons' tags (PRODUCT.md §7.1); unset: one made once and kept in the
    # database (every worker shares it). Never the token: a revoked token keeps the buttons
    callback_secret: SecretStr | None = None
    webhook_listen: str = "0.0.0.0:8080"  # the bot's own HTTP server (webhook and /healthz)
    health_listen: str | None = None  # polling mode: serve only /healthz here (unset: none)
    # Several processes (docs/scaling.md): Redis coordinates them; unset: one process
    redis_url: str | None = None
    redis_lease_s: float = Field(10.0, ge=1, le=120)  # a dead worker's locks/leases expire
    workers: int = Field(1, ge=1, le=64)  # webhook worker processes on one port
    worker_index: int | None = Field(None, ge=0, le=63)  # set by the parent for each child

    @property
    def global_ops(self) -> int:
        """New messages a second, all chats together (``global_per_second``, or its default)."""
        if self.global_per_second is not None:
            return self.global_per_second
        return 1000 if self.paid_broadcast else 30

    @field_validator("token")
    @classmethod
    def _token_shape(cls, value: SecretStr) -> SecretStr:
        if not TOKEN_FORMAT.match(value.get_secret_value()):
            raise ValueError("BOT_TOKEN is malformed (expected <digits>:<letters>, from BotFather)")
        return value

    @field_validator("database", mode="before")
    @classmethod
    def _database_kind(cls, value: object) -> object:
        """A ``postgres[ql]://`` URL stays a string; anything else is a file path."""
        if isinstance(value, str) and "://" in value:
            if not POSTGRES_URL.match(value):
                raise ValueError(
                    "must be a file path (SQLite) or postgresql://user:pass@host:port/db"
                )
            return value
        return Path(value) if isinstance(value, str) else value

    @field_validator("webhook_url")
    @classmethod
    def _webhook_url_shape(cls, value: str | None) -> str | None:
        if value is None or value == "":
            return None  # an empty line in .env means polling
        # http:// too, for a local Bot API server and the tests; Telegram itself posts to https
        if not re.match(r"^https?://[^/\s?#]+(/[^\s?#]*)?$", value):
            raise ValueError(
                "must be an https:// URL without a query (e.g. https://bot.example.org/tg)"
            )
        return value

    @field_validator("event_loop")
    @classmethod
    def _loop_installed(cls, value: str) -> str:
        if value == "uvloop" and importlib.util.find_spec("uvloop") is None:
            raise ValueError(
                "uvloop is not installed (pip install uvloop; or auto: uvloop when installed)"
            )
        return value

    @field_validator("webhook_secret")
    @classmethod
    def _secret_shape(cls, value: SecretStr | None) -> SecretStr | None:
        if value is None or not value.get_secret_value():
            return None
        if not SECRET_FORMAT.match(value.get_secret_value()):
            raise ValueError(
                "must be 16-256 characters A-Z a-z 0-9 _ - "
                "(e.g. the output of: python -c 'import secrets; print(secrets.token_urlsafe(32))')"
            )
        return value

    @field_validator("callback_secret")
    @classmethod
    def _callback_secret_shape(cls, value: SecretStr | None) -> SecretStr | None:
        if value is None or not value.get_secret_value():
            return None  # an empty line in .env: the database keeps one
        if len(value.get_secret_value()) < CALLBACK_SECRET_MIN:
            raise ValueError(
                f"must be at least {CALLBACK_SECRET_MIN} characters "
                "(e.g. the output of: python -c 'import secrets; print(secrets.token_urlsafe(32))')"
            )
        return value

    @field_validator("webhook_listen")
    @classmethod
    def _webhook_listen_shape(cls, value: str) -> str:
        return _listen(value)

    @field_validator("health_listen")
    @classmethod
    def _health_listen_shape(cls, value: str | None) -> str | None:
        return None if not value else _listen(value)

    @model_validator(mode="after")
    def _webhook_needs_secret(self) -> Settings:
        if self.webhook_url is not None and self.webhook_secret is None:
            raise ValueError("BOT_WEBHOOK_SECRET is required when BOT_WEBHOOK_URL is set")
        return self

    @field_validator("redis_url")
    @classmethod
    def _redis_url_shape(cls, value: str | None) -> str | None:
        if not value:
            return None
        if not re.match(r"^(redis|rediss|unix)://", value):
            raise ValueError("must be a redis:// (or rediss://, unix://) URL")
        return value

    @model_validator(mode="after")
    def _workers_need_webhook_and_redis(self) -> Settings:
        if self.workers > 1 and self.webhook_url is None:
            raise ValueError(
                "BOT_WORKERS > 1 needs webhook mode (BOT_WEBHOOK_URL): two pollers of one "
                "token conflict (Telegram answers 409)"
            )
        if self.workers > 1 and self.redis_url is None:
            raise ValueError("BOT_WORKERS > 1 needs BOT_REDIS_URL (the workers' shared locks)")
        return self

    @property
    def mode(self) -> Literal["webhook", "polling"]:
        return "polling" if self.webhook_url is None else "webhook"

    @property
    def webhook_path(self) -> str:
        """The path the bot serves the webhook at: the URL's own path (a reverse proxy passes
        it on unchanged), ``/`` when the URL has none."""
        url = self.webhook_url or ""
        rest = url.partition("://")[2]
        _, slash, path = rest.partition("/")
        return "/" + path if slash else "/"
