"""A kit partner driven by a2a-sdk's own client (v1.0 and v0.3 methods), as its docs show:
send, stream, get, cancel, resubscribe and push notifications, each recorded at the hub."""

from __future__ import annotations

import asyncio
import contextlib
import ssl
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from a2a.client import A2ACardResolver, Client, ClientConfig, ClientFactory
from a2a.client.errors import A2AClientError
from a2a.helpers import get_artifact_text, new_text_part
from a2a.types import (
    AgentCard,
    CancelTaskRequest,
    GetTaskRequest,
    Message,
    Role,
    SendMessageConfiguration,
    SendMessageRequest,
    StreamResponse,
    SubscribeToTaskRequest,
    Task,
    TaskPushNotificationConfig,
    TaskState,
)
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from agenthub import Agent, TaskContext, TaskHandler
from agenthub.a2a import A2AOptions
from agenthub.a2a.card import check_card_signature
from agenthub.protocol.aic import aic_host
from agenthub.signing import CallTokenAuth
from tests.support import LOOPBACK
from tests.support.kit import AskHandler, EchoHandler, MakeLiveAgent, hub_task, settled
from tests.support.live import serving
from tests.support.waiting import eventually

WAIT_SECONDS = 60.0  # a hang bound, not a speed one


class SlowHandler(TaskHandler):
    """Works until it is canceled (or 30 s)."""

    async def on_start(self, task: TaskContext) -> None:
        await task.working("working slowly")
        await asyncio.sleep(30)
        await task.await_completion(message="done at last")


def user_message(text: str, task: Task | None = None) -> Message:
    message = Message(role=Role.ROLE_USER, message_id=f"m-{text}", parts=[new_text_part(text)])
    if task is not None:
        message.task_id, message.context_id = task.id, task.context_id
    return message


async def caller_http(caller: Agent, partner: Agent) -> httpx.AsyncClient:
    return httpx.AsyncClient(
        timeout=WAIT_SECONDS,
        auth=CallTokenAuth(caller.key, caller_id=caller.agent_id, callee_id=partner.agent_id),
    )


async def a2a_client(
    http: httpx.AsyncClient,
    partner: Agent,
    *,
    streaming: bool = False,
    version: str = "1.0",
    binding: str = "JSONRPC",
) -> Client:
    """a2a-sdk's client for the partner, from the card the partner serves; ``version`` 0.3
    keeps only the card's v0.3 interfaces, so the client speaks the v0.3 methods;
    ``binding`` is the transport it speaks (``JSONRPC`` or ``HTTP+JSON``)."""
    assert partner.public_url is not None
    card = await A2ACardResolver(http, partner.public_url).get_agent_card()
    interfaces = [
        i
        for i in card.supported_interfaces
        if i.protocol_version == version and i.protocol_binding == binding
    ]
    assert interfaces, f"the card has no {binding} {version} interface"
    del card.supported_interfaces[:]
    card.supported_interfaces.extend(interfaces)
    config = ClientConfig(
        httpx_client=http, streaming=streaming, supported_protocol_bindings=[binding]
    )
    return ClientFactory(config).create(card)


BINDINGS = pytest.mark.parametrize(
    ("version", "binding"),
    [("1.0", "JSONRPC"), ("0.3", "JSONRPC"), ("1.0", "HTTP+JSON"), ("0.3", "HTTP+JSON")],
)
"""Each version of each transport a kit partner serves, as a2a-sdk's client speaks it."""


async def last_task(client: Client, request: SendMessageRequest) -> Task:
    task: Task | None = None
    async for event in client.send_message(request):
        if event.HasField("task"):
            task = event.task
    assert task is not None
    return task


async def a2a_partner(make: MakeLiveAgent, handler: TaskHandler, **kw: Any) -> Agent:
    return await make("a2a-partner", handler, https=False, a2a=kw.pop("a2a", True), **kw)


