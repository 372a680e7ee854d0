"""Notification mode's delivery guarantees: retried until acked, deduplicated, safe URLs only."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import orjson
import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from agenthub import CallFailed, KitError, UnsafeCallbackError
from agenthub.callbacks import CallbackPolicy, pin_callback
from agenthub.inbox import MAX_FINISHED_TASKS, MAX_RESULTS_PER_TASK, NotificationInbox
from agenthub.keys import AgentKey
from agenthub.notify import NOTIFICATION_TOKEN_HEADER, NotificationSender
from agenthub.protocol.aic import aic_host
from agenthub.signing import mint_call_token
from tests.support import LOOPBACK
from tests.support.kit import EchoHandler, MakeLiveAgent
from tests.support.live import serving, until


async def test_delivery_is_retried_until_the_leader_answers(
    make_live_agent: MakeLiveAgent,
) -> None:
    leader = await make_live_agent("leader", serve=False)
    leader.server.sock.close()  # type: ignore[attr-defined]  # refused connections at first
    partner = await make_live_agent("echo", EchoHandler())
    session = await leader.leader.open_session([partner.agent_id])
    ack = await leader.leader.start_notified(
        partner.agent_id,
        session_id=session.id,
        notify_url=leader.notifications_url,
        text="late",
        task_id="t-late",
    )
    assert ack["status"]["state"] in ("accepted", "working", "awaiting-completion")
    notifier = partner.notifier
    assert notifier is not None
    await until(lambda: notifier.attempts >= 2, "the notifier tried twice")
    assert notifier.delivered == 0
    await leader.server.restart()  # type: ignore[attr-defined]  # same port, now answering
    pushed = await leader.inbox.wait(
        "t-late", lambda e: e["status"]["state"] == "awaiting-completion", timeout=60
    )
    assert pushed["products"][0]["dataItems"][0]["text"] == "late"
    states = [e["status"]["state"] for e in leader.inbox.results_of("t-late")]
    assert states == ["accepted", "working", "awaiting-completion"]  # in order, each once


async def test_a_redelivered_notification_is_acked_but_kept_once(
    make_live_agent: MakeLiveAgent,
) -> None:
    leader = await make_live_agent("leader")
    partner = await make_live_agent("echo", EchoHandler())
    session = await leader.leader.open_session([partner.agent_id])
    await leader.leader.start_notified(
        partner.agent_id,
        session_id=session.id,
        notify_url=leader.notifications_url,
        text="x",
        task_id="t-dup",
    )
    event = await leader.inbox.wait(
        "t-dup", lambda e: e["status"]["state"] == "awaiting-completion", timeout=60
    )
    expected = leader.inbox.expectation("t-dup")
    assert expected is not None
    token = expected.token
    body = orjson.dumps(event)

    async def push(headers_token: str | None) -> httpx.Response:
        call = mint_call_token(
            partner.key,
            caller_id=partner.agent_id,
            callee_id=leader.agent_id,
            method="POST",
            url=leader.notifications_url,
            body=body,
        )
        headers = {"Authorization": f"Bearer {call.token}", "Content-Type": "application/json"}
        if headers_token:
            headers[NOTIFICATION_TOKEN_HEADER] = headers_token
        async with httpx.AsyncClient(
            timeout=LOOPBACK, verify=partner.tls.client
        ) as http:  # as the notifier
            return await http.post(
                leader.notifications_url,
                content=body,
                headers=headers,
                extensions={"sni_hostname": aic_host(leader.agent_id)},
            )

    before = len(leader.inbox.results_of("t-dup"))
    again = await push(token)
    assert again.status_code == 200 and again.json() == {"received": True, "duplicate": True}
    assert len(leader.inbox.results_of("t-dup")) == before and leader.inbox.duplicates == 1
    assert (await push("wrong-token")).status_code == 403
    assert (await push(None)).status_code == 403


UNSAFE_BY_DEFAULT = [
    "http://169.254.169.254/latest/meta-data",
    "http://[fe80::1]/hook",
    "http://metadata.google.internal/computeMetadata",
    "http://169.254.10.10:8080/",
    "http://127.0.0.1:9/hook",
    "http://localhost:9/hook",
    "http://0.0.0.0/",
    "http://[::]/",
    "http://[::1]/",
    "http://10.1.2.3/",
    "http://172.16.0.1/",
    "http://192.168.1.1/",
    "http://100.64.0.1/",  # CGNAT
    "http://[fc00::1]/",  # unique-local
    "http://[::ffff:169.254.169.254]/",  # IPv4-mapped
    "http://[64:ff9b::a9fe:a9fe]/",  # NAT64
    "http://[::169.254.169.254]/",  # IPv4-compatible
    "http://[2002:a9fe:a9fe::]/",  # 6to4
    "http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/",  # Teredo
    "http://224.0.0.1/",
    "ftp://127.0.0.1/x",
    "not a url",
]
METADATA_EVEN_IN_DEVELOPMENT = [
    "http://169.254.169.254/",
    "http://[::ffff:169.254.169.254]/",
    "http://[64:ff9b::a9fe:a9fe]/",
    "http://[2002:a9fe:a9fe::]/",
    "http://metadata.google.internal/",
]


@pytest.mark.parametrize("url", UNSAFE_BY_DEFAULT)
async def test_unsafe_callback_urls_are_refused(url: str) -> None:
    with pytest.raises(UnsafeCallbackError):
        await pin_callback(url, CallbackPolicy())


@pytest.mark.parametrize("url", METADATA_EVEN_IN_DEVELOPMENT)
async def test_metadata_stays_refused_when_private_networks_are_allowed(url: str) -> None:
    with pytest.raises(UnsafeCallbackError):
        await pin_callback(url, CallbackPolicy(allow_private=True))


async def test_policies_let_through_what_they_name() -> None:
    development = CallbackPolicy(allow_private=True)
    for url in (
        "http://127.0.0.1:9/hook",
        "http://[::1]:9/",
        "http://10.1.2.3/",
        "http://localhost/",
    ):
        await pin_callback(url, development)
    await pin_callback("http://169.254.169.254/x", CallbackPolicy(allow_link_local=True))
    await pin_callback("https://93.184.216.34/hook", CallbackPolicy())  # a public address


async def test_the_push_connects_to_the_address_that_was_checked() -> None:
    answers = iter([["93.184.216.34"], ["93.184.216.34", "127.0.0.1"]])

    async def rebinding(host: str, port: int) -> list[str]:
        return next(answers)

    pinned = await pin_callback("https://hooks.example/x?y=1", CallbackPolicy(), resolve=rebinding)
    assert pinned.url == "https://93.184.216.34/x?y=1"
    assert (pinned.host_header, pinned.sni_hostname) == ("hooks.example", "hooks.example")
    with pytest.raises(UnsafeCallbackError):  # the next lookup names a loopback address too
        await pin_callback("https://hooks.example/x", CallbackPolicy(), resolve=rebinding)


async def test_a_callback_that_never_answers_does_not_hold_up_other_pushes(
    make_live_agent: MakeLiveAgent,
) -> None:
    held: list[asyncio.StreamWriter] = []

    async def black_hole(_: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        held.append(writer)  # accepts, reads nothing, answers never

    arrived = asyncio.Event()

    async def hook(request: Request) -> Response:
        arrived.set()
        return Response(status_code=204)

    hole = await asyncio.start_server(black_hole, "127.0.0.1", 0)
    hole_url = f"http://127.0.0.1:{hole.sockets[0].getsockname()[1]}/hook"
    partner = await make_live_agent("echo", EchoHandler())
    assert partner.endpoint is not None  # built: its notifier with it
    notifier = partner.notifier
    assert notifier is not None
    event = {"type": "task-result", "id": "r", "status": {"state": "working"}}
    try:
        async with serving(Starlette(routes=[Route("/hook", hook, methods=["POST"])])) as good:
            for n in range(110):  # more than any one pool holds (httpx keeps 100 at most)
                notifier.deliver({"id": f"hole-{n}", "url": hole_url}, "leader-id", event)
            await asyncio.sleep(0.5)  # every one of them is stuck in its send
            started = asyncio.get_running_loop().time()
            notifier.deliver({"id": "good", "url": f"{good.url}/hook"}, "leader-id", event)
            await asyncio.wait_for(arrived.wait(), 8)
            assert asyncio.get_running_loop().time() - started < 2
    finally:
        for writer in held:
            writer.close()
        hole.close()


async def test_partner_refuses_a_metadata_callback(make_live_agent: MakeLiveAgent) -> None:
    leader = await make_live_agent("leader")
    partner = await make_live_agent("echo", EchoHandler())
    await leader.leader.open_session([partner.agent_id])
    with pytest.raises(CallFailed) as info:
        await leader.leader.call(
            partner.agent_id,
            "notification/set",
            {"taskId": "t", "url": "http://169.254.169.254/latest"},
        )
    assert info.value.code == -32602 and "link-local" in str(info.value)


async def test_a_strangers_config_set_in_advance_never_gets_the_leaders_results(
    make_live_agent: MakeLiveAgent,
) -> None:
    leader = await make_live_agent("leader")
    stranger = await make_live_agent("stranger")
    partner = await make_live_agent("echo", EchoHandler())
    squat = {"taskId": "t-squat", "url": stranger.notifications_url, "token": "mine"}
    await stranger.leader.call(partner.agent_id, "notification/set", squat)
    session = await leader.leader.open_session([partner.agent_id])
    await leader.leader.start_notified(
        partner.agent_id,
        session_id=session.id,
        notify_url=leader.notifications_url,
        text="for my eyes",
        task_id="t-squat",
    )
    await leader.inbox.wait(
        "t-squat", lambda e: e["status"]["state"] == "awaiting-completion", timeout=60
    )
    assert partner.notifier is not None
    await partner.notifier.drain(10)
    assert stranger.inbox.results_of("t-squat") == []
    assert all(url != stranger.notifications_url for url, _ in partner.notifier.given_up)
    # nor may it read the leader's configs: it sees its own, for a task of its own of that id
    seen = await stranger.leader.call(partner.agent_id, "notification/get", {"taskId": "t-squat"})
    assert [c["url"] for c in seen] == [stranger.notifications_url]


async def test_configs_for_tasks_not_started_are_bounded_per_leader(
    make_live_agent: MakeLiveAgent,
) -> None:
    from agenthub.runtime import MAX_PENDING_CONFIGS_PER_CALLER

    leader = await make_live_agent("leader")
    partner = await make_live_agent("echo", EchoHandler())
    for n in range(MAX_PENDING_CONFIGS_PER_CALLER):
        body = {"taskId": f"t-{n}", "url": leader.notifications_url}
        await leader.leader.call(partner.agent_id, "notification/set", body)
    with pytest.raises(CallFailed) as refused:
        body = {"taskId": "t-one-too-many", "url": leader.notifications_url}
        await leader.leader.call(partner.agent_id, "notification/set", body)
    assert refused.value.code == -32602


async def test_a_partner_at_its_task_limit_refuses_new_starts(
    make_live_agent: MakeLiveAgent,
) -> None:
    from tests.support.kit import AskHandler

    leader = await make_live_agent("leader")
    partner = await make_live_agent("asker", AskHandler())
    runtime = partner.endpoint.runtime
    assert runtime is not None
    runtime.max_tasks_per_caller = 2
    session = await leader.leader.open_session([partner.agent_id])
    for n in range(2):  # each waits for input: live tasks
        await leader.leader.start(
            partner.agent_id, session_id=session.id, task_id=f"t-{n}", text="?"
        )
    with pytest.raises(CallFailed) as refused:
        await leader.leader.start(partner.agent_id, session_id=session.id, task_id="t-2", text="?")
    assert refused.value.code == -32004 and refused.value.data == {"limit": 2}
    # a task that ends makes room (the live count follows each move, not a scan)
    await leader.leader.cancel(partner.agent_id, session_id=session.id, task_id="t-0")
    await leader.leader.start(partner.agent_id, session_id=session.id, task_id="t-2", text="?")
    with pytest.raises(CallFailed):
        await leader.leader.start(partner.agent_id, session_id=session.id, task_id="t-3", text="?")
    runtime.max_tasks = 2  # full: t-1 and t-2 live, once the ended t-0 is let go
    other = await make_live_agent("other")
    theirs = await other.leader.open_session([partner.agent_id])
    # a leader holding fewer tasks takes the room of the busiest one's least recently
    # touched task (its fair share), and no more than that
    await other.leader.start(partner.agent_id, session_id=theirs.id, task_id="o-0", text="?")
    assert sorted(runtime.tasks) == sorted([(leader.agent_id, "t-2"), (other.agent_id, "o-0")])
    with pytest.raises(CallFailed, match="as many as any leader here"):
        await other.leader.start(partner.agent_id, session_id=theirs.id, task_id="o-1", text="?")


async def test_a_push_is_retried_only_while_its_failure_may_pass() -> None:
    answers = {"busy": [503, 503, 204], "refused": [403, 204]}
    seen: dict[str, int] = {"busy": 0, "refused": 0}

    async def hook(request: Request) -> Response:
        name = request.path_params["name"]
        seen[name] += 1
        return Response(status_code=answers[name][seen[name] - 1])

    notifier = NotificationSender(
        key=AgentKey.generate(), agent_id="partner-id", policy=CallbackPolicy(allow_private=True)
    )
    event = {"type": "task-result", "id": "r", "status": {"state": "working"}}
    try:
        async with serving(Starlette(routes=[Route("/{name}", hook, methods=["POST"])])) as hooks:
            for name in answers:
                notifier.deliver({"id": name, "url": f"{hooks.url}/{name}"}, "leader-id", event)
            await notifier.drain(20)
    finally:
        await notifier.aclose()
    assert seen == {"busy": 3, "refused": 1}  # a 403 will not pass by itself: no retry
    assert notifier.delivered == 1 and [u for u, _ in notifier.given_up] == [f"{hooks.url}/refused"]


async def test_a_push_with_a_non_ascii_token_is_refused_not_a_500(
    make_live_agent: MakeLiveAgent,
) -> None:
    """Starlette decodes headers as latin-1: a stranger's é in the token header is text
    that ``compare_digest`` on str rejects with a TypeError."""
    leader = await make_live_agent("leader", https=False)
    partner = await make_live_agent("partner", serve=False)
    leader.inbox.expect("t-push", partner_id=partner.agent_id, token="tok-3")
    body = {
        "type": "task-result",
        "id": "r-1",
        "sentAt": "2026-12-02T10:00:00+08:00",
        "senderRole": "partner",
        "senderId": partner.agent_id,
        "taskId": "t-push",
        "status": {"state": "completed", "stateChangedAt": "2026-12-02T10:00:00+08:00"},
    }
    async with httpx.AsyncClient(timeout=10) as http:
        for token in (b"tok-\xe9", b"tok-3" + b"\xff"):
            headers = {NOTIFICATION_TOKEN_HEADER: token}
            answer = await http.post(leader.notifications_url, json=body, headers=headers)
            assert answer.status_code == 401, answer.text
    assert leader.inbox.results_of("t-push") == []


def _pushed(task_id: str, session_id: str, partner_id: str, n: int, state: str) -> dict[str, Any]:
    return {
        "type": "task-result",
        "id": f"r-{n}",
        "senderId": partner_id,
        "sessionId": session_id,
        "taskId": task_id,
        "status": {"state": state},
    }


async def test_the_inbox_keeps_one_expectation_per_task_of_each_session() -> None:
    """Task ids are unique within a session only: a second start_notified of "step-1" in
    another session, at another partner, must neither drop the first partner's expectation
    nor mix the two tasks' results."""
    inbox = NotificationInbox()
    inbox.expect("step-1", partner_id="partner-a", token="tok-a", session_id="s-1")
    inbox.expect("step-1", partner_id="partner-b", token="tok-b", session_id="s-2")
    assert inbox.check("step-1", sender_id="partner-a", token="tok-a") is None
    assert inbox.check("step-1", sender_id="partner-b", token="tok-b") is None
    assert inbox.check("step-1", sender_id="partner-b", token="tok-a") is not None
    assert inbox.check("step-1", sender_id="partner-a", token="tok-a", session_id="s-2")
    assert await inbox.receive("partner-a", _pushed("step-1", "s-1", "partner-a", 1, "working"))
    assert await inbox.receive("partner-b", _pushed("step-1", "s-2", "partner-b", 1, "working"))
    assert [e["senderId"] for e in inbox.results_of("step-1", session_id="s-1")] == ["partner-a"]
    assert [e["senderId"] for e in inbox.results_of("step-1", session_id="s-2")] == ["partner-b"]
    with pytest.raises(KitError, match="name the session"):
        inbox.results_of("step-1")
    found = await inbox.wait("step-1", lambda e: True, timeout=1, session_id="s-2")
    assert found["senderId"] == "partner-b"


