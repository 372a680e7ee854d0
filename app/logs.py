"""One logging set-up for the hub and uvicorn: time, level, logger and message on every line,
or one JSON object per line (``AGENTHUB_LOG_FORMAT=json``). ``serve`` hands it to uvicorn as its
``log_config``; the other commands apply it with ``configure``.

The access log is the hub's own (``app.access``, written by ``app.middleware.StreamHandoff``):
its records carry the request's method, route template, status, duration, agent and request
id as fields, which the JSON format writes as keys. uvicorn's access logger is left without
a handler, so uvicorn does not even format its line (it asks ``hasHandlers`` once a
connection)."""

from __future__ import annotations

import json
import logging
import logging.config
from datetime import UTC, datetime
from typing import Any

TEXT_FORMAT = "%(asctime)s %(levelname)-7s %(name)s: %(message)s"
# uvicorn's own loggers; they carry their records up to the one handler on the root logger
UVICORN_LOGGERS = ("uvicorn", "uvicorn.error", "uvicorn.asgi")
ACCESS_LOGGER = "app.access"
NOT_FIELDS = frozenset(
    logging.LogRecord("", 0, "", 0, "", (), None).__dict__.keys()
    | {"message", "asctime", "taskName", "color_message"}  # uvicorn's: its message, in colour
)
"""A record's own attributes: any other was given by ``extra=`` and is a field of its line."""


class UtcFormatter(logging.Formatter):
    def formatTime(self, record: logging.LogRecord, datefmt: str | None = None) -> str:  # noqa: N802
        moment = datetime.fromtimestamp(record.created, UTC)
        return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


class JsonFormatter(UtcFormatter):
    """``{"time", "level", "logger", "message"}``, the record's fields (what ``extra=`` gave
    it: an access line's ``method``, ``route``, ``status``…), and ``exception`` when there is
    one."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": self.formatTime(record),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        for key, value in record.__dict__.items():
            if key not in NOT_FIELDS and key not in entry:
                entry[key] = value
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
            # no handler, no propagation: uvicorn skips its own access line (app.access is it)
            "uvicorn.access": {"handlers": [], "level": numeric, "propagate": False},
            # alembic narrates every step at INFO; `migrate` says what it applied instead
            "alembic": {"level": numeric if numeric == "DEBUG" else "WARNING"},
        },
    }


def configure(level: str = "info", fmt: str = "text") -> None:
    logging.config.dictConfig(log_config(level, fmt))