async def test_card_is_served_from_the_registry_card(make_live_agent: MakeLiveAgent) -> None:
    partner = await a2a_partner(make_live_agent, EchoHandler())
    async with httpx.AsyncClient(timeout=LOOPBACK) as http:
        card = await A2ACardResolver(http, str(partner.public_url)).get_agent_card()
    assert isinstance(card, AgentCard)
    assert card.name == "a2a-partner"
    jwks = (await partner.hub.request("GET", "/.well-known/jwks.json")).json()
    assert check_card_signature(card, jwks)  # the card the hub signed for it
    assert card.capabilities.streaming and card.capabilities.push_notifications
    assert [s.id for s in card.skills] == ["agent"]  # no skills registered: the whole agent
    assert [(i.protocol_binding, i.url, i.protocol_version) for i in card.supported_interfaces] == [
        ("JSONRPC", partner.public_url, "1.0"),
        ("JSONRPC", partner.public_url, "0.3"),
        ("HTTP+JSON", partner.public_url, "1.0"),
        ("HTTP+JSON", partner.public_url, "0.3"),
    ]
    registered = await partner.hub.request("GET", f"/v1/agents/{partner.agent_id}")
    protocols = [(b["protocol"], b.get("transport")) for b in registered.json()["protocols"]]
    assert protocols == [("aip", None), ("a2a", None), ("a2a", "HTTP+JSON")]
    # a client naming v0.3 gets the v0.3 fields too, on the same signed card
    url = f"{partner.public_url}.well-known/agent-card.json"
    async with httpx.AsyncClient(timeout=LOOPBACK) as http:
        legacy = (await http.get(url, headers={"A2A-Version": "0.3"})).json()
        plain = (await http.get(url)).json()
    assert (legacy["url"], legacy["protocolVersion"]) == (partner.public_url, "0.3")
    assert "url" not in plain and legacy["signatures"] == plain["signatures"]


@BINDINGS
async def test_send_completes_and_is_recorded(
    make_live_agent: MakeLiveAgent, version: str, binding: str
) -> None:
    """awaiting-completion is COMPLETED to an A2A caller: the bridge completes for it, and
    the hub records the task completed, the leader side as the bridge's."""
    caller = await make_live_agent("caller", serve=False)
    partner = await a2a_partner(make_live_agent, EchoHandler())
    async with await caller_http(caller, partner) as http:
        client = await a2a_client(http, partner, version=version, binding=binding)
        task = await last_task(client, SendMessageRequest(message=user_message("hello")))
        assert task.status.state == TaskState.TASK_STATE_COMPLETED
        assert [get_artifact_text(a) for a in task.artifacts] == ["hello"]
        got = await client.get_task(GetTaskRequest(id=task.id))
        assert got.status.state == TaskState.TASK_STATE_COMPLETED
        assert got.history[0].message_id == "m-hello"  # the caller's message, as a2a-sdk keeps it
        assert got.history[0].role == Role.ROLE_USER
    await settled(partner)
    recorded = await hub_task(partner, task.id)
    assert recorded["state"] == "completed"
    assert recorded["leaderId"] == recorded["partnerId"] == partner.agent_id
    assert [s["state"] for s in recorded["statusHistory"]] == [
        "accepted",
        "working",
        "awaiting-completion",
        "completed",
    ]
    assert recorded["products"][0]["dataItems"][0]["text"] == "hello"
    session = (await partner.hub.request("GET", f"/v1/sessions/{recorded['sessionId']}")).json()
    assert session["bridge"]["protocol"] == "a2a"
    assert session["bridge"]["contextId"] == task.context_id
    assert session["bridge"]["callerId"] == caller.agent_id
    listed = await partner.hub.request("GET", f"/v1/sessions/{recorded['sessionId']}/messages")
    said = [m.get("command") or m["status"]["state"] for m in listed.json()["items"]]
    # each of the bridge's commands reached the hub ahead of the moves it made
    assert said == ["start", "accepted", "working", "awaiting-completion", "complete", "completed"]
    assert not partner.recorder.failures


