"""The project's own A2A v1.0 conformance checks, written from the specification's MUST rules
for the JSON-RPC binding (the envelope and its errors, the task lifecycle, push configs, the
card). Each runs against a kit partner, called as a third party calls it (a static bearer
token from the hub's OAuth token endpoint, nothing signed per request), and against
a2a-sdk's reference server (``DefaultRequestHandler`` as its samples build one,
``tests/support/a2a_peer.py``): where the reference passes, the kit must."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import httpx
import orjson
import pytest

from tests.support import LOOPBACK
from tests.support.a2a_peer import serve_peer
from tests.support.kit import EchoHandler, MakeLiveAgent
from tests.support.oauth import agent_token


@dataclass
class Server:
    url: str
    headers: dict[str, str]

    async def post(self, body: Any) -> httpx.Response:
        content = body if isinstance(body, bytes) else orjson.dumps(body)
        headers = {**self.headers, "Content-Type": "application/json"}
        async with httpx.AsyncClient(timeout=LOOPBACK) as http:
            return await http.post(self.url, content=content, headers=headers)

    async def rest(self, method: str, path: str, body: Any = None) -> httpx.Response:
        """A request on the HTTP+JSON binding (``path`` below the card's interface URL)."""
        card = await self.card()
        base = next(
            i["url"] for i in card["supportedInterfaces"] if i["protocolBinding"] == "HTTP+JSON"
        )
        async with httpx.AsyncClient(timeout=LOOPBACK, headers=self.headers) as http:
            return await http.request(method, f"{base.rstrip('/')}{path}", json=body)

    async def card(self) -> dict[str, Any]:
        async with httpx.AsyncClient(timeout=LOOPBACK) as http:
            answer = await http.get(f"{self.url.rstrip('/')}/.well-known/agent-card.json")
        card: dict[str, Any] = answer.json()
        return card

    async def call(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        """A request's JSON-RPC response (HTTP 200, as the binding answers every one)."""
        request_id = uuid.uuid4().hex
        answer = await self.post(
            {"jsonrpc": "2.0", "id": request_id, "method": method, "params": params}
        )
        assert answer.status_code == 200, answer.text
        body: dict[str, Any] = answer.json()
        assert body["jsonrpc"] == "2.0" and body["id"] == request_id
        assert ("result" in body) != ("error" in body)  # exactly one of them
        return body

    async def send(self, text: str) -> dict[str, Any]:
        message = {
            "role": "ROLE_USER",
            "messageId": f"m-{uuid.uuid4().hex}",
            "parts": [{"text": text}],
        }
        body = await self.call("SendMessage", {"message": message})
        assert "result" in body, body
        task: dict[str, Any] = body["result"]["task"]
        task["sent"] = message["messageId"]
        return task


@pytest.fixture(params=["kit", "reference"])
async def server(
    request: pytest.FixtureRequest, make_live_agent: MakeLiveAgent
) -> AsyncIterator[Server]:
    if request.param == "reference":
        async with serve_peer(versions=("1.0",)) as url:
            yield Server(f"{url}/", {"A2A-Version": "1.0"})
        return
    partner = await make_live_agent("a2a-partner", EchoHandler(), https=False, a2a=True)
    caller = await make_live_agent("caller", serve=False)
    token = await agent_token(caller, partner.agent_id)
    headers = {"A2A-Version": "1.0", "Authorization": f"Bearer {token}"}
    yield Server(str(partner.public_url), headers)


def error_of(body: dict[str, Any]) -> int:
    assert "error" in body, body
    code: int = body["error"]["code"]
    assert isinstance(body["error"]["message"], str)
    return code


# -- the JSON-RPC envelope (JSON-RPC 2.0 §5.1, A2A §9) -----------------------------------------


async def test_a_body_that_is_no_json_is_a_parse_error(server: Server) -> None:
    answer = await server.post(b'{"jsonrpc": "2.0", "method": ')
    assert answer.status_code == 200
    assert answer.json()["id"] is None and answer.json()["error"]["code"] == -32700


@pytest.mark.parametrize(
    "body",
    [
        {"jsonrpc": "2.0", "id": "r-1"},  # no method
        {"jsonrpc": "1.0", "id": "r-1", "method": "GetTask", "params": {"id": "x"}},
        {"jsonrpc": "2.0", "id": "r-1", "method": 42},
    ],
)
async def test_a_request_that_is_no_jsonrpc_request_is_invalid(
    server: Server, body: dict[str, Any]
) -> None:
    answer = await server.post(body)
    assert answer.status_code == 200 and answer.json()["error"]["code"] == -32600


async def test_an_unknown_method_is_method_not_found(server: Server) -> None:
    body = await server.call("tasks/teleport", {})
    assert error_of(body) == -32601


# -- the task lifecycle (A2A §3.1, §7) ---------------------------------------------------------


async def test_a_sent_message_makes_a_task_with_the_callers_message_in_its_history(
    server: Server,
) -> None:
    task = await server.send("hello")
    assert task["id"] and task["contextId"]
    assert task["status"]["state"] == "TASK_STATE_COMPLETED"
    assert task["artifacts"] and task["artifacts"][0]["parts"][0]["text"] == "hello"
    got = await server.call("GetTask", {"id": task["id"]})
    assert got["result"]["id"] == task["id"]
    assert got["result"]["history"][0]["messageId"] == task["sent"]


async def test_an_unknown_task_is_task_not_found(server: Server) -> None:
    assert error_of(await server.call("GetTask", {"id": "no-such-task"})) == -32001
    assert error_of(await server.call("CancelTask", {"id": "no-such-task"})) == -32001


async def test_an_ended_task_is_not_cancelable(server: Server) -> None:
    task = await server.send("done soon")
    assert error_of(await server.call("CancelTask", {"id": task["id"]})) == -32002
    got = await server.call("GetTask", {"id": task["id"]})
    assert got["result"]["status"]["state"] == "TASK_STATE_COMPLETED"  # as it was


async def test_list_tasks_finds_the_callers_tasks(server: Server) -> None:
    sent = {(await server.send(f"listed {n}"))["id"] for n in range(3)}
    listed = await server.call("ListTasks", {})
    assert sent <= {t["id"] for t in listed["result"]["tasks"]}
    page = await server.call("ListTasks", {"pageSize": 2})
    assert len(page["result"]["tasks"]) == 2


# -- the HTTP+JSON binding, and one task seen alike by both (A2A §3.4, §11) ------------------


async def test_the_bindings_answer_alike(server: Server) -> None:
    """A task sent on JSON-RPC is the same task on HTTP+JSON, and one sent there the same on
    JSON-RPC (A2A §3.4.1: the same operations, the same results, on every binding)."""
    by_rpc = await server.send("on json-rpc")
    got = await server.rest("GET", f"/tasks/{by_rpc['id']}")
    assert got.status_code == 200, got.text
    assert got.json()["status"] == by_rpc["status"]
    assert got.json()["artifacts"] == by_rpc["artifacts"]
    message = {
        "messageId": f"m-{uuid.uuid4().hex}",
        "role": "ROLE_USER",
        "parts": [{"text": "on rest"}],
    }
    sent = await server.rest("POST", "/message:send", {"message": message})
    assert sent.status_code == 200, sent.text
    by_rest = sent.json()["task"]
    assert by_rest["status"]["state"] == "TASK_STATE_COMPLETED"
    again = await server.call("GetTask", {"id": by_rest["id"]})
    assert again["result"]["status"] == by_rest["status"]
    assert again["result"]["history"][0]["messageId"] == message["messageId"]
    listed = await server.rest("GET", "/tasks?pageSize=50")
    assert {by_rpc["id"], by_rest["id"]} <= {t["id"] for t in listed.json()["tasks"]}


async def test_an_unknown_task_is_404_on_http_json(server: Server) -> None:
    """A2A §11.6: TaskNotFoundError is HTTP 404 on the HTTP+JSON binding, in its error shape."""
    answer = await server.rest("GET", "/tasks/no-such-task")
    assert answer.status_code == 404, answer.text
    assert answer.json()["error"]["status"] == "NOT_FOUND"
    canceled = await server.rest("POST", "/tasks/no-such-task:cancel", {})
    assert canceled.status_code == 404, canceled.text


# -- push notification configs (A2A §9.4.7-9.4.10) ---------------------------------------------


async def test_a_push_config_is_set_read_listed_and_deleted(server: Server) -> None:
    task = await server.send("pushed")
    config = {"taskId": task["id"], "url": "https://push.example/hook", "token": "tok-1"}
    made = await server.call("CreateTaskPushNotificationConfig", config)
    assert made["result"]["url"] == config["url"]
    config_id = made["result"]["id"]
    got = await server.call(
        "GetTaskPushNotificationConfig", {"taskId": task["id"], "id": config_id}
    )
    assert got["result"]["url"] == config["url"]
    listed = await server.call("ListTaskPushNotificationConfigs", {"taskId": task["id"]})
    assert [c["id"] for c in listed["result"]["configs"]] == [config_id]
    gone = await server.call(
        "DeleteTaskPushNotificationConfig", {"taskId": task["id"], "id": config_id}
    )
    assert "result" in gone
    listed = await server.call("ListTaskPushNotificationConfigs", {"taskId": task["id"]})
    assert listed["result"].get("configs", []) == []


# -- the card (A2A §5) -------------------------------------------------------------------------


async def test_the_card_names_its_interface_capabilities_and_skills(server: Server) -> None:
    base = server.url.rstrip("/")
    async with httpx.AsyncClient(timeout=LOOPBACK) as http:
        card = (await http.get(f"{base}/.well-known/agent-card.json")).json()
    assert card["name"] and card["description"] and card["version"]
    interfaces = card["supportedInterfaces"]
    assert any(i["protocolBinding"] == "JSONRPC" and i["url"] == server.url for i in interfaces), (
        interfaces
    )
    assert "capabilities" in card and card["skills"]
    assert card["defaultInputModes"] and card["defaultOutputModes"]
    # a SecurityScheme is a oneOf: exactly one scheme a key (A2A v1.0 §4.5)
    for name, scheme in card.get("securitySchemes", {}).items():
        assert len(scheme) == 1, (name, scheme)
