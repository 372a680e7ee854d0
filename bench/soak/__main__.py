"""A soak: one hub (SQLite) under a steady mix for ``--minutes``, reporting each minute what
would show a leak or a slow decay.

    python -m bench.soak --minutes 60 [--streams 200] [--json OUT] [--plot OUT.png]

The mix, all at once, all the time: group posts (``--posts`` a second) to a group whose
members hold ``--streams`` open streams in a process of their own (kit ``EventStream``s: a
stream the hub ends at its token's expiry is opened again); point-to-point calls from a kit
leader to a kit echo partner (its own process), each started and completed, every message
recorded at the hub; token refreshes; registrations and deregistrations; certificate
renewals (the oldest revoked as a new one is issued); and every two minutes a reconnect storm
(100 streams opened at once, then closed).

Each minute: the hub's RSS, open file descriptors, threads and event-loop tasks (its
``/metrics``), the p99 of every request the mix made in that minute (and per kind; a storm's
opening of 100 streams is one sample of its own kind, outside the overall p99), the 5xx
answers and the transport errors, and the group posts of the minute against their
deliveries (a post acknowledged and not delivered to every stream is lost).

The verdict reads the minutes after the first ten: RSS and descriptors flat within
5 % (the largest over the smallest), p99 drift under 20 % (the last third of those minutes
against the first third), zero 5xx, zero lost messages. ``--plot`` draws RSS, descriptors and
p99 over time (matplotlib).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import re
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import orjson

from agenthub import Agent, AgentKey, HubClient
from app.stopping import run_until_signalled
from bench import harness
from bench.harness import OPERATOR_TOKEN, UNLIMITED, free_port, hub_args, machine, percentile
from bench.p2p.servers import _partner_id

WARM_UP_MINUTES = 10
FLAT_WITHIN = 0.05
DRIFT_UNDER = 0.20
MEMBERS_STREAMS = 10  # streams per member
STORM_STREAMS = 100
STORM_EVERY_SECONDS = 120.0
DELIVERY_GRACE_SECONDS = 60.0
TEXT = "soak"


@dataclass
class Minute:
    index: int
    latencies: dict[str, list[float]] = field(default_factory=dict)
    server_errors: int = 0
    transport_errors: int = 0
    posts: int = 0

    def row(self, sample: dict[str, float], delivered: int, streams: int) -> dict[str, Any]:
        every = [
            ms for kind, samples in self.latencies.items() if kind != "storm" for ms in samples
        ]
        return {
            "minute": self.index,
            **sample,
            "requests": len(every),
            "p99_ms": round(percentile(every, 99), 2) if every else None,  # a storm aside
            "p99_ms_by_kind": {
                kind: round(percentile(samples, 99), 2)
                for kind, samples in sorted(self.latencies.items())
            },
            "server_errors": self.server_errors,
            "transport_errors": self.transport_errors,
            "posts": self.posts,
            "lost": self.posts * streams - delivered,
        }


class Mix:
    """The load's bookkeeping: which minute it is, and each request's outcome in it."""

    def __init__(self, minute_seconds: float) -> None:
        self.minute_seconds = minute_seconds
        self.started = time.monotonic()
        self.minutes: dict[int, Minute] = {}
        self.stopping = asyncio.Event()

    def now(self) -> int:
        return int((time.monotonic() - self.started) // self.minute_seconds)

    def minute(self, index: int | None = None) -> Minute:
        index = self.now() if index is None else index
        return self.minutes.setdefault(index, Minute(index))

    async def timed(self, kind: str, call: Callable[[], Awaitable[Any]]) -> Any:
        """``call()``, timed and counted in this minute: an ``httpx.Response`` of 5xx (or a
        ``HubRequestError`` saying one) is a server error; a transport error is counted."""
        minute = self.minute()
        begun = time.perf_counter()
        try:
            result = await call()
        except httpx.TransportError:
            minute.transport_errors += 1
            return None
        except Exception as exc:
            if getattr(exc, "status", 0) >= 500:
                minute.server_errors += 1
                return None
            raise
        minute.latencies.setdefault(kind, []).append((time.perf_counter() - begun) * 1000)
        if isinstance(result, httpx.Response) and result.status_code >= 500:
            minute.server_errors += 1
        return result

    async def every(
        self, seconds: float, step: Callable[[], Awaitable[None]], *, first: float = 0.0
    ) -> None:
        """``step`` every ``seconds`` (one at a time, the first after ``first``) until the
        soak ends."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.stopping.wait(), first)
        while not self.stopping.is_set():
            begun = time.monotonic()
            await step()
            with contextlib.suppress(TimeoutError):
                left = seconds - (time.monotonic() - begun)
                await asyncio.wait_for(self.stopping.wait(), max(left, 0))


