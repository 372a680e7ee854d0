"""``python -m bench.fanout``: group fan-out over real SSE connections, beside two baselines.

For each group size N (10, 100, 1,000) and each server, N streams are held by listener
processes (``bench/fanout/listener.py``, so the clients are not the server's bottleneck), and:

- **burst**: M messages are published as fast as 4 concurrent publishers can, each waiting
  for its post's answer before the next; deliveries per second = N·M / (last receive - first
  publish); and the CPU a message cost the server, the publishers' process and the listeners
  (``/proc``). With 4 posts outstanding a burst measures the round trip as much as the
  server: at N = 10 a durable server idles while the four wait on their commits. So at
  N <= 100 a second burst, **burst@16**, keeps the server busy with 16: its capacity
  (``--publishers`` sets the counts: ``4,16`` unless told). At N <= 100 every server is up
  at once and they take turns, each burst three times (the full run; ``--quick``: once):
  the median round is reported, with every round's rate (``rounds``), so that the machine's
  drift falls on every server alike;
- **paced**: messages at a steady rate well under capacity; publish→receive p50/p99.

Servers, each its own uvicorn process: **hub** (``agenthub serve`` on SQLite; members joined
to one group, each stream an authenticated ``GET /v1/groups/{id}/events``, each message a
durable ``POST /v1/groups/{id}/messages``); **sse-starlette** (``bench/fanout/bare_sse.py``:
in-memory queues, no store, no auth); **durable-sse** (``bench/fanout/durable_sse.py``:
the same, each post committed to SQLite before its ``201``: what durability alone costs);
**raw** (``bench/fanout/raw_asgi.py``: pre-encoded frames written by a bare ASGI app, the
stack's limit); **raw@granian**, **raw@hypercorn**
(the raw app under the other maintained ASGI servers).

**held** (the full run, or ``--held N``): N = 10,000 streams on one process of the raw app and
of the hub, from 4 listener processes, with the open-file limit raised: RSS per stream, a
burst of 10 messages and 5 s paced at 1 message/s over all of them, and for the hub
``/healthz`` p99 while they are open, idle and while delivering.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import statistics
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Callable, Coroutine
from contextlib import asynccontextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import httpx
import orjson

from agenthub import AgentKey, HubClient
from agenthub.transport import http_client
from app.stopping import run_until_signalled
from bench.harness import (
    OPERATOR_TOKEN,
    ROOT,
    UNLIMITED,
    asgi_server_args,
    free_port,
    healthz_p99,
    hub_args,
    machine,
    message_body,
    percentile,
    process_cpu_s,
    processes,
    publish_report,
    raise_fd_limit,
    rss_kib,
    start,
    wait_up,
)

TEXT = "x" * 200
SERVERS = ("raw", "sse-starlette", "durable-sse", "hub")
OTHER_ASGI_SERVERS = ("raw@granian", "raw@hypercorn")
"""The raw app under the other maintained ASGI servers (``--servers``; the full run adds
them at N=1000): what the stack's limit would be with each. ``hub-a2a`` (by ``--servers``
only): the hub's group fan-out to A2A subscribers (``SubscribeToTask``)."""
Publish = Callable[[bytes], Coroutine[Any, Any, None]]


