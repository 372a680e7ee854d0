"""A hub group as an A2A agent (``docs/reference/a2a-group-extension.md``): an unmodified
a2a-sdk client, authenticated only by a bearer token of the hub's OAuth token endpoint
(authlib, client credentials, ``resource`` = the group's A2A URL), reads the group's signed
card, joins an open group, posts, receives the kit members' posts with their senders, is
cut off, resubscribes from its last seq (the ``Last-Event-ID`` service parameter) and gets
every missed event exactly once; the kit member receives its posts."""

from __future__ import annotations

import asyncio
import os
import re
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import orjson
import pytest
from a2a.client import A2ACardResolver, ClientCallContext, ClientConfig, ClientFactory
from a2a.client.auth import AuthInterceptor, CredentialService
from a2a.helpers import new_text_part
from a2a.types import (
    AgentCard,
    GetTaskRequest,
    ListTasksRequest,
    Message,
    Role,
    SendMessageRequest,
    StreamResponse,
    SubscribeToTaskRequest,
    TaskState,
)
from a2a.utils.errors import A2AError
from google.protobuf.json_format import MessageToDict

from agenthub import Agent
from agenthub.a2a.card import check_card_signature
from agenthub.a2a.groups import extension_fields, group_client
from tests.support import LOOPBACK
from tests.support.hub import REGISTRATION_TOKEN
from tests.support.kit import LiveHub, MakeLiveAgent
from tests.support.oauth import agent_token

EXTENSION = "https://agenthub.dev/a2a/ext/group/v1"
ROOT = Path(__file__).parents[2]
WAIT_SECONDS = 30


class HubToken(CredentialService):
    def __init__(self, token: str) -> None:
        self.token = token

    async def get_credentials(self, security_scheme_name: str, context: Any) -> str | None:
        return self.token if security_scheme_name == "oauth2" else None


def ext(metadata: Any) -> dict[str, Any]:
    found: dict[str, Any] = MessageToDict(metadata).get(EXTENSION, {})
    return found


def text(message: Message) -> str:
    return "".join(part.text for part in message.parts)


async def group_of(owner: Agent, member: Agent, **options: Any) -> str:
    session = owner.hub.raise_or_json(
        await owner.hub.request("POST", "/v1/sessions", json={"receivers": []})
    )
    group = await owner.hub.groups.create(session["id"], "planning", join_policy="open", **options)
    await member.hub.groups.join(group.id)
    return group.id


async def posts_of(events: AsyncIterator[StreamResponse], count: int) -> list[StreamResponse]:
    got: list[StreamResponse] = []
    async with asyncio.timeout(WAIT_SECONDS):
        async for event in events:
            if event.HasField("status_update") and event.status_update.status.HasField("message"):
                got.append(event)
                if len(got) == count:
                    break
    return got


