"""Settings from the environment and ``.env`` (prefix ``BOT_``); the only reader of either."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Literal

from pydantic import Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

TOKEN_FORMAT = re.compile(r"^\d{1,20}:[A-Za-z0-9_-]{1,100}$")


class Settings(BaseSettings):
    """Operator settings. Chat settings (PRODUCT.md §15) live in the database."""

    model_config = SettingsConfigDict(env_file=".env", env_prefix="BOT_", extra="ignore")

    token: SecretStr
    database: Path = Path("data/bot.sqlite3")
    default_language: Literal["ru", "en"] = "ru"
    turn_timeout_s: float = Field(90, ge=5, le=3600)  # PRODUCT.md §13; 0 is not allowed
    lobby_timeout_s: float = Field(900, ge=5, le=86400)  # a lobby nobody starts closes (§4.2)
    idle_timeout_s: float = Field(1800, ge=5, le=604800)  # no human move: the table closes
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = "INFO"
    api_base: str = "https://api.telegram.org"
    polling_timeout_s: int = Field(10, ge=0, le=50)
    computer_delay_s: float = Field(1.5, ge=0, le=30)  # PRODUCT.md §10: humans can follow
    away_level: Literal["easy", "normal"] = "normal"  # how the computer plays an absent person
    outbox_time_scale: float = Field(1.0, ge=0, le=10)  # Telegram's rate windows × this (tests)
    drain_s: float = Field(5.0, ge=0, le=60)  # on a clean stop, queued messages get this long
    locales: Path = Path(__file__).resolve().parent.parent / "locales"

    @field_validator("token")
    @classmethod
    def _token_shape(cls, value: SecretStr) -> SecretStr:
        if not TOKEN_FORMAT.match(value.get_secret_value()):
            raise ValueError("BOT_TOKEN is malformed (expected <digits>:<letters>, from BotFather)")
        return value
