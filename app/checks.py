"""What ``agenthub check`` reports and ``serve``/``migrate`` make sure of before they start:
the drivers a setting needs are installed, the store answers (and is migrated), the signing
key is usable, the broker answers. Each failure is a ``SettingError`` naming its setting."""

from __future__ import annotations

import asyncio
import errno
import importlib.util
import os
import socket
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError

from app.auth.keys import HubKeys, load_or_create_hub_keys, read_hub_keys
from app.config import SettingError, Settings, masked_url
from app.db import make_engine
from app.schema import SchemaState, head_revision, schema_state
from app.variables import unknown_variables

REASON_CHARS = 200
BROKER_TIMEOUT_SECONDS = 3.0
STORE_TIMEOUT_SECONDS = 10.0


@dataclass(frozen=True)
class Check:
    name: str
    ok: bool
    detail: str


def reason(exc: BaseException) -> str:
    """The innermost cause's first line: what a person can act on."""
    root = exc
    while True:
        inner = getattr(root, "orig", None) if isinstance(root, DBAPIError) else None
        inner = inner or root.__cause__
        if inner is None or inner is root:
            break
        root = inner
    first = (str(root).strip().splitlines() or [""])[0] or type(root).__name__
    return first[:REASON_CHARS]


def require_free_port(host: str, port: int, *, fix: str = "") -> None:
    """That this process can listen on ``host:port``: checked before anything else, so that
    a port another process holds is one line, not uvicorn's traceback after the start-up's
    lines (nor, for the demo, someone else's hub taken for its own). Bound as uvicorn binds
    (``SO_REUSEADDR``: a port whose last connections are closing is free), then let go."""
    fix = (
        fix
        or "stop the process that holds it, or choose another port (--port; make serve PORT=8001)"
    )
    try:
        addresses = socket.getaddrinfo(
            host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )
    except socket.gaierror as exc:
        raise SettingError(
            "--host", f"{host!r} is no address to listen on: {exc.strerror}"
        ) from None
    for family, kind, proto, _, address in addresses:
        with socket.socket(family, kind, proto) as sock:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if family == socket.AF_INET6:  # as asyncio's server binds each family apart
                sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
            try:
                sock.bind(address)
            except OSError as exc:
                if exc.errno == errno.EADDRINUSE:
                    where = f"port {port} on {host or 'every address'}"
                    raise SettingError(
                        "--port", f"{where} is in use by another process", fix
                    ) from None
                if exc.errno == errno.EACCES:
                    raise SettingError(
                        "--port",
                        f"this user may not listen on port {port}",
                        "choose a port above 1023",
                    ) from None
                raise SettingError(
                    "--host", f"cannot listen on {host}:{port}: {exc.strerror}"
                ) from None


def require_drivers(settings: Settings) -> None:
    """The optional packages the store and broker URLs need (they come with extras)."""
    needs = [("aiosqlite", "database_url", "")] if settings.is_sqlite else []
    if settings.database_url.startswith("postgresql"):
        needs.append(("asyncpg", "database_url", "postgres"))
    if settings.broker_url.startswith(("redis", "unix")):
        needs.append(("redis", "broker_url", "redis"))
    for module, setting, extra in needs:
        if importlib.util.find_spec(module) is None:
            install = f"pip install 'agenthub-hub[{extra}]'" if extra else "reinstall agenthub-hub"
            raise SettingError(
                setting, f"needs the {module} package, which is not installed", install
            )


def store_error(exc: BaseException, settings: Settings) -> SettingError:
    where = masked_url(settings.database_url)
    if isinstance(exc, TimeoutError):
        why = f"no answer within {STORE_TIMEOUT_SECONDS:g} s"
    else:
        why = reason(exc)
    fix = (
        "check that the directory exists and is writable"
        if settings.is_sqlite
        else "check that PostgreSQL runs there and the URL's user, password and database are right"
    )
    return SettingError("database_url", f"cannot use the store {where}: {why}", fix)


def _new_sqlite_file(settings: Settings) -> bool:
    """Whether the store is a SQLite file still to be made (in a directory that allows it).
    Checked before aiosqlite tries: its worker thread prints a traceback of its own when an
    open fails as the event loop ends."""
    database = make_url(settings.database_url).database
    if not database or database == ":memory:" or database.startswith("file:"):
        return False
    path = Path(database).resolve()
    if path.exists():
        return False
    if not path.parent.is_dir():
        raise SettingError(
            "database_url",
            f"the directory {path.parent} of the SQLite store does not exist",
            "create it, or point the URL at an existing directory",
        )
    if not os.access(path.parent, os.W_OK | os.X_OK):
        raise SettingError(
            "database_url", f"cannot make the SQLite store in {path.parent}: not writable"
        )
    return True


