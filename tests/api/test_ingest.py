"""The write pipeline (``app.records.ingest``): records of several kinds, from several
senders, in one transaction, each with the outcome it would have alone."""

from __future__ import annotations

from typing import Any

import orjson

from agenthub import HubClient
from agenthub.protocol.messages import parse_message
from agenthub.protocol.sessions import RelayedAnswer
from app.errors import HubError
from app.records.record import Record
from tests.api.test_sessions import open_session
from tests.support.hub import MakeAgent
from tests.support.messages import chat, result
from tests.support.parts import parts


def record(agent: HubClient, session_id: str, body: dict[str, Any]) -> Record:
    return Record(
        str(agent.agent_id), agent.key.thumbprint, parse_message(body), session_id=session_id
    )


async def test_one_transaction_gives_each_record_its_own_outcome(
    make_agent: MakeAgent, hub: Any
) -> None:
    leader, partner, other = [await make_agent(n) for n in ("leader", "partner", "other")]
    session_id = (await open_session(leader, partner, other))["id"]
    pid = str(partner.agent_id)
    said = chat(str(leader.agent_id), "one row")
    # ``other`` relays an answer of ``partner``'s for a task it does not lead: the task the
    # report would create (led by the session's leader) is taken back with the refusal
    answer = orjson.dumps({"jsonrpc": "2.0", "id": "1", "result": result(pid, "t2", "accepted")})
    relayed = RelayedAnswer.model_validate({"partnerId": pid, "answer": answer.decode()})
    records = [
        record(partner, session_id, result(pid, "t1", "accepted")),
        Record(
            str(other.agent_id), other.key.thumbprint, None, session_id=session_id, answer=relayed
        ),
        record(partner, session_id, result(pid, "t1", "working")),
        record(partner, session_id, result(pid, "t2", "accepted")),
        record(leader, session_id, said),
        record(leader, session_id, said),  # the same id again, in the same transaction
        record(partner, session_id, result(pid, "t1", "rejected")),  # past accepted
    ]
    ingest = parts(hub).ingest
    batches = ingest.batches
    outcomes = await ingest.many(records)
    assert ingest.batches == batches + 1
    statuses = [o.status if isinstance(o, HubError) else o[1] for o in outcomes]
    assert statuses == [201, 422, 201, 201, 201, 200, 409]
    assert outcomes[4][0] == outcomes[5][0]  # type: ignore[index]
    for task_id, states in (("t1", ["accepted", "working"]), ("t2", ["accepted"])):
        got = await leader.request("GET", f"/v1/tasks/{task_id}", params={"sessionId": session_id})
        assert got.status_code == 200, got.text
        task = got.json()
        assert [s["state"] for s in task["statusHistory"]] == states
        assert (task["leaderId"], task["partnerId"]) == (leader.agent_id, pid)
    history = await leader.request("GET", f"/v1/sessions/{session_id}/messages")
    kept = [(m["senderId"], m["type"]) for m in history.json()["items"]]
    assert kept == [(pid, "task-result")] * 3 + [(leader.agent_id, "message")]


async def test_a_batch_of_task_records_is_folded_in_memory(make_agent: MakeAgent, hub: Any) -> None:
    """A batch's point-to-point task records cost a few statements for the whole
    batch (one task read, one task INSERT, one UPDATE for the moved ones, the rows and the
    inbox), not ~6 each; the tasks come out as one record at a time would make them."""
    from sqlalchemy import event
    from sqlmodel import col, select

    from app.inbox.models import InboxEvent
    from tests.support.messages import command

    leader, partner = await make_agent("leader"), await make_agent("partner")
    session_id = (await open_session(leader, partner))["id"]
    lid, pid = str(leader.agent_id), str(partner.agent_id)
    records = []
    for n in range(10):
        task_id = f"t-{n}"
        start = command(lid, "start", task_id=task_id, partnerId=pid, dataItems=[])
        records.append(record(leader, session_id, start))
        for state in ("accepted", "working", "awaiting-completion"):
            records.append(record(partner, session_id, result(pid, task_id, state)))
        records.append(record(leader, session_id, command(lid, "complete", task_id=task_id)))
        records.append(record(partner, session_id, result(pid, task_id, "completed")))
    statements: list[str] = []

    def count(_conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
        statements.append(statement)

    engine = parts(hub).engine.sync_engine
    event.listen(engine, "before_cursor_execute", count)
    try:
        outcomes = await parts(hub).ingest.many(records)
    finally:
        event.remove(engine, "before_cursor_execute", count)
    assert [o[1] for o in outcomes] == [201] * len(records)  # type: ignore[index]
    assert len(statements) <= 16, "\n".join(s.split("\n")[0][:60] for s in statements)
    for n in range(10):
        got = await leader.request("GET", f"/v1/tasks/t-{n}", params={"sessionId": session_id})
        task = got.json()
        assert task["state"] == "completed"
        assert [s["state"] for s in task["statusHistory"]] == [
            "accepted",
            "working",
            "awaiting-completion",
            "completed",
        ]
    async with parts(hub).session_factory() as db:  # the partner told of each start, complete
        told = await db.exec(select(InboxEvent.seq).where(col(InboxEvent.agent_id) == pid))
        assert sorted(told.all()) == list(range(1, 21))


async def test_a_record_submitted_a_turn_after_the_first_shares_its_transaction(
    make_agent: MakeAgent, hub: Any
) -> None:
    """The writer lets the event loop turn before it takes its batch: a request whose data
    came with the one that woke it (its task a turn or two behind) joins the same commit."""
    import asyncio

    leader, partner = [await make_agent(n) for n in ("leader", "partner")]
    session_id = (await open_session(leader, partner))["id"]
    ingest = parts(hub).ingest
    batches = ingest.batches
    first = asyncio.create_task(
        ingest.many([record(leader, session_id, chat(str(leader.agent_id), "one"))])
    )
    await asyncio.sleep(0)  # the first is submitted and has woken the writer
    second = asyncio.create_task(
        ingest.many([record(leader, session_id, chat(str(leader.agent_id), "two"))])
    )
    outcomes = await asyncio.gather(first, second)
    assert [o[0][1] for o in outcomes] == [201, 201]  # type: ignore[index]
    assert ingest.batches == batches + 1


async def test_a_record_submitted_two_turns_after_the_first_shares_its_transaction(
    make_agent: MakeAgent, hub: Any
) -> None:
    """A request's way from its bytes to the writer is two turns (the parser's callback,
    then its task): the writer waits for it (``Ingest._gather``)."""
    import asyncio

    leader, partner = [await make_agent(n) for n in ("leader", "partner")]
    session_id = (await open_session(leader, partner))["id"]
    ingest = parts(hub).ingest
    batches = ingest.batches

    async def later() -> Any:
        await asyncio.sleep(0)  # a turn behind the first, as a request whose task just began
        return await ingest.many([record(leader, session_id, chat(str(leader.agent_id), "two"))])

    first = asyncio.create_task(
        ingest.many([record(leader, session_id, chat(str(leader.agent_id), "one"))])
    )
    await asyncio.sleep(0)  # the first is submitted and has woken the writer
    outcomes = await asyncio.gather(first, asyncio.create_task(later()))
    assert [o[0][1] for o in outcomes] == [201, 201]  # type: ignore[index]
    assert ingest.batches == batches + 1
