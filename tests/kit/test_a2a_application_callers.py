"""An application the operator registered calls a kit partner by A2A with the hub's OAuth
token (authlib's client credentials with its client secret, as the docs show; a2a-sdk's
client), by every method and binding the partner serves (send, stream, get, list, push
configs, subscribe, cancel): the hub records each task, its
session and its messages with the application as the caller, kind and name."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest
from a2a.helpers import get_artifact_text
from a2a.types import (
    CancelTaskRequest,
    DeleteTaskPushNotificationConfigRequest,
    GetTaskPushNotificationConfigRequest,
    GetTaskRequest,
    ListTaskPushNotificationConfigsRequest,
    ListTasksRequest,
    SendMessageConfiguration,
    SendMessageRequest,
    StreamResponse,
    SubscribeToTaskRequest,
    TaskPushNotificationConfig,
    TaskState,
)

from agenthub import Agent
from tests.kit.test_a2a_partner import (
    BINDINGS,
    WAIT_SECONDS,
    SlowHandler,
    a2a_client,
    a2a_partner,
    last_task,
    user_message,
)
from tests.support.hub import OPERATOR_TOKEN
from tests.support.kit import EchoHandler, LiveHub, MakeLiveAgent, hub_task, settled
from tests.support.oauth import application_token
from tests.support.waiting import eventually

pytestmark = pytest.mark.slow

APPLICATION = "a dashboard"  # the name tests.support.oauth registers it by


async def recorded_for(partner: Agent, task_id: str, client_id: str, hub_url: str) -> str:
    """The hub's record of the task, its session and its messages name the application as
    the caller (to the partner and to the operator); the task's recorded state."""
    caller = {"kind": "application", "id": client_id, "name": APPLICATION}
    task = await hub_task(partner, task_id)
    assert task["caller"] == caller
    assert task["leaderId"] == task["partnerId"] == partner.agent_id  # no agent pretended
    session_id = task["sessionId"]
    session = (await partner.hub.request("GET", f"/v1/sessions/{session_id}")).json()
    assert session["bridge"]["callerId"] == client_id
    assert session["bridge"]["callerKind"] == "application"
    assert session["bridge"]["caller"] == caller
    messages = await partner.hub.request(
        "GET", f"/v1/sessions/{session_id}/messages", params={"limit": 100}
    )
    assert messages.json()["caller"] == caller
    assert messages.json()["items"][0]["command"] == "start"
    of_task = await partner.hub.request(
        "GET", f"/v1/sessions/{session_id}/tasks/{task_id}/messages"
    )
    assert of_task.status_code == 200 and of_task.json()["caller"] == caller
    operator = {"Authorization": f"Bearer {OPERATOR_TOKEN}"}
    async with httpx.AsyncClient(timeout=WAIT_SECONDS, headers=operator) as http:
        seen = (await http.get(f"{hub_url}/v1/sessions/{session_id}")).json()
        assert seen["bridge"]["caller"] == caller
        listed = await http.get(f"{hub_url}/v1/operator/tasks", params={"sessionId": session_id})
        assert [t["caller"] for t in listed.json()["items"]] == [caller]
    return str(task["state"])


@BINDINGS
async def test_an_applications_a2a_calls_are_recorded_with_it_as_caller(
    make_live_agent: MakeLiveAgent, live_hub: LiveHub, version: str, binding: str
) -> None:
    echo = await a2a_partner(make_live_agent, EchoHandler())
    slow = await a2a_partner(make_live_agent, SlowHandler())
    client_id, echo_token = await application_token(live_hub.url, echo.agent_id)
    slow_id, slow_token = await application_token(live_hub.url, slow.agent_id)
    bearer: dict[str, Any] = {"timeout": WAIT_SECONDS}
    async with httpx.AsyncClient(
        headers={"Authorization": f"Bearer {echo_token}"}, **bearer
    ) as http:
        plain = await a2a_client(http, echo, version=version, binding=binding)
        sent = await last_task(plain, SendMessageRequest(message=user_message("hello")))
        assert sent.status.state == TaskState.TASK_STATE_COMPLETED
        got = await plain.get_task(GetTaskRequest(id=sent.id))
        assert got.status.state == TaskState.TASK_STATE_COMPLETED
        streaming = await a2a_client(http, echo, streaming=True, version=version, binding=binding)
        texts: list[str] = []
        streamed_id = ""
        async for event in streaming.send_message(SendMessageRequest(message=user_message("hi"))):
            if event.HasField("task"):
                streamed_id = event.task.id
            elif event.HasField("artifact_update"):
                texts.append(get_artifact_text(event.artifact_update.artifact))
        assert texts == ["hi"] and streamed_id
        if version == "1.0":  # ListTasks is v1.0's
            listed = await plain.list_tasks(ListTasksRequest())
            assert {sent.id, streamed_id} <= {t.id for t in listed.tasks}
    # a task canceled while a subscription watches it, by another application
    async with httpx.AsyncClient(
        headers={"Authorization": f"Bearer {slow_token}"}, **bearer
    ) as http:
        sender = await a2a_client(http, slow, version=version, binding=binding)
        watcher = await a2a_client(http, slow, streaming=True, version=version, binding=binding)
        request = SendMessageRequest(
            message=user_message("slow"),
            configuration=SendMessageConfiguration(return_immediately=True),
        )
        started = await last_task(sender, request)
        # its push configs, set, read, listed and deleted by the application (a form the
        # policy takes, a name that resolves nowhere: nothing is pushed)
        config = TaskPushNotificationConfig(
            task_id=started.id, id="c1", url="https://push.example/hook", token="t"
        )
        made = await sender.create_task_push_notification_config(config)
        asked = GetTaskPushNotificationConfigRequest(task_id=started.id, id=made.id)
        assert (await sender.get_task_push_notification_config(asked)).url == config.url
        of_task = ListTaskPushNotificationConfigsRequest(task_id=started.id)
        lists = (version, binding) != (
            "0.3",
            "HTTP+JSON",
        )  # a2a-sdk's v0.3 REST client: set and get only
        if lists:
            assert len((await sender.list_task_push_notification_configs(of_task)).configs) == 1
        if lists:
            await sender.delete_task_push_notification_config(
                DeleteTaskPushNotificationConfigRequest(task_id=started.id, id=made.id)
            )
            assert not (await sender.list_task_push_notification_configs(of_task)).configs
        seen: list[StreamResponse] = []

        async def watch() -> None:
            async for event in watcher.subscribe(SubscribeToTaskRequest(id=started.id)):
                seen.append(event)

        watching = asyncio.create_task(watch())
        await eventually(lambda: seen, "the subscription's first event (the task as it stands)")
        canceled = await watcher.cancel_task(CancelTaskRequest(id=started.id))
        assert canceled.status.state == TaskState.TASK_STATE_CANCELED
        await asyncio.wait_for(watching, WAIT_SECONDS)
    await settled(echo, slow)
    assert not echo.recorder.failures and not slow.recorder.failures  # type: ignore[union-attr]
    assert await recorded_for(echo, sent.id, client_id, live_hub.url) == "completed"
    assert await recorded_for(echo, streamed_id, client_id, live_hub.url) == "completed"
    assert await recorded_for(slow, started.id, slow_id, live_hub.url) == "canceled"
    recorded = await hub_task(slow, started.id)
    commands = await slow.hub.request(
        "GET", f"/v1/sessions/{recorded['sessionId']}/messages", params={"limit": 100}
    )
    sent_commands = [m["command"] for m in commands.json()["items"] if m["type"] == "task-command"]
    assert sent_commands == ["start", "cancel"]
