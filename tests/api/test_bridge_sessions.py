"""Bridge sessions: a kit partner serving an A2A caller records the caller's task as both
its leader and its partner (the caller records nothing at the hub)."""

from __future__ import annotations

from typing import Any

import httpx
from sqlalchemy import func, select

from agenthub import HubClient
from agenthub.protocol.messages import parse_message
from agenthub.protocol.sessions import SessionBridge
from app.inbox.models import InboxEvent
from app.records.record import Record
from app.sessions.bridges import BridgeOpen
from app.sessions.models import Session, SessionParticipant
from app.tasks.models import Task
from tests.support.hub import MakeAgent, problem
from tests.support.messages import command, result, text
from tests.support.parts import parts


async def count(hub: Any, model: Any, *where: Any) -> int:
    async with parts(hub).session_factory() as db:
        stmt = select(func.count()).select_from(model).where(*where)
        return int(await db.scalar(stmt) or 0)


def bridge(**extra: Any) -> dict[str, Any]:
    return {"protocol": "a2a", "contextId": "ctx-1", **extra}


async def bridge_session(agent: HubClient, **extra: Any) -> dict[str, Any]:
    body = {
        "bridge": bridge(**extra),
        "receivers": [{"agentId": agent.agent_id, "mode": "p2p"}],
    }
    response = await agent.request("POST", "/v1/sessions", json=body)
    assert response.status_code == 201, response.text
    return dict(response.json())


async def test_create_bridge_session_names_the_bridge_as_its_receiver(
    make_agent: MakeAgent,
) -> None:
    bridge_agent = await make_agent("bridge", endpointUrl="http://127.0.0.1:9001/aip")
    caller = await make_agent("caller")
    session = await bridge_session(bridge_agent, callerId=caller.agent_id)
    me = {"agentId": bridge_agent.agent_id, "address": "http://127.0.0.1:9001/aip"}
    assert session["sender"] == me
    assert session["receivers"] == [{**me, "mode": "p2p", "params": None}]
    named = {"kind": "agent", "id": caller.agent_id, "name": "caller"}
    assert session["bridge"] == {
        **bridge(callerId=caller.agent_id, callerKind="agent"),
        "caller": named,
    }
    again = await bridge_agent.request("GET", f"/v1/sessions/{session['id']}")
    assert again.json() == session
    listed = await bridge_agent.request("GET", "/v1/sessions")
    assert [s["id"] for s in listed.json()["items"]] == [session["id"]]
    # the caller is named, not a participant: it recorded nothing and sees nothing
    problem(await caller.request("GET", f"/v1/sessions/{session['id']}"), 404)


async def test_an_application_as_the_bridges_caller_is_named_with_its_kind_and_name(
    make_agent: MakeAgent, client: httpx.AsyncClient, operator_headers: dict[str, str]
) -> None:
    """An application the operator registered (OAuth client credentials) is the caller a
    bridge session names: of kind ``application``, with its name, even once revoked."""
    made = await client.post(
        "/v1/operator/oauth-clients", json={"name": "a dashboard"}, headers=operator_headers
    )
    app_id = made.json()["clientId"]
    agent = await make_agent("bridge")
    session = await bridge_session(agent, callerId=app_id, callerKind="application")
    named = {"kind": "application", "id": app_id, "name": "a dashboard"}
    assert session["bridge"]["caller"] == named
    path = f"/v1/sessions/{session['id']}"
    start = command(agent.agent_id, "start", partnerId=agent.agent_id)
    started = await agent.request("POST", f"{path}/messages", json=start)
    assert started.status_code == 201, started.text
    task = (await agent.request("GET", f"/v1/tasks/{started.json()['taskId']}")).json()
    assert task["caller"] == named
    assert (await agent.request("GET", f"{path}/messages")).json()["caller"] == named
    revoked = await client.delete(f"/v1/operator/oauth-clients/{app_id}", headers=operator_headers)
    assert revoked.status_code == 204
    assert (await client.get(path, headers=operator_headers)).json()["bridge"]["caller"] == named
    # an agent's bridge session's tasks name their agent caller; a plain session's, none
    plain = await agent.request("POST", "/v1/sessions", json={"receivers": []})
    assert "bridge" not in plain.json() or plain.json()["bridge"] is None