async def test_input_required_then_continue(make_live_agent: MakeLiveAgent) -> None:
    caller = await make_live_agent("caller", serve=False)
    partner = await a2a_partner(make_live_agent, AskHandler())
    async with await caller_http(caller, partner) as http:
        client = await a2a_client(http, partner)
        asked = await last_task(client, SendMessageRequest(message=user_message("start")))
        assert asked.status.state == TaskState.TASK_STATE_INPUT_REQUIRED
        assert asked.status.message.parts[0].text == "what should I echo?"
        answer = user_message("42")
        answer.task_id = asked.id  # no contextId: A2A allows it, the task keeps its own
        done = await last_task(client, SendMessageRequest(message=answer))
        assert done.id == asked.id and done.context_id == asked.context_id
        assert done.status.state == TaskState.TASK_STATE_COMPLETED
        assert done.status.message.parts[0].text == "told: 42"  # said as it awaited completion
        assert [get_artifact_text(a, delimiter="") for a in done.artifacts] == ["ab"]
        got = await client.get_task(GetTaskRequest(id=asked.id))
        said = [m.message_id for m in got.history if m.role == Role.ROLE_USER]
        assert said == ["m-start", "m-42"]  # each of the caller's messages, once, in order
    await settled(partner)
    recorded = await hub_task(partner, asked.id)
    assert recorded["state"] == "completed"
    assert "awaiting-input" in [s["state"] for s in recorded["statusHistory"]]


@BINDINGS
async def test_stream_carries_status_and_artifacts(
    make_live_agent: MakeLiveAgent, version: str, binding: str
) -> None:
    caller = await make_live_agent("caller", serve=False)
    partner = await a2a_partner(make_live_agent, EchoHandler())
    async with await caller_http(caller, partner) as http:
        client = await a2a_client(http, partner, streaming=True, version=version, binding=binding)
        kinds: list[str] = []
        states: list[int] = []
        texts: list[str] = []
        async for event in client.send_message(SendMessageRequest(message=user_message("hi"))):
            kind = str(event.WhichOneof("payload"))
            kinds.append(kind)
            if kind == "status_update":
                states.append(event.status_update.status.state)
            elif kind == "artifact_update":
                texts.append(get_artifact_text(event.artifact_update.artifact))
    assert kinds[0] == "task"
    assert TaskState.TASK_STATE_WORKING in states
    assert states[-1] == TaskState.TASK_STATE_COMPLETED
    assert texts == ["hi"]
    await settled(partner)


@BINDINGS
async def test_cancel_and_resubscribe(
    make_live_agent: MakeLiveAgent, version: str, binding: str
) -> None:
    caller = await make_live_agent("caller", serve=False)
    partner = await a2a_partner(make_live_agent, SlowHandler())
    async with await caller_http(caller, partner) as http:
        client = await a2a_client(http, partner, streaming=True, version=version, binding=binding)
        request = SendMessageRequest(
            message=user_message("slow"),
            configuration=SendMessageConfiguration(return_immediately=True),
        )
        sender = await a2a_client(http, partner, version=version, binding=binding)
        task = await last_task(sender, request)
        assert task.status.state == TaskState.TASK_STATE_SUBMITTED
        seen: list[StreamResponse] = []

        async def watch() -> None:
            async for event in client.subscribe(SubscribeToTaskRequest(id=task.id)):
                seen.append(event)

        watching = asyncio.create_task(watch())
        await asyncio.sleep(0.3)
        canceled = await client.cancel_task(CancelTaskRequest(id=task.id))
        assert canceled.status.state == TaskState.TASK_STATE_CANCELED
        await asyncio.wait_for(watching, WAIT_SECONDS)
        states = [e.status_update.status.state for e in seen if e.HasField("status_update")]
        assert states[-1] == TaskState.TASK_STATE_CANCELED
        assert states.count(TaskState.TASK_STATE_CANCELED) == 1
    await settled(partner)
    recorded = await hub_task(partner, task.id)
    assert recorded["state"] == "canceled"
    commands = await partner.hub.request(
        "GET", f"/v1/sessions/{recorded['sessionId']}/messages", params={"limit": 100}
    )
    sent = [m["command"] for m in commands.json()["items"] if m["type"] == "task-command"]
    assert sent == ["start", "cancel"]