async def test_a_plain_a2a_client_joins_posts_streams_and_resumes_a_group(
    live_hub: LiveHub, make_live_agent: MakeLiveAgent
) -> None:
    owner = await make_live_agent("owner", serve=False)
    kit_member = await make_live_agent("kit-member", serve=False)
    outsider = await make_live_agent("a2a-client", serve=False)  # registered, nothing more
    group_id = await group_of(owner, kit_member)
    url = f"{live_hub.url}/v1/groups/{group_id}/a2a"
    token = await agent_token(outsider, url)  # authlib, client credentials, private_key_jwt
    auth = {"Authorization": f"Bearer {token}"}
    async with httpx.AsyncClient(timeout=LOOPBACK) as http:
        card = await A2ACardResolver(http, live_hub.url).get_agent_card(
            f"/v1/groups/{group_id}/agent-card.json", http_kwargs={"headers": auth}
        )
        assert isinstance(card, AgentCard)
        jwks = (await http.get(f"{live_hub.url}/.well-known/jwks.json")).json()
        assert check_card_signature(card, jwks)
        assert card.name == "planning" and card.supported_interfaces[0].url == url
        (extension,) = card.capabilities.extensions
        assert extension.uri == EXTENSION
        assert MessageToDict(extension.params)["joinPolicy"] == "open"
        client = ClientFactory(ClientConfig(httpx_client=http, streaming=True)).create(
            card, interceptors=[AuthInterceptor(HubToken(token))]
        )
        # subscribing joins the open group; the first event is the group's task
        live: Any = client.subscribe(
            SubscribeToTaskRequest(id=group_id), context=ClientCallContext()
        )
        first = await anext(live)
        assert first.HasField("task") and first.task.id == group_id
        start = int(ext(first.task.metadata)["seq"])
        members = await kit_member.hub.groups.members(group_id)
        assert outsider.agent_id in {m.agent_id for m in members}
        # the kit member's post reaches the A2A client with its sender
        await kit_member.hub.groups.post(group_id, "hello from the kit")
        (heard,) = await posts_of(live, 1)
        message = heard.status_update.status.message
        assert text(message) == "hello from the kit"
        fields = ext(message.metadata)
        assert fields["source"] == {"id": kit_member.agent_id, "name": "kit-member"}
        assert int(fields["seq"]) > start
        last = int(fields["seq"])
        # the A2A client's post reaches the kit member, once even when sent twice
        events = kit_member.hub.groups.events(group_id, after=last)
        post = Message(
            role=Role.ROLE_USER, message_id="a2a-post-1", parts=[new_text_part("hi from A2A")]
        )
        for _ in range(2):  # streaming: the post's task first, then the conversation
            answers: Any = client.send_message(
                SendMessageRequest(message=post), context=ClientCallContext()
            )
            answer = await anext(answers)
            assert answer.HasField("task") and answer.task.id == group_id
            assert text(answer.task.status.message) == "hi from A2A"
            await answers.aclose()
        async with asyncio.timeout(WAIT_SECONDS):
            async for event in events:
                if event.kind == "message":
                    assert event.data["senderId"] == outsider.agent_id
                    assert event.data["dataItems"] == [{"type": "text", "text": "hi from A2A"}]
                    break
        events.close()
        # cut off; three posts meanwhile; the resubscribe from its last seq gets them once
        await live.aclose()
        for n in range(3):
            await kit_member.hub.groups.post(group_id, f"missed {n}")
        resumed: Any = client.subscribe(
            SubscribeToTaskRequest(id=group_id),
            context=ClientCallContext(service_parameters={"Last-Event-ID": str(last)}),
        )
        got = await posts_of(resumed, 3)
        assert [text(e.status_update.status.message) for e in got] == [
            "missed 0",
            "missed 1",
            "missed 2",
        ]
        seqs = [int(ext(e.status_update.status.message.metadata)["seq"]) for e in got]
        assert seqs == sorted(set(seqs)) and seqs[0] > last
        await resumed.aclose()
        # the history, by GetTask
        task = await client.get_task(GetTaskRequest(id=group_id, history_length=10))
        assert [text(m) for m in task.history][-4:] == [
            "hi from A2A",
            *(f"missed {n}" for n in range(3)),
        ]
        # the whole history, paged, by the extension's method
        said: list[str] = []
        after: int | None = 0
        while after is not None:
            page = await http.post(
                url,
                json={
                    "jsonrpc": "2.0",
                    "id": "p",
                    "method": "ListGroupMessages",
                    "params": {"after": after, "limit": 2},
                },
                headers=auth,
            )
            listed = page.json()["result"]
            said += ["".join(p["text"] for p in m["parts"]) for m in listed["messages"]]
            after = listed.get("nextCursor")
        assert said == [
            "hello from the kit",
            "hi from A2A",
            *(f"missed {n}" for n in range(3)),
        ]
        await client.close()


DOCUMENT = ROOT / "docs" / "reference" / "a2a-group-extension.md"


def documented_fields() -> list[tuple[str, str]]:
    """The (field, object) rows of the document's Metadata table, and the card's params."""
    text_ = DOCUMENT.read_text()
    metadata = text_.split("## Metadata", 1)[1].split("\n\n", 2)[2]
    rows = re.findall(r"^\| `([A-Za-z]+)` \| `([A-Za-z.]+)` \|", metadata, re.M)
    params = text_.split("| param | meaning |", 1)[1].split("\n\n", 1)[0]
    rows += [(name, "params") for name in re.findall(r"^\| `([A-Za-z]+)` \|", params, re.M)]
    return rows