async def test_bad_bridge_sessions_are_422_and_store_nothing(
    make_agent: MakeAgent, hub: Any
) -> None:
    agent, other = await make_agent("bridge"), await make_agent("other")
    me = {"agentId": agent.agent_id, "mode": "p2p"}
    for body, code in (
        ({"bridge": bridge(), "receivers": []}, "bridge-receivers"),
        ({"bridge": bridge(), "receivers": [{**me, "mode": "group"}]}, "bridge-receivers"),
        ({"bridge": bridge(), "receivers": [me, {**me, "mode": "group"}]}, "bridge-receivers"),
        (
            {"bridge": bridge(), "receivers": [me, {"agentId": other.agent_id, "mode": "p2p"}]},
            "bridge-receivers",
        ),
        ({"bridge": bridge(), "receivers": [{"agentId": other.agent_id}]}, "bridge-receivers"),
        ({"bridge": bridge(callerId="1.2.156.3088.1.AGH.NOBODY"), "receivers": [me]}, None),
        (
            {"bridge": bridge(callerId="app-0000", callerKind="application"), "receivers": [me]},
            "unknown-bridge-caller",
        ),
        ({"bridge": bridge(callerId="app-0000", callerKind="robot"), "receivers": [me]}, None),
        ({"bridge": bridge(protocol="mcp"), "receivers": [me]}, None),
        ({"bridge": bridge(contextId=""), "receivers": [me]}, None),
        ({"bridge": bridge(contextId="c" * 201), "receivers": [me]}, None),
        ({"bridge": {"protocol": "a2a"}, "receivers": [me]}, None),
        ({"receivers": [me]}, None),  # no bridge: the leader is no receiver, as ever
    ):
        refused = problem(await agent.request("POST", "/v1/sessions", json=body), 422)
        if code is not None:
            assert refused["type"].endswith(f"/{code}"), refused
    assert await count(hub, Session) == 0
    assert await count(hub, SessionParticipant) == 0


async def test_a_bridge_session_keeps_its_receivers(make_agent: MakeAgent) -> None:
    agent, other = await make_agent("bridge"), await make_agent("other")
    session = await bridge_session(agent)
    path = f"/v1/sessions/{session['id']}"
    receivers = [{"agentId": other.agent_id, "mode": "p2p"}]
    refused = problem(await agent.request("PATCH", path, json={"receivers": receivers}), 422)
    assert refused["type"].endswith("/bridge-receivers")
    assert (await agent.request("GET", path)).json()["receivers"] == session["receivers"]


async def test_the_bridge_records_a_task_from_start_to_completed(
    make_agent: MakeAgent, hub: Any
) -> None:
    agent = await make_agent("bridge")
    me = agent.agent_id
    session = await bridge_session(agent)
    path = f"/v1/sessions/{session['id']}/messages"
    start = command(me, "start", partnerId=me, dataItems=text("translate this"))
    started = await agent.request("POST", path, json=start)
    assert started.status_code == 201, started.text
    task_id = started.json()["taskId"]
    # its own answers, then the caller's side of the end, through the batch path
    items = [
        result(me, task_id, "accepted"),
        result(me, task_id, "working"),
        result(
            me,
            task_id,
            "awaiting-completion",
            products=[{"id": "p1", "dataItems": text("traduis ceci")}],
        ),
        command(me, "complete", task_id=task_id),
        result(me, task_id, "completed"),
    ]
    batch = await agent.request("POST", f"{path}:batch", json={"items": items})
    assert batch.status_code == 200, batch.text
    assert [o["status"] for o in batch.json()["items"]] == [201] * 5
    task = (await agent.request("GET", f"/v1/tasks/{task_id}")).json()
    assert (task["leaderId"], task["partnerId"]) == (me, me)
    assert task["state"] == "completed"
    assert [s["state"] for s in task["statusHistory"]] == [
        "accepted",
        "working",
        "awaiting-completion",
        "completed",
    ]
    assert [p["id"] for p in task["products"]] == ["p1"]
    for role in ("leader", "partner"):
        listed = await agent.request("GET", "/v1/tasks", params={"role": role})
        assert [t["id"] for t in listed.json()["items"]] == [task_id]
    # nobody else to tell: its own commands do not come back to its inbox
    assert await count(hub, InboxEvent, InboxEvent.kind == "task") == 0


