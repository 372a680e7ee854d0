"""The ``agenthub`` command: serve, migrate, openapi, keys."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from alembic import command
from alembic.config import Config

from app.config import Settings

# inside the wheel (hatch_build.py puts them there), else at the top of a checkout
_PACKAGED = Path(__file__).resolve().parent / "migrations"
MIGRATIONS_DIR = (
    _PACKAGED if _PACKAGED.is_dir() else Path(__file__).resolve().parents[1] / "migrations"
)


def alembic_config(database_url: str) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    config.set_main_option("sqlalchemy.url", database_url.replace("%", "%%"))
    return config


def migrate(database_url: str, revision: str = "head") -> None:
    command.upgrade(alembic_config(database_url), revision)


def openapi_document() -> str:
    from app.main import create_app

    spec = create_app(Settings(_env_file=None)).openapi()
    return json.dumps(spec, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def _serve(args: argparse.Namespace) -> None:
    import uvicorn

    from app.main import create_app

    settings = Settings()
    if not args.no_migrate:
        migrate(settings.database_url)
    uvicorn.run(
        create_app(settings),
        host=args.host,
        port=args.port,
        log_level=args.log_level,
        proxy_headers=True,
        forwarded_allow_ips="127.0.0.1",
    )


def _openapi(args: argparse.Namespace) -> None:
    text = openapi_document()
    if args.output:
        Path(args.output).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)


def _keys(_: argparse.Namespace) -> None:
    from app.auth.keys import load_or_create_hub_keys

    keys = load_or_create_hub_keys(Settings().signing_key_file)
    sys.stdout.write(json.dumps(keys.jwks(), indent=2) + "\n")


def _demo(args: argparse.Namespace) -> None:
    import asyncio

    from rich.console import Console

    from app.demo.render import Transcript, show_summary
    from app.demo.runner import run_demo

    console = Console()
    console.rule("agenthub demo: an Internet-of-Agents team at work")
    try:
        result = asyncio.run(run_demo(Transcript(console), timeout_seconds=args.timeout))
    except KeyboardInterrupt:
        console.print("[bold red]stopped: every process the demo started has been stopped")
        raise SystemExit(130) from None
    if result.summary is not None:
        console.rule("what happened (read back from the hub's store)")
        show_summary(console, result.summary)
    if result.leader_exit != 0:
        raise SystemExit(1)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="agenthub", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    serve = sub.add_parser("serve", help="apply migrations, then run the hub")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--log-level", default="info")
    serve.add_argument("--no-migrate", action="store_true", help="skip applying migrations")
    serve.set_defaults(func=_serve)
    mig = sub.add_parser("migrate", help="apply the SQL migrations and exit")
    mig.set_defaults(func=lambda _: migrate(Settings().database_url))
    api = sub.add_parser("openapi", help="print the OpenAPI document, or write it to a path")
    api.add_argument("output", nargs="?")
    api.set_defaults(func=_openapi)
    keys = sub.add_parser("keys", help="make the hub's signing key if missing; print its JWKS")
    keys.set_defaults(func=_keys)
    demo = sub.add_parser(
        "demo", help="run a hub and a scripted team of agents on loopback, and narrate it"
    )
    demo.add_argument("--timeout", type=float, default=180, help="seconds for the whole story")
    demo.set_defaults(func=_demo)
    return parser


def main(argv: list[str] | None = None) -> None:
    args = build_parser().parse_args(argv)
    args.func(args)


if __name__ == "__main__":
    main()
