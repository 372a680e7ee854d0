"""AIP conformance, clause by clause: a kit partner over mutual TLS, driven by acps-sdk 2.1.0's
``AipRpcClient`` (and its HTTP client, for what the client has no method for), every answer
validated by acps-sdk's own models. Clauses: ACPs AIP v02.02 (§4.4, §4.5, 5.1, 6.2, 6.3)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from acps_sdk.aip.aip_base_model import TaskResult, TaskState
from acps_sdk.aip.aip_rpc_client import AipRpcClient
from acps_sdk.aip.aip_rpc_model import JSONRPCResponse, RpcResponse
from acps_sdk.aip.aip_stream_model import StreamResponse

from agenthub import Agent, CallFailed
from agenthub.protocol.tasks import FINAL_STATES
from tests.support.acps import acps_client, acps_command, rpc_body
from tests.support.kit import AskHandler, EchoHandler, LiveHub, MakeLiveAgent
from tests.support.waiting import eventually

READ_SECONDS = 10.0


class Peers:
    def __init__(self, leader: Agent, partner: Agent, client: AipRpcClient, session_id: str):
        self.leader, self.partner, self.client, self.session_id = (
            leader,
            partner,
            client,
            session_id,
        )
        self.url = partner.public_url or ""

    def command(self, name: str, task_id: str, **kwargs: Any) -> dict[str, Any]:
        made = acps_command(
            self.leader.agent_id, name, task_id=task_id, session_id=self.session_id, **kwargs
        )
        return made.model_dump(exclude_none=True)

    async def post(self, body: Any) -> httpx.Response:
        """A raw request over acps-sdk's own mTLS client."""
        content = body if isinstance(body, bytes) else json.dumps(body).encode()
        headers = {"Content-Type": "application/json"}
        return await self.client.http_client.post(self.url, content=content, headers=headers)

    async def rpc(self, command: dict[str, Any]) -> TaskResult:
        answer = RpcResponse.model_validate(
            (await self.post(rpc_body("rpc", {"command": command}))).json()
        )
        assert answer.error is None and answer.result is not None, answer.error
        return answer.result


async def peers(make_live_agent: MakeLiveAgent, tmp_path: Path, handler: Any) -> Peers:
    leader = await make_live_agent("acps-leader")
    partner = await make_live_agent("partner", handler)
    session = await leader.leader.open_session([partner.agent_id])
    client = await acps_client(leader, partner, tmp_path / "acps")
    return Peers(leader, partner, client, session.id)


@pytest.fixture
async def echo(make_live_agent: MakeLiveAgent, tmp_path: Path) -> AsyncIterator[Peers]:
    p = await peers(make_live_agent, tmp_path, EchoHandler())
    yield p
    await p.client.close()


@pytest.fixture
async def ask(make_live_agent: MakeLiveAgent, tmp_path: Path) -> AsyncIterator[Peers]:
    p = await peers(make_live_agent, tmp_path, AskHandler())
    yield p
    await p.client.close()


async def hub_state(p: Peers, task_id: str) -> str:
    assert await p.partner.recorder.flush(10)
    return str((await p.leader.hub.request("GET", f"/v1/tasks/{task_id}")).json()["state"])


# -- AIP §4.5: commands out of their state are ignored ------------------------------------


async def test_complete_on_completed_task_is_ignored(echo: Peers, live_hub: LiveHub) -> None:
    await echo.client.start_task(echo.session_id, "hi", task_id="t-done")
    done = await echo.client.complete_task("t-done", echo.session_id)
    assert done.status.state == TaskState.Completed
    again = await echo.client.complete_task("t-done", echo.session_id)  # no RPC error
    more = await echo.client.continue_task("t-done", echo.session_id, "and?")
    assert again.status == done.status and more.status == done.status
    snapshot = await echo.client.get_task("t-done", echo.session_id)
    assert [c.command.value for c in snapshot.commandHistory or []] == [
        "start",
        "complete",
        "complete",
        "continue",
    ]
    assert await hub_state(echo, "t-done") == "completed"
    assert await live_hub.answered(409) == 0


