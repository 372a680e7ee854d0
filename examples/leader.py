"""A leader script: finds an online echo partner, opens a session, uses all three methods.

    AGENTHUB_URL=http://127.0.0.1:8000 AGENTHUB_TOKEN=change-me python examples/leader.py

It is a one-off: it registers a leader agent for the run and deregisters it on the way out.
A refusal (a wrong token, say) is one line and exit 1.
"""

from __future__ import annotations

import asyncio
import contextlib
import os

from agenthub import Agent, AgentKey, KitError

HUB = os.environ.get("AGENTHUB_URL", "http://127.0.0.1:8000")
TOKEN = os.environ.get("AGENTHUB_TOKEN")
PORT = int(os.environ.get("LEADER_PORT", "9002"))


async def main() -> None:
    agent = Agent(HUB, key=AgentKey.generate(), public_url=f"https://127.0.0.1:{PORT}/")
    await agent.register(
        {"name": "example-leader", "description": "runs examples/leader.py once"},
        registration_token=TOKEN,
    )
    async with agent.serving():  # its endpoint receives the notifications
        try:
            await lead(agent)
        finally:
            with contextlib.suppress(Exception):
                await agent.hub.deregister()


async def lead(agent: Agent) -> None:
    found = (await agent.hub.list_agents(skill="echo", status="online")).items
    if not found:
        raise SystemExit("no echo agent online: start examples/echo_partner.py first")
    partner = found[0].id
    lead = agent.leader
    session = await lead.open_session([partner], title="example", goal="echo three ways")
    print("session", session.id)

    result = await lead.start(partner, session_id=session.id, text="hello by rpc")
    print("rpc:", result["status"]["state"], result["products"][0]["dataItems"][0]["text"])
    await lead.complete(partner, session_id=session.id, task_id=result["taskId"])

    async for event in lead.start_streaming(partner, session_id=session.id, text="hello by stream"):
        data = event["eventData"]
        print("stream:", event["eventSeq"], data["type"], data.get("status", {}).get("state"))
    await lead.complete(partner, session_id=session.id, task_id=data["taskId"])

    ack = await lead.start_notified(
        partner, session_id=session.id, notify_url=agent.notifications_url, text="by notification"
    )
    print("notification ack:", ack["status"]["state"])
    pushed = await agent.inbox.wait(
        ack["taskId"], lambda e: e["status"]["state"] == "awaiting-completion"
    )
    print("notified:", pushed["products"][0]["dataItems"][0]["text"])
    await lead.complete(partner, session_id=session.id, task_id=ack["taskId"])
    await agent.recorder.flush(10)
    history = await agent.hub.request(
        "GET", f"/v1/sessions/{session.id}/messages", params={"limit": 500}
    )
    print("hub recorded", len(history.json()["items"]), "messages in the session")
    await lead.close_session(session.id)


if __name__ == "__main__":
    try:
        asyncio.run(main())
    except KitError as exc:  # the hub's or the partner's refusal: one line, not a traceback
        raise SystemExit(f"leader: {exc}") from None