def sample(pid: int, metrics: str) -> dict[str, float]:
    status = Path(f"/proc/{pid}/status").read_text()
    rss = int(re.search(r"VmRSS:\s+(\d+)", status).group(1))  # type: ignore[union-attr]
    threads = int(re.search(r"Threads:\s+(\d+)", status).group(1))  # type: ignore[union-attr]
    tasks = re.search(r"^agenthub_event_loop_tasks (\S+)$", metrics, re.M)
    return {
        "rss_mib": round(rss / 1024, 1),
        "fds": len(os.listdir(f"/proc/{pid}/fd")),
        "threads": threads,
        "tasks": float(tasks.group(1)) if tasks else -1,
    }


class Holder:
    """The stream-holding process (``bench.soak.holder``)."""

    def __init__(self, proc: asyncio.subprocess.Process) -> None:
        self.proc = proc
        self.lock = asyncio.Lock()

    @classmethod
    async def start(cls, spec: dict[str, Any]) -> Holder:
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bench.soak.holder",
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            cwd=harness.ROOT,
            env={**os.environ, "PYTHONPATH": str(harness.ROOT)},
        )
        holder = cls(proc)
        await holder._say(orjson.dumps(spec).decode())
        line = await asyncio.wait_for(holder._line(), 300)
        if line.strip() != b"ready":
            raise RuntimeError(f"the stream holder did not get ready: {line[:300]!r}")
        return holder

    async def _say(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line.encode() + b"\n")
        await self.proc.stdin.drain()

    async def _line(self) -> bytes:
        assert self.proc.stdout is not None
        return await self.proc.stdout.readline()

    async def count(self, minute: int) -> dict[str, int]:
        async with self.lock:
            await self._say(f"count {minute}")
            answer: dict[str, int] = orjson.loads(await asyncio.wait_for(self._line(), 60))
            return answer

    async def close(self) -> None:
        if self.proc.returncode is None:
            with contextlib.suppress(OSError):
                await self._say("quit")
            try:
                await asyncio.wait_for(self.proc.wait(), 20)
            except TimeoutError:
                self.proc.kill()
                await self.proc.wait()


async def registered(url: str, http: httpx.AsyncClient, name: str) -> HubClient:
    kit = HubClient(url, key=AgentKey.generate(), http=http)
    await kit.register(
        {"name": name, "description": f"soak {name}"}, registration_token=OPERATOR_TOKEN
    )
    return kit


async def run(
    minutes: float, streams: int, posts_per_second: float, minute_seconds: float
) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp, harness.processes() as procs:
        port = free_port()
        url = f"http://127.0.0.1:{port}"
        procs.append(
            harness.start(
                hub_args(port),
                env={"AGENTHUB_OPERATOR_TOKEN": OPERATOR_TOKEN, **UNLIMITED},
                cwd=tmp,
            )
        )
        hub_pid = procs[0].pid
        await harness.wait_up(f"{url}/healthz", procs[0])
        partner_port = free_port()
        id_file = Path(tmp) / "partner.id"
        procs.append(
            harness.start(
                [
                    "-m",
                    "bench.p2p.partner",
                    "--hub",
                    url,
                    "--port",
                    str(partner_port),
                    "--id-file",
                    str(id_file),
                ],
                env={"AGENTHUB_TOKEN": OPERATOR_TOKEN},
                cwd=tmp,
            )
        )
        partner_id = await _partner_id(id_file, procs[-1])
        limits = httpx.Limits(max_connections=32)
        async with httpx.AsyncClient(timeout=30, limits=limits) as http:
            return await _soak(
                url, http, hub_pid, partner_id, minutes, streams, posts_per_second, minute_seconds
            )