async def probe_store(settings: Settings) -> SchemaState:
    """Connect, run a query, read the schema's revision; ``SettingError`` when it fails.
    A SQLite file still to be made is not created here."""
    if settings.is_sqlite and _new_sqlite_file(settings):
        return SchemaState(None, head_revision())
    engine = make_engine(settings.database_url)
    try:
        async with asyncio.timeout(STORE_TIMEOUT_SECONDS):
            async with engine.connect() as conn:
                await conn.execute(text("SELECT 1"))
            return await schema_state(engine)
    except Exception as exc:
        raise store_error(exc, settings) from exc
    finally:
        await engine.dispose()


def check_signing_key(path: Path) -> str:
    """Whether the hub can load the key at ``path``, or make it there on first start."""
    if not path.exists():
        parent = next((p for p in [path.parent, *path.parent.parents] if p.exists()), Path("/"))
        if not os.access(parent, os.W_OK | os.X_OK):
            raise SettingError(
                "signing_key_file",
                f"{path} does not exist and {parent} is not writable, so it cannot be made",
                "point the setting at a writable path, or make the key with `agenthub keys`",
            )
        return f"{path} will be made on first start"
    try:
        keys = read_hub_keys(path)
    except PermissionError:
        raise SettingError(
            "signing_key_file",
            f"cannot read {path} (the hub runs as uid {os.getuid()})",
            "make the file readable by that user (mode 0600, owned by it)",
        ) from None
    except OSError as exc:
        raise SettingError("signing_key_file", f"cannot read {path}: {exc.strerror}") from exc
    except ValueError as exc:
        raise SettingError(
            "signing_key_file", str(exc), "point it at the hub's key, or at a path to make one"
        ) from exc
    return f"{path} (kid {keys.kid})"


def prepare_signing_key(path: Path) -> HubKeys:
    """Load the hub's key, or make it on first start; ``SettingError`` when neither works."""
    check_signing_key(path)
    try:
        return load_or_create_hub_keys(path)
    except OSError as exc:
        raise SettingError(
            "signing_key_file",
            f"cannot make {path}: {exc.strerror}",
            "point the setting at a writable path, or make the key with `agenthub keys`",
        ) from exc


async def probe_broker(settings: Settings) -> str:
    if settings.broker_url.startswith("memory"):
        return "memory:// (in this process; one replica only)"
    from app.broker import make_broker

    broker = make_broker(settings.broker_url)
    try:
        async with asyncio.timeout(BROKER_TIMEOUT_SECONDS):
            await broker.start()
            await broker.ping()
    except Exception as exc:
        why = "no answer" if isinstance(exc, TimeoutError) else reason(exc)
        raise SettingError(
            "broker_url", f"the broker at {settings.broker_url} does not answer: {why}"
        ) from exc
    finally:
        await broker.close()
    return f"{settings.broker_url} answers"


async def run_checks(settings: Settings) -> list[Check]:
    """Every check, each on its own: one failure does not hide the others."""
    results: list[Check] = []

    async def attempt(name: str, step: Callable[[], Awaitable[str]]) -> None:
        try:
            detail = await step()
        except SettingError as exc:
            results.append(Check(name, False, str(exc)))
        else:
            results.append(Check(name, True, detail))

    async def drivers() -> str:
        require_drivers(settings)
        return "installed"

    async def signing_key() -> str:
        return check_signing_key(settings.signing_key_file)

    async def variables() -> str:
        unknown = unknown_variables()
        if unknown:
            unknown[0].lines = [line for each in unknown for line in each.lines]
            raise unknown[0]
        return "every AGENTHUB_ variable set is a setting (or one the kit reads)"

    await attempt("variables", variables)
    await attempt("drivers", drivers)
    if results[-1].ok:
        await attempt("store", lambda: _store_detail(settings))
        await attempt("broker", lambda: probe_broker(settings))
    await attempt("signing key", signing_key)
    results.append(Check("registration", True, registration_policy(settings)))
    return results


async def _store_detail(settings: Settings) -> str:
    state = await probe_store(settings)
    if not state.at_head:
        raise SettingError(
            "database_url", f"{masked_url(settings.database_url)}: {state.describe()}"
        )
    return f"{masked_url(settings.database_url)} answers; {state.describe()}"


def registration_policy(settings: Settings) -> str:
    ways = []
    if settings.open_registration:
        ways.append("open to anyone (AGENTHUB_OPEN_REGISTRATION)")
    if settings.operator_token:
        ways.append("with the operator token")
    if settings.registration_token:
        ways.append("with the registration token")
    if not ways:
        return (
            "closed: no agent can register (set AGENTHUB_OPERATOR_TOKEN or "
            "AGENTHUB_REGISTRATION_TOKEN, or AGENTHUB_OPEN_REGISTRATION=true)"
        )
    return "agents register " + ", or ".join(ways)
