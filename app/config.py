"""Hub settings, read from the environment (prefix ``AGENTHUB_``) or a ``.env`` file."""

from __future__ import annotations

from pathlib import Path

from pydantic import Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="AGENTHUB_", env_file=".env", extra="ignore")

    database_url: str = "sqlite+aiosqlite:///./agenthub.db"
    broker_url: str = "memory://"
    issuer: str = "agenthub"
    signing_key_file: Path = Path("./agenthub-signing-key.pem")
    operator_token: SecretStr | None = None
    registration_token: SecretStr | None = Field(
        default=None, description="a token that may register agents but do nothing else"
    )
    open_registration: bool = False
    max_body_bytes: int = Field(default=1_048_576, ge=1024)
    access_token_seconds: int = Field(default=900, ge=30, le=86_400)
    public_url: str | None = Field(
        default=None, description="the hub's external base URL, for /.well-known/agenthub.json"
    )

    keepalive_seconds: float = Field(
        default=15.0,
        gt=0,
        le=300,
        description="idle SSE streams get a keep-alive comment this often",
    )
    stream_queue_frames: int = Field(
        default=256,
        ge=8,
        le=100_000,
        description="per-subscriber queue; past it, catch up from SQL",
    )
    stream_send_timeout_seconds: float = Field(
        default=60.0,
        gt=0,
        le=3600,
        description="a stream whose reader takes no data this long ends",
    )
    trigger_poll_seconds: float = Field(
        default=1.0, gt=0, le=60, description="how often trigger deadlines are checked"
    )

    semantic_rerank: bool = Field(
        default=False,
        description="re-rank discovery with the packaged MiniLM model (needs agenthub[semantic])",
    )

    @property
    def is_sqlite(self) -> bool:
        return self.database_url.startswith("sqlite")