async def test_cancel_on_ended_task_is_ignored(echo: Peers) -> None:
    await echo.client.start_task(echo.session_id, "hi", task_id="t-end")
    await echo.client.complete_task("t-end", echo.session_id)
    canceled = await echo.client.cancel_task("t-end", echo.session_id)  # was -32002
    assert canceled.status.state == TaskState.Completed
    restarted = await echo.client.start_task(echo.session_id, "again", task_id="t-end")
    assert restarted.status.state == TaskState.Completed  # a start again is ignored too
    history = (await echo.client.get_task("t-end", echo.session_id)).commandHistory or []
    assert [c.command.value for c in history] == ["start", "complete", "cancel", "start"]


# -- AIP §4.4: get's and start's params -----------------------------------------------------


async def test_get_returns_only_history_newer_than_its_params(echo: Peers) -> None:
    await echo.client.start_task(echo.session_id, "hi", task_id="t-get")
    full = await echo.client.get_task("t-get", echo.session_id)
    statuses, commands = full.statusHistory or [], full.commandHistory or []
    assert [s.state for s in statuses] == [
        TaskState.Accepted,
        TaskState.Working,
        TaskState.AwaitingCompletion,
    ]
    since = {"lastStateChangedAt": statuses[0].stateChangedAt, "lastCommandSentAt": None}
    newer = await echo.rpc(echo.command("get", "t-get", params=since))
    assert newer.statusHistory == statuses[1:] and newer.commandHistory == commands
    since = {"lastCommandSentAt": commands[-1].sentAt}
    assert (await echo.rpc(echo.command("get", "t-get", params=since))).commandHistory == []
    bad = await echo.post(
        rpc_body(
            "rpc",
            {"command": echo.command("get", "t-get", params={"lastStateChangedAt": "yesterday"})},
        )
    )
    assert JSONRPCResponse.model_validate(bad.json()).error.code == -32602  # type: ignore[union-attr]


async def test_start_timeout_cancels_a_task_left_awaiting_input(
    ask: Peers, live_hub: LiveHub
) -> None:
    started = await ask.rpc(ask.command("start", "t-wait", text="?", params={"timeout": 300}))
    assert started.status.state == TaskState.AwaitingInput
    await asyncio.sleep(1.0)
    ended = await ask.client.get_task("t-wait", ask.session_id)
    assert ended.status.state == TaskState.Canceled
    assert "timed out" in ended.status.dataItems[0].text  # type: ignore[index,union-attr]
    assert await hub_state(ask, "t-wait") == "canceled"  # the partner's move, not a 409
    assert await live_hub.answered(409) == 0


async def test_start_timeout_completes_a_task_left_awaiting_completion(echo: Peers) -> None:
    started = await echo.rpc(echo.command("start", "t-idle", text="x", params={"timeout": 300}))
    assert started.status.state == TaskState.AwaitingCompletion
    await asyncio.sleep(1.0)
    ended = await echo.client.get_task("t-idle", echo.session_id)
    assert ended.status.state == TaskState.Completed
    assert await hub_state(echo, "t-idle") == "completed"
    late = await echo.client.continue_task("t-idle", echo.session_id, "more")  # ignored
    assert late.status.state == TaskState.Completed


class SlowCleanup(EchoHandler):
    """Offers its result, then works on; what it holds takes a second to release, and it
    counts the end hooks the kit runs."""

    def __init__(self) -> None:
        self.ends: list[str] = []

    async def on_start(self, task: Any) -> None:
        await super().on_start(task)
        try:
            await asyncio.sleep(30)
        except asyncio.CancelledError:
            await asyncio.shield(asyncio.sleep(1.0))
            raise

    async def on_complete(self, task: Any) -> None:
        self.ends.append("complete")

    async def on_cancel(self, task: Any) -> None:
        self.ends.append("cancel")