async def test_the_inbox_ends_a_tasks_expectation_when_final_and_keeps_few_pushes() -> None:
    inbox = NotificationInbox()
    inbox.expect("t-1", partner_id="p", token="tok", session_id="s")
    for n in range(MAX_RESULTS_PER_TASK + 10):
        assert await inbox.receive("p", _pushed("t-1", "s", "p", n, "working"))
    assert len(inbox.results_of("t-1")) == MAX_RESULTS_PER_TASK  # the newest
    assert inbox.results_of("t-1")[-1]["id"] == f"r-{MAX_RESULTS_PER_TASK + 9}"
    assert await inbox.receive("p", _pushed("t-1", "s", "p", 999, "completed"))
    assert inbox.check("t-1", sender_id="p", token="tok") is not None  # the token is spent
    assert inbox.expectation("t-1") is None
    done = await inbox.wait("t-1", lambda e: e["status"]["state"] == "completed", timeout=1)
    assert done["id"] == "r-999"  # its pushes stay readable
    for n in range(MAX_FINISHED_TASKS):  # until as many other tasks finished
        inbox.expect(f"t-x{n}", partner_id="p", token=None, session_id="s")
        await inbox.receive("p", _pushed(f"t-x{n}", "s", "p", 10_000 + n, "failed"))
    assert inbox.results_of("t-1") == []