async def test_the_bridge_records_a_cancel(make_agent: MakeAgent) -> None:
    agent = await make_agent("bridge")
    me = agent.agent_id
    path = f"/v1/sessions/{(await bridge_session(agent))['id']}/messages"
    start = await agent.request("POST", path, json=command(me, "start", partnerId=me))
    task_id = start.json()["taskId"]
    for message in (
        result(me, task_id, "accepted"),
        command(me, "cancel", task_id=task_id),
        result(me, task_id, "canceled"),
    ):
        posted = await agent.request("POST", path, json=message)
        assert posted.status_code == 201, posted.text
    assert (await agent.request("GET", f"/v1/tasks/{task_id}")).json()["state"] == "canceled"


async def test_outside_a_bridge_a_leader_is_not_its_own_partner(
    make_agent: MakeAgent, hub: Any
) -> None:
    leader, partner = await make_agent("leader"), await make_agent("partner")
    body = {"receivers": [{"agentId": partner.agent_id, "mode": "p2p"}]}
    session = (await leader.request("POST", "/v1/sessions", json=body)).json()
    path = f"/v1/sessions/{session['id']}/messages"
    me = leader.agent_id
    problem(await leader.request("POST", path, json=command(me, "start", partnerId=me)), 422)
    assert await count(hub, Task) == 0


async def test_in_a_bridge_session_only_the_bridge_is_a_partner(
    make_agent: MakeAgent, hub: Any
) -> None:
    agent, other = await make_agent("bridge"), await make_agent("other")
    path = f"/v1/sessions/{(await bridge_session(agent))['id']}/messages"
    start = command(agent.agent_id, "start", partnerId=other.agent_id)
    problem(await agent.request("POST", path, json=start), 422)
    problem(await other.request("POST", path, json=result(other.agent_id, "t-1", "accepted")), 404)
    assert await count(hub, Task) == 0


async def test_closing_a_bridge_session_tells_the_bridge_once(
    make_agent: MakeAgent, hub: Any
) -> None:
    agent = await make_agent("bridge")
    me = agent.agent_id
    session = await bridge_session(agent)
    path = f"/v1/sessions/{session['id']}"
    start = await agent.request("POST", f"{path}/messages", json=command(me, "start", partnerId=me))
    task_id = start.json()["taskId"]
    closed = await agent.request("PATCH", path, json={"state": "closed"})
    assert closed.status_code == 200, closed.text
    assert (await agent.request("GET", f"/v1/tasks/{task_id}")).json()["releasedAt"] is not None
    assert await count(hub, InboxEvent, InboxEvent.kind == "task.released") == 1


def a_call(me: str, task_id: str, session_id: str) -> list[dict[str, Any]]:
    """What a bridge records of one A2A call, in the order it records it."""
    return [
        {**m, "sessionId": session_id}
        for m in (
            command(me, "start", task_id=task_id, partnerId=me, dataItems=text("echo this")),
            result(me, task_id, "accepted"),
            result(me, task_id, "working"),
            result(
                me,
                task_id,
                "awaiting-completion",
                products=[{"id": "p1", "dataItems": text("echo this")}],
            ),
            command(me, "complete", task_id=task_id),
            result(me, task_id, "completed"),
        )
    ]


