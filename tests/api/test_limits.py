"""Admission control: each limit refuses with a clear 429 or 503 and Retry-After, stores
nothing it refused, and lets the caller back in later."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from agenthub import AgentKey, HubClient
from app.config import Settings
from app.core.models import StoredMessage
from app.main import create_app
from tests.support import LOOPBACK
from tests.support.groups import count, team
from tests.support.hub import (
    HUB_BASE,
    OPERATOR_TOKEN,
    REGISTRATION_TOKEN,
    card,
    empty_tables,
    problem,
)
from tests.support.live import LiveServer
from tests.support.messages import chat, command, result
from tests.support.parts import parts
from tests.support.waiting import eventually


@contextlib.asynccontextmanager
async def hub_with(settings: Settings, **limits: Any) -> AsyncIterator[Any]:
    app = create_app(settings.model_copy(update=limits))
    async with app.router.lifespan_context(app):
        yield app
    await empty_tables(settings.database_url)


async def agent_of(http: httpx.AsyncClient, name: str) -> HubClient:
    kit = HubClient(str(http.base_url), key=AgentKey.generate(), http=http)
    await kit.register(card(name, kit.key), registration_token=REGISTRATION_TOKEN)
    return kit


def refused(response: httpx.Response, status: int) -> None:
    problem(response, status)
    assert int(response.headers["Retry-After"]) >= 1


class Clock:
    """The admission buckets' clock, which stands still until the test moves it: a burst is
    counted at one instant however slow the machine (at 2 posts a second, eight posts that
    took over a second on a loaded machine had earned a fifth and a sixth)."""

    def __init__(self) -> None:
        self.now = 1_000.0

    def monotonic(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    clock = Clock()
    monkeypatch.setattr("app.limits.time", clock)
    return clock


async def test_an_agent_posting_too_fast_is_told_to_slow_down(
    settings: Settings, clock: Clock
) -> None:
    async with (
        hub_with(settings, posts_per_second_per_agent=2.0) as app,
        httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url=HUB_BASE) as http,
    ):
        leader, member = await agent_of(http, "leader"), await agent_of(http, "member")
        group = await team(leader, member)
        url = f"/v1/groups/{group['id']}/messages"
        before = await count(app, StoredMessage)
        answers = [
            await member.request(
                "POST", url, json=chat(str(member.agent_id), f"{i}", role="partner")
            )
            for i in range(8)
        ]
        codes = [a.status_code for a in answers]
        assert codes == [201] * 4 + [429] * 4, codes  # a burst of 2 seconds, then refusals
        refused(next(a for a in answers if a.status_code == 429), 429)
        assert await count(app, StoredMessage) - before == codes.count(201)
        other = await leader.request("POST", url, json=chat(str(leader.agent_id), "mine"))
        assert other.status_code == 201  # the limit is the sender's, not the group's
        clock.now += 0.6
        later = await member.request(
            "POST", url, json=chat(str(member.agent_id), "ok", role="partner")
        )
        assert later.status_code == 201


async def test_a_refused_batch_spends_none_of_the_agents_posts(settings: Settings) -> None:
    async with (
        hub_with(settings, posts_per_second_per_agent=1.0) as app,  # a burst of 2
        httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url=HUB_BASE) as http,
    ):
        leader, partner = await agent_of(http, "leader"), await agent_of(http, "partner")
        body = {"receivers": [{"agentId": partner.agent_id, "mode": "p2p"}]}
        session = (await leader.request("POST", "/v1/sessions", json=body)).json()["id"]
        url = f"/v1/sessions/{session}/messages"
        items = [chat(str(leader.agent_id), f"{i}") for i in range(3)]
        refused(await leader.request("POST", f"{url}:batch", json={"items": items}), 429)
        before = await count(app, StoredMessage)
        one = await leader.request("POST", url, json=items[0])  # the burst is still there
        assert one.status_code == 201, one.text
        assert await count(app, StoredMessage) - before == 1


async def test_token_requests_are_limited_per_agent_and_per_address(settings: Settings) -> None:
    async with (
        hub_with(settings, tokens_per_minute_per_agent=3.0) as app,
        httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url=HUB_BASE) as http,
    ):
        kit = await agent_of(http, "eager")
        for _ in range(3):
            await kit.authenticate()
        assertion = kit.make_assertion(issuer=settings.issuer, nonce="n")
        refused(await http.post("/v1/auth/token", json={"assertion": assertion}), 429)
        await (await agent_of(http, "another")).authenticate()  # its own share
    async with (
        hub_with(settings, tokens_per_minute_per_address=2.0) as app,
        httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url=HUB_BASE) as http,
    ):
        kits = [await agent_of(http, f"a{i}") for i in range(3)]
        await kits[0].authenticate()
        await kits[1].authenticate()
        assertion = kits[2].make_assertion(issuer=settings.issuer, nonce="n")
        refused(await http.post("/v1/auth/token", json={"assertion": assertion}), 429)


def unsigned_assertion(agent_id: str, issuer: str) -> str:
    """An assertion naming ``agent_id`` with a signature that is not its key's."""
    forger = HubClient(HUB_BASE, key=AgentKey.generate(), agent_id=agent_id)
    return forger.make_assertion(issuer=issuer, nonce="n")