async def test_a_start_with_bad_notification_params_is_refused_and_loses_no_config(
    make_live_agent: MakeLiveAgent,
) -> None:
    """An unknown ``notificationConfigId`` was refused after the task's configs set in
    advance were taken (all lost); a ``notifyOnStates`` that is no list of task states
    silently stopped every push (a string) or was -32603 (a number). Each is -32602 now,
    the configs kept for the start that follows."""
    leader = await make_live_agent("leader")
    partner = await make_live_agent("echo", EchoHandler())
    lead = leader.leader
    session = await lead.open_session([partner.agent_id])
    set_body = {"taskId": "t-n", "url": leader.notifications_url, "token": "tok"}
    config = await lead.call(partner.agent_id, "notification/set", set_body)

    async def start(**params: Any) -> dict[str, Any]:
        command = lead.command(
            "start",
            session_id=session.id,
            partner_id=partner.agent_id,
            task_id="t-n",
            text="x",
            params=params,
        )
        return await lead.send(partner.agent_id, command, method="notification/start")

    for params in (
        {"notificationConfigId": "ncfg-unknown"},
        {"notificationConfigId": config["id"], "notifyOnStates": "completed"},
        {"notificationConfigId": config["id"], "notifyOnStates": 5},
        {"notificationConfigId": config["id"], "notifyOnStates": ["done"]},
    ):
        with pytest.raises(CallFailed) as refused:
            await start(**params)
        assert refused.value.code == -32602, params
    kept = await lead.call(partner.agent_id, "notification/get", {"taskId": "t-n"})
    assert [c["id"] for c in kept] == [config["id"]]
    assert (await start(notificationConfigId=config["id"]))["taskId"] == "t-n"
    await lead.start_notified(
        partner.agent_id,
        session_id=session.id,
        notify_url=leader.notifications_url,
        text="y",
        task_id="t-only",
        notify_on_states=["awaiting-completion"],
    )
    await leader.inbox.wait(
        "t-only", lambda e: e["status"]["state"] == "awaiting-completion", timeout=60
    )
    assert [e["status"]["state"] for e in leader.inbox.results_of("t-only")] == [
        "awaiting-completion"
    ]