BATCH = "/v1/sessions/messages:batch"


async def test_a_batch_naming_bridges_opens_the_sessions_it_records_in(
    make_agent: MakeAgent, hub: Any
) -> None:
    """The session a batch's ``bridges`` open is the one ``POST /v1/sessions`` opens for
    that bridge; items of several sessions go in one request; sent again, the batch
    changes nothing."""
    agent, caller = await make_agent("bridge"), await make_agent("caller")
    me = agent.agent_id
    opened = await bridge_session(agent, callerId=caller.agent_id)
    items = [*a_call(me, "t-1", "a2a-one"), *a_call(me, "t-2", "a2a-two")]
    bridges = {
        "a2a-one": bridge(callerId=caller.agent_id),
        "a2a-two": bridge(contextId="ctx-2", callerId=caller.agent_id),
    }
    body = {"items": items, "bridges": bridges}
    batch = await agent.request("POST", BATCH, json=body)
    assert batch.status_code == 200, batch.text
    assert [o["status"] for o in batch.json()["items"]] == [201] * 12
    session = (await agent.request("GET", "/v1/sessions/a2a-one")).json()
    keys = ("sender", "receivers", "bridge", "state", "title", "goal")
    assert {k: session[k] for k in keys} == {k: opened[k] for k in keys}
    two = (await agent.request("GET", "/v1/sessions/a2a-two")).json()
    assert two["bridge"]["contextId"] == "ctx-2"
    for task_id, session_id in (("t-1", "a2a-one"), ("t-2", "a2a-two")):
        task = (await agent.request("GET", f"/v1/tasks/{task_id}")).json()
        assert (task["sessionId"], task["state"]) == (session_id, "completed")
    again = await agent.request("POST", BATCH, json=body)
    assert [o["status"] for o in again.json()["items"]] == [200] * 12
    assert await count(hub, Session) == 3
    assert await count(hub, SessionParticipant) == 3


async def test_a_batchs_bridge_keeps_the_session_that_is_there(make_agent: MakeAgent) -> None:
    """A session there already is kept as it is: the bridge's own, or another's (whose
    records the bridge may not post: 404)."""
    agent, other = await make_agent("bridge"), await make_agent("other")
    me = agent.agent_id
    session = await bridge_session(agent)
    path = f"/v1/sessions/{session['id']}"
    items = a_call(me, "t-1", session["id"])
    body = {"items": items, "bridges": {session["id"]: bridge(contextId="ctx-2")}}
    batch = await agent.request("POST", BATCH, json=body)
    assert [o["status"] for o in batch.json()["items"]] == [201] * 6
    assert (await agent.request("GET", path)).json() == session
    theirs = {"items": a_call(other.agent_id, "t-2", session["id"]), "bridges": body["bridges"]}
    problem(await other.request("POST", BATCH, json=theirs), 404)
    assert (await agent.request("GET", path)).json() == session