async def test_failed_token_requests_naming_an_agent_never_lock_it_out(
    settings: Settings, clock: Clock
) -> None:
    """Failures count per id they name and per address, apart from the tokens an agent gets:
    past 60 a minute they are 429s, and requests whose credentials check out still pass,
    from any address."""
    async with hub_with(settings) as app:  # 60 tokens a minute an agent, 600 an address
        elsewhere = httpx.ASGITransport(app=app, client=("203.0.113.9", 4000))
        async with (
            httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url=HUB_BASE) as http,
            httpx.AsyncClient(transport=elsewhere, base_url=HUB_BASE) as attacker,
        ):
            victim = await agent_of(http, "victim")
            forged = [unsigned_assertion(str(victim.agent_id), settings.issuer) for _ in range(70)]
            answers = [await attacker.post("/v1/auth/token", json={"assertion": a}) for a in forged]
            codes = [a.status_code for a in answers]
            assert codes == [401] * 60 + [429] * 10, codes  # failures: buckets of their own
            refused(answers[-1], 429)
            await victim.authenticate()  # its own signed requests still pass
            await victim.authenticate()
            made = await http.post(
                "/v1/operator/oauth-clients",
                json={"name": "a dashboard"},
                headers={"Authorization": f"Bearer {OPERATOR_TOKEN}"},
            )
            client_id, secret = made.json()["clientId"], made.json()["clientSecret"]
            form = {"grant_type": "client_credentials", "resource": str(victim.agent_id)}
            wrong = [
                await http.post("/v1/oauth/token", data=form, auth=(client_id, "wrong"))
                for _ in range(70)
            ]
            assert [a.status_code for a in wrong] == [401] * 60 + [429] * 10
            for door in (http, attacker):  # the right secret passes, even from the attacker's
                right = await door.post("/v1/oauth/token", data=form, auth=(client_id, secret))
                assert right.status_code == 200, right.text
            clock.now += 1  # a failure a second: each one a 401, and the agent's still pass
            problem(await attacker.post("/v1/auth/token", json={"assertion": forged[0]}), 401)
            await victim.authenticate()


@contextlib.asynccontextmanager
async def live_with(
    settings: Settings, **limits: Any
) -> AsyncIterator[tuple[LiveServer, httpx.AsyncClient]]:
    update = {"keepalive_seconds": 0.5, **limits}
    server = await LiveServer(create_app(settings.model_copy(update=update))).start()
    try:
        async with httpx.AsyncClient(timeout=LOOPBACK, base_url=server.url) as http:
            yield server, http
    finally:
        await server.stop()
        await empty_tables(settings.database_url)