async def test_a_cancel_racing_the_start_timeout_ends_the_task_once(
    make_live_agent: MakeLiveAgent,
) -> None:
    """The timeout fires (awaiting-completion -> completed) and waits for the handler to
    stop; a cancel arriving meanwhile waits for the same handler, then finds the task ended
    and is ignored: one final state, one end hook (was: completed, then canceled)."""
    handler = SlowCleanup()
    leader = await make_live_agent("leader")
    partner = await make_live_agent("partner", handler)
    lead = leader.leader
    session = await lead.open_session([partner.agent_id])
    started = await lead.start(
        partner.agent_id, session_id=session.id, task_id="t-race", text="x", params={"timeout": 200}
    )
    assert started["status"]["state"] == "awaiting-completion"
    await asyncio.sleep(0.4)  # the timeout has fired and waits for the handler's cleanup
    canceled = await lead.cancel(partner.agent_id, session_id=session.id, task_id="t-race")
    assert canceled["status"]["state"] == "completed"  # the timeout's: the cancel is ignored
    await asyncio.sleep(0.3)
    snapshot = await lead.get(partner.agent_id, session_id=session.id, task_id="t-race")
    ends = [s["state"] for s in snapshot["statusHistory"] if s["state"] in FINAL_STATES]
    assert ends == ["completed"] and handler.ends == ["complete"]


class AskThenLinger(EchoHandler):
    """Asks, then works on; what it holds takes a second to release. Its ``continue``
    works until stopped, and says whether it was."""

    def __init__(self) -> None:
        self.continue_stopped = asyncio.Event()

    async def on_start(self, task: Any) -> None:
        await task.await_input("and?")
        try:
            await asyncio.sleep(30)
        except asyncio.CancelledError:
            await asyncio.shield(asyncio.sleep(1.0))
            raise

    async def on_continue(self, task: Any) -> None:
        try:
            await asyncio.sleep(30)
        except asyncio.CancelledError:
            self.continue_stopped.set()
            raise


async def test_a_cancel_stops_the_handler_a_continue_started_while_it_waited(
    make_live_agent: MakeLiveAgent,
) -> None:
    """A cancel waits for the handler to stop; a continue that comes meanwhile starts the
    handler again: the cancel stops that one too before it cancels (was: canceled, with
    the continue's handler still at work)."""
    handler = AskThenLinger()
    leader = await make_live_agent("leader")
    partner = await make_live_agent("partner", handler)
    lead = leader.leader
    session = await lead.open_session([partner.agent_id])
    ids = {"session_id": session.id, "task_id": "t-stop"}
    asked = await lead.start(partner.agent_id, text="x", **ids)
    assert asked["status"]["state"] == "awaiting-input"
    cancel = asyncio.create_task(lead.cancel(partner.agent_id, **ids))
    await asyncio.sleep(0.3)  # the cancel waits for the handler's cleanup
    continued = await lead.continue_task(partner.agent_id, text="y", **ids)
    assert continued["status"]["state"] in ("working", "canceled")  # stopped: its answer
    assert (await cancel)["status"]["state"] == "canceled"
    async with asyncio.timeout(READ_SECONDS):
        await handler.continue_stopped.wait()
    snapshot = await lead.get(partner.agent_id, **ids)
    ends = [s["state"] for s in snapshot["statusHistory"] if s["state"] in FINAL_STATES]
    assert ends == ["canceled"]


class Slow(EchoHandler):
    """Accepts at once, then works on only once released."""

    def __init__(self) -> None:
        self.released = asyncio.Event()

    async def on_start(self, task: Any) -> None:
        await task.accept()
        await self.released.wait()
        await super().on_start(task)


async def test_start_timeout_bounds_the_wait_for_the_starts_answer(
    make_live_agent: MakeLiveAgent, tmp_path: Path
) -> None:
    """The answer comes when the start's ``timeout`` is up, with the task where it is then:
    the work cannot end before the test releases it."""
    slow = Slow()
    p = await peers(make_live_agent, tmp_path, slow)
    try:
        answer = await p.rpc(p.command("start", "t-slow", text="x", params={"timeout": 200}))
        assert answer.status.state == TaskState.Accepted  # where it is when the time is up
    finally:
        slow.released.set()
        await p.client.close()


