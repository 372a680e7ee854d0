"""Building blocks for fault tests (tests/scale/test_faults.py, tests/store/): a group to post
to, posts that fall over to another replica, streams read raw, what the store holds."""

from __future__ import annotations

import asyncio
import uuid
from datetime import UTC, datetime
from typing import Any

import httpx

from agenthub import HubClient
from agenthub.events import parse_sse
from tests.support.hub import registered

WAIT_SECONDS = 60.0
KEEPALIVE_SECONDS = 1.0  # the replicas' in these tests


class Listener:
    """One member's group stream, read raw from the first replica that answers: when its
    replica goes away it resumes on the next with ``Last-Event-ID``. ``got`` holds every
    message event delivered, doubles included."""

    def __init__(self, kit: HubClient, urls: list[str], group_id: str) -> None:
        self.kit = kit
        self.urls = urls
        self.path = f"/v1/groups/{group_id}/events"
        self.got: list[tuple[int, str]] = []
        self.last_seq = 0
        self.connected = asyncio.Event()
        self.task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self.task = asyncio.create_task(self._read())

    async def _read(self) -> None:
        token = await self.kit.access_token()
        at = 0
        async with httpx.AsyncClient(timeout=httpx.Timeout(5.0, read=30.0)) as http:
            while True:
                headers = {"Authorization": f"Bearer {token}", "Last-Event-ID": str(self.last_seq)}
                try:
                    async with http.stream(
                        "GET", self.urls[at] + self.path, headers=headers
                    ) as response:
                        if response.status_code != 200:
                            await response.aread()
                            raise httpx.TransportError(f"{response.status_code} {response.text}")
                        self.connected.set()
                        async for event in parse_sse(response.aiter_lines()):
                            self.last_seq = max(self.last_seq, event.seq)
                            if event.kind == "message":
                                self.got.append((event.seq, str(event.data["id"])))
                except (httpx.TransportError, httpx.StreamError):
                    at = (at + 1) % len(self.urls)
                    await asyncio.sleep(0.1)

    async def stop(self) -> None:
        assert self.task is not None
        self.task.cancel()
        await asyncio.gather(self.task, return_exceptions=True)

    def ids(self) -> list[str]:
        return [message_id for _, message_id in self.got]


async def post_with_failover(
    kits: list[HubClient],
    group_id: str,
    text: str,
    refusals: list[httpx.Response] | None = None,
) -> dict[str, Any]:
    """A group post with an id of its own, sent again (the same id) to the next replica
    while the one tried is unreachable or answers 503 (kept in ``refusals``): the answer is
    the stored message. Any other answer fails the test."""
    body = {
        "type": "message",
        "id": f"msg-{uuid.uuid4().hex}",
        "sentAt": datetime.now(UTC).isoformat(),
        "senderRole": "partner",
        "senderId": kits[0].agent_id,
        "groupId": group_id,
        "dataItems": [{"type": "text", "text": text}],
    }
    at = 0
    for _ in range(600):
        try:
            response = await kits[at].request("POST", f"/v1/groups/{group_id}/messages", json=body)
        except httpx.TransportError:
            response = None
        if response is not None and response.status_code in (200, 201):
            stored: dict[str, Any] = response.json()
            assert stored["id"] == body["id"]
            return stored
        if response is not None and response.status_code != 503:
            raise AssertionError(f"{response.status_code} {response.text}")
        if response is not None and refusals is not None:
            refusals.append(response)
        at = (at + 1) % len(kits)
        await asyncio.sleep(0.05)
    raise AssertionError("no replica took the post")


async def stored_messages(kit: HubClient, group_id: str) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = []
    after = 0
    while True:
        page = await kit.groups.history(group_id, after=after, limit=100)
        items.extend(page["items"])
        if len(page["items"]) < 100:
            return items
        after = page["items"][-1]["seq"]


async def every_one_once(listeners: list[Listener], stored: list[dict[str, Any]]) -> None:
    """Each listener got every stored message not its own, once, in the store's order."""
    want = {
        listener: [m["id"] for m in stored if m["senderId"] != listener.kit.agent_id]
        for listener in listeners
    }

    async def caught_up() -> None:
        while not all(set(want[lis]) <= set(lis.ids()) for lis in listeners):
            await asyncio.sleep(0.05)

    await asyncio.wait_for(caught_up(), WAIT_SECONDS)
    await asyncio.sleep(2 * KEEPALIVE_SECONDS)  # a late double would arrive by now
    for listener in listeners:
        assert listener.ids() == want[listener], "a message lost, doubled or out of order"


async def a_group(url: str) -> tuple[HubClient, list[HubClient], str]:
    leader = await registered(url, "leader")
    members = [await registered(url, f"member-{i}") for i in range(3)]
    session = await leader.request(
        "POST",
        "/v1/sessions",
        json={"receivers": [{"agentId": m.agent_id, "mode": "group"} for m in members]},
    )
    group = await leader.groups.create(
        session.json()["id"], "team", invite=[str(m.agent_id) for m in members]
    )
    for member in members:
        await member.groups.accept(group.id)
    return leader, members, group.id


def on(kit: HubClient, url: str) -> HubClient:
    return HubClient(url, key=kit.key, agent_id=kit.agent_id)
