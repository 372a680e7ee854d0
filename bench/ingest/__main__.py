"""``python -m bench.ingest``: durable group message POSTs per second on the hub (SQLite, or
PostgreSQL with ``--postgres``), beside a bare FastAPI POST endpoint in the same run.

Both servers run as their own uvicorn process; the load comes from this process (httpx,
``--concurrency`` connections). Each hub message is committed to SQL before its 201.

Work in progress for the benchmarks issue: one httpx process is itself the ceiling here
(~170 bare POSTs/s on 2 cores), so the absolute numbers say little; the ratio is the result
until the load comes from several processes.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

import httpx

from app.agent import AgentKey, HubClient

ROOT = Path(__file__).parents[2]
TOKEN = "bench-operator"  # noqa: S105 (a throwaway hub's operator token)


def _free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
    return port


async def _up(url: str, proc: subprocess.Popen[bytes]) -> None:
    async with httpx.AsyncClient(timeout=1) as http:
        for _ in range(300):
            assert proc.poll() is None, "the server exited"
            try:
                if (await http.get(url)).status_code < 500:
                    return
            except httpx.TransportError:
                pass
            await asyncio.sleep(0.1)
    raise RuntimeError(f"{url} did not come up")


def _start(args: list[str], env: dict[str, str], cwd: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen(  # noqa: S603 (our own interpreter and modules)
        [sys.executable, *args],
        env={**os.environ, "PYTHONPATH": str(ROOT), **env},
        cwd=cwd,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def _message(sender: str) -> dict[str, Any]:
    return {
        "type": "message",
        "id": f"m-{uuid.uuid4().hex}",
        "sentAt": "2026-12-01T00:00:00Z",
        "senderRole": "leader",
        "senderId": sender,
        "dataItems": [{"type": "text", "text": "x" * 200}],
    }


async def _load(url: str, headers: dict[str, str], sender: str, seconds: float, n: int) -> float:
    done = 0
    deadline = time.perf_counter() + seconds
    limits = httpx.Limits(max_connections=n, max_keepalive_connections=n)
    async with httpx.AsyncClient(headers=headers, limits=limits, timeout=30) as http:

        async def worker() -> None:
            nonlocal done
            while time.perf_counter() < deadline:
                response = await http.post(url, json=_message(sender))
                assert response.status_code == 201, response.text
                done += 1

        started = time.perf_counter()
        await asyncio.gather(*(worker() for _ in range(n)))
        return done / (time.perf_counter() - started)


async def run(seconds: float, concurrency: int, database_url: str | None) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        hub_port, bare_port = _free_port(), _free_port()
        env = {"AGENTHUB_OPERATOR_TOKEN": TOKEN}
        if database_url:
            env["AGENTHUB_DATABASE_URL"] = database_url
        hub = _start(
            ["-m", "app.cli", "serve", "--port", str(hub_port), "--log-level", "warning"], env, tmp
        )
        bare = _start(
            [
                "-m",
                "uvicorn",
                "bench.ingest.bare:app",
                "--port",
                str(bare_port),
                "--log-level",
                "warning",
            ],
            {},
            str(ROOT),
        )
        try:
            hub_url, bare_url = f"http://127.0.0.1:{hub_port}", f"http://127.0.0.1:{bare_port}"
            await _up(f"{hub_url}/healthz", hub)
            await _up(f"{bare_url}/docs", bare)
            async with HubClient(hub_url, key=AgentKey.generate()) as leader:
                body = {
                    "name": "bench",
                    "description": "bench",
                    "skills": [],
                    "publicJwk": leader.key.public_jwk,
                }
                await leader.register(body, registration_token=TOKEN)
                session = await leader.request("POST", "/v1/sessions", json={"receivers": []})
                group = await leader.groups.create(session.json()["id"], "bench")
                token = await leader.access_token()
                sender = str(leader.agent_id)
            auth = {"Authorization": f"Bearer {token}"}
            await _load(f"{bare_url}/messages", {}, sender, 1, concurrency)  # warm up
            await _load(f"{hub_url}/v1/groups/{group.id}/messages", auth, sender, 1, concurrency)
            bare_rate = await _load(f"{bare_url}/messages", {}, sender, seconds, concurrency)
            hub_rate = await _load(
                f"{hub_url}/v1/groups/{group.id}/messages", auth, sender, seconds, concurrency
            )
        finally:
            for proc in (hub, bare):
                proc.terminate()
                proc.wait(timeout=15)
    return {
        "store": "postgresql" if database_url else "sqlite",
        "concurrency": concurrency,
        "seconds": seconds,
        "hub_messages_per_second": round(hub_rate),
        "bare_posts_per_second": round(bare_rate),
        "hub_over_bare": round(hub_rate / bare_rate, 2),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.ingest", description=__doc__)
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--concurrency", type=int, default=32)
    parser.add_argument("--postgres", help="a database URL (postgresql+asyncpg://…) to use")
    parser.add_argument("--quick", action="store_true", help="3 s per server")
    args = parser.parse_args(argv)
    seconds = 3 if args.quick else args.seconds
    print(json.dumps(asyncio.run(run(seconds, args.concurrency, args.postgres)), indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