@dataclass
class Plan:
    sizes: tuple[int, ...]
    burst_deliveries: int  # per size: burst messages = this / N, within [20, 4000]
    paced_seconds: float
    paced_deliveries_per_second: int  # paced rate = this / N messages/s, at most 50
    held: int = 0  # streams held open on one hub process (0: not measured)
    publishers: tuple[int, ...] = (4, 16)  # a burst each (the first: "burst"; at N <= 100)
    rounds: int = 1  # at N <= 100, each burst this many times, the servers taking turns

    def burst_messages(self, n: int) -> int:
        # as many deliveries at every size: at N = 10 a cap of 1,000 messages made the burst a
        # quarter of the others' and a second long, much of it the new server's first steps
        return max(20, min(4000, self.burst_deliveries // n))

    def paced_rate(self, n: int) -> float:
        return min(50.0, self.paced_deliveries_per_second / n)


FULL = Plan((10, 100, 1000), 40_000, 5.0, 2_000, held=10_000, rounds=3)
QUICK = Plan((10, 100, 1000), 8_000, 2.0, 2_000)
WARMUP_MESSAGES = 50  # before a size's burst, on every server
HELD_LISTENERS = 4
HELD_BURST_MESSAGES = 10
HELD_PACED_RATE = 1.0  # messages/s: 10,000 deliveries/s at 10,000 streams


@dataclass
class Setup:
    streams: list[dict[str, Any]]  # what a listener opens: port, path, token
    publish: Publish  # posts one message body
    url: str = ""
    pid: int = 0  # the server's process


def message(sender: str, phase: int) -> bytes:
    """A group message marked for the listeners with its phase and publish time."""
    return message_body(sender, f"{TEXT} @{phase}:{time.time():.6f}")


# -- servers -------------------------------------------------------------------------------


@asynccontextmanager
async def baseline(app: str, n: int, asgi: str = "uvicorn") -> AsyncIterator[tuple[Setup, str]]:
    port = free_port()
    with processes() as procs:
        procs.append(start(asgi_server_args(asgi, app, port)))
        await wait_up(f"http://127.0.0.1:{port}/publish", procs[0])
        async with http_client(timeout=60) as http:  # the kit's client, as the hub's publisher

            async def publish(body: bytes) -> None:
                response = await http.post(f"http://127.0.0.1:{port}/publish", content=body)
                response.raise_for_status()

            streams = [{"port": port, "path": "/stream"} for _ in range(n)]
            yield Setup(streams, publish, f"http://127.0.0.1:{port}", procs[0].pid), "bench"


async def _member(url: str, http: httpx.AsyncClient, group_id: str) -> str:
    member = HubClient(url, key=AgentKey.generate(), http=http)
    await member.register({"name": "listener"}, registration_token=OPERATOR_TOKEN)
    await member.groups.join(group_id)
    return await member.access_token()


@asynccontextmanager
async def hub(n: int, *, a2a: bool = False) -> AsyncIterator[tuple[Setup, str]]:
    """The hub; its members subscribe by the group's event stream, or (``a2a``) by A2A's
    ``SubscribeToTask`` at the group's A2A endpoint (``app.a2a_groups``)."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as tmp, processes() as procs:
        env = {"AGENTHUB_OPERATOR_TOKEN": OPERATOR_TOKEN, **UNLIMITED}
        procs.append(start(hub_args(port), env=env, cwd=tmp))
        await wait_up(f"{url}/healthz", procs[0])
        limits = httpx.Limits(max_connections=16)
        async with httpx.AsyncClient(timeout=60, limits=limits) as http:
            leader = HubClient(url, key=AgentKey.generate(), http=http)
            await leader.register({"name": "publisher"}, registration_token=OPERATOR_TOKEN)
            session = leader.raise_or_json(
                await leader.request("POST", "/v1/sessions", json={"receivers": []})
            )
            group = await leader.groups.create(session["id"], "fan-out", join_policy="open")
            tokens: list[str] = []
            for first in range(0, n, 16):
                tokens += await asyncio.gather(
                    *(_member(url, http, group.id) for _ in range(first, min(n, first + 16)))
                )
            auth = {"Authorization": f"Bearer {await leader.access_token()}"}
            # start from now: replaying N join events to each of N streams is not fan-out
            last_seq = (await leader.groups.get(group.id)).last_seq
        # the publisher's own client, as the baselines' (httpcore scans every pooled
        # connection on each request: the members' sixteen made each post cost the
        # publisher, on the same two cores, half as much again); the kit's, as an agent
        # posts with HubClient (agenthub.transport: each connection to one request at a
        # time; httpcore's own pool made the four publishers retry one another's)
        async with http_client(timeout=60) as publisher:

            async def publish(body: bytes) -> None:
                response = await publisher.post(
                    f"{url}/v1/groups/{group.id}/messages",
                    content=body,
                    headers={**auth, "Content-Type": "application/json"},
                )
                if response.status_code != 201:
                    raise RuntimeError(f"the hub refused a post: {response.text}")

            path = f"/v1/groups/{group.id}/events?after={last_seq}"
            streams = [{"port": port, "path": path, "token": t} for t in tokens]
            if a2a:  # from now, as the event streams: a subscribe starts at the group's seq
                subscribe = {
                    "jsonrpc": "2.0",
                    "id": 1,
                    "method": "SubscribeToTask",
                    "params": {"id": group.id},
                }
                path = f"/v1/groups/{group.id}/a2a"
                streams = [
                    {"port": port, "path": path, "token": t, "body": subscribe} for t in tokens
                ]
            yield Setup(streams, publish, url, procs[0].pid), str(leader.agent_id)


def server(name: str, n: int) -> Any:
    if name in ("hub", "hub-a2a"):
        return hub(n, a2a=name == "hub-a2a")
    base, _, asgi = name.partition("@")
    app = {
        "raw": "bench.fanout.raw_asgi:app",
        "sse-starlette": "bench.fanout.bare_sse:app",
        "durable-sse": "bench.fanout.durable_sse:app",
    }[base]
    return baseline(app, n, asgi or "uvicorn")


# -- listeners -----------------------------------------------------------------------------


class Listeners:
    """Listener processes, each holding its share of the streams."""

    def __init__(self, procs: list[asyncio.subprocess.Process]) -> None:
        self.procs = procs

    @classmethod
    async def open(
        cls, streams: list[dict[str, Any]], count: int, timeout: float = 120
    ) -> Listeners:
        procs = []
        for i in range(count):
            share = streams[i::count]
            proc = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "bench.fanout.listener",
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                cwd=ROOT,
                limit=2**26,
            )
            assert proc.stdin is not None
            proc.stdin.write(orjson.dumps({"streams": share}) + b"\n")
            procs.append(proc)
        listeners = cls(procs)
        for line in await listeners._read_all(timeout):
            if line.strip() != b"ready":
                raise RuntimeError(f"a listener did not get ready: {line[:300]!r}")
        return listeners

    async def _read_all(self, timeout: float) -> list[bytes]:
        async def one(proc: asyncio.subprocess.Process) -> bytes:
            assert proc.stdout is not None
            return await proc.stdout.readline()

        return await asyncio.wait_for(asyncio.gather(*(one(p) for p in self.procs)), timeout)

    async def expect(self, phase: int, count: int, timeout: float) -> None:
        for proc in self.procs:
            assert proc.stdin is not None
            proc.stdin.write(f"expect {phase} {count} {timeout}\n".encode())
            await proc.stdin.drain()

    async def results(self, timeout: float) -> list[dict[str, Any]]:
        return [orjson.loads(line) for line in await self._read_all(timeout + 30)]

    async def close(self) -> None:
        for proc in self.procs:
            if proc.returncode is None and proc.stdin is not None:
                proc.stdin.write(b"quit\n")
        for proc in self.procs:
            try:
                await asyncio.wait_for(proc.wait(), 10)
            except TimeoutError:
                proc.kill()
                await proc.wait()


# -- phases --------------------------------------------------------------------------------


def summary(results: list[dict[str, Any]], n: int, messages: int, started: float) -> dict[str, Any]:
    latencies = [ms for r in results for ms in r["latencies_ms"]]
    deliveries = sum(r["deliveries"] for r in results)
    last = max(r["last_receive"] for r in results)
    return {
        "messages": messages,
        "deliveries": deliveries,
        "expected": n * messages,
        "seconds": round(last - started, 3),
        "deliveries_per_second": round(deliveries / max(last - started, 1e-9)),
        "p50_ms": round(statistics.median(latencies), 2) if latencies else None,
        "p99_ms": round(percentile(latencies, 99), 2) if latencies else None,
    }


def cpu_seconds(setup: Setup, listeners: Listeners) -> dict[str, float]:
    """CPU seconds so far of the server, this process (the publishers) and the listeners."""
    return {
        "server": process_cpu_s(setup.pid),
        "publisher": process_cpu_s(os.getpid()),
        "listeners": sum(process_cpu_s(p.pid) for p in listeners.procs),
    }


async def burst(
    setup: Setup,
    sender: str,
    listeners: Listeners,
    n: int,
    m: int,
    publishers: int = 4,
    phase: int = 1,  # the listeners count each phase's frames apart (paced: 2)
) -> dict[str, Any]:
    await listeners.expect(phase, m, timeout=180)
    queue = list(range(m))
    cpu = cpu_seconds(setup, listeners)
    started = time.time()

    async def publisher() -> None:
        while queue:
            queue.pop()
            await setup.publish(message(sender, phase))

    await asyncio.gather(*(publisher() for _ in range(publishers)))
    result = summary(await listeners.results(180), n, m, started)
    result["publishers"] = publishers
    spent = cpu_seconds(setup, listeners)
    # what a message cost each process, in ms of CPU (on two cores all three share them)
    result["cpu_ms_per_message"] = {k: round(1000 * (spent[k] - cpu[k]) / m, 3) for k in cpu}
    return result


async def paced(
    setup: Setup, sender: str, listeners: Listeners, n: int, rate: float, seconds: float
) -> dict[str, Any]:
    m = max(5, round(rate * seconds))
    await listeners.expect(2, m, timeout=seconds + 120)
    started = time.time()
    posts: list[asyncio.Task[None]] = []
    for i in range(m):
        await asyncio.sleep(max(0.0, started + i / rate - time.time()))
        posts.append(asyncio.create_task(setup.publish(message(sender, 2))))
    await asyncio.gather(*posts)
    result = summary(await listeners.results(seconds + 120), n, m, started)
    result["rate"] = round(rate, 2)
    return result


async def measure(names: tuple[str, ...], n: int, plan: Plan) -> dict[str, dict[str, Any]]:
    """Every server at size ``n``. At N <= 100 all of them are up at once and take turns:
    each burst runs ``plan.rounds`` times, a round being one burst of every server in turn,
    and the round of median deliveries/s is reported (with every round's rate): this
    machine's speed drifts by 10-20 % within minutes, and a drift then falls on every server
    of a round alike rather than on whichever ran during it. At N = 1000, one after the
    other, one burst (4 publishers) once each."""
    if n <= 100:
        return await _in_turns(names, n, plan)
    alone = replace(plan, publishers=plan.publishers[:1], rounds=1)
    return {name: (await _in_turns((name,), n, alone))[name] for name in names}


async def _in_turns(names: tuple[str, ...], n: int, plan: Plan) -> dict[str, dict[str, Any]]:
    async with contextlib.AsyncExitStack() as stack:
        up: dict[str, tuple[Setup, str, Listeners]] = {}
        for name in names:
            setup, sender = await stack.enter_async_context(server(name, n))
            listeners = await Listeners.open(setup.streams, 1 if n < 100 else 2)
            stack.push_async_callback(listeners.close)
            up[name] = (setup, sender, listeners)
        for setup, sender, _ in up.values():
            for _ in range(WARMUP_MESSAGES):  # every server's path warm (caches, statements)
                await setup.publish(message(sender, 0))
        m = plan.burst_messages(n)
        results: dict[str, dict[str, Any]] = {name: {} for name in names}
        phase = 3  # the listeners count each burst's frames apart (1: a lone burst; 2: paced)
        for i, count in enumerate(plan.publishers):
            rounds: dict[str, list[dict[str, Any]]] = {name: [] for name in names}
            for _ in range(plan.rounds):
                for name, (setup, sender, listeners) in up.items():
                    rounds[name].append(await burst(setup, sender, listeners, n, m, count, phase))
                phase += 1
            for name, each in rounds.items():
                rates = [r["deliveries_per_second"] for r in each]
                median = sorted(each, key=lambda r: r["deliveries_per_second"])[len(each) // 2]
                results[name]["burst" if i == 0 else f"burst@{count}"] = {**median, "rounds": rates}
        for name, (setup, sender, listeners) in up.items():
            results[name]["paced"] = await paced(
                setup, sender, listeners, n, plan.paced_rate(n), plan.paced_seconds
            )
    return results


async def held(name: str, n: int) -> dict[str, Any]:
    """``n`` streams on one process of server ``name``: its RSS per stream, a burst and a
    paced phase over all of them, and for the hub ``/healthz`` p99 while they are open (idle,
    and while messages fan out)."""
    fd_limit = raise_fd_limit(n + 1024)  # the server's and the listeners' limits are inherited
    probe = name == "hub"
    async with server(name, n) as (setup, sender):
        quiet = await healthz_p99(setup.url, 3) if probe else None
        before = rss_kib(setup.pid)
        opened = time.monotonic()
        listeners = await Listeners.open(setup.streams, HELD_LISTENERS, timeout=600)
        try:
            open_seconds = time.monotonic() - opened
            await asyncio.sleep(2)
            after = rss_kib(setup.pid)
            idle = await healthz_p99(setup.url, 5) if probe else None
            await setup.publish(message(sender, 0))  # warm up the path
            result = {"burst": await burst(setup, sender, listeners, n, HELD_BURST_MESSAGES)}
            paced_phase = paced(setup, sender, listeners, n, HELD_PACED_RATE, 5.0)
            if probe:
                result["paced"], busy = await asyncio.gather(paced_phase, healthz_p99(setup.url, 4))
            else:
                result["paced"], busy = await paced_phase, None
        finally:
            await listeners.close()
    return {
        "streams": n,
        "fd_limit": fd_limit,
        "open_seconds": round(open_seconds, 1),
        "rss_kib_per_stream": round((after - before) / n, 1),
        "rss_mib": {"before": round(before / 1024, 1), "held": round(after / 1024, 1)},
        "healthz_p99_ms": {"quiet": quiet, "streams_open": idle, "while_delivering": busy},
        **result,
    }


def _ratio(by_server: dict[str, Any], a: str, b: str, phase: str) -> float:
    """``a``'s deliveries/s over ``b``'s in a burst: where they took turns, the median of
    the rounds' ratios (each round's two bursts ran seconds apart, on the same machine's
    speed), else the ratio of the two bursts."""
    one: dict[str, Any] = by_server[a][phase]
    other: dict[str, Any] = by_server[b][phase]
    if "rounds" in one and "rounds" in other and len(one["rounds"]) == len(other["rounds"]):
        pairs: list[tuple[float, float]] = list(zip(one["rounds"], other["rounds"], strict=True))
        return round(statistics.median(x / y for x, y in pairs), 2)
    ratio: float = one["deliveries_per_second"] / other["deliveries_per_second"]
    return round(ratio, 2)


async def run(plan: Plan, servers: tuple[str, ...] = SERVERS) -> dict[str, Any]:
    report: dict[str, Any] = {"machine": machine(), "sizes": {}}
    if plan.held:
        report["held"] = {name: await held(name, plan.held) for name in ("raw", "hub")}
    for n in plan.sizes:
        by_server: dict[str, Any] = await measure(servers, n, plan)
        report["sizes"][str(n)] = by_server
        if {"hub", "hub-a2a"} <= set(servers):  # A2A subscribers against the hub's
            by_server["a2a_over_hub"] = _ratio(by_server, "hub-a2a", "hub", "burst")
        if not set(SERVERS) <= set(servers):
            continue
        by_server["ratios"] = {
            "hub_over_sse_starlette": _ratio(by_server, "hub", "sse-starlette", "burst"),
            **{
                f"hub_over_sse_starlette{phase.removeprefix('burst')}": _ratio(
                    by_server, "hub", "sse-starlette", phase
                )
                for phase in by_server["hub"]
                if phase.startswith("burst@")
            },
            "hub_over_durable_sse": _ratio(by_server, "hub", "durable-sse", "burst"),
            "hub_over_raw": _ratio(by_server, "hub", "raw", "burst"),
            **{
                f"{name}_over_raw": _ratio(by_server, name, "raw", "burst")
                for name in OTHER_ASGI_SERVERS
                if name in by_server
            },
        }
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.fanout", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="fewer messages per size")
    parser.add_argument("--sizes", type=lambda s: tuple(int(x) for x in s.split(",") if x))
    parser.add_argument(
        "--held", type=int, help="streams held on one hub (default: 10,000; --quick: none)"
    )
    parser.add_argument(
        "--servers",
        type=lambda s: tuple(s.split(",")),
        default=SERVERS + OTHER_ASGI_SERVERS,
        help="default: all",
    )
    parser.add_argument(
        "--publishers",
        type=lambda s: tuple(int(x) for x in s.split(",") if x),
        default=(4, 16),
        help="concurrent publishers of each burst (default: 4,16; the second at N <= 100)",
    )
    parser.add_argument("--json", type=Path, help="also write the report here")
    args = parser.parse_args(argv)
    plan = QUICK if args.quick else FULL
    if args.sizes is not None:
        plan = replace(plan, sizes=args.sizes)
    if args.held is not None:
        plan.held = args.held
    if not args.publishers or min(args.publishers) < 1:
        parser.error("--publishers: counts of at least 1, comma-separated")
    plan.publishers = args.publishers
    report = run_until_signalled(run(plan, args.servers))
    return publish_report(report, args.json)


if __name__ == "__main__":
    sys.exit(main())
