"""Group and inbox streams over real SSE connections to a live hub (uvicorn on loopback)."""

from __future__ import annotations

import asyncio
import contextlib
import socket
from typing import Any

import httpx
import pytest

from agenthub import AgentKey, HubClient
from agenthub.events import EventStream, HubEvent
from app.config import Settings
from app.main import create_app
from tests.support import LOOPBACK
from tests.support.groups import (
    STREAM_SETTINGS,
    MakeMember,
    count,  # noqa: F401
)
from tests.support.hub import REGISTRATION_TOKEN, card, empty_tables
from tests.support.live import LiveServer, streams_open
from tests.support.parts import parts
from tests.support.waiting import eventually

WAIT_SECONDS = 60  # a hang bound, not a speed one


async def form_team(leader: HubClient, *members: HubClient) -> str:
    response = await leader.request(
        "POST",
        "/v1/sessions",
        json={"receivers": [{"agentId": m.agent_id, "mode": "group"} for m in members]},
    )
    session_id = response.json()["id"]
    group = await leader.groups.create(
        session_id, "team", invite=[str(m.agent_id) for m in members]
    )
    for member in members:
        await member.groups.accept(group.id)
    return group.id


async def collect(stream: EventStream, want: int, kind: str = "message") -> list[HubEvent]:
    """The first ``want`` events of ``kind`` (other kinds are skipped), within the time bound."""
    got: list[HubEvent] = []

    async def run() -> None:
        async for event in stream:
            if event.kind == kind:
                got.append(event)
                if len(got) == want:
                    stream.close()
                    return

    await asyncio.wait_for(run(), WAIT_SECONDS)
    return got


async def test_every_member_gets_every_other_message_once_in_order(make_member: MakeMember) -> None:
    leader = await make_member("leader")
    posters = [await make_member(f"poster-{i}") for i in range(4)]
    listeners = [await make_member(f"listener-{i}") for i in range(2)]
    gid = await form_team(leader, *posters, *listeners)
    per_poster = 15
    everyone = [leader, *posters, *listeners]
    own_count = {m.agent_id: (per_poster if m in posters else 0) for m in everyone}
    total = per_poster * len(posters)
    readers = {
        m.agent_id: asyncio.create_task(
            collect(m.groups.events(gid), total - own_count[m.agent_id])
        )
        for m in everyone
    }
    await asyncio.sleep(0.2)  # some streams go live before the posts, some replay them

    async def speak(member: HubClient) -> list[str]:
        return [
            (await member.groups.post(gid, f"{member.agent_id} #{i}"))["id"]
            for i in range(per_poster)
        ]

    sent = await asyncio.gather(*(speak(p) for p in posters))
    ids_by_sender = {p.agent_id: set(ids) for p, ids in zip(posters, sent, strict=True)}
    all_ids = set().union(*ids_by_sender.values())
    for member in everyone:
        events = await readers[member.agent_id]
        seqs = [e.seq for e in events]
        assert seqs == sorted(seqs) and len(set(seqs)) == len(seqs)
        ids = [e.data["id"] for e in events]
        assert len(ids) == len(set(ids))
        assert set(ids) == all_ids - ids_by_sender.get(member.agent_id, set())
        assert all(e.data["senderId"] != member.agent_id for e in events)
        assert all(e.data["groupId"] == gid for e in events)


async def test_a_dropped_subscriber_resumes_without_loss(
    make_member: MakeMember, live: LiveServer
) -> None:
    leader, reader = await make_member("leader"), await make_member("reader")
    gid = await form_team(leader, reader)
    for i in range(5):
        await leader.groups.post(gid, f"before {i}", role="leader")
    first = await collect(reader.groups.events(gid), 3)
    last = first[-1].seq
    # the reader went away after 3; 5 more are posted while it is gone
    for i in range(5):
        await leader.groups.post(gid, f"while away {i}", role="leader")
    # resuming with Last-Event-ID gives exactly what came after
    rest = await collect(reader.groups.events(gid, after=last), 7)
    texts = [e.data["dataItems"][0]["text"] for e in first + rest]
    assert texts == [f"before {i}" for i in range(5)] + [f"while away {i}" for i in range(5)]

    # and a stream whose connection the hub drops reconnects by itself and misses nothing
    stream = reader.groups.events(gid, after=rest[-1].seq)
    follower = asyncio.create_task(collect(stream, 6))
    await leader.groups.post(gid, "live 0", role="leader")
    await asyncio.sleep(0.3)
    await live.stop()
    await live.restart()
    for i in range(1, 6):
        await leader.groups.post(gid, f"live {i}", role="leader")
    events = await follower
    assert [e.data["dataItems"][0]["text"] for e in events] == [f"live {i}" for i in range(6)]
    assert stream.reconnects >= 1


