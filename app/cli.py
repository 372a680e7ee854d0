"""The ``agenthub`` command: run the hub, migrate its store, check its settings, and more.

Settings come from the environment (``AGENTHUB_…``) or a ``.env`` file in the working
directory; ``agenthub check`` shows the effective ones. A setting that cannot work stops the
command with one line naming it, and exit code 2 (``--debug`` adds the traceback).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import logging.config
import sys
import traceback
from collections.abc import Sequence
from importlib import metadata
from pathlib import Path
from typing import NoReturn

from app.config import SettingError, Settings, load_settings, masked_url
from app.logs import log_config
from app.variables import unknown_variables

logger = logging.getLogger("app.cli")

LOG_LEVELS = ("critical", "error", "warning", "info", "debug", "trace")
GRACEFUL_SHUTDOWN_SECONDS = 5  # open streams are ended at once; this bounds the rest
HUB_SERVICE_NAME = "agenthub-hub"  # its traces' service name, unless OTEL_SERVICE_NAME says


def version_line() -> str:
    from agenthub import __version__ as kit

    try:
        hub = metadata.version("agenthub-hub")
    except metadata.PackageNotFoundError:
        hub = f"{kit} (from a checkout)"
    python = ".".join(map(str, sys.version_info[:3]))
    return f"agenthub-hub {hub}, with the kit agenthub {kit}; Python {python}"


def _store_ready_for_migration(settings: Settings) -> None:
    """The drivers are installed and the store answers (``SettingError`` if not)."""
    from app.checks import probe_store, require_drivers

    require_drivers(settings)
    asyncio.run(probe_store(settings))


def apply_migrations(settings: Settings) -> str:
    """Migrate the store to head; say what was applied, in one line."""
    from app.schema import head_revision, migrate

    _store_ready_for_migration(settings)
    applied = migrate(settings.database_url)
    where = masked_url(settings.database_url)
    if not applied:
        return f"{where}: already at head ({head_revision()}), nothing to apply"
    return f"{where}: applied {', '.join(applied)}; now at head ({head_revision()})"


def _migrate(args: argparse.Namespace) -> None:
    settings = load_settings()
    logging.config.dictConfig(log_config("debug" if args.debug else "warning"))
    print(apply_migrations(settings))


def _serve(args: argparse.Namespace) -> None:
    from app.checks import prepare_signing_key, require_free_port
    from app.public_url import served_at

    require_free_port(args.host, args.port)  # before anything else: one line, not a traceback
    settings = served_at(load_settings(), args.host, args.port)
    level = "debug" if args.debug else (args.log_level or settings.log_level)
    config = log_config(level, settings.log_format)
    logging.config.dictConfig(config)
    for line in unknown_variables():
        logger.warning("%s", line)
    _store_ready_for_migration(settings)
    key_folder = settings.signing_key_file.parent
    new_folder = not key_folder.exists()
    keys = prepare_signing_key(settings.signing_key_file)
    if new_folder:
        logger.warning(
            "made the folder %s for the signing key (AGENTHUB_SIGNING_KEY_FILE): it did not "
            "exist; the agents' CA is made there too",
            key_folder,
        )
    if args.no_migrate:
        logger.info("not migrating (--no-migrate): /readyz is 503 until the schema is at head")
    else:
        logger.info("migrations: %s", apply_migrations(settings))
    import uvicorn

    from agenthub import tracing
    from app.console.home_routes import where_to_look
    from app.http_protocol import protocol_for
    from app.main import create_app
    from app.server import serve

    tracing.configure(HUB_SERVICE_NAME)  # when OTEL_* asks: FastAPI's telemetry then traces
    logger.info("%s", where_to_look(args.host, args.port, tls=settings.tls_cert_file is not None))
    serve(
        uvicorn.Config(
            create_app(settings, keys=keys),
            host=args.host,
            port=args.port,
            http=protocol_for(settings),
            log_config=config,
            log_level=level,
            access_log=not args.no_access_log,
            proxy_headers=True,
            forwarded_allow_ips=settings.forwarded_allow_ips,
            timeout_graceful_shutdown=GRACEFUL_SHUTDOWN_SECONDS,
            ssl_certfile=settings.tls_cert_file,
            ssl_keyfile=settings.tls_key_file,
        )
    )
    tracing.shutdown()


def _check(args: argparse.Namespace) -> None:
    from app.checks import run_checks

    settings = load_settings()
    logging.config.dictConfig(log_config("debug" if args.debug else "critical"))
    print(f"{version_line()}\n\nsettings (environment, .env, defaults; secrets masked):")
    for name, value, is_default in settings.shown():
        print(f"  {name:<40} {value}{'  (default)' if is_default else ''}")
    print("\nchecks:")
    results = asyncio.run(run_checks(settings))
    for check in results:
        detail = check.detail.replace("\n", "\n" + " " * 22)  # a line a problem, aligned
        print(f"  {'ok' if check.ok else 'FAIL':<5} {check.name:<13} {detail}")
    failed = [c.name for c in results if not c.ok]
    print(f"\n{'FAILED: ' + ', '.join(failed) if failed else 'all checks passed'}")
    raise SystemExit(1 if failed else 0)


def openapi_document() -> str:
    from app.main import create_app

    spec = create_app(Settings(_env_file=None)).openapi()
    return json.dumps(spec, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def _openapi(args: argparse.Namespace) -> None:
    text = openapi_document()
    if args.output:
        Path(args.output).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)


def _keys(_: argparse.Namespace) -> None:
    from app.auth.ca import load_or_create_ca
    from app.checks import prepare_signing_key

    settings = load_settings()
    path = settings.signing_key_file
    new_folder = not path.parent.exists()
    keys = prepare_signing_key(path)
    made = f" and its folder {path.parent}, which did not exist" if new_folder else ""
    print(f"{'made' if keys.created else 'loaded'} {path}{made} (kid {keys.kid})", file=sys.stderr)
    key_file, cert_file = settings.ca_paths
    try:
        ca = load_or_create_ca(key_file, cert_file, issuer=settings.issuer)
    except (OSError, ValueError) as exc:
        raise SettingError("ca_key_file", f"cannot load or make the agents' CA: {exc}") from exc
    print(f"{'made' if ca.created else 'loaded'} the agents' CA {cert_file}", file=sys.stderr)
    sys.stdout.write(json.dumps(keys.jwks(), indent=2) + "\n")


def _port(text: str) -> int:
    port = int(text)
    if not 1 <= port <= 65535:
        raise argparse.ArgumentTypeError("between 1 and 65535")
    return port


def _days(text: str) -> int:
    days = int(text)
    if not 1 <= days <= 3650:
        raise argparse.ArgumentTypeError("between 1 and 3650")
    return days


def _hub_certificate(args: argparse.Namespace) -> None:
    from app.auth.ca import load_or_create_ca, write_server_certificate
    from app.certificates.names import endpoint_host
    from app.errors import HubError

    settings = load_settings()
    for name in args.names:  # a plain DNS name or an IP address, never a wildcard
        try:
            endpoint_host(f"https://{name}/")
        except HubError as exc:
            print(f"agenthub hub-certificate: {name}: {exc.detail}", file=sys.stderr)
            raise SystemExit(2) from None
    try:
        ca = load_or_create_ca(*settings.tls_ca_paths, issuer=settings.issuer, role="hub TLS")
        write_server_certificate(ca, args.names, args.cert, args.key, days=args.days)
    except (OSError, ValueError) as exc:
        raise SettingError("ca_key_file", f"cannot make the hub's certificate: {exc}") from exc
    print(
        f"made {args.cert} and {args.key} (mode 0600) for {', '.join(args.names)}, signed by "
        f"the hub's TLS CA {settings.tls_ca_paths[1]}; serve with "
        f"AGENTHUB_TLS_CERT_FILE={args.cert} AGENTHUB_TLS_KEY_FILE={args.key}; agents pin "
        f"that CA with Agent(..., hub_ca={settings.tls_ca_paths[1].name!r})",
        file=sys.stderr,
    )


def _demo(args: argparse.Namespace) -> None:
    from app.demo.command import run_demo_command

    run_demo_command(args)


def _fake_model(args: argparse.Namespace) -> None:
    import contextlib

    import uvicorn

    from app.checks import require_free_port
    from app.fake_model import chat_app

    require_free_port(args.host, args.port)
    base = f"http://{args.host}:{args.port}/v1"
    print(
        f"a stand-in for a language model, {args.model!r}, at {base} (no model behind it: its "
        f"answers follow from the prompt); the LLM examples use it with "
        f"AGENTHUB_LLM_BASE_URL={base} AGENTHUB_LLM_MODEL={args.model}; Ctrl-C stops it",
        flush=True,
    )
    with contextlib.suppress(KeyboardInterrupt):
        uvicorn.run(chat_app(model=args.model), host=args.host, port=args.port, log_level="warning")


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")


class _Help(argparse.ArgumentDefaultsHelpFormatter):
    def _get_help_string(self, action: argparse.Action) -> str:
        if action.default in (None, False) or action.default is argparse.SUPPRESS:
            return action.help or ""
        return super()._get_help_string(action) or ""


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="agenthub", description=__doc__, formatter_class=_Help)
    parser.add_argument("--version", action="version", version=version_line())
    parser.add_argument(
        "--debug", action="store_true", help="debug logging, and tracebacks with errors"
    )
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    def command(name: str, summary: str) -> argparse.ArgumentParser:
        return sub.add_parser(name, help=summary, description=summary, formatter_class=_Help)

    serve = command("serve", "apply migrations, then run the hub")
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on")
    serve.add_argument("--port", type=_port, default=8000, help="port to listen on (1-65535)")
    serve.add_argument(
        "--log-level", choices=LOG_LEVELS, help="log level (default: AGENTHUB_LOG_LEVEL, info)"
    )
    serve.add_argument(
        "--no-migrate",
        action="store_true",
        help="do not migrate first (replicas; /readyz is 503 until the schema is at head)",
    )
    serve.add_argument("--no-access-log", action="store_true", help="no line per request")
    serve.set_defaults(func=_serve)
    command("migrate", "apply the SQL migrations, say what was applied, and exit").set_defaults(
        func=_migrate
    )
    command(
        "check", "print the effective settings and check store, key and broker (exit 0 or 1)"
    ).set_defaults(func=_check)
    api = command("openapi", "print the OpenAPI document, or write it to a path")
    api.add_argument("output", nargs="?", help="a file to write (default: standard output)")
    api.set_defaults(func=_openapi)
    command("keys", "make the signing key and agents' CA if missing; print JWKS").set_defaults(
        func=_keys
    )
    hub_cert = command("hub-certificate", "make the hub's own TLS certificate (its own CA)")
    hub_cert.add_argument("names", nargs="+", help="DNS names or IP addresses the hub answers at")
    hub_cert.add_argument(
        "--cert", type=Path, default=Path("hub-cert.pem"), help="where to write it"
    )
    hub_cert.add_argument("--key", type=Path, default=Path("hub-key.pem"), help="its key (0600)")
    hub_cert.add_argument("--days", type=_days, default=365, help="its lifetime (1-3650)")
    hub_cert.set_defaults(func=_hub_certificate)
    demo = command("demo", "run a hub and a scripted team of agents on loopback, and narrate it")
    demo.add_argument("--timeout", type=float, default=180, help="seconds for the whole story")
    demo.add_argument(
        "--port", type=_port, help="the demo hub's port on 127.0.0.1 (default: a free one)"
    )
    demo.add_argument(
        "--keep",
        action="store_true",
        help="keep the hub up afterwards (until Ctrl-C) and print its web console's URL",
    )
    demo.add_argument(
        "--trace",
        type=Path,
        metavar="DIR",
        help="write every process's traces (OTLP JSON lines, as the OpenTelemetry "
        "Collector's file exporter does) to DIR/traces.jsonl; needs agenthub-hub[otel]",
    )
    demo.set_defaults(func=_demo)
    fake = command(
        "fake-model",
        "serve a stand-in for a language model (OpenAI-compatible, answers from the prompt) "
        "for the LLM examples",
    )
    fake.add_argument("--host", default="127.0.0.1", help="address to listen on")
    fake.add_argument("--port", type=_port, default=8100, help="port to listen on (1-65535)")
    fake.add_argument("--model", default="fake-model", help="the model name it answers for")
    fake.set_defaults(func=_fake_model)
    return parser


def main(argv: Sequence[str] | None = None) -> None:
    args = build_parser().parse_args(argv)
    try:
        args.func(args)
    except SettingError as exc:
        if args.debug:
            traceback.print_exc()
        for line in str(exc).splitlines():
            print(f"agenthub {args.command}: {line}", file=sys.stderr)
        raise SystemExit(2) from None


if __name__ == "__main__":
    main()
