"""What bounded resources cost and guarantee, on a hub process of this machine:

- **idle streams**: hub RSS per idle stream with 2,000 open (listener processes hold them),
  and ``/healthz`` p99 while they are open;
- **reconnect storm**: ``/healthz`` p99 while 500 clients open their streams at once;
- **replaying streams**: hub RSS growth while 8 readers that read nothing replay 40 messages
  of 900 KB each (the hub under ``--before`` runs the sources of an older checkout, to
  compare in the same run);
- **partner at its task cap**: a kit partner's memory per held task, at 10,000 tasks, and
  that the next start is refused;
- **revocation list**: with 1,500 certificates revoked, an anonymous CRL GET against a
  ``/healthz`` (p50/p99, one at a time), a conditional GET's status, and 300 GETs at once
  over 50 connections, again and again for 5 s: their 5xx and ``/healthz`` p99 meanwhile.

    python -m bench.limits [--quick] [--before PATH] [--json OUT]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any

import httpx

from agenthub import AgentKey, HubClient, TaskContext, TaskHandler
from app.stopping import run_until_signalled
from bench.harness import (
    OPERATOR_TOKEN,
    ROOT,
    UNLIMITED,
    free_port,
    healthz_p99,
    hub_args,
    machine,
    percentile,
    processes,
    publish_report,
    rss_kib,
    wait_up,
)

BIG_MESSAGE_BYTES = 900_000


def listener(streams: list[dict[str, Any]]) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "bench.fanout.listener"],
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
    )
    assert proc.stdin is not None
    proc.stdin.write(json.dumps({"streams": streams}).encode() + b"\n")
    proc.stdin.flush()
    return proc


async def ready(proc: subprocess.Popen[bytes], timeout: float = 120) -> None:
    assert proc.stdout is not None
    line = await asyncio.wait_for(asyncio.to_thread(proc.stdout.readline), timeout)
    if line.strip() != b"ready":
        raise RuntimeError(f"a listener failed: {line!r}")


def hub_env(root: Path) -> dict[str, str]:
    return {"AGENTHUB_OPERATOR_TOKEN": OPERATOR_TOKEN, **UNLIMITED, "PYTHONPATH": str(root)}


async def hub_process(root: Path, procs: list[Any], tmp: str) -> tuple[str, int]:
    port = free_port()
    env = {**os.environ, **hub_env(root)}
    proc = subprocess.Popen(  # noqa: S603, ASYNC220 (started once, before anything is timed)
        [sys.executable, *hub_args(port)],
        env=env,
        cwd=tmp,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    procs.append(proc)
    url = f"http://127.0.0.1:{port}"
    await wait_up(f"{url}/healthz", proc)
    return url, proc.pid


async def idle_and_storm(n_idle: int, n_storm: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp, processes() as procs:
        url, pid = await hub_process(ROOT, procs, tmp)
        port = int(url.rsplit(":", 1)[1])
        async with HubClient(url, key=AgentKey.generate()) as kit:
            await kit.register({"name": "holder"}, registration_token=OPERATOR_TOKEN)
            token = await kit.access_token()
        spec = {"port": port, "path": "/v1/agents/me/events", "token": token}
        quiet_p99 = await healthz_p99(url, 3)
        before = rss_kib(pid)
        holders = [listener([spec] * (n_idle // 2)) for _ in range(2)]
        procs.extend(holders)
        for holder in holders:
            await ready(holder)
        await asyncio.sleep(2)
        after = rss_kib(pid)
        idle_p99 = await healthz_p99(url, 5)
        for holder in holders:
            holder.terminate()
        await asyncio.sleep(2)
        storm = listener([spec] * n_storm)
        procs.append(storm)
        storm_p99, _ = await asyncio.gather(healthz_p99(url, 3), ready(storm))
        return {
            "idle_streams": n_idle,
            "rss_kib_per_idle_stream": round((after - before) / n_idle, 1),
            "healthz_p99_ms": {"quiet": quiet_p99, "idle_streams_open": idle_p99},
            "reconnect_storm": {"clients": n_storm, "healthz_p99_ms": storm_p99},
        }


async def replay_growth(root: Path, readers: int, messages: int) -> dict[str, Any]:
    """RSS growth while ``readers`` that read nothing replay ``messages`` big ones."""
    with tempfile.TemporaryDirectory() as tmp, processes() as procs:
        url, pid = await hub_process(root, procs, tmp)
        port = int(url.rsplit(":", 1)[1])
        async with httpx.AsyncClient(timeout=60) as http:
            leader = HubClient(url, key=AgentKey.generate(), http=http)
            await leader.register({"name": "poster"}, registration_token=OPERATOR_TOKEN)
            session = leader.raise_or_json(
                await leader.request("POST", "/v1/sessions", json={"receivers": []})
            )
            group = await leader.groups.create(session["id"], "big", join_policy="open")
            reader = HubClient(url, key=AgentKey.generate(), http=http)
            await reader.register({"name": "reader"}, registration_token=OPERATOR_TOKEN)
            await reader.groups.join(group.id)
            for i in range(messages):
                await leader.groups.post(group.id, f"{i} " + "x" * BIG_MESSAGE_BYTES, role="leader")
            token = await reader.access_token()
        await asyncio.sleep(1)
        before = rss_kib(pid)
        stuck = []
        for _ in range(readers):  # each sends its request and never reads a byte
            r, w = await asyncio.open_connection("127.0.0.1", port)
            w.write(
                f"GET /v1/groups/{group.id}/events?after=0 HTTP/1.1\r\nHost: x\r\n"
                f"Authorization: Bearer {token}\r\n\r\n".encode()
            )
            stuck.append((r, w))
        peak = before
        for _ in range(50):
            await asyncio.sleep(0.1)
            peak = max(peak, rss_kib(pid))
        for _, w in stuck:
            w.close()
        return {
            "readers": readers,
            "messages": messages,
            "message_bytes": BIG_MESSAGE_BYTES,
            "rss_mib_before": round(before / 1024, 1),
            "rss_mib_peak": round(peak / 1024, 1),
            "growth_mib": round((peak - before) / 1024, 1),
        }


class Waits(TaskHandler):
    async def on_start(self, task: TaskContext) -> None:
        await task.await_input("and then?")


async def partner_at_cap(tasks: int) -> dict[str, Any]:
    from agenthub.protocol.messages import TaskCommand
    from agenthub.runtime import PartnerRuntime, RpcFault

    runtime = PartnerRuntime(agent_id="partner", handler=Waits(), recorder=None, notifier=None)
    runtime.max_tasks = tasks
    runtime.max_tasks_per_caller = tasks

    def start(i: int) -> TaskCommand:
        return TaskCommand.model_validate(
            {
                "type": "task-command",
                "id": f"c-{i}",
                "sentAt": "2026-12-01T00:00:00Z",
                "senderRole": "leader",
                "senderId": "leader",
                "sessionId": "s",
                "taskId": f"t-{i}",
                "command": "start",
                "dataItems": [{"type": "text", "text": f"task {i} " + "y" * 200}],
            }
        )

    tracemalloc.start()
    baseline = tracemalloc.get_traced_memory()[0]
    for i in range(tasks):
        await runtime.apply(start(i), caller_id="leader")
        if i % 500 == 0:
            await asyncio.sleep(0)
    await asyncio.sleep(0.5)  # every handler has asked its question
    held = tracemalloc.get_traced_memory()[0] - baseline
    tracemalloc.stop()
    refused = None
    with contextlib.suppress(RpcFault):
        await runtime.apply(start(tasks), caller_id="leader")
        refused = False
    for task in runtime.tasks.values():
        if task.runner is not None:
            task.runner.cancel()
    return {
        "tasks": tasks,
        "kib_per_task": round(held / tasks / 1024, 2),
        "mib_at_cap": round(held / 2**20, 1),
        "next_start_refused": refused is None,
    }


async def _revoked(url: str, agents: int, rounds: int) -> None:
    """``agents`` agents, side by side, each asking for a certificate and revoking it
    ``rounds`` times (one live at a time: the cap is never met)."""

    async def one(n: int) -> None:
        async with HubClient(url, key=AgentKey.generate()) as kit:
            await kit.register({"name": f"revoker {n}"}, registration_token=OPERATOR_TOKEN)
            csr = kit.key.certificate_request(str(kit.agent_id))
            for _ in range(rounds):
                issued = await kit.request_certificate(csr)
                await kit.revoke_certificate(issued.serial)

    await asyncio.gather(*(one(n) for n in range(agents)))


async def _latencies(http: httpx.AsyncClient, path: str, count: int) -> dict[str, float]:
    samples = []
    for _ in range(count):
        started = time.perf_counter()
        response = await http.get(path)
        samples.append((time.perf_counter() - started) * 1000)
        response.raise_for_status()
    return {f"p{p}_ms": round(percentile(samples, p), 2) for p in (50, 99)}


async def healthz_p99_apart(url: str, seconds: float) -> float:
    """``healthz_p99`` from a process of its own: not slowed by this one's load."""
    code = (
        "import asyncio, sys; from bench.harness import healthz_p99; "
        "print(asyncio.run(healthz_p99(sys.argv[1], float(sys.argv[2]))))"
    )
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-c", code, url, str(seconds), stdout=asyncio.subprocess.PIPE, cwd=ROOT
    )
    out, _ = await asyncio.wait_for(proc.communicate(), seconds + 60)
    if proc.returncode:
        raise RuntimeError("the /healthz prober failed")
    return float(out)