async def test_a_refused_bridge_is_its_items_422_and_opens_nothing(
    make_agent: MakeAgent, hub: Any
) -> None:
    """A bridge the hub refuses is the 422 of each item of its session (the other
    sessions' items go in); one that does not fit, or an item naming no session, is the
    request's or the item's 422."""
    agent = await make_agent("bridge")
    me = agent.agent_id
    for n, (refused_bridge, code) in enumerate(
        (
            (bridge(callerId="1.2.156.3088.1.AGH.NOBODY"), "unregistered-agent"),
            (bridge(callerId="app-0000", callerKind="application"), "unknown-bridge-caller"),
        )
    ):
        items = [*a_call(me, f"t-{n}", "a2a-refused"), *a_call(me, f"f-{n}", f"a2a-fine-{n}")]
        bridges = {"a2a-refused": refused_bridge, f"a2a-fine-{n}": bridge()}
        batch = await agent.request("POST", BATCH, json={"items": items, "bridges": bridges})
        outcomes = batch.json()["items"]
        assert [o["status"] for o in outcomes[:6]] == [422] * 6
        assert all(o["problem"]["type"].endswith(f"/{code}") for o in outcomes[:6])
        assert [o["status"] for o in outcomes[6:]] == [201] * 6
    for bad in (bridge(protocol="mcp"), bridge(contextId=""), {"protocol": "a2a"}):
        body = {"items": a_call(me, "t-3", "a2a-bad"), "bridges": {"a2a-bad": bad}}
        problem(await agent.request("POST", BATCH, json=body), 422)
    unplaced = {"items": [command(me, "start", task_id="t-9", partnerId=me)]}
    (outcome,) = (await agent.request("POST", BATCH, json=unplaced)).json()["items"]
    assert outcome["status"] == 422
    assert outcome["problem"]["type"].endswith("/misaddressed-message")
    assert await count(hub, Session) == 2  # the fine ones
    assert await count(hub, SessionParticipant) == 2
    assert await count(hub, Task) == 2


async def test_a_batchs_bridges_are_held_to_the_rules_of_post_sessions(
    make_agent: MakeAgent, hub: Any
) -> None:
    """A bridge's id is a session id (1 to 200 characters) that an item is of; its leader
    is the caller, still registered with the key its token is bound to: else nothing opens."""
    agent = await make_agent("bridge")
    me = agent.agent_id
    for session_id in ("", "x" * 201):
        body = {"items": a_call(me, "t-1", session_id), "bridges": {session_id: bridge()}}
        problem(await agent.request("POST", BATCH, json=body), 422)
    stray = {"items": a_call(me, "t-1", "a2a-one"), "bridges": {"a2a-elsewhere": bridge()}}
    problem(await agent.request("POST", BATCH, json=stray), 422)
    assert await count(hub, Session) == 0
    token = await agent.access_token()  # taken while registered, then the agent leaves
    gone = await agent.request("DELETE", f"/v1/agents/{me}")
    assert gone.status_code in (200, 204), gone.text
    ghost = {"items": a_call(me, "t-1", "a2a-ghost"), "bridges": {"a2a-ghost": bridge()}}
    headers = {"Authorization": f"Bearer {token}"}
    # the token as it was, past the kit (which would ask for another, and be refused)
    response = await agent._http.post(f"{agent.base_url}{BATCH}", json=ghost, headers=headers)
    assert response.status_code != 200 or all(
        o["status"] == 401 for o in response.json()["items"]
    ), response.text
    assert await count(hub, Session, Session.id == "a2a-ghost") == 0


async def test_two_bridges_of_one_id_in_one_transaction_open_the_first(
    make_agent: MakeAgent, hub: Any
) -> None:
    """Opens of one session id by two agents in the writer's one transaction: the first
    opens it, and the other's refusal (an unknown caller) is no one else's."""
    first, second = await make_agent("first"), await make_agent("second")

    def records(agent: HubClient) -> list[Record]:
        return [
            Record(str(agent.agent_id), agent.key.thumbprint, parse_message(m), session_id="a2a-x")
            for m in a_call(str(agent.agent_id), f"t-{agent.agent_id}", "a2a-x")
        ]

    opens = [
        BridgeOpen("a2a-x", str(first.agent_id), first.key.thumbprint, SessionBridge(**bridge())),
        BridgeOpen(
            "a2a-x",
            str(second.agent_id),
            second.key.thumbprint,
            SessionBridge(**bridge(callerId="1.2.156.3088.1.AGH.NOBODY")),
        ),
    ]
    outcomes = await parts(hub).ingest.many([*records(first), *records(second)], opens)
    assert [o[1] if isinstance(o, tuple) else o.status for o in outcomes] == [201] * 6 + [404] * 6
    session = (await first.request("GET", "/v1/sessions/a2a-x")).json()
    assert session["sender"]["agentId"] == first.agent_id
