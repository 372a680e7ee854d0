"""Hub settings, read from the environment (prefix ``AGENTHUB_``) or a ``.env`` file.

A setting that cannot work raises ``SettingError``: one line that names the variable, says
what is wrong and what to do. The CLI prints it and exits 2 (``agenthub --debug`` adds the
traceback). Secrets may come from files (``AGENTHUB_<NAME>_FILE``, as Docker secrets are
mounted) instead of the environment.

Kept whole: ``Settings`` is the one list of the hub's settings, a field each with its default
and its description, and the checks that hold between them; an operator reads it top to
bottom beside docs/operator/running.md, and split it would be two lists to keep in step.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal
from urllib.parse import urlsplit

from pydantic import Field, SecretStr, ValidationError, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError

from app.broker.base import REDIS_SCHEMES

ENV_PREFIX = "AGENTHUB_"
DATABASE_DRIVERS = {"sqlite+aiosqlite": "SQLite", "postgresql+asyncpg": "PostgreSQL"}
BROKER_SCHEMES = ("memory://", *REDIS_SCHEMES)
SECRET_FIELDS = ("operator_token", "registration_token", "metrics_token")
ENV_FILE = ".env"

LogLevel = Literal["critical", "error", "warning", "info", "debug", "trace"]


class SettingError(Exception):
    """A setting that cannot work: ``AGENTHUB_X: what is wrong; what to do`` (or a command's
    option: ``--port: ...``)."""

    def __init__(self, setting: str, problem: str, fix: str = "") -> None:
        named = setting.startswith((ENV_PREFIX, "-"))
        self.setting = setting if named else env_name(setting)
        self.lines = [f"{self.setting}: {problem}" + (f"; {fix}" if fix else "")]
        super().__init__(self.lines[0])

    def __str__(self) -> str:
        return "\n".join(self.lines)


def env_name(field: str) -> str:
    return f"{ENV_PREFIX}{field.upper()}"


def masked_url(url: str) -> str:
    try:
        return make_url(url).render_as_string(hide_password=True)
    except ArgumentError:
        return url


class Settings(BaseSettings):
    """Every setting of the hub (``AGENTHUB_<NAME>``).

    Kept whole: one field a setting, each with its default and its description."""

    model_config = SettingsConfigDict(env_prefix=ENV_PREFIX, env_file=ENV_FILE, extra="ignore")

    database_url: str = Field(
        default="sqlite+aiosqlite:///./agenthub.db",
        description="the SQL store: sqlite+aiosqlite:///path or postgresql+asyncpg://user@host/db",
    )
    database_url_file: Path | None = Field(
        default=None, description="a file holding the database URL (a mounted secret)"
    )
    database_pool_timeout_seconds: float = Field(
        default=30.0,
        gt=0,
        le=600,
        description="how long a request waits for a store connection before a 503",
    )
    broker_url: str = Field(
        default="memory://", description="fan-out between replicas: memory:// or redis://host"
    )
    issuer: str = Field(default="agenthub", min_length=1, description="the hub's name in tokens")
    signing_key_file: Path = Field(
        default=Path("./agenthub-signing-key.pem"),
        description="the hub's private ES256 key; made on first start if missing (mode 0600)",
    )
    ca_key_file: Path | None = Field(
        default=None,
        description="the agents' CA key; made on first start if missing (mode 0600); "
        "default: agenthub-ca-key.pem beside the signing key",
    )
    ca_cert_file: Path | None = Field(
        default=None,
        description="the agents' CA certificate; made with the key; "
        "default: agenthub-ca.pem beside the signing key",
    )
    trusted_ca_file: Path | None = Field(
        default=None,
        description="other CAs (PEM bundle), e.g. the ACPs CA: agents they certified register "
        "under their AIC, and peers trust them (published with the hub's CA)",
    )
    certificate_days: int = Field(
        default=7, ge=1, le=90, description="lifetime of the agent certificates the hub issues"
    )
    revocation_list_seconds: int = Field(
        default=60,
        ge=5,
        le=86_400,
        description="the revocation list's nextUpdate: how soon peers fetch it again",
    )
    max_live_certificates_per_agent: int = Field(
        default=4,
        ge=1,
        le=100,
        description="certificates an agent may hold unrevoked and unexpired at once (else 409)",
    )
    certificates_per_hour_per_agent: float = Field(
        default=12.0, ge=0, description="certificates one agent may ask for per hour (0: no limit)"
    )
    certify_private_names: bool = Field(
        default=False,
        description="agent certificates may name a private or loopback DNS name of the "
        "agent's endpoint (a closed network); else public names only, each unique among "
        "live agents",
    )
    certify_ip_addresses: bool = Field(
        default=False,
        description="agent certificates may name the IP address of the agent's endpoint "
        "(a closed network: every agent serving at it shares it)",
    )
    tls_cert_file: Path | None = Field(
        default=None,
        description="the hub's own TLS certificate (PEM, chain first): serve HTTPS "
        "(`agenthub hub-certificate` makes one from the agents' CA)",
    )
    tls_key_file: Path | None = Field(
        default=None, description="the private key of AGENTHUB_TLS_CERT_FILE"
    )
    operator_token: SecretStr | None = Field(
        default=None, description="the operator's bearer token (also a registration token)"
    )
    operator_token_file: Path | None = Field(
        default=None, description="a file holding the operator token"
    )
    registration_token: SecretStr | None = Field(
        default=None, description="a token that may register agents but do nothing else"
    )
    registration_token_file: Path | None = Field(
        default=None, description="a file holding the registration token"
    )
    metrics_token: SecretStr | None = Field(
        default=None, description="a bearer token /metrics asks for (unset: /metrics is open)"
    )
    metrics_token_file: Path | None = Field(
        default=None, description="a file holding the metrics token"
    )
    open_registration: bool = Field(default=False, description="let anyone register agents")
    max_body_bytes: int = Field(
        default=1_048_576, ge=1024, description="larger request bodies get 413"
    )
    max_post_bytes: int = Field(
        default=262_144,
        ge=1024,
        description="larger group posts get 413 (each is fanned out to every member's stream "
        "and read back with the group's history); at most AGENTHUB_MAX_BODY_BYTES",
    )
    access_token_seconds: int = Field(
        default=900, ge=30, le=86_400, description="lifetime of the hub's access tokens"
    )
    public_url: str | None = Field(
        default=None,
        description="the hub's URL as agents reach it, in what it hands out and signs (required "
        "off loopback; on loopback agenthub serve takes http://host:port)",
    )
    forwarded_allow_ips: str = Field(
        default="127.0.0.1",
        description="proxies trusted for X-Forwarded-For/-Proto: comma-separated IPs, CIDRs or *",
    )
    log_level: LogLevel = Field(default="info", description="the hub's and uvicorn's log level")
    log_format: Literal["text", "json"] = Field(
        default="text", description="text lines, or one JSON object per line"
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
    max_streams: int = Field(
        default=10_000, ge=1, description="open streams per process; past it new ones get 503"
    )
    max_streams_per_agent: int = Field(
        default=16, ge=1, description="open streams per agent (per process); past it 429"
    )
    stream_max_seconds: float = Field(
        default=3600.0, gt=0, description="a stream ends after this long (clients resume)"
    )
    stream_opens_per_second: float = Field(
        default=500.0, ge=0, description="new streams a process admits per second (0: no limit)"
    )
    posts_per_second_per_agent: float = Field(
        default=200.0, ge=0, description="messages one agent may post per second (0: no limit)"
    )
    tokens_per_minute_per_agent: float = Field(
        default=60.0, ge=0, description="token requests per agent per minute (0: no limit)"
    )
    tokens_per_minute_per_address: float = Field(
        default=600.0, ge=0, description="token requests per client address per minute"
    )
    max_page_bytes: int = Field(
        default=4_194_304,
        ge=65_536,
        description="about the most one page of stored messages holds (a list or history "
        "read); a page of larger messages is shorter, and its nextCursor resumes it",
    )
    max_header_bytes: int = Field(
        default=16_384, ge=1024, description="a request's headers may be this large (else 431)"
    )
    max_headers: int = Field(default=100, ge=10, description="headers per request (else 431)")
    header_timeout_seconds: float = Field(
        default=10.0, gt=0, description="a request's headers must arrive within this (else 408)"
    )
    body_timeout_seconds: float = Field(
        default=30.0, gt=0, description="the longest pause inside a request body (else 408)"
    )
    trigger_poll_seconds: float = Field(
        default=1.0, gt=0, le=60, description="how often trigger deadlines are checked"
    )

    semantic_rerank: bool = Field(
        default=False,
        description="re-rank discovery with the packaged MiniLM model (agenthub-hub[semantic])",
    )

    @property
    def ca_paths(self) -> tuple[Path, Path]:
        """The CA's key and certificate files (by default beside the signing key)."""
        folder = self.signing_key_file.parent
        return (
            self.ca_key_file or folder / "agenthub-ca-key.pem",
            self.ca_cert_file or folder / "agenthub-ca.pem",
        )

    @property
    def tls_ca_paths(self) -> tuple[Path, Path]:
        """The CA of the hub's own TLS certificate (``agenthub hub-certificate``), beside the
        signing key; apart from the agents' CA, so no agent's certificate passes as the hub."""
        folder = self.signing_key_file.parent
        return folder / "agenthub-tls-ca-key.pem", folder / "agenthub-tls-ca.pem"

    @field_validator("broker_url")
    @classmethod
    def _known_broker(cls, value: str) -> str:
        if not value.startswith(BROKER_SCHEMES):
            raise SettingError(
                "broker_url",
                f"{value!r} is not a broker URL",
                "use memory:// (one process) or redis://host:6379/0 (replicas)",
            )
        return value

    @field_validator("public_url")
    @classmethod
    def _a_base_url(cls, value: str | None) -> str | None:
        if not value:
            return None
        parts = urlsplit(value)
        if parts.scheme not in ("http", "https") or not parts.hostname or parts.query:
            raise SettingError(
                "public_url",
                f"{value!r} is not an http(s) URL",
                "set the hub's URL as agents reach it, e.g. https://hub.example.com",
            )
        return value.rstrip("/")

    @model_validator(mode="after")
    def _secrets_from_files(self) -> Settings:
        for name in ("database_url", *SECRET_FIELDS):
            path: Path | None = getattr(self, f"{name}_file")
            if path is None:
                continue
            if name in self.model_fields_set:
                raise SettingError(
                    f"{name}_file", f"{env_name(name)} is set too", "set one of the two, not both"
                )
            value = _read_secret(path, f"{name}_file")
            setattr(self, name, value if name == "database_url" else SecretStr(value))
        _check_database_url(self.database_url)
        if (self.tls_cert_file is None) != (self.tls_key_file is None):
            raise SettingError(
                "tls_cert_file",
                "AGENTHUB_TLS_CERT_FILE and AGENTHUB_TLS_KEY_FILE go together",
                "set both to serve HTTPS, or neither for plain HTTP (TLS at a proxy)",
            )
        return self

    @property
    def is_sqlite(self) -> bool:
        return self.database_url.startswith("sqlite")

    def shown(self) -> list[tuple[str, str, bool]]:
        """Every setting as ``(variable, value with secrets masked, is it the default)``."""
        rows = []
        for name, field in type(self).model_fields.items():
            value: Any = getattr(self, name)
            if isinstance(value, SecretStr):
                text = f"set ({len(value.get_secret_value())} characters)"
            elif value is None:
                text = "unset"
            elif name == "database_url":
                text = masked_url(value)
            else:
                text = str(value).lower() if isinstance(value, bool) else str(value)
            rows.append((env_name(name), text, value == field.default))
        return rows