async def _raw_stream(
    live: LiveServer, path: str, token: str
) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """An SSE request on a socket with a tiny receive buffer, that we then do not read."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.setblocking(False)
    await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", live.port))
    reader, writer = await asyncio.open_connection(sock=sock, limit=2**20)
    writer.write(
        f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {token}\r\n"
        "Accept: text/event-stream\r\n\r\n".encode()
    )
    await writer.drain()
    return reader, writer


@pytest.mark.slow
async def test_a_reader_that_stops_reading_costs_bounded_memory(
    make_member: MakeMember, live: LiveServer
) -> None:
    leader, stalled = await make_member("leader"), await make_member("stalled")
    gid = await form_team(leader, stalled)
    app: Any = live.app
    broker = parts(app).broker
    bound = parts(app).settings.stream_queue_frames
    reader, writer = await _raw_stream(
        live, f"/v1/groups/{gid}/events", await stalled.access_token()
    )
    try:
        big = "x" * 30_000
        peak = 0
        posts = 300  # ~9 MB: more than the socket buffers hold
        for i in range(posts):
            await leader.groups.post(gid, f"{i} {big}", role="leader")
            peak = max(peak, broker.queued_frames())
        assert peak <= bound
        (subscription,) = broker.subscriptions(f"group:{gid}")
        assert subscription.overflowed, "the reader never fell behind: the bound was not tested"
        # now it reads: everything arrives, once, in order (caught up from SQL)
        seen: list[int] = []
        texts: list[str] = []

        async def drain() -> None:
            buffer = b""
            while len(texts) < posts:
                chunk = await reader.read(2**16)
                assert chunk, "the hub closed the stream"
                buffer += chunk
                while b"\n\n" in buffer:
                    frame, buffer = buffer.split(b"\n\n", 1)
                    lines = dict(
                        line.split(b": ", 1)
                        for line in frame.split(b"\n")
                        if b": " in line and not line.startswith(b":")
                    )
                    if lines.get(b"event") == b"message":
                        seen.append(int(lines[b"id"]))
                        texts.append(lines[b"data"].decode())

        await asyncio.wait_for(drain(), WAIT_SECONDS)
        assert parts(app).metrics.stream_catchups._value.get() >= 1
        assert seen == sorted(set(seen))
        assert [t.split('"text":"', 1)[1].split(" ", 1)[0] for t in texts] == [
            str(i) for i in range(posts)
        ]
    finally:
        writer.close()
        with contextlib.suppress(Exception):
            await writer.wait_closed()


async def test_keepalive_comments_on_an_idle_stream(
    make_member: MakeMember, live: LiveServer
) -> None:
    leader = await make_member("leader")
    gid = await form_team(leader)
    reader, writer = await _raw_stream(
        live, f"/v1/groups/{gid}/events", await leader.access_token()
    )
    try:
        data = b""
        while data.count(b": keep-alive") < 2:
            data += await asyncio.wait_for(reader.read(4096), 5)
        head = data.split(b"\r\n\r\n", 1)[0].lower()
        assert (
            b"200 ok" in head and b"text/event-stream" in head and b"x-accel-buffering: no" in head
        )
    finally:
        writer.close()


async def test_leaving_or_removal_ends_the_stream(
    make_member: MakeMember, live: LiveServer
) -> None:
    leader, a, b = await make_member("leader"), await make_member("a"), await make_member("b")
    gid = await form_team(leader, a, b)
    await leader.groups.post(gid, "hello", role="leader")
    streams = {m.agent_id: m.groups.events(gid) for m in (a, b)}

    async def until_end(member: HubClient) -> list[HubEvent]:
        return [e async for e in streams[member.agent_id]]

    tasks = {m.agent_id: asyncio.create_task(until_end(m)) for m in (a, b)}
    await streams_open(live, 2)
    await a.groups.leave(gid)
    await leader.groups.remove(gid, str(b.agent_id))
    for member, state in ((a, "left"), (b, "removed")):
        events = await asyncio.wait_for(tasks[member.agent_id], WAIT_SECONDS)
        assert events[-1].kind == "member"
        assert events[-1].data["agentId"] == member.agent_id and events[-1].data["state"] == state
        assert any(e.kind == "message" for e in events)
    # a member who left and came back is not cut off by its old leaving
    await leader.groups.invite(gid, str(a.agent_id))
    await a.groups.accept(gid)
    back = a.groups.events(gid)
    follower = asyncio.create_task(collect(back, 2))
    await leader.groups.post(gid, "welcome back", role="leader")
    events = await follower
    assert [e.data["dataItems"][0]["text"] for e in events] == ["hello", "welcome back"]


async def test_the_inbox_stream_brings_invitations(make_member: MakeMember) -> None:
    leader, guest = await make_member("leader"), await make_member("guest")
    inbox = guest.inbox()
    waiting = asyncio.create_task(collect(inbox, 1, kind="member"))
    await asyncio.sleep(0.2)
    gid = await form_team(leader)
    await leader.groups.invite(gid, str(guest.agent_id))
    (invitation,) = await waiting
    assert invitation.data["groupId"] == gid and invitation.data["state"] == "invited"
    assert invitation.data["by"] == leader.agent_id
    await guest.groups.accept(gid)
    # resumable: after the invitation comes the acceptance
    (accepted,) = await collect(guest.inbox(after=invitation.seq), 1, kind="member")
    assert accepted.data["state"] == "active" and accepted.seq == invitation.seq + 1
    card = await leader.get_agent(str(guest.agent_id))
    assert card.status == "online"


@pytest.mark.slow
async def test_a_reader_that_takes_nothing_is_let_go_after_the_send_timeout(
    settings: Settings,
) -> None:
    update = {**STREAM_SETTINGS, "stream_send_timeout_seconds": 1.0}
    server = await LiveServer(create_app(settings.model_copy(update=update))).start()
    app: Any = server.app
    clients = []
    try:
        for name in ("leader", "stalled"):
            kit = HubClient(server.url, key=AgentKey.generate())
            await kit.register(card(name, kit.key), registration_token=REGISTRATION_TOKEN)
            clients.append(kit)
        leader, stalled = clients
        gid = await form_team(leader, stalled)
        reader, writer = await _raw_stream(
            server, f"/v1/groups/{gid}/events", await stalled.access_token()
        )
        try:
            for i in range(300):  # ~9 MB: the socket buffers fill and the hub's send blocks
                await leader.groups.post(gid, f"{i} {'x' * 30_000}", role="leader")
                if parts(app).metrics.open_streams._value.get() == 0:
                    break
            await eventually(
                lambda: parts(app).metrics.open_streams._value.get() == 0,
                "the stalled stream ended",
            )
            assert not parts(app).broker.subscriptions(f"group:{gid}")

            async def until_closed() -> None:
                while await reader.read(2**16):
                    pass

            await asyncio.wait_for(until_closed(), WAIT_SECONDS)  # what was sent, then EOF
        finally:
            writer.close()
    finally:
        for kit in clients:
            await kit.aclose()
        await server.stop()
        await empty_tables(settings.database_url)


async def test_a_server_shutting_down_ends_its_streams_cleanly_at_once(
    settings: Settings,
) -> None:
    """HubServer ends the streams first: the client reads the body's last chunk, and the
    shutdown does not wait out the graceful timeout (LiveServer's is 2 s)."""
    server = await LiveServer(create_app(settings.model_copy(update=STREAM_SETTINGS))).start()
    app: Any = server.app
    kit = HubClient(server.url, key=AgentKey.generate())
    try:
        await kit.register(card("reader", kit.key), registration_token=REGISTRATION_TOKEN)
        gid = await form_team(kit)
        reader, writer = await _raw_stream(
            server, f"/v1/groups/{gid}/events", await kit.access_token()
        )
        try:
            data = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), WAIT_SECONDS)
            assert data.startswith(b"HTTP/1.1 200")
            started = asyncio.get_running_loop().time()
            await server.stop()
            assert asyncio.get_running_loop().time() - started < 1.5
            rest = await asyncio.wait_for(reader.read(), WAIT_SECONDS)  # up to EOF
            assert rest.endswith(b"0\r\n\r\n"), rest[-40:]  # the chunked body's proper end
            assert parts(app).metrics.open_streams._value.get() == 0
        finally:
            writer.close()
    finally:
        await kit.aclose()
        await server.stop()
        await empty_tables(settings.database_url)