@pytest.fixture
async def push_receiver() -> AsyncIterator[tuple[str, list[tuple[dict[str, str], Any]]]]:
    received: list[tuple[dict[str, str], Any]] = []

    async def hook(request: Request) -> Response:
        received.append((dict(request.headers), await request.json()))
        return Response(status_code=200)

    app = Starlette(routes=[Route("/hook", hook, methods=["POST"])])
    async with serving(app, lifespan="off") as server:
        yield f"{server.url}/hook", received


async def test_push_notifications_reach_the_caller(
    make_live_agent: MakeLiveAgent, push_receiver: tuple[str, list[tuple[dict[str, str], Any]]]
) -> None:
    hook_url, received = push_receiver
    caller = await make_live_agent("caller", serve=False)
    partner = await a2a_partner(make_live_agent, AskHandler())
    async with await caller_http(caller, partner) as http:
        client = await a2a_client(http, partner)
        config = TaskPushNotificationConfig(url=hook_url, token="tok-1")
        request = SendMessageRequest(
            message=user_message("start"),
            configuration=SendMessageConfiguration(task_push_notification_config=config),
        )
        asked = await last_task(client, request)
        await last_task(client, SendMessageRequest(message=user_message("42", asked)))
    for _ in range(int(WAIT_SECONDS * 10)):
        if any("COMPLETED" in str(body) for _, body in received):
            break
        await asyncio.sleep(0.1)
    assert received, "no push arrived"
    assert {headers.get("x-a2a-notification-token") for headers, _ in received} == {"tok-1"}
    assert any("TASK_STATE_INPUT_REQUIRED" in str(body) for _, body in received)
    assert any("TASK_STATE_COMPLETED" in str(body) for _, body in received)


async def test_an_unsafe_push_url_is_refused(make_live_agent: MakeLiveAgent) -> None:
    """The partner's callback policy screens A2A push URLs as it does AIP ones."""
    caller = await make_live_agent("caller", serve=False)
    partner = await make_live_agent("strict", EchoHandler(), https=False, a2a=True, callbacks=None)
    async with await caller_http(caller, partner) as http:
        client = await a2a_client(http, partner)
        config = TaskPushNotificationConfig(url="http://127.0.0.1:9/hook", token="t")
        request = SendMessageRequest(
            message=user_message("start"),
            configuration=SendMessageConfiguration(task_push_notification_config=config),
        )
        with pytest.raises(Exception, match=r"(?i)push|url"):
            await last_task(client, request)


async def test_a_push_url_is_checked_for_its_form_when_set(make_live_agent: MakeLiveAgent) -> None:
    """A config is checked without DNS when it is set (the TCK's example.com webhook is
    stored where nothing resolves); each push resolves and pins it, and goes nowhere the
    policy refuses (``.example`` never resolves: nothing is sent)."""
    caller = await make_live_agent("caller", serve=False)
    partner = await make_live_agent("strict", EchoHandler(), https=False, a2a=True, callbacks=None)
    async with await caller_http(caller, partner) as http:
        client = await a2a_client(http, partner)

        def start(url: str) -> SendMessageRequest:
            config = TaskPushNotificationConfig(url=url, token="t")
            return SendMessageRequest(
                message=user_message("start"),
                configuration=SendMessageConfiguration(task_push_notification_config=config),
            )

        task = await last_task(client, start("https://push.example/hook"))
        assert task.status.state == TaskState.TASK_STATE_COMPLETED
        for refused in ("http://localhost:9/hook", "http://[::1]/hook", "ftp://push.example/"):
            with pytest.raises(Exception, match=r"(?i)push|url"):
                await last_task(client, start(refused))