async def _open(http: httpx.AsyncClient, url: str, token: str) -> httpx.Response:
    request = http.build_request("GET", url, headers={"Authorization": f"Bearer {token}"})
    return await http.send(request, stream=True)


async def test_streams_are_capped_per_agent_and_per_process(settings: Settings) -> None:
    async with live_with(settings, max_streams_per_agent=2, max_streams=3) as (live, http):
        kits = [await agent_of(http, f"s{i}") for i in range(2)]
        tokens = [await k.access_token() for k in kits]
        inbox = "/v1/agents/me/events"
        first = [await _open(http, inbox, tokens[0]) for _ in range(2)]
        assert [r.status_code for r in first] == [200, 200]
        over = await _open(http, inbox, tokens[0])
        await over.aread()
        refused(over, 429)
        third = await _open(http, inbox, tokens[1])  # the process's third, and its last
        assert third.status_code == 200
        full = await _open(http, inbox, tokens[1])
        await full.aread()
        refused(full, 503)
        await first[0].aclose()
        await eventually(
            lambda: parts(live.app).presence.held() == 2, "the closed stream's lease given back"
        )
        again = await _open(http, inbox, tokens[0])
        assert again.status_code == 200
        for response in (first[1], third, again):
            await response.aclose()


async def test_a_stream_ends_after_its_longest_life(settings: Settings) -> None:
    async with live_with(settings, stream_max_seconds=1.0) as (_live, http):
        kit = await agent_of(http, "long")
        response = await _open(http, "/v1/agents/me/events", await kit.access_token())
        started = asyncio.get_running_loop().time()
        await asyncio.wait_for(response.aread(), 5)  # a clean end, not a cut
        assert asyncio.get_running_loop().time() - started < 3


async def test_new_streams_are_admitted_at_a_bounded_rate(settings: Settings, clock: Clock) -> None:
    async with live_with(settings, stream_opens_per_second=1.0, max_streams_per_agent=10) as (
        _live,
        http,
    ):
        kit = await agent_of(http, "opener")
        token = await kit.access_token()
        opened = [await _open(http, "/v1/agents/me/events", token) for _ in range(3)]
        assert [r.status_code for r in opened[:2]] == [200, 200]  # a burst of 2
        await opened[2].aread()
        refused(opened[2], 503)
        for response in opened[:2]:
            await response.aclose()


PAGE_BYTES = 65_536  # the smallest bound a hub takes: three posts of 20 KB, not four


async def _pages(read: Any, first: Any) -> list[list[str]]:
    """Every page ``read(cursor)`` answers from ``first`` on, as the ids it lists, until a
    page has no cursor; ``read`` gives ``(ids, next cursor)``."""
    pages, cursor = [], first
    while cursor is not None:
        ids, cursor = await read(cursor)
        assert ids, "a page always holds a message"
        pages.append(ids)
    return pages


async def test_a_pages_bound_counts_bytes_not_characters(settings: Settings) -> None:
    """Text of three-byte characters (Chinese): a page holds what fits in its bytes, not in
    as many characters (it was three times its bound)."""
    async with (
        hub_with(settings, max_page_bytes=PAGE_BYTES) as app,
        httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url=HUB_BASE) as http,
    ):
        leader, member = await agent_of(http, "leader"), await agent_of(http, "member")
        group = await team(leader, member)
        group_url = f"/v1/groups/{group['id']}/messages"
        posted = []
        for i in range(6):
            body = chat(str(member.agent_id), f"{i} " + "界" * 12_000, role="partner")
            assert (await member.request("POST", group_url, json=body)).status_code == 201
            posted.append(body["id"])

        async def group_page(after: int) -> tuple[list[str], Any]:
            answer = await member.request("GET", group_url, params={"after": after, "limit": 500})
            assert answer.status_code == 200 and len(answer.content) <= PAGE_BYTES
            page = answer.json()
            return [m["id"] for m in page["items"]], page["nextCursor"]

        pages = await _pages(group_page, 0)
        assert all(len(p) == 1 for p in pages)  # 36 KB a post: one a page, two are over
        assert [i for p in pages for i in p] == posted


