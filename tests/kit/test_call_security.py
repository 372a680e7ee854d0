"""Both directions of agent-to-agent proof: call tokens refused (401), answers checked."""

from __future__ import annotations

import asyncio
import functools
import secrets
import time
from typing import Any

import httpx
import orjson
import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from agenthub import Agent, AgentKey, AnswerSignatureError, CallFailed
from agenthub.signing import SIGNATURE_HEADER, body_digest, sign_answer
from tests.support import LOOPBACK
from tests.support.kit import EchoHandler, LiveHub, MakeLiveAgent
from tests.support.live import LiveServer, bound_socket


def rpc_body(
    leader: Agent,
    session_id: str = "ses-x",
    task_id: str = "t-1",
    sender: str | None = None,
    record: bool = False,
    partner_id: str | None = None,
) -> bytes:
    """A JSON-RPC start; ``record`` queues the leader's record of it at the hub first."""
    command = leader.leader.command(
        "start", session_id=session_id, task_id=task_id, text="hi", partner_id=partner_id
    ).to_wire()
    command["senderId"] = sender or leader.agent_id
    if record:
        leader.recorder.record(session_id, command)
    return orjson.dumps(
        {"jsonrpc": "2.0", "id": "1", "method": "rpc", "params": {"command": command}}
    )


def token(signer: AgentKey, *, kid: str, url: str, body: bytes, **overrides: Any) -> str:
    now = int(time.time())
    claims: dict[str, Any] = {
        "iss": kid,
        "sub": kid,
        "aud": None,
        "iat": now,
        "exp": now + 60,
        "jti": secrets.token_urlsafe(12),
        "nonce": "n-1",
        "htm": "POST",
        "htu": url,
        "bodySha256": body_digest(body),
    }
    claims.update(overrides)
    return signer.sign({k: v for k, v in claims.items() if v is not None}, kid=kid)


@pytest.fixture(name="make_live_agent")
def plain_agents(make_live_agent: MakeLiveAgent) -> MakeLiveAgent:
    """Agents on plain HTTP: these tests hold the call token to its own checks, as a partner
    behind a proxy that ends TLS sees only the token (tests/kit/test_mtls.py: certificates)."""
    return functools.partial(make_live_agent, https=False)


async def post(url: str, body: bytes, bearer: str | None) -> httpx.Response:
    headers = {"Content-Type": "application/json"}
    if bearer:
        headers["Authorization"] = f"Bearer {bearer}"
    async with httpx.AsyncClient(timeout=LOOPBACK) as http:
        return await http.post(url, content=body, headers=headers)


@pytest.fixture
async def pair(make_live_agent: MakeLiveAgent) -> tuple[Agent, Agent]:
    leader = await make_live_agent("leader")
    partner = await make_live_agent("echo", EchoHandler())
    return leader, partner


def refused(response: httpx.Response, code: int) -> str:
    assert response.status_code == 401, response.text
    error = response.json()["error"]
    assert error["code"] == code
    return str(error["message"])


async def test_call_without_token_is_401(pair: tuple[Agent, Agent]) -> None:
    leader, partner = pair
    assert partner.public_url
    refused(await post(partner.public_url, rpc_body(leader), None), -32008)


def call(method: str, request_id: str | None) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": request_id, "method": method, "params": {}}


async def test_framing_errors_are_answered_before_the_caller_is_proved(
    pair: tuple[Agent, Agent],
) -> None:
    """JSON-RPC's own errors come first, to anyone, with HTTP 200 (as a2a-sdk's server
    answers them); only a request with something to run needs a proved caller."""
    leader, partner = pair
    assert partner.public_url and partner.endpoint.runtime is not None
    url = partner.public_url

    def error_of(answer: httpx.Response) -> tuple[Any, int]:
        assert answer.status_code == 200 and SIGNATURE_HEADER not in answer.headers
        return answer.json()["id"], answer.json()["error"]["code"]

    assert error_of(await post(url, b'{"jsonrpc": "2.0", nope', None)) == (None, -32700)
    for not_rpc in (b'{"hello": "there"}', b"42", b"[]", b'{"jsonrpc": "1.0", "method": "rpc"}'):
        assert error_of(await post(url, not_rpc, None)) == (None, -32600), not_rpc
    unknown = orjson.dumps(call("teleport", "u-1"))
    assert error_of(await post(url, unknown, None)) == ("u-1", -32601)
    batch = orjson.dumps([call("teleport", "u-2"), {"id": "u-3"}, call("teleport", None)])
    answers = (await post(url, batch, None)).json()
    assert [(a["id"], a["error"]["code"]) for a in answers] == [("u-2", -32601), ("u-3", -32600)]
    quiet = await post(url, orjson.dumps(call("teleport", None)), None)
    assert quiet.status_code == 204 and quiet.content == b""
    start = orjson.loads(rpc_body(leader, task_id="t-wall"))
    for runnable in (start, [call("teleport", "u-4"), start]):
        answer = await post(url, orjson.dumps(runnable), None)
        refused(answer, -32008)
        assert answer.headers["www-authenticate"] == "Bearer"
    assert partner.endpoint.runtime.task_of(leader.agent_id, "t-wall") is None
    with pytest.raises(CallFailed) as info:  # a proved caller has the same errors, signed
        await leader.leader.call(partner.agent_id, "teleport", {})
    assert info.value.code == -32601