async def test_speaking_turns_hold_for_an_a2a_client_and_every_documented_field_is_on_the_wire(
    live_hub: LiveHub, make_live_agent: MakeLiveAgent
) -> None:
    owner = await make_live_agent("owner", serve=False)
    kit_member = await make_live_agent("kit-member", serve=False)
    outsider = await make_live_agent("a2a-client", serve=False)
    group_id = await group_of(owner, kit_member, speaking_policy="turns")
    url = f"{live_hub.url}/v1/groups/{group_id}/a2a"
    token = await agent_token(outsider, url)
    seen: dict[str, dict[str, Any]] = {}  # what the wire showed, by the document's object
    async with httpx.AsyncClient(timeout=LOOPBACK) as http:
        card = await A2ACardResolver(http, live_hub.url).get_agent_card(
            f"/v1/groups/{group_id}/agent-card.json",
            http_kwargs={"headers": {"Authorization": f"Bearer {token}"}},
        )
        seen["params"] = MessageToDict(card.capabilities.extensions[0].params)
        assert seen["params"]["speakingPolicy"] == "turns"
        client = ClientFactory(ClientConfig(httpx_client=http, streaming=False)).create(
            card, interceptors=[AuthInterceptor(HubToken(token))]
        )
        activated = ClientCallContext(service_parameters={"A2A-Extensions": EXTENSION})

        def post(text_: str, message_id: str, **fields: Any) -> SendMessageRequest:
            message = Message(
                role=Role.ROLE_USER, message_id=message_id, parts=[new_text_part(text_)]
            )
            if fields:
                message.metadata.update({EXTENSION: fields})
            return SendMessageRequest(message=message)

        # the A2A client takes part (an open group) and is named next by the owner
        first: Any = await anext(client.send_message(post("joining", "a-1"), context=activated))
        seen["Task.metadata"] = ext(first.task.metadata)
        await owner.hub.groups.post(
            group_id, "kit member first", role="leader", next_speaker=[kit_member.agent_id]
        )
        # not its turn: a JSON-RPC error whose data carries the hub's problem code
        with pytest.raises(A2AError) as refused:
            await anext(client.send_message(post("me now?", "a-2"), context=activated))
        assert refused.value.data is not None and refused.value.data["code"] == "not-your-turn"
        # the kit member passes the floor to it; now it may speak, naming the next speaker
        await kit_member.hub.groups.post(
            group_id, "over to you", mentions="all", next_speaker=[outsider.agent_id]
        )
        spoke: Any = await anext(
            client.send_message(
                post("my turn", "a-3", nextSpeaker=[owner.agent_id], mentions="all"),
                context=activated,
            )
        )
        assert text(spoke.task.status.message) == "my turn"
        # a task started in the conversation is an A2A task too
        start = owner.leader.command(
            "start",
            session_id=(await owner.hub.groups.get(group_id)).session_id,
            task_id="t-group",
            partner_id=kit_member.agent_id,
            text="draft it",
        )
        await owner.hub.groups.send(group_id, start.model_copy(update={"group_id": group_id}))
        started = await client.get_task(GetTaskRequest(id="t-group"))
        assert started.status.state == TaskState.TASK_STATE_SUBMITTED
        seen["Task.metadata"] |= ext(started.metadata)
        assert seen["Task.metadata"]["partnerId"] == kit_member.agent_id
        listed = await client.list_tasks(ListTasksRequest())
        assert [t.id for t in listed.tasks] == [group_id, "t-group"]
        # the stream shows every kind of event with the extension's fields
        streaming = ClientFactory(ClientConfig(httpx_client=http, streaming=True)).create(
            card, interceptors=[AuthInterceptor(HubToken(token))]
        )
        replay: Any = streaming.subscribe(
            SubscribeToTaskRequest(id=group_id),
            context=ClientCallContext(
                service_parameters={"Last-Event-ID": "0", "A2A-Extensions": EXTENSION}
            ),
        )
        kinds: dict[str, Any] = {}
        async with asyncio.timeout(WAIT_SECONDS):
            async for event in replay:
                if not event.HasField("status_update"):
                    continue
                update = event.status_update
                fields = ext(update.metadata)
                kinds.setdefault(fields["kind"], fields)
                if update.status.HasField("message"):  # every field any post showed
                    message_fields = ext(update.status.message.metadata)
                    seen.setdefault("Message.metadata", {}).update(message_fields)
                if {"message", "member", "floor"} <= kinds.keys() and {
                    "nextSpeaker",
                    "type",
                } <= seen.get("Message.metadata", {}).keys():
                    break
        await replay.aclose()
        seen["TaskStatusUpdateEvent.metadata"] = {
            name: value for fields in kinds.values() for name, value in fields.items()
        }
        # the activation is answered
        raw = await http.post(
            url,
            json={"jsonrpc": "2.0", "id": 1, "method": "GetTask", "params": {"id": group_id}},
            headers={"Authorization": f"Bearer {token}", "A2A-Extensions": EXTENSION},
        )
        assert raw.headers["A2A-Extensions"] == EXTENSION
        await client.close()
        await streaming.close()
    rows = documented_fields()
    assert len(rows) >= 15
    missing = [(name, where) for name, where in rows if name not in seen.get(where, {})]
    assert missing == [], (missing, seen)


