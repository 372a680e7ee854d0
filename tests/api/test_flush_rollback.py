"""A flush of plain and in-memory records that meets an id or a task taken since the batch
read (``Ingest._flush``'s IntegrityError) leaves nothing of itself behind: its rows, task
moves, inbox events and staged events are rolled back and unstaged, and each of its records
goes down the full path and gets the outcome it would have had had the other row been there
when the batch read. Made to happen for real by another writer of the same store whose
transaction the test holds open (PostgreSQL; on SQLite the batch waits for it, and the
outcomes must be the same). A relay earlier in the same batch, which stores the partner's own
record of an answer, no longer makes it happen: the batch marks the id used, and the
partner's record finds the row (the outcomes, rows and events are the same)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from typing import Any

import orjson
from sqlalchemy import event, text
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from agenthub import HubClient
from agenthub.protocol.groups import ConversationState
from agenthub.protocol.messages import parse_message
from agenthub.protocol.sessions import RelayedAnswer
from agenthub.signing import sign_answer
from app.broker import Delivery
from app.config import Settings
from app.core.models import StoredMessage
from app.core.operator_events import OPERATOR_CHANNEL
from app.core.unit_of_work import make_session_factory
from app.db import make_engine
from app.errors import HubError
from app.groups.access import load_group
from app.groups.conversation import move_conversation
from app.groups.events import group_channel
from app.inbox.events import inbox_channel
from app.inbox.models import InboxEvent
from app.records.errors import MessageIdReused
from app.records.group_posts import write_group_message
from app.records.messages import Participation, write_session_message
from app.records.record import Outcome, Record
from app.tasks.models import Task
from tests.api.test_sessions import open_session
from tests.support.groups import team
from tests.support.hub import MakeAgent
from tests.support.messages import chat, command, result
from tests.support.parts import parts


def record(agent: HubClient, session_id: str, body: dict[str, Any], **place: Any) -> Record:
    place = place or {"session_id": session_id}
    return Record(str(agent.agent_id), agent.key.thumbprint, parse_message(body), **place)


@contextmanager
def store_errors(hub: Any) -> Iterator[list[BaseException]]:
    """The errors the hub's store raised meanwhile (SQLAlchemy's ``handle_error`` event)."""
    seen: list[BaseException] = []

    def note(context: Any) -> None:
        seen.append(context.sqlalchemy_exception or context.original_exception)

    engine = parts(hub).engine.sync_engine
    event.listen(engine, "handle_error", note)
    try:
        yield seen
    finally:
        event.remove(engine, "handle_error", note)


def frames(deliveries: list[Delivery]) -> list[tuple[int, str, dict[str, Any]]]:
    """(seq, event, data) of each frame."""
    out = []
    for d in deliveries:
        lines = dict(line.split(b": ", 1) for line in d.frame.strip().split(b"\n"))
        out.append((d.seq, lines[b"event"].decode(), orjson.loads(lines[b"data"])))
    return out


async def test_a_relay_and_the_partners_own_record_of_it_in_one_batch(
    make_agent: MakeAgent, hub: Any
) -> None:
    """A leader's signed relay of its partner's answer (full path) stores it under the
    partner's own id; the partner's own record of the same answer, later in the same batch,
    was admitted as an id not used (the relay is no message of the partner's at admission),
    so the in-memory path takes it, and the flush meets the relay's row."""
    leader, partner = await make_agent("leader"), await make_agent("partner")
    lid, pid = str(leader.agent_id), str(partner.agent_id)
    session_id = (await open_session(leader, partner))["id"]
    path = f"/v1/sessions/{session_id}/messages"
    start = command(lid, "start", task_id="t", partnerId=pid)
    assert (await leader.request("POST", path, json=start)).status_code == 201
    accepted = result(pid, "t", "accepted")
    assert (await partner.request("POST", path, json=accepted)).status_code == 201
    group = await team(leader, partner)
    group_id = group["id"]
    inbox_before = await inbox_seqs(hub, pid)

    working = result(pid, "t", "working")
    answer = orjson.dumps({"jsonrpc": "2.0", "id": "1", "result": working})
    signature = sign_answer(
        partner.key, callee_id=pid, caller_id=lid, nonce="n-1", signed_bytes=answer
    )
    relay = RelayedAnswer.model_validate(
        {"partnerId": pid, "answer": answer.decode(), "signature": signature, "nonce": "n-1"}
    )
    before = chat(lid, "before the relay")
    waiting = result(pid, "t", "awaiting-completion")
    start2 = command(lid, "start", task_id="t2", partnerId=pid)
    after = chat(lid, "after it")
    post = chat(pid, "in the group", role="partner")
    records = [
        record(leader, session_id, before),  # plain: flushed before the relay
        Record(lid, leader.key.thumbprint, None, session_id=session_id, answer=relay),
        record(partner, session_id, working),  # in memory: its id is the relay's row's
        record(partner, session_id, waiting),  # in memory, moving t on
        record(leader, session_id, start2),  # in memory: a new task, the partner's inbox
        record(leader, session_id, after),  # plain
        record(partner, session_id, post, group_id=group_id),  # plain: a group frame
    ]
    broker = parts(hub).broker
    channels = (OPERATOR_CHANNEL, inbox_channel(pid), inbox_channel(lid), group_channel(group_id))
    subscriptions = {c: await broker.subscribe(c) for c in channels}
    ingest = parts(hub).ingest
    batches = ingest.batches
    try:
        with store_errors(hub) as errors:
            outcomes = await ingest.many(records)
        await asyncio.sleep(0)
        published = {c: frames(s.drain()) for c, s in subscriptions.items()}
    finally:
        for subscription in subscriptions.values():
            broker.unsubscribe(subscription)
    assert ingest.batches == batches + 1  # one batch, committed once
    # the relay's stored id is marked used (Ingest's Standing.stored): the partner's own
    # record of it finds its row down the full path, and no flush meets it
    assert errors == []

    assert not any(isinstance(o, HubError) for o in outcomes), outcomes
    statuses = [o[1] for o in outcomes]  # type: ignore[index]
    assert statuses == [201, 201, 200, 201, 201, 201, 201]
    bodies = [o[0] for o in outcomes]  # type: ignore[index]
    assert bodies[2] == bodies[1]  # the partner's own record is the relayed one
    assert (bodies[1]["id"], bodies[1]["senderId"], bodies[1]["verified"]) == (
        working["id"],
        pid,
        True,
    )
    posted = bodies[6]
    assert posted["groupId"] == group_id

    # the rows: each record once, in the batch's order
    async with parts(hub).session_factory() as db:
        rows = await db.exec(
            select(StoredMessage.message_id, StoredMessage.sender_id, StoredMessage.group_id)
            .where(col(StoredMessage.sender_id).in_([lid, pid]))
            .order_by(col(StoredMessage.pk))
        )
        stored = [tuple(r) for r in rows.all()]
    assert stored[-6:] == [
        (before["id"], lid, None),
        (working["id"], pid, None),
        (waiting["id"], pid, None),
        (start2["id"], lid, None),
        (after["id"], lid, None),
        (post["id"], pid, group_id),
    ]
    assert len(stored) == len(set(stored)) == 2 + 6  # the start and accepted before

    # the tasks: each move once
    t = await task(leader, "t", session_id)
    assert [s["state"] for s in t["statusHistory"]] == [
        "accepted",
        "working",
        "awaiting-completion",
    ]
    t2 = await task(leader, "t2", session_id)
    assert (t2["state"], t2["partnerId"], t2["statusHistory"]) == ("submitted", pid, [])

    # the inbox: the new task's start once, on the next seq
    assert await inbox_seqs(hub, pid) == [*inbox_before, inbox_before[-1] + 1]
    assert [(s, k, d["id"]) for s, k, d in published[inbox_channel(pid)]] == [
        (inbox_before[-1] + 1, "task", start2["id"])
    ]
    assert published[inbox_channel(lid)] == []
    # the group: the post once, under its seq
    assert [(s, k, d["id"]) for s, k, d in published[group_channel(group_id)]] == [
        (posted["seq"], "message", post["id"])
    ]
    # the operator: what was stored and moved, once each, in the order written
    told = [
        (k, d.get("id") or d.get("taskId"), d.get("state"))
        for _, k, d in published[OPERATOR_CHANNEL]
    ]
    assert told == [
        ("message", before["id"], None),
        ("task", "t", "working"),
        ("message", working["id"], None),
        ("task", "t", "awaiting-completion"),
        ("message", waiting["id"], None),
        ("task", "t2", "submitted"),
        ("message", start2["id"], None),
        ("message", after["id"], None),
        ("message", post["id"], None),
    ]


async def task(agent: HubClient, task_id: str, session_id: str) -> dict[str, Any]:
    got = await agent.request("GET", f"/v1/tasks/{task_id}", params={"sessionId": session_id})
    assert got.status_code == 200, got.text
    return dict(got.json())


async def inbox_seqs(hub: Any, agent_id: str) -> list[int]:
    async with parts(hub).session_factory() as db:
        seqs = await db.exec(
            select(InboxEvent.seq)
            .where(col(InboxEvent.agent_id) == agent_id)
            .order_by(col(InboxEvent.seq))
        )
        return list(seqs.all())


async def test_another_writer_between_the_batchs_read_and_its_flush(
    make_agent: MakeAgent, hub: Any, settings: Settings
) -> None:
    """Another writer of the same store (another replica, by the hub's own service) records,
    in a transaction still open while the batch reads: the partner's first report of a task
    the batch's leader starts, the very message the leader sends again, another message
    under an id the partner sends, and in another session an id the leader sends. On
    PostgreSQL the batch reads none of them, takes its records in memory or as plain rows,
    and its flush meets the other's rows once committed (an IntegrityError); on SQLite the
    batch's ``BEGIN IMMEDIATE`` waits for the other to commit, and reads them. Either way:
    each record its outcome, the rows, tasks and events as if the other had come first."""
    leader, partner = await make_agent("leader"), await make_agent("partner")
    lid, pid = str(leader.agent_id), str(partner.agent_id)
    session_id = (await open_session(leader, partner))["id"]
    elsewhere_id = (await open_session(leader, partner))["id"]
    path = f"/v1/sessions/{session_id}/messages"
    assert (await leader.request("POST", path, json=started("t", lid, pid))).status_code == 201
    accepted = result(pid, "t", "accepted")
    assert (await partner.request("POST", path, json=accepted)).status_code == 201
    inbox_before = await inbox_seqs(hub, pid)

    said = chat(lid, "said once, sent twice")
    start = started("t3", lid, pid)
    accepted3 = result(pid, "t3", "accepted")  # the partner's, sent after the start
    working = result(pid, "t", "working")
    later = chat(pid, "later", role="partner")
    before_later = {**later, "dataItems": [{"type": "text", "text": "other content"}]}
    used_elsewhere = chat(lid, "used in another session")
    records = [
        record(leader, session_id, said),  # the other stored it: 200
        record(leader, session_id, start),  # the other's report made its task: the same move
        record(partner, session_id, working),
        record(partner, session_id, later),  # the other stored other content under its id
        record(leader, session_id, used_elsewhere),  # the other stored it in another session
    ]
    theirs_to_write = [
        (pid, session_id, accepted3),
        (lid, session_id, said),
        (pid, session_id, before_later),
        (lid, elsewhere_id, used_elsewhere),
    ]
    broker = parts(hub).broker
    channels = (OPERATOR_CHANNEL, inbox_channel(pid), inbox_channel(lid))
    subscriptions = {c: await broker.subscribe(c) for c in channels}
    try:

        async def write(db: AsyncSession) -> list[Outcome]:
            written = []
            for sender, where, body in theirs_to_write:
                at = Participation(where, lid, "open", None, None if sender == lid else "p2p")
                message = parse_message(body)
                written.append(
                    await write_session_message(db, sender_id=sender, message=message, at=at)
                )
            return written

        theirs, outcomes, errors = await meanwhile(hub, settings, write, records)
        await asyncio.sleep(0)
        published = {c: frames(s.drain()) for c, s in subscriptions.items()}
    finally:
        for subscription in subscriptions.values():
            broker.unsubscribe(subscription)
    if postgres(settings):  # the flush met the other's task row; no full path met anything
        assert [type(e) for e in errors] == [IntegrityError]
    assert [s for _, s in theirs] == [201] * 4

    statuses = [o.status if isinstance(o, HubError) else o[1] for o in outcomes]
    assert statuses == [200, 201, 201, 201, 409]
    assert outcomes[0][0] == theirs[1][0]  # type: ignore[index]  # the other's stored body
    assert isinstance(outcomes[4], MessageIdReused)
    variant = outcomes[3][0]  # type: ignore[index]
    assert variant["id"] == later["id"] and variant["dataItems"] == later["dataItems"]

    async with parts(hub).session_factory() as db:
        rows = await db.exec(
            select(StoredMessage.message_id, StoredMessage.sender_id, StoredMessage.session_id)
            .where(col(StoredMessage.session_id).in_([session_id, elsewhere_id]))
            .order_by(col(StoredMessage.pk))
        )
        stored = [tuple(r) for r in rows.all()]
        tasks = await db.exec(select(Task.id).where(col(Task.session_id) == session_id))
        assert sorted(tasks.all()) == ["t", "t3"]
    ours = stored[-3:]  # after the other's, in the batch's order
    assert [(m, s) for m, s, _ in ours[:2]] == [(start["id"], lid), (working["id"], pid)]
    assert ours[2][0].startswith(later["id"] + "~") and ours[2][1] == pid  # a variant id
    assert [(m, s) for m, s, _ in stored[-7:-3]] == [(b["id"], s) for s, _, b in theirs_to_write]
    assert len(stored) == len(set(stored)) == 2 + 4 + 3
    t3 = await task(leader, "t3", session_id)
    assert (t3["leaderId"], t3["partnerId"], t3["state"]) == (lid, pid, "accepted")
    assert [s["state"] for s in t3["statusHistory"]] == ["accepted"]
    t = await task(leader, "t", session_id)
    assert [s["state"] for s in t["statusHistory"]] == ["accepted", "working"]

    # the start of t3 told its partner once, on the next seq; nothing else
    assert await inbox_seqs(hub, pid) == [*inbox_before, inbox_before[-1] + 1]
    assert [(s, k, d["id"]) for s, k, d in published[inbox_channel(pid)]] == [
        (inbox_before[-1] + 1, "task", start["id"])
    ]
    assert published[inbox_channel(lid)] == []
    told = [
        (k, d.get("id") or d.get("taskId"), d.get("state"))
        for _, k, d in published[OPERATOR_CHANNEL]
    ]
    assert told == [
        ("message", start["id"], None),
        ("task", "t", "working"),
        ("message", working["id"], None),
        ("message", later["id"], None),
    ]


async def test_a_refusal_made_in_a_rolled_back_flush_does_not_outlive_it(
    make_agent: MakeAgent, hub: Any, settings: Settings
) -> None:
    """Another writer (another replica) stores a member's group post and then concludes the
    group, and stores a message of the leader's, while the batch of the same post sent
    again and the same message sent again reads. On PostgreSQL the flush finds the group
    concluded (the post is refused there, ``group-concluded``) and then meets the leader's
    id, taken: rolled back, each record goes down the full path, which finds it stored: 200,
    as on SQLite, where the batch reads after the other. (The refusal made in the rolled-back
    flush outlived it: the post was answered 409, with the replay's outcome beside it.)"""
    leader, partner = await make_agent("leader"), await make_agent("partner")
    lid, pid = str(leader.agent_id), str(partner.agent_id)
    session_id = (await open_session(leader, partner))["id"]
    group = await team(leader, partner)
    group_id = group["id"]
    post = chat(pid, "the last word", role="partner")
    said = chat(lid, "said once, sent twice")

    async def write(db: AsyncSession) -> list[Outcome]:
        posted = await write_group_message(
            db, sender_id=pid, group_id=group_id, message=parse_message(post), at=None
        )
        concluded = await load_group(db, group_id, for_update=True)
        await move_conversation(db, concluded, ConversationState.CONCLUSION, by=lid)
        at = Participation(session_id, lid, "open", None)
        return [
            posted,
            await write_session_message(db, sender_id=lid, message=parse_message(said), at=at),
        ]

    records = [
        record(partner, session_id, post, group_id=group_id),
        record(leader, session_id, said),
    ]
    theirs, outcomes, errors = await meanwhile(hub, settings, write, records)
    if postgres(settings):
        assert [type(e) for e in errors] == [IntegrityError]
    assert [s for _, s in theirs] == [201, 201]
    assert outcomes == [(body, 200) for body, _ in theirs]
    async with parts(hub).session_factory() as db:
        rows = await db.exec(
            select(StoredMessage.message_id).where(col(StoredMessage.sender_id).in_([lid, pid]))
        )
        assert sorted(rows.all()) == sorted([post["id"], said["id"]])


def postgres(settings: Settings) -> bool:
    return settings.database_url.startswith("postgresql")


async def meanwhile(
    hub: Any,
    settings: Settings,
    write: Callable[[AsyncSession], Awaitable[list[Outcome]]],
    records: list[Record],
) -> tuple[list[Outcome], list[Outcome | HubError], list[BaseException]]:
    """Another writer of the hub's store (another replica: the hub's own services, on an
    engine of its own, whose events reach no broker of this hub) writes what ``write``
    does in a transaction it holds open while the hub's writer takes ``records`` in one
    batch, and commits once the batch waits for it: on PostgreSQL, once the batch's flush
    waits on the other's rows (it read before them); on SQLite, while the batch waits for
    the write lock (its ``BEGIN IMMEDIATE``). What the other wrote, the batch's outcomes and
    the errors the hub's store raised."""
    other = make_engine(settings.database_url)
    try:
        async with make_session_factory(other)() as db:
            theirs = await write(db)
            conn = await db.connection()
            pid = (
                (await conn.execute(text("SELECT pg_backend_pid()"))).scalar_one()
                if postgres(settings)
                else 0
            )
            with store_errors(hub) as errors:
                batch = asyncio.create_task(parts(hub).ingest.many(records))
                if pid:
                    await blocked_by(other, pid)
                else:
                    await asyncio.sleep(0.3)
                assert not batch.done()
                await db.commit()
                outcomes = await asyncio.wait_for(batch, 30)
    finally:
        await other.dispose()
    return theirs, outcomes, errors


def started(task_id: str, lid: str, pid: str) -> dict[str, Any]:
    return command(lid, "start", task_id=task_id, partnerId=pid)


async def blocked_by(engine: AsyncEngine, pid: int, timeout: float = 10.0) -> None:
    """Until a backend of the store waits on a lock the backend ``pid`` holds."""
    query = text("SELECT count(*) FROM pg_stat_activity WHERE :pid = ANY(pg_blocking_pids(pid))")
    deadline = asyncio.get_running_loop().time() + timeout
    async with engine.connect() as conn:
        while not (await conn.execute(query, {"pid": pid})).scalar_one():
            assert asyncio.get_running_loop().time() < deadline, "nothing waits on the other"
            await asyncio.sleep(0.02)