async def test_bad_call_tokens_are_401(pair: tuple[Agent, Agent]) -> None:
    leader, partner = pair
    url = partner.public_url or ""
    body = rpc_body(leader)
    me = leader.agent_id
    now = int(time.time())
    cases = {
        "forged": token(AgentKey.generate(), kid=me, url=url, body=body, aud=partner.agent_id),
        "expired": token(
            leader.key,
            kid=me,
            url=url,
            body=body,
            aud=partner.agent_id,
            iat=now - 120,
            exp=now - 60,
        ),
        "too long": token(
            leader.key, kid=me, url=url, body=body, aud=partner.agent_id, exp=now + 301
        ),
        "misdirected": token(leader.key, kid=me, url=url, body=body, aud=leader.agent_id),
        "other url": token(
            leader.key, kid=me, url="http://127.0.0.1:1/x", body=body, aud=partner.agent_id
        ),
        "other method": token(
            leader.key, kid=me, url=url, body=body, aud=partner.agent_id, htm="PUT"
        ),
        "other body": token(leader.key, kid=me, url=url, body=b"{}", aud=partner.agent_id),
        "unknown caller": token(
            leader.key, kid="1.2.156.3088.1.AGH.NOBODY", url=url, body=body, aud=partner.agent_id
        ),
        "no jti": token(leader.key, kid=me, url=url, body=body, aud=partner.agent_id, jti=None),
        "garbage": "not.a.token",
    }
    for name, bearer in cases.items():
        message = refused(await post(url, body, bearer), -32010)
        assert message, name
    assert partner.endpoint.runtime is not None and partner.endpoint.runtime.tasks == {}


async def test_replayed_call_token_is_401(pair: tuple[Agent, Agent]) -> None:
    leader, partner = pair
    url = partner.public_url or ""
    session = await leader.leader.open_session([partner.agent_id])
    body = rpc_body(leader, session_id=session.id, record=True, partner_id=partner.agent_id)
    await leader.recorder.flush(5)
    bearer = token(leader.key, kid=leader.agent_id, url=url, body=body, aud=partner.agent_id)
    first = await post(url, body, bearer)
    assert first.status_code == 200, first.text
    assert "replay" in refused(await post(url, body, bearer), -32010)


async def test_sender_must_be_the_caller(pair: tuple[Agent, Agent]) -> None:
    leader, partner = pair
    url = partner.public_url or ""
    body = rpc_body(leader, sender=partner.agent_id)
    bearer = token(leader.key, kid=leader.agent_id, url=url, body=body, aud=partner.agent_id)
    response = await post(url, body, bearer)
    assert response.status_code == 200 and response.json()["error"]["code"] == -32009


async def test_answers_are_signed_for_the_caller(pair: tuple[Agent, Agent]) -> None:
    leader, partner = pair
    url = partner.public_url or ""
    session = await leader.leader.open_session([partner.agent_id])
    body = rpc_body(leader, session_id=session.id, record=True, partner_id=partner.agent_id)
    await leader.recorder.flush(5)
    bearer = token(
        leader.key, kid=leader.agent_id, url=url, body=body, aud=partner.agent_id, nonce="my-nonce"
    )
    response = await post(url, body, bearer)
    from agenthub.tokens import verify

    claims = verify(response.headers[SIGNATURE_HEADER], partner.key.public_jwk)
    assert claims["iss"] == partner.agent_id and claims["aud"] == leader.agent_id
    assert claims["nonce"] == "my-nonce"
    assert claims["bodySha256"] == body_digest(response.content)


