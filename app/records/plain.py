"""The plain records of a batch (a row each and nothing else: step 3 of
``app.records.ingest``) and the task records ``task_batch`` decided in memory, written in
bulk: per group one UPDATE takes the posts' seqs, one multi-row INSERT stores every row."""

from __future__ import annotations

from collections import defaultdict

from app.core.outbox import message_delivery
from app.core.unit_of_work import UnitOfWork
from app.groups.errors import GroupConcluded
from app.groups.events import group_channel, take_post_seqs
from app.prepared import run_many
from app.records.messages import INSERT_MESSAGE, as_received
from app.records.record import Record
from app.records.stored import Placement, stored_body, stored_row


async def write_plain(work: UnitOfWork, records: list[Record]) -> None:
    """Per group, one UPDATE takes the records' seqs; one INSERT stores every row; each
    group frame is staged, in seq order."""
    by_group: dict[str, list[Record]] = defaultdict(list)
    for record in records:
        if record.group_id is not None:
            by_group[record.group_id].append(record)
    seqs: dict[int, int] = {}
    for group_id, posts in by_group.items():
        last = await take_post_seqs(work.conn, group_id, len(posts))
        if last is None:  # concluded since the batch read its state: none of them goes in
            for post in posts:
                post.error = GroupConcluded("The group has concluded.")
            continue
        for n, post in enumerate(posts, start=last - len(posts) + 1):
            seqs[id(post)] = n
    stored = []
    outbox = work.outbox
    for record in records:
        assert record.message is not None
        if record.row is not None:  # a task record, decided in memory (``task_batch``)
            stored.append(record.row)
            for kind, data in record.told:  # in the order written, with the plain ones'
                outbox.tell_operator(kind, data)
            continue
        if record.error is not None:
            continue
        message = as_received(record.message)
        seq = seqs.get(id(record))
        session_id, trace = record.stored_session_id, record.trace
        at = Placement(session_id, record.received_at, None, record.group_id, seq, trace)
        body = stored_body(message, at, record.wire)
        stored.append(stored_row(message, body, at))
        record.outcome = (body, 201)
        if record.group_id is not None and seq is not None:
            delivery = message_delivery(seq, record.sender_id, body, record.trace)
            outbox.stage(group_channel(record.group_id), delivery)
        outbox.tell_operator_message(body)
    if stored:
        await run_many(work.conn, INSERT_MESSAGE, stored)
