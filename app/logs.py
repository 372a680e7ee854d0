"""One logging set-up for the hub and uvicorn: time, level, logger and message on every line,
or one JSON object per line (``AGENTHUB_LOG_FORMAT=json``). ``serve`` hands it to uvicorn as its
``log_config``; the other commands apply it with ``configure``."""

from __future__ import annotations

import json
import logging
import logging.config
from datetime import UTC, datetime
from typing import Any

TEXT_FORMAT = "%(asctime)s %(levelname)-7s %(name)s: %(message)s"
# uvicorn's own loggers; they carry their records up to the one handler on the root logger
UVICORN_LOGGERS = ("uvicorn", "uvicorn.error", "uvicorn.access", "uvicorn.asgi")


class UtcFormatter(logging.Formatter):
    def formatTime(self, record: logging.LogRecord, datefmt: str | None = None) -> str:  # noqa: N802
        moment = datetime.fromtimestamp(record.created, UTC)
        return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


class JsonFormatter(UtcFormatter):
    """``{"time", "level", "logger", "message"}``, plus ``exception`` when there is one."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": self.formatTime(record),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return json.dumps(entry, ensure_ascii=False, default=str)


def log_config(level: str = "info", fmt: str = "text") -> dict[str, Any]:
    """A ``logging.config.dictConfig`` document (also uvicorn's ``log_config``)."""
    numeric = "DEBUG" if level == "trace" else level.upper()
    formatter: dict[str, Any] = (
        {"()": JsonFormatter} if fmt == "json" else {"()": UtcFormatter, "fmt": TEXT_FORMAT}
    )
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"hub": formatter},
        "handlers": {
            "stderr": {
                "class": "logging.StreamHandler",
                "formatter": "hub",
                "stream": "ext://sys.stderr",
            }
        },
        "root": {"handlers": ["stderr"], "level": numeric},
        "loggers": {
            **{
                name: {"handlers": [], "level": numeric, "propagate": True}
                for name in UVICORN_LOGGERS
            },
            # alembic narrates every step at INFO; `migrate` says what it applied instead
            "alembic": {"level": numeric if numeric == "DEBUG" else "WARNING"},
        },
    }


def configure(level: str = "info", fmt: str = "text") -> None:
    logging.config.dictConfig(log_config(level, fmt))