async def test_the_example_client_resumes_from_the_store_posts_and_is_heard(
    live_hub: LiveHub, make_live_agent: MakeLiveAgent
) -> None:
    """examples/a2a_group_client.py, run as a user would (no agenthub code in it)."""
    owner = await make_live_agent("owner", serve=False)
    kit_member = await make_live_agent("kit-member", serve=False)
    group_id = await group_of(owner, kit_member)
    for n in range(2):
        await kit_member.hub.groups.post(group_id, f"earlier {n}")
    events = kit_member.hub.groups.events(
        group_id, after=(await owner.hub.groups.get(group_id)).last_seq
    )
    env = {**os.environ, "AGENTHUB_URL": live_hub.url, "AGENTHUB_TOKEN": REGISTRATION_TOKEN}
    example = await asyncio.create_subprocess_exec(
        sys.executable,
        str(ROOT / "examples" / "a2a_group_client.py"),
        group_id,
        "--after",
        "0",
        "--count",
        "2",
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        async with asyncio.timeout(WAIT_SECONDS):
            out, err = await example.communicate()
    finally:
        if example.returncode is None:
            example.kill()
    assert example.returncode == 0, err.decode()[-3000:]
    lines = out.decode().splitlines()
    assert lines[0].startswith("joined 'planning' as ")
    printed = [line.split(" ", 1) for line in lines[-2:]]  # "<seq> <sender>: <text>"
    assert [said for _, said in printed] == ["kit-member: earlier 0", "kit-member: earlier 1"]
    assert int(printed[0][0]) < int(printed[1][0])
    async with asyncio.timeout(WAIT_SECONDS):
        async for event in events:
            if event.kind == "message":
                assert event.data["dataItems"] == [{"type": "text", "text": "hello, group"}]
                break
    events.close()


async def test_a_kit_agent_takes_part_through_the_same_a2a_endpoint(
    live_hub: LiveHub, make_live_agent: MakeLiveAgent
) -> None:
    """The kit speaks it too (``agenthub.a2a.groups``): its hub access token, the card's
    signature checked, a2a-sdk's client."""
    owner = await make_live_agent("owner", serve=False)
    kit_member = await make_live_agent("kit-member", serve=False)
    group_id = await group_of(owner, kit_member)
    async with httpx.AsyncClient(timeout=LOOPBACK) as http:
        card, client = await group_client(kit_member.hub, group_id, http)
        assert card.name == "planning"
        events: Any = client.subscribe(SubscribeToTaskRequest(id=group_id))
        assert (await anext(events)).HasField("task")
        await owner.hub.groups.post(group_id, "from the owner", role="leader")
        (heard,) = await posts_of(events, 1)
        fields = extension_fields(heard.status_update.status.message.metadata)
        assert fields["source"] == {"id": owner.agent_id, "name": "owner"}
        await events.aclose()
        await client.close()


async def test_a_message_id_used_again_is_the_same_post_or_refused(
    live_hub: LiveHub, make_live_agent: MakeLiveAgent
) -> None:
    owner = await make_live_agent("owner", serve=False)
    kit_member = await make_live_agent("kit-member", serve=False)
    group_id = await group_of(owner, kit_member)
    url = f"{live_hub.url}/v1/groups/{group_id}/a2a"
    headers = {"Authorization": f"Bearer {await kit_member.hub.access_token()}"}

    def send(said: str) -> dict[str, Any]:
        message = {"messageId": "once", "role": "ROLE_USER", "parts": [{"text": said}]}
        return {"jsonrpc": "2.0", "id": 7, "method": "SendMessage", "params": {"message": message}}

    async with httpx.AsyncClient(timeout=LOOPBACK) as http:
        first = (await http.post(url, json=send("the plan"), headers=headers)).json()
        seq = first["result"]["task"]["metadata"][EXTENSION]["seq"]
        again = (await http.post(url, json=send("the plan"), headers=headers)).json()
        assert again["result"]["task"]["metadata"][EXTENSION]["seq"] == seq  # the same post
        other = (await http.post(url, json=send("another plan"), headers=headers)).json()
    assert "result" not in other, other
    assert other["error"]["data"][0]["metadata"]["code"] == "message-id-reused", other
    assert (await owner.hub.groups.get(group_id)).last_seq == int(seq)  # one post, no second
    posts = (await owner.hub.groups.history(group_id))["items"]
    assert [p["dataItems"] for p in posts if p["id"] == "once"] == [
        [{"type": "text", "text": "the plan"}]
    ]


async def test_bad_requests_are_clear_errors_and_change_nothing(
    live_hub: LiveHub, make_live_agent: MakeLiveAgent
) -> None:
    owner = await make_live_agent("owner", serve=False)
    kit_member = await make_live_agent("kit-member", serve=False)
    group_id = await group_of(owner, kit_member)
    url = f"{live_hub.url}/v1/groups/{group_id}/a2a"
    token = await kit_member.hub.access_token()
    before = (await owner.hub.groups.get(group_id)).last_seq

    def send(message: Any) -> dict[str, Any]:
        return {"jsonrpc": "2.0", "id": 7, "method": "SendMessage", "params": {"message": message}}

    text_part = [{"text": "x"}]
    cases: list[tuple[Any, int]] = [
        ({"jsonrpc": "2.0", "id": 7, "method": "Nope"}, -32601),
        (send({"messageId": "m", "role": "ROLE_USER", "parts": "x"}), -32602),
        (send({"role": "ROLE_USER", "parts": text_part}), -32602),  # no messageId
        (send({"messageId": "m", "role": "ROLE_USER", "parts": []}), -32602),  # no data
        (
            send(
                {
                    "messageId": "m",
                    "role": "ROLE_USER",
                    "parts": text_part,
                    "metadata": {EXTENSION: {"mentions": {"who": 1}}},
                }
            ),
            -32602,
        ),
        (send({"messageId": "m" * 300, "role": "ROLE_USER", "parts": text_part}), -32602),
        ({"jsonrpc": "2.0", "id": 7, "method": "GetTask", "params": {"id": "nope"}}, -32001),
        ({"jsonrpc": "2.0", "id": 7, "method": "CancelTask", "params": {"id": group_id}}, -32002),
        (
            {"jsonrpc": "2.0", "id": 7, "method": "ListGroupMessages", "params": {"limit": 0}},
            -32602,
        ),
        (
            {"jsonrpc": "2.0", "id": 7, "method": "ListGroupMessages", "params": {"after": "1"}},
            -32602,
        ),
        # an id echoed in every frame of a stream: a long one is refused (and not echoed)
        (
            send({"messageId": "long-id", "role": "ROLE_USER", "parts": text_part})
            | {"id": "i" * 300},
            -32600,
        ),
        ({"jsonrpc": "2.0", "id": "i" * 60_000, "method": "SendStreamingMessage"}, -32600),
    ]
    async with httpx.AsyncClient(timeout=LOOPBACK) as http:
        for body, code in cases:
            content = body if isinstance(body, bytes) else orjson.dumps(body)
            answer = await http.post(
                url,
                content=content,
                headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
            )
            assert answer.status_code == 200, (body, answer.text)
            assert answer.json()["error"]["code"] == code, (body, answer.text)
            if code == -32600:
                assert answer.json()["id"] is None and len(answer.content) < 1000
        # no JSON-RPC request at all (not what the operation documents): a 400 problem
        for content in [
            b"{not json",
            b"",
            b"[]",
            orjson.dumps({"jsonrpc": "1.0", "id": 7, "method": "SendMessage"}),
            orjson.dumps({"jsonrpc": "2.0", "id": 1.5, "method": "GetTask"}),
            orjson.dumps({"jsonrpc": "2.0", "id": 7, "method": "GetTask", "params": [1]}),
        ]:
            answer = await http.post(
                url,
                content=content,
                headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
            )
            assert answer.status_code == 400, (content, answer.text)
            assert answer.headers["content-type"].startswith("application/problem+json")
            assert answer.json()["type"].endswith("/not-json-rpc"), answer.text
        nobody = await http.post(url, json=send({"messageId": "m", "parts": text_part}))
        assert nobody.status_code == 401 and nobody.headers["content-type"].startswith(
            "application/problem+json"
        )
        forged = await http.post(
            url, json=send({}), headers={"Authorization": "Bearer not.a.token"}
        )
        assert forged.status_code == 401
    assert (await owner.hub.groups.get(group_id)).last_seq == before  # the store unchanged