async def test_pages_of_large_messages_stop_at_the_byte_bound_and_resume_exactly(
    settings: Settings,
) -> None:
    """A page is bounded by bytes as well as rows: large messages make it shorter, with a
    cursor that resumes right after it (nothing lost, nothing twice), on every route that
    reads stored messages, and A2A's GetTask history keeps the last posts that fit."""
    async with (
        hub_with(settings, max_page_bytes=PAGE_BYTES) as app,
        httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url=HUB_BASE) as http,
    ):
        leader, member = await agent_of(http, "leader"), await agent_of(http, "member")
        group = await team(leader, member)
        group_url = f"/v1/groups/{group['id']}/messages"
        posted = []
        for i in range(10):
            body = chat(str(member.agent_id), f"{i} " + "x" * 20_000, role="partner")
            assert (await member.request("POST", group_url, json=body)).status_code == 201
            posted.append(body["id"])
        answer = await member.request("GET", group_url, params={"limit": 500})
        assert len(answer.content) <= PAGE_BYTES

        async def group_page(after: int) -> tuple[list[str], Any]:
            answer = await member.request("GET", group_url, params={"after": after, "limit": 500})
            assert answer.status_code == 200 and len(answer.content) <= PAGE_BYTES
            page = answer.json()
            return [m["id"] for m in page["items"]], page["nextCursor"]

        pages = await _pages(group_page, 0)
        assert len(pages) > 1 and all(len(p) <= 3 for p in pages)
        assert [i for p in pages for i in p] == posted

        # the same posts through the group's A2A face: ListGroupMessages, GetTask's history
        a2a_url = f"/v1/groups/{group['id']}/a2a"

        async def a2a(method: str, params: dict[str, Any]) -> dict[str, Any]:
            call = {"jsonrpc": "2.0", "id": 1, "method": method, "params": params}
            answer = await member.request("POST", a2a_url, json=call)
            assert answer.status_code == 200 and len(answer.content) <= 2 * PAGE_BYTES
            return dict(answer.json()["result"])

        async def a2a_page(after: int) -> tuple[list[str], Any]:
            listed = await a2a("ListGroupMessages", {"after": after, "limit": 500})
            return [m["messageId"] for m in listed["messages"]], listed.get("nextCursor")

        pages = await _pages(a2a_page, 0)
        assert len(pages) > 1 and [i for p in pages for i in p] == posted
        task = await a2a("GetTask", {"id": group["id"], "historyLength": 500})
        history = [m["messageId"] for m in task["history"]]
        assert 1 <= len(history) <= 3 and history == posted[-len(history) :]
        # tasks started in the group, each with 20 KB of products: ListTasks lists the
        # oldest that fit
        for i in range(5):
            start = command(str(leader.agent_id), "start", task_id=f"t-{i}")
            start["partnerId"] = member.agent_id
            assert (await leader.request("POST", group_url, json=start)).status_code == 201
            products = [{"id": "p", "dataItems": [{"type": "text", "text": "z" * 20_000}]}]
            for state, extra in (("accepted", {}), ("working", {})):
                moved = result(str(member.agent_id), f"t-{i}", state, **extra)
                assert (await member.request("POST", group_url, json=moved)).status_code == 201
            done = result(str(member.agent_id), f"t-{i}", "awaiting-completion", products=products)
            assert (await member.request("POST", group_url, json=done)).status_code == 201
        listed = [t["id"] for t in (await a2a("ListTasks", {}))["tasks"]]
        assert listed[0] == group["id"] and 1 <= len(listed[1:]) <= 3
        assert listed[1:] == [f"t-{i}" for i in range(len(listed) - 1)]
        # the same tasks as the hub lists them, to their leader and to the operator
        as_operator = {"Authorization": f"Bearer {OPERATOR_TOKEN}"}

        async def task_page(after: str, url: str = "/v1/tasks") -> tuple[list[str], Any]:
            params = {"limit": 500, **({"cursor": after} if after else {})}
            if url == "/v1/tasks":
                answer = await leader.request("GET", url, params=params)
            else:
                answer = await http.get(url, params=params, headers=as_operator)
            assert answer.status_code == 200 and len(answer.content) <= PAGE_BYTES
            page = answer.json()
            return [t["id"] for t in page["items"]], page["nextCursor"]

        pages = await _pages(task_page, "")
        assert len(pages) > 1 and [i for p in pages for i in p] == [f"t-{i}" for i in range(5)]

        async def operator_page(after: str) -> tuple[list[str], Any]:
            return await task_page(after, "/v1/operator/tasks")

        pages = await _pages(operator_page, "")
        newest_first = [f"t-{i}" for i in reversed(range(5))]
        assert len(pages) > 1 and [i for p in pages for i in p] == newest_first

        # a session's point-to-point messages, and its context
        body = {"receivers": [{"agentId": member.agent_id, "mode": "p2p"}]}
        session = (await leader.request("POST", "/v1/sessions", json=body)).json()["id"]
        session_url = f"/v1/sessions/{session}/messages"
        said = []
        for i in range(8):
            body = chat(str(leader.agent_id), f"{i} " + "y" * 20_000)
            assert (await leader.request("POST", session_url, json=body)).status_code == 201
            said.append(body["id"])

        async def session_page(after: str) -> tuple[list[str], Any]:
            params = {"limit": 500, **({"after": after} if after else {})}
            answer = await leader.request("GET", session_url, params=params)
            assert answer.status_code == 200 and len(answer.content) <= PAGE_BYTES
            page = answer.json()
            return [m["id"] for m in page["items"]], page["nextCursor"]

        pages = await _pages(session_page, "")
        assert len(pages) > 1 and [i for p in pages for i in p] == said

        async def context_page(after: str) -> tuple[list[str], Any]:
            params = {"limit": 500, **({"messagesAfter": after} if after else {})}
            answer = await leader.request("GET", f"/v1/sessions/{session}/context", params=params)
            assert answer.status_code == 200 and len(answer.content) <= PAGE_BYTES
            page = answer.json()["messages"]
            return [m["id"] for m in page["items"]], page["nextCursor"]

        pages = await _pages(context_page, "")
        assert len(pages) > 1 and [i for p in pages for i in p] == said