async def test_max_products_bytes_fails_a_task_whose_products_pass_it(echo: Peers) -> None:
    params = {"maxProductsBytes": 5}
    failed = await echo.rpc(echo.command("start", "t-big", text="more than five", params=params))
    assert failed.status.state == TaskState.Failed
    assert "exceeds maxProductsBytes=5" in failed.status.dataItems[0].text  # type: ignore[index,union-attr]
    assert not failed.products
    fits = await echo.rpc(echo.command("start", "t-fit", text="five!", params=params))
    assert fits.status.state == TaskState.AwaitingCompletion
    for bad in ({"maxProductsBytes": "lots"}, {"timeout": 0}):
        start = echo.command("start", "t-bad", text="x", params=bad)
        answer = (await echo.post(rpc_body("rpc", {"command": start}))).json()
        assert JSONRPCResponse.model_validate(answer).error.code == -32602  # type: ignore[union-attr]
    runtime = echo.partner.endpoint.runtime
    assert runtime is not None and runtime.task_of(echo.leader.agent_id, "t-bad") is None


# -- AIP 6.2 and GB/Z A.2: streams -----------------------------------------------------------


async def _events(response: httpx.Response) -> AsyncIterator[dict[str, Any]]:
    async for line in response.aiter_lines():
        if line.startswith("data:"):
            yield json.loads(line[5:])


async def _until(events: AsyncIterator[dict[str, Any]], state: TaskState) -> list[Any]:
    """Stream events (as acps-sdk's StreamResponse) up to the task result in ``state``."""
    seen = []
    async with asyncio.timeout(READ_SECONDS):
        while True:
            event = StreamResponse.model_validate(await anext(events)).result.eventData
            seen.append(event)
            if isinstance(event, TaskResult) and event.status.state == state:
                return seen


def _stream(p: Peers, command: dict[str, Any]) -> Any:
    body = json.dumps(rpc_body("stream", {"message": command})).encode()
    headers = {"Content-Type": "application/json", "Accept": "text/event-stream"}
    return p.client.http_client.stream("POST", p.url, content=body, headers=headers)


async def test_stream_stays_open_while_the_task_waits_for_the_leader(ask: Peers) -> None:
    async with _stream(ask, ask.command("start", "t-s", text="go")) as response:
        assert response.headers["content-type"].startswith("text/event-stream")
        events = _events(response)
        first = await _until(events, TaskState.AwaitingInput)
        assert [e.status.state for e in first] == [
            TaskState.Accepted,
            TaskState.Working,
            TaskState.AwaitingInput,
        ]
        # the leader answers on a new connection; the events come on the open stream
        await ask.client.continue_task("t-s", ask.session_id, "forty-two")
        more = await _until(events, TaskState.AwaitingCompletion)
        types = [e.type for e in more]
        assert types[0] == "task-result" and "product-chunk" in types
        await ask.client.complete_task("t-s", ask.session_id)
        last = await _until(events, TaskState.Completed)
        assert len(last) == 1
        with pytest.raises(StopAsyncIteration):  # the task ended: the partner closed it
            async with asyncio.timeout(READ_SECONDS):
                await anext(events)


async def test_a_command_ignored_by_stream_is_answered_with_the_task_as_is(
    make_live_agent: MakeLiveAgent,
) -> None:
    """AIP 4.5: an ignored command is answered with the task as is; by ``stream`` too (a
    start retried after a dropped connection, a command too early): its first event is the
    task's current result, and a task that ended closes the stream after it."""
    leader = await make_live_agent("leader")
    partner = await make_live_agent("partner", AskHandler())
    lead = leader.leader
    session = await lead.open_session([partner.agent_id])
    first = await lead.start(partner.agent_id, session_id=session.id, task_id="t-q", text="go")
    assert first["status"]["state"] == "awaiting-input"

    def again(name: str) -> Any:
        command = lead.command(
            name, session_id=session.id, partner_id=partner.agent_id, task_id="t-q", text="go"
        )
        return lead.stream(partner.agent_id, command, follow=True)

    async with asyncio.timeout(READ_SECONDS):
        events = again("start")
        try:
            retried = await anext(events)  # was: nothing until the task ended (an hour)
        finally:
            await events.aclose()
        assert retried["eventData"]["status"]["state"] == "awaiting-input"
        await lead.cancel(partner.agent_id, session_id=session.id, task_id="t-q")
        late = [event async for event in again("complete")]  # ended: one event, then closed
    assert [e["eventData"]["status"]["state"] for e in late] == ["canceled"]
    assert late[0]["eventSeq"] == retried["eventSeq"] + 1