async def test_callers_see_only_their_own_tasks(make_live_agent: MakeLiveAgent) -> None:
    first = await make_live_agent("first", serve=False)
    second = await make_live_agent("second", serve=False)
    partner = await a2a_partner(make_live_agent, EchoHandler())
    async with await caller_http(first, partner) as http:
        task = await last_task(
            await a2a_client(http, partner), SendMessageRequest(message=user_message("mine"))
        )
    async with await caller_http(second, partner) as http:
        client = await a2a_client(http, partner)
        with pytest.raises(Exception, match=r"(?i)not found"):
            await client.get_task(GetTaskRequest(id=task.id))
        with pytest.raises(Exception, match=r"(?i)not found"):
            await client.cancel_task(CancelTaskRequest(id=task.id))
    await settled(partner)


SEND = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "SendMessage",
    "params": {"message": {"messageId": "m1", "role": "ROLE_USER", "parts": [{"text": "hi"}]}},
}


async def test_a_caller_that_proves_nothing_is_refused(make_live_agent: MakeLiveAgent) -> None:
    """401 with the request's own id, JSON-RPC's Invalid Request (A2A v1.0 gives -32008 to
    ExtensionSupportRequired and names no code for authentication) with the reason as the
    other bindings carry it, and a message naming every credential the partner takes; an
    AIP request keeps AIP's own codes, with its id too."""
    partner = await a2a_partner(make_live_agent, EchoHandler())
    url = str(partner.public_url)
    async with httpx.AsyncClient(timeout=WAIT_SECONDS) as http:
        missing = await http.post(url, json={**SEND, "id": "req-7"}, headers={"A2A-Version": "1.0"})
        forged = await http.post(
            url, json={**SEND, "id": 8}, headers={"Authorization": "Bearer x.y.z"}
        )
        aip = await http.post(url, json={**SEND, "id": "aip-1", "method": "rpc", "params": {}})
    for response, request_id, reason in (
        (missing, "req-7", "AUTHENTICATION_REQUIRED"),
        (forged, 8, "ACCESS_TOKEN_INVALID"),
    ):
        assert response.status_code == 401
        assert response.headers["www-authenticate"] == "Bearer"
        answer = response.json()
        assert answer["id"] == request_id
        assert answer["error"]["code"] == -32600
        assert answer["error"]["data"][0]["reason"] == reason
    said = missing.json()["error"]["message"]
    assert all(word in said for word in ("call token", "OAuth access token", "certificate"))
    assert aip.status_code == 401
    assert (aip.json()["id"], aip.json()["error"]["code"]) == ("aip-1", -32008)
    assert partner.endpoint.a2a is not None and partner.endpoint.a2a._bridge is None


async def test_a_long_json_rpc_id_is_refused_not_echoed(make_live_agent: MakeLiveAgent) -> None:
    """A JSON-RPC id is echoed in every event of a stream: a long one is an invalid request
    (-32600, id null), on the A2A face as on AIP's, before anything runs."""
    partner = await a2a_partner(make_live_agent, EchoHandler())
    caller = await make_live_agent("caller", serve=False)
    async with await caller_http(caller, partner) as http:
        for method in ("SendStreamingMessage", "SendMessage", "rpc"):
            body = {**SEND, "id": "i" * 100_000, "method": method}
            response = await http.post(
                str(partner.public_url), json=body, headers={"A2A-Version": "1.0"}
            )
            assert response.status_code == 200, response.text[:300]
            answer = response.json()
            assert answer["error"]["code"] == -32600 and answer["id"] is None, answer
            assert len(response.content) < 1000
        ok = await http.post(
            str(partner.public_url), json={**SEND, "id": "i" * 256}, headers={"A2A-Version": "1.0"}
        )
        assert ok.status_code == 200 and ok.json()["id"] == "i" * 256, ok.text[:300]


