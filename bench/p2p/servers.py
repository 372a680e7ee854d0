"""The p2p benchmark's servers, each its own process on 127.0.0.1 with one uvicorn worker: the
hub (``bench.p2p.hub``: the product's ``serve`` with its SQL statements counted), two kit
partners (plain and mutual TLS, each with a control port), the bare endpoint, the a2a-sdk agent."""

from __future__ import annotations

import asyncio
import subprocess
from dataclasses import dataclass
from pathlib import Path

from bench import harness
from bench.p2p.hub import COUNTS_ENV

PARTNER_ID_SECONDS = 30.0


@dataclass(frozen=True)
class Servers:
    hub_url: str
    partner_id: str
    partner_url: str
    tls_partner_id: str
    tls_partner_url: str
    bare_url: str
    a2a_url: str
    hub_pid: int
    sql_counts: Path
    partner_control: int
    tls_partner_control: int
    pids: dict[str, int]  # each target's server process


async def _partner_id(id_file: Path, proc: subprocess.Popen[bytes]) -> str:
    """The id the partner writes once it is registered at the hub."""
    for _ in range(int(PARTNER_ID_SECONDS * 10)):
        try:
            return (await asyncio.to_thread(id_file.read_text)).strip()
        except FileNotFoundError:
            pass
        if proc.poll() is not None:
            raise RuntimeError(f"the partner exited with {proc.returncode} before registering")
        await asyncio.sleep(0.1)
    raise RuntimeError(f"the partner did not register in {PARTNER_ID_SECONDS} s")


async def start_servers(workdir: Path, started: list[subprocess.Popen[bytes]]) -> Servers:
    """Hub (SQLite in ``workdir``), kit partner, bare endpoint and a2a-sdk echo agent, all up.

    Every process is appended to ``started`` as soon as it exists, for the caller to stop.
    """
    hub_port, partner_port, tls_port, bare_port, a2a_port = (harness.free_port() for _ in range(5))
    hub_url = f"http://127.0.0.1:{hub_port}"
    bare_url = f"http://127.0.0.1:{bare_port}/"
    a2a_url = f"http://127.0.0.1:{a2a_port}/"
    sql_counts = workdir / "sql-counts"
    hub = harness.start(
        ["-m", "bench.p2p.hub", *harness.hub_args(hub_port)[2:]],
        env={
            "AGENTHUB_OPERATOR_TOKEN": harness.OPERATOR_TOKEN,
            COUNTS_ENV: str(sql_counts),
            **harness.UNLIMITED,
        },
        cwd=workdir,
    )
    started.append(hub)
    bare = harness.start(harness.uvicorn_args("bench.p2p.bare:app", bare_port))
    started.append(bare)
    a2a = harness.start(
        harness.uvicorn_args("bench.p2p.a2a_echo:app", a2a_port), env={"A2A_ECHO_URL": a2a_url}
    )
    started.append(a2a)
    await harness.wait_up(f"{hub_url}/healthz", hub)
    partners = {}
    controls = {False: harness.free_port(), True: harness.free_port()}
    for port, tls in ((partner_port, False), (tls_port, True)):
        id_file = workdir / f"partner-{port}.id"
        partner = harness.start(
            [
                *("-m", "bench.p2p.partner", "--hub", hub_url),
                *("--port", str(port), "--id-file", str(id_file)),
                *("--control-port", str(controls[tls])),
                *(("--tls",) if tls else ()),
            ],
            env={"AGENTHUB_TOKEN": harness.OPERATOR_TOKEN},
        )
        started.append(partner)
        partners[tls] = (await _partner_id(id_file, partner), partner)
    partner_url = f"http://127.0.0.1:{partner_port}/"
    tls_url = f"https://127.0.0.1:{tls_port}/"
    await asyncio.gather(
        harness.wait_up(partner_url, partners[False][1]),
        harness.wait_port(tls_port, partners[True][1]),
        harness.wait_up(bare_url, bare),
        harness.wait_up(f"{a2a_url}.well-known/agent-card.json", a2a),
    )
    await asyncio.gather(*(harness.wait_port(controls[tls], partners[tls][1]) for tls in controls))
    return Servers(
        hub_url,
        partners[False][0],
        partner_url,
        partners[True][0],
        tls_url,
        bare_url,
        a2a_url,
        hub_pid=hub.pid,
        sql_counts=sql_counts,
        partner_control=controls[False],
        tls_partner_control=controls[True],
        pids={
            "kit_rpc": partners[False][1].pid,
            "kit_rpc_mtls": partners[True][1].pid,
            "bare_httpx": bare.pid,
            "a2a_sdk": a2a.pid,
            "kit_a2a": partners[False][1].pid,
        },
    )
