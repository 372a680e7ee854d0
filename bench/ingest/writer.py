"""``python -m bench.ingest.writer``: the record engine alone, no HTTP.

The hub's app is started in this process (SQLite in a temporary folder, its lifespan
running); a leader and a partner register and open a session through the app itself, then
``--callers`` concurrent callers hand the process's writer (``app.state.ingest``) the records
of kit-shaped calls, ``--per-submission`` at a time: the leader's ``start``, the partner's
``accepted``, ``working``, ``awaiting-completion``, the leader's ``complete`` and the
partner's ``completed``; with ``--group-posts``, plain group posts instead, one a submission
(``--calls`` of them). Reported: records/s, this process's CPU per record (the writer and
the records' construction), and SQL statements per record, counted by
``bench.harness.count_statements`` (SQLAlchemy's ``before_cursor_execute`` and the hub's
driver calls).
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
import uuid
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import orjson

from agenthub import AgentKey, HubClient
from agenthub.protocol.messages import parse_message
from app.config import Settings
from app.main import create_app
from app.records.record import Record
from app.schema import migrate
from bench.harness import OPERATOR_TOKEN, count_statements, machine, message_body, publish_report

REGISTRATION = "bench-registration"  # a throwaway hub's
BASE = "http://hub.bench"
STATES = ("accepted", "working", "awaiting-completion")


def _now() -> str:
    return datetime.now(UTC).isoformat()


def _message(sender: str, role: str, task_id: str, **fields: Any) -> dict[str, Any]:
    return {
        "id": f"m-{uuid.uuid4().hex}",
        "sentAt": _now(),
        "senderRole": role,
        "senderId": sender,
        "taskId": task_id,
        **fields,
    }


def call_records(leader: str, partner: str, task_id: str) -> list[tuple[str, dict[str, Any]]]:
    """One kit call's records, in the order its two sides make them."""

    def report(state: str) -> tuple[str, dict[str, Any]]:
        status = {"state": state, "stateChangedAt": _now()}
        return partner, _message(partner, "partner", task_id, type="task-result", status=status)

    def command(name: str, **fields: Any) -> tuple[str, dict[str, Any]]:
        return leader, _message(
            leader, "leader", task_id, type="task-command", command=name, **fields
        )

    made = [command("start", partnerId=partner)]  # made in turn: each sent after the last
    made += [report(state) for state in STATES]
    made.append(command("complete"))
    made.append(report("completed"))
    return made


async def _agent(http: httpx.AsyncClient, name: str) -> HubClient:
    key = AgentKey.generate()
    kit = HubClient(BASE, key=key, http=http)
    await kit.register({"name": name, "publicJwk": key.public_jwk}, registration_token=REGISTRATION)
    return kit


async def run(
    calls: int, callers: int, per_submission: int, *, group_posts: bool = False
) -> dict[str, Any]:
    folder = Path(tempfile.mkdtemp(prefix="bench-writer-"))
    url = f"sqlite+aiosqlite:///{folder / 'hub.db'}"
    await asyncio.to_thread(migrate, url)
    settings = Settings(
        _env_file=None,
        database_url=url,
        signing_key_file=folder / "hub-key.pem",
        operator_token=OPERATOR_TOKEN,
        registration_token=REGISTRATION,
        broker_url="memory://",
    )
    app = create_app(settings)
    async with app.router.lifespan_context(app):
        statements = 0

        def count(_: str) -> None:
            nonlocal statements
            statements += 1

        count_statements(count)
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url=BASE) as http:
            leader, partner = await _agent(http, "leader"), await _agent(http, "partner")
            keys = {str(a.agent_id): a.key.thumbprint for a in (leader, partner)}
            opened = await leader.request(
                "POST", "/v1/sessions", json={"receivers": [{"agentId": partner.agent_id}]}
            )
            session_id = opened.json()["id"]
            ingest = app.state.ingest

            async def one_call(n: int) -> None:
                made = call_records(str(leader.agent_id), str(partner.agent_id), f"t-{n}")
                records = [
                    Record(who, keys[who], parse_message(body), session_id=session_id)
                    for who, body in made
                ]
                for at in range(0, len(records), per_submission):
                    for outcome in await ingest.many(records[at : at + per_submission]):
                        if not isinstance(outcome, tuple):
                            raise RuntimeError(f"a record was refused: {outcome}")

            one = one_call
            if group_posts:
                group = await leader.groups.create(session_id, "bench", join_policy="open")
                sender = str(leader.agent_id)

                async def one_post(n: int) -> None:
                    body = orjson.loads(message_body(sender, f"post {n}"))
                    record = Record(sender, keys[sender], parse_message(body), group_id=group.id)
                    for outcome in await ingest.many([record]):
                        if not isinstance(outcome, tuple):
                            raise RuntimeError(f"a post was refused: {outcome}")

                one = one_post

            todo = list(range(calls))

            async def caller() -> None:
                while todo:
                    await one(todo.pop())

            for warm in range(-50, 0):
                await one(warm)
            statements, batches = 0, ingest.batches
            cpu, wall = time.process_time(), time.perf_counter()
            await asyncio.gather(*(caller() for _ in range(callers)))
            cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
            records = calls * (1 if group_posts else 6)
            return {
                "machine": machine(),
                "kind": "group posts" if group_posts else "kit calls",
                "calls": calls,
                "callers": callers,
                "per_submission": per_submission,
                "records": records,
                "records_per_second": round(records / wall),
                "cpu_ms_per_record": round(cpu / records * 1000, 3),
                "statements_per_record": round(statements / records, 2),
                "records_per_transaction": round(records / (ingest.batches - batches), 1),
            }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.ingest.writer", description=__doc__)
    parser.add_argument("--calls", type=int, default=500)
    parser.add_argument("--callers", type=int, default=16)
    parser.add_argument("--per-submission", type=int, default=2)
    parser.add_argument(
        "--group-posts", action="store_true", help="plain group posts, one a submission"
    )
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    report = asyncio.run(
        run(args.calls, args.callers, args.per_submission, group_posts=args.group_posts)
    )
    return publish_report(report, args.json)


if __name__ == "__main__":
    raise SystemExit(main())