REST_SEND = {"message": SEND["params"]["message"]}  # type: ignore[index]


async def test_a_rest_caller_that_proves_nothing_is_refused(make_live_agent: MakeLiveAgent) -> None:
    """The HTTP+JSON binding refuses as JSON-RPC does (401, the scheme named), in the
    binding's error shape; a forged call token is refused too, and nothing is started."""
    partner = await a2a_partner(make_live_agent, EchoHandler())
    rest = str(partner.public_url).rstrip("/")
    headers = {"A2A-Version": "1.0"}
    async with httpx.AsyncClient(timeout=WAIT_SECONDS) as http:
        answers = [
            await http.post(f"{rest}/message:send", json=REST_SEND, headers=headers),
            await http.get(f"{rest}/tasks", headers=headers),
            await http.get(
                f"{rest}/tasks/nope", headers={**headers, "Authorization": "Bearer x.y.z"}
            ),
        ]
    for answer in answers:
        assert answer.status_code == 401, answer.text
        assert answer.headers["www-authenticate"] == "Bearer"
        error = answer.json()["error"]
        assert (error["code"], error["status"]) == (401, "UNAUTHENTICATED")
    reasons = [a.json()["error"]["details"][0]["reason"] for a in answers]
    assert reasons == ["AUTHENTICATION_REQUIRED", "AUTHENTICATION_REQUIRED", "ACCESS_TOKEN_INVALID"]
    assert partner.endpoint.a2a is not None and partner.endpoint.a2a._bridge is None


async def test_a_call_token_binds_a_rest_call_to_its_url(make_live_agent: MakeLiveAgent) -> None:
    """A call token names the URL it was made for, query and all: one made for another
    path, or for the same path with another query, is refused."""
    caller = await make_live_agent("caller", serve=False)
    partner = await a2a_partner(make_live_agent, EchoHandler())
    rest = str(partner.public_url).rstrip("/")
    auth = CallTokenAuth(caller.key, caller_id=caller.agent_id, callee_id=partner.agent_id)
    async with httpx.AsyncClient(timeout=WAIT_SECONDS, headers={"A2A-Version": "1.0"}) as http:
        listed = await http.get(f"{rest}/tasks", params={"pageSize": 5}, auth=auth)
        assert listed.status_code == 200, listed.text
        signed = http.build_request("GET", f"{rest}/tasks?pageSize=5")
        token = next(auth.auth_flow(signed)).headers["Authorization"]
        for url in (f"{rest}/tasks?pageSize=6", f"{rest}/tasks/x"):
            moved = await http.get(url, headers={"Authorization": token})
            assert moved.status_code == 401, (url, moved.text)


async def test_anonymous_callers_when_allowed_are_rate_limited(
    make_live_agent: MakeLiveAgent,
) -> None:
    # one token and a slow refill (burst max(1, 2 x 0.1)): the second send is refused however
    # slow the machine is (at 1/s, three sends 0.5 s apart on a loaded runner all got in)
    options = A2AOptions(anonymous=True, anonymous_per_second=0.1)
    partner = await a2a_partner(make_live_agent, EchoHandler(), a2a=options)
    async with httpx.AsyncClient(timeout=WAIT_SECONDS) as http:
        answers = [
            await http.post(str(partner.public_url), json=SEND, headers={"A2A-Version": "1.0"})
            for _ in range(3)
        ]
        task = answers[0].json()["result"]["task"]
        get = {"jsonrpc": "2.0", "id": 2, "method": "GetTask", "params": {"id": task["id"]}}
        listing = {"jsonrpc": "2.0", "id": 3, "method": "ListTasks", "params": {}}
        others = [
            await http.post(str(partner.public_url), json=body, headers={"A2A-Version": "1.0"})
            for body in (get, listing)
        ]
        # the same on the HTTP+JSON binding: a send (once the gate lets one in), no look back
        rest = str(partner.public_url).rstrip("/")
        rest_others = [
            await http.get(f"{rest}/tasks/{task['id']}", headers={"A2A-Version": "1.0"}),
            await http.get(f"{rest}/tasks", headers={"A2A-Version": "1.0"}),
        ]
        rest_send = await http.post(
            f"{rest}/message:send", json=REST_SEND, headers={"A2A-Version": "1.0"}
        )
    assert [a.status_code for a in answers] == [200, 429, 429]
    assert int(answers[2].headers["retry-after"]) >= 1
    # nothing ties two anonymous requests to one caller: each may send, none may look back
    assert [a.status_code for a in others] == [401, 401]
    assert [a.status_code for a in rest_others] == [401, 401]
    assert rest_send.status_code == 429  # the gate is the address's, whatever the binding
    assert task["status"]["state"] == "TASK_STATE_COMPLETED"
    await settled(partner)
    recorded = await hub_task(partner, task["id"])
    session = (await partner.hub.request("GET", f"/v1/sessions/{recorded['sessionId']}")).json()
    assert "callerId" not in session["bridge"] or session["bridge"]["callerId"] is None


