"""The kit partner the p2p benchmark calls: an echo agent, registered at the hub, served alone
(AIP and A2A).

    python -m bench.p2p.partner --hub http://127.0.0.1:8000 --port 9001 --id-file partner.id \
        [--tls] [--control-port 9002]

The registration token comes from ``AGENTHUB_TOKEN``. Once registered, the agent's id is
written to ``--id-file`` (atomically) for the driver, then its endpoint serves on 127.0.0.1.

With ``--control-port``, the driver can also ask it, over a bare TCP line on 127.0.0.1, what
its recorder did: ``stats`` answers at once, ``flush`` once every record it queued reached
the hub (or gave up); both answer one JSON line ``{"recorded", "failures", "drained"}``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
from pathlib import Path

import orjson

try:
    import uvloop
except ImportError:  # the kit alone: uvicorn without its [standard] extra
    uvloop = None  # type: ignore[assignment]

from agenthub import Agent, AgentKey
from examples.echo_partner import Echo  # the documented example, as a user would run it

FLUSH_SECONDS = 120.0


async def _answer(agent: Agent, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    """One control request (``stats`` or ``flush``), one JSON line back, then close."""
    try:
        command = (await reader.readline()).strip()
        drained = True
        if command == b"flush":
            drained = await agent.recorder.flush(FLUSH_SECONDS)
        answer = {
            "recorded": agent.recorder.recorded,
            "failures": len(agent.recorder.failures),
            "drained": drained,
        }
        writer.write(orjson.dumps(answer) + b"\n")
        await writer.drain()
    finally:
        writer.close()
        with contextlib.suppress(OSError):
            await writer.wait_closed()


async def serve(
    hub: str,
    port: int,
    id_file: Path,
    token: str | None,
    *,
    tls: bool,
    control_port: int | None = None,
) -> None:
    agent = Agent(
        hub,
        key=AgentKey.generate(),
        handler=Echo(),
        public_url=f"{'https' if tls else 'http'}://127.0.0.1:{port}/",
        plain_http=not tls,
        a2a=True,  # A2A callers too, beside AIP, at the same URL (``kit_a2a``)
    )
    await agent.register(
        {"name": "p2p-echo", "description": "echoes text back for the p2p benchmark"},
        registration_token=token,
    )
    partial = id_file.with_suffix(".partial")
    partial.write_text(agent.agent_id)
    partial.replace(id_file)
    # each call leaves its task awaiting completion (the leader never completes it): the
    # partner's limit on one leader's live tasks is for agents in the wild, not this run
    runtime = agent.endpoint.runtime
    assert runtime is not None
    runtime.max_tasks = runtime.max_tasks_per_caller = 1_000_000
    controls = None  # held while the endpoint serves
    if control_port is not None:
        controls = await asyncio.start_server(
            lambda r, w: _answer(agent, r, w), "127.0.0.1", control_port
        )
    try:
        await agent.serve(port=port)  # as a user serves it; with --tls, mutual TLS
    finally:
        if controls is not None:
            controls.close()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.p2p.partner", description=__doc__)
    parser.add_argument("--hub", required=True, help="the hub's base URL")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--id-file", type=Path, required=True)
    parser.add_argument("--tls", action="store_true", help="serve HTTPS with mutual TLS")
    parser.add_argument("--control-port", type=int, help="answer stats/flush here (TCP)")
    args = parser.parse_args(argv)
    token = os.environ.get("AGENTHUB_TOKEN")
    # the loop uvicorn gives the baselines (``python -m uvicorn``: uvloop where installed),
    # which ``agent.serve()`` serves in: the stdlib loop's TLS is pure Python (asyncio's
    # sslproto was 13 % of this partner's CPU over mutual TLS, py-spy)
    run = uvloop.run if uvloop is not None else asyncio.run
    run(
        serve(
            args.hub,
            args.port,
            args.id_file,
            token,
            tls=args.tls,
            control_port=args.control_port,
        )
    )


if __name__ == "__main__":
    main()