async def revocation_list(revoked: int, at_once: int, seconds: float) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp, processes() as procs:
        url, _ = await hub_process(ROOT, procs, tmp)
        agents = 8
        await _revoked(url, agents, revoked // agents)
        crl = "/.well-known/agenthub-crl.pem"
        limits = httpx.Limits(max_connections=50, max_keepalive_connections=50)
        async with httpx.AsyncClient(base_url=url, timeout=60, limits=limits) as http:
            first = await http.get(crl)
            first.raise_for_status()
            one_at_a_time = {
                "healthz": await _latencies(http, "/healthz", 300),
                "crl": await _latencies(http, crl, 300),
            }
            again = await http.get(crl, headers={"If-None-Match": first.headers["etag"]})
            statuses: dict[int, int] = {}

            async def storm() -> None:
                deadline = time.monotonic() + seconds
                while time.monotonic() < deadline:
                    answers = await asyncio.gather(
                        *(http.get(crl) for _ in range(at_once)), return_exceptions=True
                    )
                    for answer in answers:
                        status = answer.status_code if isinstance(answer, httpx.Response) else 0
                        statuses[status] = statuses.get(status, 0) + 1

            healthz_during, _ = await asyncio.gather(healthz_p99_apart(url, seconds), storm())
        entries = first.text.count("\n")  # a rough size: the PEM's lines
        return {
            "revoked": agents * (revoked // agents),
            "crl_pem_lines": entries,
            "one_at_a_time": one_at_a_time,
            "conditional_get_status": again.status_code,
            "concurrent": {
                "at_once": at_once,
                "seconds": seconds,
                "answers": statuses,
                "server_errors": sum(n for s, n in statuses.items() if s >= 500 or s == 0),
                "healthz_p99_ms": healthz_during,
            },
        }


async def run(quick: bool, before: Path | None) -> dict[str, Any]:
    report: dict[str, Any] = {"machine": machine()}
    report["streams"] = await idle_and_storm(500 if quick else 2000, 100 if quick else 500)
    readers, messages = (4, 10) if quick else (8, 40)
    report["replay"] = {"now": await replay_growth(ROOT, readers, messages)}
    if before is not None:
        report["replay"]["before"] = await replay_growth(before, readers, messages)
    report["partner"] = await partner_at_cap(1_000 if quick else 10_000)
    report["revocation_list"] = await revocation_list(
        160 if quick else 1_500, 100 if quick else 300, 2 if quick else 5
    )
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.limits", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="smaller numbers, for the tests")
    parser.add_argument("--before", type=Path, help="a checkout of older sources to compare")
    parser.add_argument("--json", type=Path, help="also write the report here")
    args = parser.parse_args(argv)
    return publish_report(run_until_signalled(run(args.quick, args.before)), args.json)


if __name__ == "__main__":
    raise SystemExit(main())