async def test_a_start_the_partner_refuses_is_an_a2a_error_recorded_nowhere(
    make_live_agent: MakeLiveAgent,
) -> None:
    caller = await make_live_agent("caller", serve=False)
    partner = await a2a_partner(make_live_agent, EchoHandler())
    runtime = partner.endpoint.runtime
    assert runtime is not None
    runtime.max_tasks_per_caller = 0
    async with await caller_http(caller, partner) as http:
        client = await a2a_client(http, partner)
        with pytest.raises(Exception, match="live tasks here"):
            await last_task(client, SendMessageRequest(message=user_message("one too many")))
    await settled(partner)
    listed = await partner.hub.request("GET", "/v1/tasks")
    assert listed.json()["items"] == []
    sessions = await partner.hub.request("GET", "/v1/sessions")
    assert sessions.json()["items"] == []  # no bridge session opened for it either
    assert not partner.recorder.failures


async def test_a_kit_leader_calls_a_kit_partner_by_a2a_over_mutual_tls(
    make_live_agent: MakeLiveAgent,
) -> None:
    """The kit's a2a-sdk client checks the partner's AIC in the handshake: the hub does not
    certify the loopback address the partner serves at, and the call still goes."""
    agent = await make_live_agent("leader", https=True)
    partner = await make_live_agent("a2a-tls", EchoHandler(), https=True, a2a=True)
    assert (partner.public_url or "").startswith("https://127.0.0.1:")
    leader = agent.leader
    leader.use_a2a(partner.agent_id, partner.public_url or "")
    session = await leader.open_session([partner.agent_id])
    result = await leader.start(partner.agent_id, session_id=session.id, text="by a2a")
    assert result["status"]["state"] == "awaiting-completion"
    assert result["products"][0]["dataItems"][0]["text"] == "by a2a"
    done = await leader.complete(partner.agent_id, session_id=session.id, task_id=result["taskId"])
    assert done["status"]["state"] == "completed"


async def test_a_client_certificate_proves_an_a2a_caller(
    make_live_agent: MakeLiveAgent, tmp_path: Path
) -> None:
    """Over HTTPS, the caller's certificate from the hub's CA is its proof (the card's mtls
    scheme): no call token, and the bridge session names it."""
    caller = await make_live_agent("caller", serve=False)
    partner = await make_live_agent("a2a-tls", EchoHandler(), https=True, a2a=True)
    await caller.tls.ensure()
    assert caller.tls.ca_pem is not None and caller.tls.certificate_pem is not None
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    context.load_verify_locations(cadata=caller.tls.ca_pem.decode())
    (tmp_path / "c.pem").write_bytes(caller.tls.certificate_pem)
    (tmp_path / "k.pem").write_bytes(caller.key.private_pem())
    context.load_cert_chain(tmp_path / "c.pem", tmp_path / "k.pem")

    async def check_the_aic(request: httpx.Request) -> None:
        # the hub does not certify a loopback address: TLS checks the partner's AIC (README)
        request.extensions["sni_hostname"] = aic_host(partner.agent_id)

    hooks = {"request": [check_the_aic]}
    async with httpx.AsyncClient(verify=context, timeout=WAIT_SECONDS, event_hooks=hooks) as http:
        client = await a2a_client(http, partner)
        task = await last_task(client, SendMessageRequest(message=user_message("over tls")))
    assert task.status.state == TaskState.TASK_STATE_COMPLETED
    await settled(partner)
    recorded = await hub_task(partner, task.id)
    session = (await partner.hub.request("GET", f"/v1/sessions/{recorded['sessionId']}")).json()
    assert session["bridge"]["callerId"] == caller.agent_id