async def test_re_stream_from_the_last_event_waits_for_the_next(ask: Peers) -> None:
    async with _stream(ask, ask.command("start", "t-r", text="go")) as response:
        seen = await _until(_events(response), TaskState.AwaitingInput)
    resume = ask.command("re-stream", "t-r", params={"lastEventSeq": len(seen)})
    async with _stream(ask, resume) as response:  # was -32603: it opens, with nothing yet
        assert response.status_code == 200
        events = _events(response)
        await ask.client.continue_task("t-r", ask.session_id, "now")
        more = await _until(events, TaskState.AwaitingCompletion)
        assert more[0].status.state == TaskState.Working
    past = ask.command("re-stream", "t-r", params={"lastEventSeq": 10_000})
    answer = JSONRPCResponse.model_validate(
        (await ask.post(rpc_body("stream", {"message": past}))).json()
    )
    assert answer.error is not None and answer.error.code == -32602


async def test_re_stream_of_expired_events_is_an_sse_error(
    ask: Peers, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A partner that keeps two events (its limit set low, not mocked: the same code path)."""
    monkeypatch.setattr("agenthub.partner.MAX_EVENTS_PER_TASK", 2)
    await ask.client.start_task(ask.session_id, "go", task_id="t-x")  # three events
    resume = ask.command("re-stream", "t-x", params={"lastEventSeq": 0})
    async with _stream(ask, resume) as response:
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/event-stream")
        frames = [e async for e in _events(response)]  # one, then the stream is closed
    assert len(frames) == 1
    error = JSONRPCResponse.model_validate(frames[0]).error
    assert error is not None and error.code == -32001 and error.data["lastAvailableSeq"] == 3
    with pytest.raises(CallFailed) as refused:  # the kit leader reads it the same way
        async for _ in ask.leader.leader.resume_stream(
            ask.partner.agent_id, session_id=ask.session_id, task_id="t-x", last_event_seq=0
        ):
            pass
    assert refused.value.code == -32001


# -- AIP 6.3: notifications -----------------------------------------------------------------


async def test_notification_start_reads_params_message(echo: Peers) -> None:
    config = {"url": echo.leader.notifications_url, "token": "tok-1", "taskId": "t-n"}
    answer = (await echo.post(rpc_body("notification/set", config))).json()
    assert answer["result"]["token"] == "tok-1"  # AIP 6.3.1: the whole config
    config_id = answer["result"]["id"]
    echo.leader.inbox.expect("t-n", partner_id=echo.partner.agent_id, token="tok-1")
    start = echo.command("start", "t-n", text="ping", params={"notificationConfigId": config_id})
    started = RpcResponse.model_validate(
        (await echo.post(rpc_body("notification/start", {"message": start}))).json()
    )
    assert started.result is not None and started.result.taskId == "t-n"
    pushed = await echo.leader.inbox.wait(
        "t-n", lambda e: e["status"]["state"] == "awaiting-completion", timeout=60
    )
    assert TaskResult.model_validate(pushed).senderId == echo.partner.agent_id


async def test_notification_get_answers_a_list_and_delete_success(echo: Peers) -> None:
    config = {"url": echo.leader.notifications_url, "token": "tok-2", "taskId": "t-g"}
    made = (await echo.post(rpc_body("notification/set", config))).json()["result"]
    query = {"taskId": "t-g", "notificationConfigId": made["id"]}
    listed = (await echo.post(rpc_body("notification/get", query))).json()["result"]
    assert listed == [made] and listed[0]["token"] == "tok-2"
    deleted = (await echo.post(rpc_body("notification/delete", query))).json()
    assert deleted["result"] == {"success": True}
    assert (await echo.post(rpc_body("notification/get", {"taskId": "t-g"}))).json()["result"] == []


async def test_an_aip_push_proved_by_its_notification_token_is_received(
    make_live_agent: MakeLiveAgent,
) -> None:
    """A leader behind a proxy that ends TLS takes an AIP partner's push (AIP 6.3.5: a
    TaskResult with X-ACPs-AIP-Notification-Token, no call token, no certificate)."""
    leader = await make_live_agent("leader", https=False)
    partner = await make_live_agent("partner", serve=False)
    leader.inbox.expect("t-push", partner_id=partner.agent_id, token="tok-3")
    result = TaskResult.model_validate(
        {
            "id": "r-1",
            "sentAt": "2026-12-02T10:00:00+08:00",
            "senderRole": "partner",
            "senderId": partner.agent_id,
            "taskId": "t-push",
            "status": {"state": "completed", "stateChangedAt": "2026-12-02T10:00:00+08:00"},
        }
    ).model_dump(exclude_none=True)

    async def push(token: str | None, body: dict[str, Any] = result) -> httpx.Response:
        headers = {"Content-Type": "application/json"}
        if token:
            headers["X-ACPs-AIP-Notification-Token"] = token
        async with httpx.AsyncClient(timeout=10) as http:
            return await http.post(leader.notifications_url, json=body, headers=headers)

    assert (await push("tok-3")).status_code == 200
    assert [e["id"] for e in leader.inbox.results_of("t-push")] == ["r-1"]
    assert (await push("wrong")).status_code == 401
    assert (await push(None)).status_code == 401
    stranger = {**result, "id": "r-2", "senderId": leader.agent_id}
    assert (await push("tok-3", stranger)).status_code == 401
    assert len(leader.inbox.results_of("t-push")) == 1


async def test_a_token_only_push_counts_for_its_own_session_only(
    make_live_agent: MakeLiveAgent,
) -> None:
    """Task ids are unique per session only: the token of one session's task proves no push
    about the same task id in another session."""
    leader = await make_live_agent("leader", https=False)
    partner = await make_live_agent("partner", serve=False)
    leader.inbox.expect("t-same", partner_id=partner.agent_id, token="tok-4", session_id="s-1")

    async def push(session_id: str, message_id: str) -> httpx.Response:
        body = {
            "type": "task-result",
            "id": message_id,
            "sentAt": "2026-12-02T10:00:00+08:00",
            "senderRole": "partner",
            "senderId": partner.agent_id,
            "sessionId": session_id,
            "taskId": "t-same",
            "status": {"state": "working", "stateChangedAt": "2026-12-02T10:00:00+08:00"},
        }
        headers = {"X-ACPs-AIP-Notification-Token": "tok-4"}
        async with httpx.AsyncClient(timeout=10) as http:
            return await http.post(leader.notifications_url, json=body, headers=headers)

    assert (await push("s-2", "r-other")).status_code == 401
    assert leader.inbox.results_of("t-same") == []
    assert (await push("s-1", "r-own")).status_code == 200
    assert [e["id"] for e in leader.inbox.results_of("t-same", session_id="s-1")] == ["r-own"]


# -- AIP 5.1 and JSON-RPC 2.0: framing -------------------------------------------------------


async def test_bad_json_is_a_parse_error(echo: Peers) -> None:
    answer = JSONRPCResponse.model_validate((await echo.post(b'{"jsonrpc": "2.0", nope')).json())
    assert answer.id is None and answer.error is not None and answer.error.code == -32700
    not_rpc = JSONRPCResponse.model_validate((await echo.post({"hello": "there"})).json())
    assert not_rpc.error is not None and not_rpc.error.code == -32600


async def test_a_request_without_id_gets_no_body(echo: Peers) -> None:
    start = echo.command("start", "t-quiet", text="shh")
    answer = await echo.post(rpc_body("rpc", {"command": start}, request_id=None))
    assert answer.status_code == 204 and answer.content == b""

    def done() -> bool:  # all the same
        runtime = echo.partner.endpoint.runtime
        return runtime is not None and bool(runtime.task_of(echo.leader.agent_id, "t-quiet"))

    await eventually(done, "the partner holds t-quiet")
    got = await echo.client.get_task("t-quiet", echo.session_id)
    assert got.taskId == "t-quiet"


async def test_a_batch_is_answered_in_one_array(echo: Peers) -> None:
    batch = [
        rpc_body("rpc", {"command": echo.command("start", "t-b", text="one")}, "a"),
        rpc_body("rpc", {"command": echo.command("get", "t-b")}, "b"),
        rpc_body("rpc", {"command": echo.command("get", "t-b")}, None),  # no answer
        rpc_body("teleport", {}, "c"),
    ]
    answers = (await echo.post(batch)).json()
    assert [a["id"] for a in answers] == ["a", "b", "c"]
    assert RpcResponse.model_validate(answers[1]).result.taskId == "t-b"  # type: ignore[union-attr]
    assert answers[2]["error"]["code"] == -32601
    empty = JSONRPCResponse.model_validate((await echo.post([])).json())
    assert empty.error is not None and empty.error.code == -32600


class Gated(EchoHandler):
    """Works until the test lets it finish."""

    def __init__(self) -> None:
        self.go = asyncio.Event()

    async def on_start(self, task: Any) -> None:
        await task.working("thinking")
        await self.go.wait()
        await super().on_start(task)


class LateToAccept(EchoHandler):
    """Takes its time before it accepts."""

    def __init__(self) -> None:
        self.go = asyncio.Event()

    async def on_start(self, task: Any) -> None:
        await self.go.wait()
        await super().on_start(task)


async def test_a_start_retried_before_its_first_state_is_answered_with_it(
    make_live_agent: MakeLiveAgent,
) -> None:
    """A start sent again (its connection dropped) while the handler has not taken the task
    yet: it waits for the task's first state, as the first did (was: -32603, "no state")."""
    handler = LateToAccept()
    leader = await make_live_agent("leader")
    partner = await make_live_agent("partner", handler)
    lead = leader.leader
    session = await lead.open_session([partner.agent_id])
    start = lead.command(
        "start", session_id=session.id, partner_id=partner.agent_id, task_id="t-late", text="x"
    )
    first = asyncio.create_task(lead.send(partner.agent_id, start))
    await asyncio.sleep(0.3)
    retry = asyncio.create_task(lead.send(partner.agent_id, start, record=False))
    await asyncio.sleep(0.3)
    handler.go.set()
    answers = await asyncio.gather(first, retry)
    assert [a["taskId"] for a in answers] == ["t-late", "t-late"]
    assert answers[1]["status"]["state"] in ("accepted", "working", "awaiting-completion")