async def test_a_stream_is_counted_in_the_metrics_as_a_200(
    make_member: MakeMember, live: LiveServer
) -> None:
    """Streams are written below the middleware; the request metrics still see them."""
    reader = await make_member("reader")
    stream = reader.inbox()
    follower = asyncio.create_task(collect(stream, 1))
    try:
        async with httpx.AsyncClient(timeout=LOOPBACK, base_url=live.url) as http:
            route = 'route="/v1/agents/me/events",status="200"'

            async def counted() -> bool:
                return route in (await http.get("/metrics")).text

            await eventually(counted, "the stream's request counted")
            text = (await http.get("/metrics")).text
        assert f'agenthub_http_requests_total{{method="GET",{route}}} 1.0' in text
        assert 'route="/v1/agents/me/events",status="500"' not in text
    finally:
        follower.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await follower


async def test_a_concluded_groups_stream_resumed_after_its_last_event_ends(
    make_member: MakeMember, live: LiveServer
) -> None:
    """The conclusion's state event ends every stream; one opened after it (a kit that
    reconnects with Last-Event-ID = that seq) ends at once, not keep-alives for ever."""
    leader, a = await make_member("leader"), await make_member("a")
    gid = await form_team(leader, a)
    moved = await leader.request(
        "PATCH", f"/v1/groups/{gid}", json={"conversationState": "conclusion"}
    )
    assert moved.status_code == 200, moved.text
    headers = {
        "Authorization": f"Bearer {await a.access_token()}",
        "Last-Event-ID": str(moved.json()["lastSeq"]),
    }
    async with httpx.AsyncClient(timeout=LOOPBACK, base_url=live.url) as http:

        async def drain() -> bytes:
            async with http.stream("GET", f"/v1/groups/{gid}/events", headers=headers) as r:
                assert r.status_code == 200, r.status_code
                return b"".join([chunk async for chunk in r.aiter_bytes()])

        body = await asyncio.wait_for(drain(), 3)
    assert b"data:" not in body
