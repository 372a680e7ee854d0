"""``agenthub demo`` as a command: its options checked (a ``--port`` in use is one line,
before anything starts: another process's hub would pass for the demo's), the story told on
the console, the summary read back, and exit codes (1: the demo failed; 130: Ctrl-C)."""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import sys
from typing import Any


def run_demo_command(args: argparse.Namespace) -> None:
    """``agenthub demo``: the story told on the console, with the options of its parser."""
    from rich.console import Console

    from app.checks import require_free_port
    from app.demo.render import Transcript, show_summary
    from app.demo.runner import TOKEN, DemoFailed, DemoResult, run_demo

    if args.port is not None:  # else another process's hub there would pass for the demo's
        require_free_port(
            "127.0.0.1", args.port, fix="choose another, or leave --port out for a free one"
        )
    console = Console()
    if args.trace is not None and importlib.util.find_spec("opentelemetry.proto") is None:
        print(
            "agenthub demo --trace needs the otel extra: pip install 'agenthub-hub[otel]'",
            file=sys.stderr,
        )
        raise SystemExit(2)
    console.rule("agenthub demo: an Internet-of-Agents team at work")

    async def keep(result: DemoResult, hub_url: str) -> None:
        if result.summary is not None:
            console.rule("what happened (read back from the hub's store)")
            show_summary(console, result.summary)
        console.rule("the hub stays up")
        console.print(
            f"console: {hub_url}/console  (sign in with the operator token {TOKEN})",
            soft_wrap=True,
        )
        console.print("Ctrl-C stops it.")
        await asyncio.Event().wait()

    from app.stopping import run_until_signalled

    try:
        result = run_until_signalled(
            run_demo(
                Transcript(console),
                timeout_seconds=args.timeout,
                keep=keep if args.keep else None,
                trace_to=args.trace,
                port=args.port,
            )
        )
    except KeyboardInterrupt:
        console.print("[bold red]stopped: every process the demo started has been stopped")
        raise SystemExit(130) from None
    except DemoFailed as exc:
        show_failure(console, str(exc), exc.who, exc.output)
        raise SystemExit(1) from None
    if args.trace is not None:
        console.print(f"traces: {args.trace / 'traces.jsonl'} (OTLP JSON lines)")
    if result.summary is not None and not args.keep:
        console.rule("what happened (read back from the hub's store)")
        show_summary(console, result.summary)
        console.print(
            "[dim]agenthub demo --keep keeps the hub up afterwards, to look at what happened in "
            "its web console (/console)"
        )
    if result.leader_exit != 0:
        show_failure(console, "the leader did not finish", "leader", result.leader_output)
        raise SystemExit(1)


def show_failure(console: Any, message: str, who: str | None, output: list[str]) -> None:
    console.print(f"[bold red]the demo failed: {message}")
    if output:
        console.rule(f"the last lines {who} printed")
        for line in output:
            console.print(line, markup=False, highlight=False)