async def test_a_command_the_partner_ignored_is_no_409_at_the_hub(
    make_live_agent: MakeLiveAgent, live_hub: LiveHub, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A kit leader completes too early (the partner works: ignored) and records it; the
    partner's later moves are not refused for it. The hub's clock-skew allowance is set low
    so the test need not wait 5 s."""
    monkeypatch.setattr("app.tasks.projection.CLOCK_SKEW_SECONDS", 0.5)
    gated = Gated()
    leader = await make_live_agent("leader")
    partner = await make_live_agent("partner", gated)
    lead = leader.leader
    session = await lead.open_session([partner.agent_id])
    partner.endpoint.runtime.rpc_wait_seconds = 0.5  # type: ignore[union-attr]
    first = await lead.start(partner.agent_id, session_id=session.id, task_id="t-early", text="x")
    assert first["status"]["state"] == "working"
    early = await lead.complete(partner.agent_id, session_id=session.id, task_id="t-early")
    assert early["status"]["state"] == "working"  # ignored
    await asyncio.sleep(1.0)
    gated.go.set()
    await asyncio.sleep(0.5)
    again = await lead.continue_task(partner.agent_id, session_id=session.id, task_id="t-early")
    assert again["status"]["state"] == "awaiting-completion"
    await lead.complete(partner.agent_id, session_id=session.id, task_id="t-early")
    for agent in (leader, partner):
        assert await agent.recorder.flush(10) and not agent.recorder.failures
    task = (await leader.hub.request("GET", "/v1/tasks/t-early")).json()
    states = [s["state"] for s in task["statusHistory"]]
    assert [s for n, s in enumerate(states) if n == 0 or states[n - 1] != s] == [
        "accepted",
        "working",
        "awaiting-completion",
        "working",
        "awaiting-completion",
        "completed",
    ]
    assert await live_hub.answered(409) == 0
