"""``python -m bench.ingest``: durable group message POSTs per second, beside a bare POST.

The hub (``agenthub serve``; SQLite, or PostgreSQL with ``--postgres``) and a bare FastAPI
endpoint that validates the same message body and answers it (``bench/ingest/bare.py``) run
as their own uvicorn processes. The load comes from ``--loaders`` processes
(``bench/ingest/load.py``, plain asyncio HTTP/1.1) with ``--connections`` keep-alive
connections in all. Every hub message is a new one, committed to SQL before its 201.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

import orjson

from agenthub import AgentKey, HubClient
from app.stopping import run_until_signalled
from bench.harness import (
    OPERATOR_TOKEN,
    ROOT,
    UNLIMITED,
    create_pg_database,
    drop_pg_database,
    free_port,
    hub_args,
    machine,
    percentile,
    processes,
    publish_report,
    start,
    uvicorn_args,
    wait_up,
)
from bench.ingest.load import REPORTS


async def load(
    port: int,
    path: str,
    token: str,
    sender: str,
    connections: int,
    loaders: int,
    seconds: float,
    kind: str = "message",
) -> dict[str, Any]:
    """Run the load processes against one endpoint; posts/s and latency over all of them."""
    shares = [connections // loaders + (i < connections % loaders) for i in range(loaders)]
    procs = [
        await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bench.ingest.load",
            *map(str, (port, path, token, sender, share, seconds, kind)),
            stdout=asyncio.subprocess.PIPE,
            cwd=ROOT,
            limit=2**26,
        )
        for share in shares
        if share
    ]
    outputs = await asyncio.wait_for(
        asyncio.gather(*(p.communicate() for p in procs)), seconds + 60
    )
    if any(p.returncode for p in procs):
        raise RuntimeError("a load process failed")
    reports = [orjson.loads(out) for out, _ in outputs]
    latencies = [ms for r in reports for ms in r["latencies_ms"]]
    posts = sum(r["posts"] for r in reports)
    messages = sum(r["messages"] for r in reports)
    elapsed = max(r["seconds"] for r in reports)
    return {
        "posts": posts,
        "posts_per_second": round(posts / elapsed),
        "messages_per_second": round(messages / elapsed),
        "p50_ms": round(statistics.median(latencies), 2),
        "p99_ms": round(percentile(latencies, 99), 2),
    }


async def _group(url: str) -> tuple[str, str, str, int]:
    """A publisher agent and its group: (group id, access token, agent id, last seq)."""
    async with HubClient(url, key=AgentKey.generate()) as leader:
        await leader.register({"name": "bench"}, registration_token=OPERATOR_TOKEN)
        session = leader.raise_or_json(
            await leader.request("POST", "/v1/sessions", json={"receivers": []})
        )
        group = await leader.groups.create(session["id"], "ingest")
        return group.id, await leader.access_token(), str(leader.agent_id), group.last_seq


async def _session(url: str) -> tuple[str, str, str, str, str]:
    """A leader and a partner in a session: (session id, leader token, leader id, partner
    token, partner id)."""
    async with (
        HubClient(url, key=AgentKey.generate()) as leader,
        HubClient(url, key=AgentKey.generate()) as partner,
    ):
        await partner.register({"name": "bench partner"}, registration_token=OPERATOR_TOKEN)
        await leader.register({"name": "bench leader"}, registration_token=OPERATOR_TOKEN)
        receivers = [{"agentId": str(partner.agent_id), "mode": "p2p"}]
        session = leader.raise_or_json(
            await leader.request("POST", "/v1/sessions", json={"receivers": receivers})
        )
        return (
            session["id"],
            await leader.access_token(),
            str(leader.agent_id),
            await partner.access_token(),
            str(partner.agent_id),
        )


async def _stored_in(url: str, session_id: str, token: str) -> int:
    """How many point-to-point messages the session holds (paged through)."""
    import httpx

    stored, cursor = 0, None
    async with httpx.AsyncClient(base_url=url, timeout=30) as http:
        while True:
            params: dict[str, Any] = {"limit": 200, **({"after": cursor} if cursor else {})}
            page = await http.get(
                f"/v1/sessions/{session_id}/messages",
                params=params,
                headers={"Authorization": f"Bearer {token}"},
            )
            body = page.json()
            stored += len(body["items"])
            if not (cursor := body.get("nextCursor")):
                return stored


async def _last_seq(url: str, group_id: str, token: str) -> int:
    import httpx

    async with httpx.AsyncClient() as http:
        response = await http.get(
            f"{url}/v1/groups/{group_id}", headers={"Authorization": f"Bearer {token}"}
        )
        return int(response.json()["lastSeq"])


async def run(
    seconds: float, connections: int, loaders: int, database_url: str | None = None
) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp, processes() as procs:
        hub_port, bare_port = free_port(), free_port()
        env = {"AGENTHUB_OPERATOR_TOKEN": OPERATOR_TOKEN, **UNLIMITED}
        if database_url:
            env["AGENTHUB_DATABASE_URL"] = database_url
        procs.append(start(hub_args(hub_port), env=env, cwd=tmp))
        procs.append(start(uvicorn_args("bench.ingest.bare:app", bare_port)))
        hub_url = f"http://127.0.0.1:{hub_port}"
        await wait_up(f"{hub_url}/healthz", procs[0])
        await wait_up(f"http://127.0.0.1:{bare_port}/docs", procs[1])
        group_id, token, sender, first_seq = await _group(hub_url)
        hub_path = f"/v1/groups/{group_id}/messages"

        async def hub(secs: float, conns: int) -> dict[str, Any]:
            return await load(hub_port, hub_path, token, sender, conns, loaders, secs)

        async def bare(secs: float, conns: int) -> dict[str, Any]:
            return await load(bare_port, "/messages", "-", sender, conns, loaders, secs)

        await bare(1, connections)  # warm up
        warm_up = await hub(1, connections)
        result: dict[str, Any] = {"bare": await bare(seconds, connections)}
        result["hub"] = await hub(seconds, connections)
        result["hub_one_connection"] = await hub(seconds / 2, 1)
        stored = await _last_seq(hub_url, group_id, token) - first_seq
        session_id, leader_token, leader_id, partner_token, partner_id = await _session(hub_url)
        p2p_path = f"/v1/sessions/{session_id}/messages"
        p2p_warm = await load(hub_port, p2p_path, leader_token, leader_id, connections, loaders, 1)
        result["session_messages"] = await load(
            hub_port, p2p_path, leader_token, leader_id, connections, loaders, seconds
        )
        result["session_task_reports"] = await load(
            hub_port, f"{p2p_path}:batch", partner_token, partner_id, 8, loaders, seconds, "tasks"
        )
        p2p_stored = await _stored_in(hub_url, session_id, leader_token)
    posted = warm_up["posts"] + result["hub"]["posts"] + result["hub_one_connection"]["posts"]
    p2p_posted = (
        p2p_warm["posts"]
        + result["session_messages"]["posts"]
        + result["session_task_reports"]["posts"] * REPORTS
    )
    return {
        "machine": machine(),
        "store": "postgresql" if database_url else "sqlite",
        "connections": connections,
        "loaders": loaders,
        "seconds": seconds,
        **result,
        "hub_over_bare": round(
            result["hub"]["posts_per_second"] / result["bare"]["posts_per_second"], 2
        ),
        "hub_posts_answered_201": posted,
        "hub_messages_stored": stored,
        "session_messages_over_bare": round(
            result["session_messages"]["posts_per_second"] / result["bare"]["posts_per_second"], 2
        ),
        "session_records_answered_201": p2p_posted,
        "session_records_stored": p2p_stored,
    }


async def run_on(
    seconds: float, connections: int, loaders: int, postgres_admin: str | None
) -> dict[str, Any]:
    """SQLite, or a fresh PostgreSQL database made next to ``postgres_admin`` and dropped."""
    if postgres_admin is None:
        return await run(seconds, connections, loaders)
    name, url = await create_pg_database(postgres_admin)
    try:
        return await run(seconds, connections, loaders, url)
    finally:
        await drop_pg_database(postgres_admin, name)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.ingest", description=__doc__)
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--loaders", type=int, default=2, help="load processes")
    parser.add_argument(
        "--postgres",
        help="an admin URL (postgresql+asyncpg://postgres@127.0.0.1:5432/test); "
        "a fresh database is made and dropped",
    )
    parser.add_argument("--quick", action="store_true", help="3 s per server")
    parser.add_argument("--json", type=Path, help="also write the report here")
    args = parser.parse_args(argv)
    seconds = 3 if args.quick else args.seconds
    report = run_until_signalled(run_on(seconds, args.connections, args.loaders, args.postgres))
    return publish_report(report, args.json)


if __name__ == "__main__":
    sys.exit(main())