async def _soak(
    url: str,
    http: httpx.AsyncClient,
    hub_pid: int,
    partner_id: str,
    minutes: float,
    streams: int,
    posts_per_second: float,
    minute_seconds: float,
) -> dict[str, Any]:
    poster = await registered(url, http, "poster")
    session = poster.raise_or_json(
        await poster.request("POST", "/v1/sessions", json={"receivers": []})
    )
    group = await poster.groups.create(session["id"], "soak", join_policy="open")
    members = []
    for i in range(max(1, streams // MEMBERS_STREAMS)):
        member = await registered(url, http, f"member-{i}")
        await member.groups.join(group.id)
        members.append(member)
    after = max(0, (await poster.groups.get(group.id)).last_seq - 1)
    spec = {
        "hub": url,
        "group": group.id,
        "per_member": MEMBERS_STREAMS,
        "members": [
            {"id": m.agent_id, "key": m.key.private_pem().decode(), "after": after} for m in members
        ],
    }
    holder = await Holder.start(spec)
    held = len(members) * MEMBERS_STREAMS
    leader = Agent(url, key=AgentKey.generate(), plain_http=True)
    await leader.register(
        {"name": "soak-leader", "description": "calls the echo partner"},
        registration_token=OPERATOR_TOKEN,
    )
    p2p_session = await leader.leader.open_session([partner_id], title="soak")
    renewer = await registered(url, http, "renewer")
    storm = await registered(url, http, "storm")
    mix = Mix(minute_seconds)
    rows: list[dict[str, Any]] = []

    async def post() -> None:
        index = mix.now()
        body = harness.message_body(str(poster.agent_id), f"{TEXT} @{index}:{time.time():.6f}")
        answer = await mix.timed(
            "group_post",
            lambda: poster.request(
                "POST",
                f"/v1/groups/{group.id}/messages",
                content=body,
                headers={"Content-Type": "application/json"},
            ),
        )
        if answer is not None and answer.status_code == 201:
            mix.minute(index).posts += 1

    async def call() -> None:
        started = await mix.timed(
            "p2p_start",
            lambda: leader.leader.start(partner_id, session_id=p2p_session.id, text=TEXT),
        )
        if started is not None:
            await mix.timed(
                "p2p_complete",
                lambda: leader.leader.complete(
                    partner_id, session_id=p2p_session.id, task_id=started["taskId"]
                ),
            )

    turn = 0

    async def refresh() -> None:
        nonlocal turn
        member = members[turn % len(members)]
        turn += 1
        member.forget_token()
        await mix.timed("token", member.access_token)

    comers: list[HubClient] = []

    async def come_and_go() -> None:
        comer = await mix.timed("register", lambda: registered(url, http, "comer"))
        if comer is not None:
            comers.append(comer)
        if len(comers) > 5:
            await mix.timed("deregister", comers.pop(0).deregister)

    async def renew() -> None:
        path = f"/v1/agents/{renewer.agent_id}/certificates"
        listed = await mix.timed("certificates", lambda: renewer.request("GET", path))
        live = [
            c
            for c in (listed.json()["items"] if listed is not None else [])
            if not c.get("revokedAt")
        ]
        if len(live) >= 2:
            oldest = min(live, key=lambda c: c["notBefore"])
            await mix.timed(
                "revoke", lambda: renewer.request("DELETE", f"{path}/{oldest['serial']}")
            )
        csr = renewer.key.certificate_request("renewal")
        await mix.timed("certify", lambda: renewer.request("POST", path, json={"csr": csr}))

    async def reconnect_storm() -> None:
        token = await storm.access_token()
        headers = {"Authorization": f"Bearer {token}"}

        async def one(client: httpx.AsyncClient) -> None:
            async with client.stream(
                "GET", f"{url}/v1/agents/me/events", headers=headers
            ) as response:
                if response.status_code >= 500:
                    raise httpx.HTTPStatusError("5xx", request=response.request, response=response)

        async with httpx.AsyncClient(
            timeout=30, limits=httpx.Limits(max_connections=STORM_STREAMS)
        ) as client:
            await mix.timed(
                "storm", lambda: asyncio.gather(*(one(client) for _ in range(STORM_STREAMS)))
            )

    async def watch() -> None:
        """Each minute's row, once its posts had time to reach every stream."""
        done = 0
        total = max(1, round(minutes * 60 / minute_seconds))
        while done < total:
            await asyncio.sleep(0.2)
            if mix.now() <= done:
                continue
            metrics = (await http.get(f"{url}/metrics")).text
            resources = sample(hub_pid, metrics)
            minute = mix.minute(done)
            deadline = time.monotonic() + DELIVERY_GRACE_SECONDS
            while True:
                counted = await holder.count(done)
                if counted["deliveries"] >= minute.posts * held or time.monotonic() > deadline:
                    break
                await asyncio.sleep(0.5)
            rows.append(minute.row(resources, counted["deliveries"], held))
            print(orjson.dumps(rows[-1]).decode(), file=sys.stderr, flush=True)
            done += 1
        mix.stopping.set()

    try:
        await asyncio.gather(
            watch(),
            *(mix.every(1 / posts_per_second, post) for _ in range(1)),
            mix.every(0.5, call),
            mix.every(2.0, refresh),
            mix.every(10.0, come_and_go),
            mix.every(30.0, renew),
            # mid-minute, so that no minute's sample of the hub lands in a storm
            mix.every(
                STORM_EVERY_SECONDS * minute_seconds / 60, reconnect_storm, first=minute_seconds / 2
            ),
        )
    finally:
        await holder.close()
        await leader.aclose()
    return {
        "machine": machine(),
        "minutes": len(rows),
        "streams": held,
        "posts_per_second": posts_per_second,
        "rows": rows,
        "verdict": verdict(rows),
    }


def verdict(rows: list[dict[str, Any]]) -> dict[str, Any]:
    after = [r for r in rows if r["minute"] >= WARM_UP_MINUTES]
    out: dict[str, Any] = {
        "server_errors": sum(r["server_errors"] for r in rows),
        "transport_errors": sum(r["transport_errors"] for r in rows),
        "lost_messages": sum(max(r["lost"], 0) for r in rows),
    }
    out["no_5xx"] = out["server_errors"] == 0
    out["none_lost"] = out["lost_messages"] == 0
    if len(after) >= 3:
        third = max(1, len(after) // 3)
        first = percentile([r["p99_ms"] for r in after[:third]], 50)
        last = percentile([r["p99_ms"] for r in after[-third:]], 50)
        for key in ("rss_mib", "fds"):
            values = [r[key] for r in after]
            out[f"{key}_spread"] = round(max(values) / min(values) - 1, 4)
            out[f"{key}_flat"] = out[f"{key}_spread"] <= FLAT_WITHIN
        out["p99_drift"] = round(last / first - 1, 4)
        out["p99_steady"] = out["p99_drift"] < DRIFT_UNDER
    return out


def plot(report: dict[str, Any], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = report["rows"]
    minutes = [r["minute"] + 1 for r in rows]
    figure, (memory, latency) = plt.subplots(2, 1, sharex=True, figsize=(9, 6))
    memory.plot(minutes, [r["rss_mib"] for r in rows], label="hub RSS (MiB)")
    memory.set_ylabel("RSS (MiB)")
    descriptors = memory.twinx()
    descriptors.plot(minutes, [r["fds"] for r in rows], color="tab:orange", label="open fds")
    descriptors.set_ylabel("open file descriptors")
    memory.axvline(WARM_UP_MINUTES, color="grey", linestyle=":")
    latency.plot(minutes, [r["p99_ms"] for r in rows], color="tab:red", label="p99, every request")
    latency.plot(
        minutes,
        [r["p99_ms_by_kind"].get("group_post") for r in rows],
        color="tab:green",
        label="p99, group posts",
    )
    latency.set_ylabel("p99 (ms)")
    latency.set_xlabel("minute")
    latency.legend(loc="upper left")
    latency.axvline(WARM_UP_MINUTES, color="grey", linestyle=":")
    figure.suptitle(f"bench.soak: {report['minutes']} min, {report['streams']} streams")
    figure.tight_layout()
    figure.savefig(path, dpi=100)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.soak", description=__doc__)
    parser.add_argument("--minutes", type=float, default=60.0)
    parser.add_argument("--streams", type=int, default=200)
    parser.add_argument("--posts", type=float, default=5.0, help="group posts a second")
    parser.add_argument("--minute-seconds", type=float, default=60.0, help=argparse.SUPPRESS)
    parser.add_argument("--json", type=Path, help="also write the report here")
    parser.add_argument("--plot", type=Path, help="draw RSS and p99 over time here (PNG)")
    args = parser.parse_args(argv)
    report = run_until_signalled(run(args.minutes, args.streams, args.posts, args.minute_seconds))
    if args.plot is not None:
        plot(report, args.plot)
    return harness.publish_report(report, args.json)


if __name__ == "__main__":
    raise SystemExit(main())