class Meddler:
    """A man in the middle at the partner's registered URL, changing its answers."""

    def __init__(self, target: str) -> None:
        self.target = target
        self.mode = "pass"
        self.captured: tuple[bytes, dict[str, str]] | None = None
        self.intruder = AgentKey.generate()
        self.app = Starlette(routes=[Route("/", self.forward, methods=["POST"])])

    async def forward(self, request: Request) -> Response:
        body = await request.body()
        headers = {
            "Authorization": request.headers["authorization"],
            "Content-Type": "application/json",
        }
        async with (
            httpx.AsyncClient(timeout=30) as http,
            http.stream("POST", self.target, content=body, headers=headers) as answer,
        ):
            content = b""
            async for chunk in answer.aiter_bytes():  # a stream stays open: its first event
                content += chunk
                if answer.headers.get("content-type", "").startswith("text/event-stream") and (
                    b"\n\n" in content
                ):
                    content = content[: content.index(b"\n\n") + 2]
                    break
        original = content
        headers = {SIGNATURE_HEADER: answer.headers.get(SIGNATURE_HEADER, "")}
        if self.mode == "tamper":
            content = content.replace(b"hello", b"HACKED")
        elif self.mode == "tamper-first-event":  # API.md signs a stream's first event only
            content = content.replace(b'"accepted"', b'"rejected"', 1)
        elif self.mode == "forge":
            content = content.replace(b"hello", b"HACKED")
            headers[SIGNATURE_HEADER] = sign_answer(
                self.intruder, callee_id="x", caller_id="y", nonce="n", signed_bytes=content
            )
        elif self.mode == "strip":
            headers = {}
        elif self.mode == "replay" and self.captured is not None:
            content, headers = self.captured
        self.captured = self.captured or (original, dict(headers))
        return Response(
            content,
            status_code=answer.status_code,
            headers=headers,
            media_type=answer.headers.get("content-type"),
        )


async def test_tampered_forged_stripped_replayed_answers_are_refused(
    make_live_agent: MakeLiveAgent,
) -> None:
    sock = bound_socket()
    proxy_url = f"http://127.0.0.1:{sock.getsockname()[1]}/"
    leader = await make_live_agent("leader")
    partner = await make_live_agent("echo", EchoHandler(), public_url=proxy_url)
    meddler = Meddler(partner.server.url + "/")  # type: ignore[attr-defined]
    proxy = await LiveServer(meddler.app, sock=sock, lifespan="off").start()
    try:
        session = await leader.leader.open_session([partner.agent_id])
        ok = await leader.leader.start(partner.agent_id, session_id=session.id, text="hello")
        assert ok["products"][0]["dataItems"][0]["text"] == "hello"
        for mode in ("tamper", "forge", "strip", "replay"):
            meddler.mode = mode
            with pytest.raises(AnswerSignatureError):
                await leader.leader.start(partner.agent_id, session_id=session.id, text="hello")
        meddler.mode = "tamper-first-event"
        with pytest.raises(AnswerSignatureError):
            async for _ in leader.leader.start_streaming(
                partner.agent_id, session_id=session.id, text="hello"
            ):
                pass
    finally:
        await proxy.stop()


async def test_bad_calls_at_the_partner_are_rpc_errors(pair: tuple[Agent, Agent]) -> None:
    leader, partner = pair
    session = await leader.leader.open_session([partner.agent_id])
    await leader.leader.start(partner.agent_id, session_id=session.id, text="x", task_id="t")
    with pytest.raises(CallFailed) as info:
        await leader.leader.send(
            partner.agent_id,
            leader.leader.command("continue", session_id=session.id, task_id="t-unknown"),
            record=False,
        )
    assert info.value.code == -32001
    await leader.leader.complete(partner.agent_id, session_id=session.id, task_id="t")
    # out-of-state commands are ignored (AIP §4.5): the answer is the task as it ended
    for name in ("complete", "cancel", "continue"):
        ignored = await leader.leader.send(
            partner.agent_id,
            leader.leader.command(name, session_id=session.id, task_id="t"),
            record=False,
        )
        assert ignored["status"]["state"] == "completed"
    with pytest.raises(CallFailed) as info:
        await leader.leader.call(partner.agent_id, "teleport", {})
    assert info.value.code == -32601
    with pytest.raises(CallFailed) as info:
        await leader.leader.call(partner.agent_id, "rpc", {"command": {"type": "nonsense"}})
    assert info.value.code == -32602