async def test_a_group_post_over_its_cap_is_413_and_stored_nowhere(settings: Settings) -> None:
    """A group post is capped well below the body cap (it is fanned out to every member
    and read back with the history): past it, 413 problem+json, and nothing is stored; a
    point-to-point message of the same size is taken."""
    async with (
        hub_with(settings, max_post_bytes=4096) as app,
        httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url=HUB_BASE) as http,
    ):
        leader, member = await agent_of(http, "leader"), await agent_of(http, "member")
        group = await team(leader, member)
        before = await count(app, StoredMessage)
        big = chat(str(member.agent_id), "x" * 5000, role="partner")
        answer = await member.request("POST", f"/v1/groups/{group['id']}/messages", json=big)
        assert "group post is larger than 4096 bytes" in problem(answer, 413)["detail"]
        call = {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "SendMessage",
            "params": {
                "message": {"messageId": "m", "role": "ROLE_USER", "parts": [{"text": "x" * 5000}]}
            },
        }
        problem(await member.request("POST", f"/v1/groups/{group['id']}/a2a", json=call), 413)
        assert await count(app, StoredMessage) == before
        small = chat(str(member.agent_id), "x" * 1000, role="partner")
        answer = await member.request("POST", f"/v1/groups/{group['id']}/messages", json=small)
        assert answer.status_code == 201, answer.text
        body = {"receivers": [{"agentId": member.agent_id, "mode": "p2p"}]}
        session = (await leader.request("POST", "/v1/sessions", json=body)).json()["id"]
        direct = chat(str(leader.agent_id), "x" * 5000)
        answer = await leader.request("POST", f"/v1/sessions/{session}/messages", json=direct)
        assert answer.status_code == 201, answer.text