def _read_secret(path: Path, setting: str) -> str:
    try:
        value = path.read_text(encoding="utf-8").strip()
    except OSError as exc:
        raise SettingError(setting, f"cannot read {path}: {exc.strerror}") from exc
    if not value:
        raise SettingError(setting, f"{path} is empty")
    return value


def _check_database_url(url: str) -> None:
    hint = "use sqlite+aiosqlite:///./agenthub.db or postgresql+asyncpg://user@host:5432/db"
    try:
        parsed = make_url(url)
    except ArgumentError:
        raise SettingError("database_url", f"{masked_url(url)!r} is not a URL", hint) from None
    if parsed.drivername not in DATABASE_DRIVERS:
        if parsed.get_backend_name() in ("postgresql", "sqlite"):
            wanted = next(d for d in DATABASE_DRIVERS if d.startswith(parsed.get_backend_name()))
            raise SettingError(
                "database_url",
                f"the driver {parsed.drivername!r} is not supported",
                f"write {wanted}:// (the hub is async)",
            )
        raise SettingError(
            "database_url", f"{parsed.drivername!r} is not a store the hub supports", hint
        )


def load_settings(**overrides: Any) -> Settings:
    """``Settings()``, with a validation failure turned into one ``SettingError`` per line."""
    try:
        return Settings(**overrides)
    except ValidationError as exc:
        problems = []
        for error in exc.errors():
            field = str(error["loc"][0]) if error["loc"] else "?"
            got = "" if field in SECRET_FIELDS else f" (got {error['input']!r})"
            problems.append(SettingError(field, f"{error['msg'].lower()}{got}"))
        first = problems[0]
        first.lines = [line for problem in problems for line in problem.lines]
        raise first from exc