class DescribedHandler(TaskHandler):
    """A product streamed in a chunk, and one given as it awaits completion, each named
    and described."""

    async def on_start(self, task: TaskContext) -> None:
        chunk = {"type": "text", "text": "draft"}
        await task.add_product(
            {"id": "draft", "name": "Draft", "description": "a first go", "dataItems": [chunk]}
        )
        final = {"type": "text", "text": "final"}
        await task.await_completion(
            [{"id": "final", "name": "Final", "description": "the answer", "dataItems": [final]}]
        )


async def test_an_artifact_keeps_its_products_name_and_description(
    make_live_agent: MakeLiveAgent,
) -> None:
    caller = await make_live_agent("caller", serve=False)
    partner = await a2a_partner(make_live_agent, DescribedHandler())
    described = {("draft", "Draft", "a first go"), ("final", "Final", "the answer")}
    async with await caller_http(caller, partner) as http:
        client = await a2a_client(http, partner)
        task = await last_task(client, SendMessageRequest(message=user_message("go")))
        assert {(a.artifact_id, a.name, a.description) for a in task.artifacts} == described
        streaming = await a2a_client(http, partner, streaming=True)
        streamed = {
            (u.artifact.artifact_id, u.artifact.name, u.artifact.description)
            async for event in streaming.send_message(SendMessageRequest(message=user_message("s")))
            if (u := event.artifact_update).HasField("artifact")
        }
        assert streamed == described
    await settled(partner)


@pytest.mark.parametrize("binding", ["JSONRPC", "HTTP+JSON"])
async def test_an_a2a_stream_ends_when_its_caller_leaves_the_hub(
    make_live_agent: MakeLiveAgent, binding: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A stream a2a-sdk serves at a kit partner ends, as an AIP one does, once its caller no
    longer is who it proved to be (here: it deregistered), not when its task ends."""
    monkeypatch.setattr("agenthub.open_streams.RECHECK_SECONDS", 0.2)  # a test's patience
    caller = await make_live_agent("caller", serve=False)
    partner = await a2a_partner(make_live_agent, SlowHandler())
    async with await caller_http(caller, partner) as http:
        sender = await a2a_client(http, partner, binding=binding)
        watcher = await a2a_client(http, partner, streaming=True, binding=binding)
        request = SendMessageRequest(
            message=user_message("slow"),
            configuration=SendMessageConfiguration(return_immediately=True),
        )
        task = await last_task(sender, request)
        seen: list[StreamResponse] = []

        async def watch() -> None:
            with contextlib.suppress(A2AClientError, httpx.HTTPError):  # cut off mid-stream
                async for event in watcher.subscribe(SubscribeToTaskRequest(id=task.id)):
                    seen.append(event)

        watching = asyncio.create_task(watch())
        await eventually(lambda: seen, "the subscription's first event")
        await caller.hub.deregister()
        await asyncio.wait_for(watching, WAIT_SECONDS)
    states = [e.status_update.status.state for e in seen if e.HasField("status_update")]
    assert TaskState.TASK_STATE_COMPLETED not in states  # ended before its task did
    assert not partner.endpoint.open_streams.proofs
