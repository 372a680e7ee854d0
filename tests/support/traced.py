"""Agents of the cross-process trace tests, each a process of its own that traces as a user's
would: ``OTEL_*`` in its environment, and no call to turn tracing on (making an ``Agent``
does, whether it serves or not; ``Agent.aclose`` exports what is queued):

- ``python -m tests.support.traced partner HUB``: an echo partner (AIP and A2A) over plain
  HTTP; prints
  ``{"id", "url"}`` and serves until SIGTERM;
- ``python -m tests.support.traced leader HUB PARTNER... CARD``: under a span of its own
  (``leader work``), starts and completes a task at each partner, then a task by ``stream``
  at the first and one by A2A at the second (``CARD``: its card's URL), makes an open group and
  prints ``{"session", "group", "task", "trace"}``; on the line ``post`` from its stdin posts
  one message to the group, prints its ``seq`` and exits (its spans flushed);
- ``python -m tests.support.traced member HUB GROUP``: joins the group, prints ``ready`` once
  its stream is open (``--after 0``: it opens the stream only after the line ``go``, so what
  it gets is replayed from SQL), prints each message event's ``{"seq", "trace"}`` and exits
  after the first;
- ``python -m tests.support.traced solo HUB``, a leader-only script: makes an agent, opens a span of
  its own (``solo work``), prints ``{"on"}`` (whether tracing is on), closes the agent, prints
  ``closed`` and waits for a line on its stdin before it ends.
"""

from __future__ import annotations

import asyncio
import json
import sys

from agenthub import Agent, AgentKey, CallbackPolicy, tracing
from agenthub.transport import http_client
from tests.support import LOOPBACK
from tests.support.hub import REGISTRATION_TOKEN
from tests.support.kit import EchoHandler
from tests.support.live import bound_socket


def say(value: object) -> None:
    print(json.dumps(value) if not isinstance(value, str) else value, flush=True)


async def line() -> str:
    return (await asyncio.to_thread(sys.stdin.readline)).strip()


async def agent(hub: str, name: str, **kwargs: object) -> Agent:
    made = Agent(hub, key=AgentKey.generate(), hub_http=http_client(timeout=LOOPBACK), **kwargs)  # type: ignore[arg-type]
    await made.register({"name": name}, registration_token=REGISTRATION_TOKEN)
    return made


async def partner(hub: str) -> None:
    sock = bound_socket()
    port = sock.getsockname()[1]
    sock.close()
    url = f"http://127.0.0.1:{port}/"
    echo = await agent(
        hub,
        "traced-partner",
        handler=EchoHandler(),
        public_url=url,
        plain_http=True,
        a2a=True,
        callbacks=CallbackPolicy(allow_private=True),
    )
    say({"id": echo.agent_id, "url": url})
    await echo.serve(port=port)


async def leader(hub: str, partner_ids: list[str], card: str) -> None:
    lead = await agent(hub, "traced-leader", plain_http=True)
    with tracing.span("leader work"):
        trace = tracing.current_traceparent()
        session = await lead.leader.open_session(partner_ids, title="traced")
        for n, partner_id in enumerate(partner_ids):
            task = f"t-traced-{n}"
            await lead.leader.start(partner_id, session_id=session.id, text="hi", task_id=task)
            await lead.leader.complete(partner_id, session_id=session.id, task_id=task)
        # one task by stream at the first partner, one by A2A at the second
        first, second = partner_ids
        streamed = lead.leader.command("start", session_id=session.id, text="hi", task_id="t-s")
        async for _ in lead.leader.stream(first, streamed):
            pass
        await lead.leader.complete(first, session_id=session.id, task_id="t-s")
        lead.leader.use_a2a(second, card)
        await lead.leader.start(second, session_id=session.id, text="hi", task_id="t-a2a")
        await lead.leader.get(second, session_id=session.id, task_id="t-a2a")
        await lead.leader.complete(second, session_id=session.id, task_id="t-a2a")
        assert lead.recorder is not None and await lead.recorder.flush(60)
        group = await lead.hub.groups.create(session.id, "traced", join_policy="open")
    say({"session": session.id, "group": group.id, "trace": trace})
    assert await line() == "post"
    with tracing.span("leader posts"):
        posted = await lead.hub.groups.post(group.id, "to everyone", role="leader")
    say({"seq": posted["seq"]})
    await lead.aclose()


async def member(hub: str, group_id: str, replayed: bool) -> None:
    joined = await agent(hub, "traced-member")
    view = await joined.hub.groups.get(group_id)
    await joined.hub.groups.join(group_id)
    if replayed:
        say("ready")
        assert await line() == "go"
    stream = joined.hub.groups.events(group_id, after=view.last_seq)
    if not replayed:
        say("ready")  # the stream opens as it is first read: the post comes after
    async for event in stream:
        if event.kind == "message":
            say({"seq": event.seq, "trace": event.trace})
            break
    stream.close()
    await joined.aclose()


async def solo(hub: str) -> None:
    made = Agent(hub, key=AgentKey.generate(), plain_http=True)
    with tracing.span("solo work"):
        say({"on": tracing.on()})
    await made.aclose()
    say("closed")
    await line()


def main() -> None:
    role, hub, *rest = sys.argv[1:]
    if role == "partner":
        asyncio.run(partner(hub))
    elif role == "solo":
        asyncio.run(solo(hub))
    elif role == "leader":
        *partner_ids, card = rest
        asyncio.run(leader(hub, partner_ids, card))
    else:
        asyncio.run(member(hub, rest[0], replayed="--after" in rest))


if __name__ == "__main__":
    main()