async def test_a_kid_that_is_no_agent_id_never_reaches_the_hub(
    make_live_agent: MakeLiveAgent,
) -> None:
    asked: list[str] = []

    async def note(request: httpx.Request) -> None:
        if request.method == "GET":
            asked.append(request.url.path)

    hub_http = httpx.AsyncClient(timeout=LOOPBACK, event_hooks={"request": [note]})
    leader = await make_live_agent("leader")
    partner = await make_live_agent("echo", EchoHandler(), hub_http=hub_http)
    url = partner.public_url or ""
    body = rpc_body(leader)
    kids = ["../sessions", "me/events", "../../v1/sessions", "..", ".", "a b", "x?y=1", "x#y"]
    for kid in kids:
        bearer = token(AgentKey.generate(), kid=kid, url=url, body=body, aud=partner.agent_id)
        refused(await post(url, body, bearer), -32010)
    # not even a card lookup, and so no stream the kid's path might have named (a bound on
    # the seconds this took said the same, and failed on a loaded machine at 5.008 s)
    assert [p for p in asked if p.startswith("/v1/")] == [], asked
    await hub_http.aclose()


async def test_a_caller_that_cannot_be_looked_up_is_401(
    pair: tuple[Agent, Agent], live_hub: LiveHub
) -> None:
    leader, partner = pair
    url = partner.public_url or ""
    body = rpc_body(leader)
    await live_hub.server.stop()  # the hub is away: the caller's card cannot be read
    bearer = token(leader.key, kid=leader.agent_id, url=url, body=body, aud=partner.agent_id)
    partner.directory.forget(leader.agent_id)
    refused(await post(url, body, bearer), -32010)


async def test_a_call_token_names_the_public_url_not_the_host_header(
    pair: tuple[Agent, Agent],
) -> None:
    leader, partner = pair
    url = partner.public_url or ""
    body = rpc_body(leader)
    forged_htu = "http://evil.example/"
    bearer = token(leader.key, kid=leader.agent_id, url=forged_htu, body=body, aud=partner.agent_id)
    headers = {"Content-Type": "application/json", "Authorization": f"Bearer {bearer}"}
    async with httpx.AsyncClient(timeout=LOOPBACK) as http:
        answer = await http.post(url, content=body, headers={**headers, "Host": "evil.example"})
    assert "htu" in refused(answer, -32010)


async def test_a_call_token_cannot_be_replayed_across_a_restart(
    make_live_agent: MakeLiveAgent, live_hub: LiveHub
) -> None:
    leader = await make_live_agent("leader")
    first = await make_live_agent("echo", EchoHandler())
    url = first.public_url or ""
    session = await leader.leader.open_session([first.agent_id])
    body = rpc_body(leader, session_id=session.id, record=True, partner_id=first.agent_id)
    await leader.recorder.flush(5)
    bearer = token(leader.key, kid=leader.agent_id, url=url, body=body, aud=first.agent_id)
    assert (await post(url, body, bearer)).status_code == 200
    server: LiveServer = first.server  # type: ignore[attr-defined]
    await server.stop()
    await asyncio.sleep(2.1)  # the restart comes later than the token's second
    again = Agent(
        live_hub.url,
        key=first.key,
        agent_id=first.agent_id,
        handler=EchoHandler(),
        public_url=url,
        plain_http=True,
    )
    restarted = LiveServer(again.asgi, sock=bound_socket(server.port), lifespan="off")
    await restarted.start()
    try:
        assert "before this endpoint started" in refused(await post(url, body, bearer), -32010)
    finally:
        await restarted.stop()
        await again.aclose()


async def test_a_task_id_a_stranger_took_first_is_still_the_leaders(
    make_live_agent: MakeLiveAgent,
) -> None:
    leader = await make_live_agent("leader")
    stranger = await make_live_agent("stranger")
    partner = await make_live_agent("echo", EchoHandler())
    theirs = await stranger.leader.open_session([partner.agent_id])
    await stranger.leader.start(partner.agent_id, session_id=theirs.id, text="x", task_id="t-1")
    mine = await leader.leader.open_session([partner.agent_id])
    answer = await leader.leader.start(
        partner.agent_id, session_id=mine.id, text="for me", task_id="t-1"
    )
    assert answer["status"]["state"] == "awaiting-completion"
    assert answer["products"][0]["dataItems"][0]["text"] == "for me"
    seen = await stranger.leader.get(partner.agent_id, session_id=theirs.id, task_id="t-1")
    assert seen["products"][0]["dataItems"][0]["text"] == "x"
    # the leader ends its task; the stranger's is untouched
    await leader.leader.complete(partner.agent_id, session_id=mine.id, task_id="t-1")
    seen = await stranger.leader.get(partner.agent_id, session_id=theirs.id, task_id="t-1")
    assert seen["status"]["state"] == "awaiting-completion"
