"""The LLM adapter end to end: a live hub, a leader, and a partner whose model is a fake
OpenAI-compatible endpoint on loopback."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

from agenthub import Agent, ChatCompletionsHandler, LLMConfig, LLMConfigError
from tests.support.kit import MakeLiveAgent
from tests.support.live import LiveServer

API_KEY = "sk-test-do-not-leak-0123456789"
MODEL = "fake-model"
SYSTEM_PROMPT = "You answer in capitals."
TEST_SECONDS = 30


class FakeLLM:
    """Answers a chat completion with the user's text in upper case, after checking the call.

    ``answer`` switches it to a failure: "error" (500), "garbage" (not JSON), "unauthorized"
    (401 quoting the presented key back, as real endpoints do).
    """

    def __init__(self) -> None:
        self.requests: list[dict[str, Any]] = []
        self.answer = "ok"
        self.app = Starlette(
            routes=[Route("/v1/chat/completions", self.completions, methods=["POST"])]
        )
        self.server = LiveServer(self.app)

    @property
    def base_url(self) -> str:
        return f"{self.server.url}/v1"

    async def completions(self, request: Request) -> Response:
        body = await request.json()
        authorization = request.headers.get("authorization", "")
        self.requests.append({"path": request.url.path, "authorization": authorization, **body})
        if self.answer == "error":
            return JSONResponse({"error": {"message": "the model fell over"}}, status_code=500)
        if self.answer == "garbage":
            return PlainTextResponse("<html>bad gateway</html>")
        if self.answer == "unauthorized" or authorization != f"Bearer {API_KEY}":
            message = f"Incorrect API key provided: {authorization.removeprefix('Bearer ')}"
            return JSONResponse({"error": {"message": message}}, status_code=401)
        users = [m["content"] for m in body.get("messages", []) if m.get("role") == "user"]
        if body.get("model") != MODEL or not users:
            return JSONResponse({"error": {"message": "bad request"}}, status_code=400)
        return JSONResponse(
            {
                "id": "chatcmpl-test",
                "object": "chat.completion",
                "model": MODEL,
                "choices": [
                    {
                        "index": 0,
                        "message": {"role": "assistant", "content": users[-1].upper()},
                        "finish_reason": "stop",
                    }
                ],
            }
        )


@pytest.fixture
async def fake_llm() -> AsyncIterator[FakeLLM]:
    fake = FakeLLM()
    await fake.server.start()
    try:
        yield fake
    finally:
        await fake.server.stop()


@pytest.fixture
async def llm_partner(fake_llm: FakeLLM, make_live_agent: MakeLiveAgent) -> AsyncIterator[Agent]:
    config = LLMConfig(
        base_url=fake_llm.base_url,
        model=MODEL,
        api_key=API_KEY,
        system_prompt=SYSTEM_PROMPT,
        timeout_seconds=5,
    )
    handler = ChatCompletionsHandler(config)
    try:
        yield await make_live_agent("llm", handler)
    finally:
        await handler.aclose()


async def start(leader: Agent, partner: Agent, text: str) -> dict[str, Any]:
    session = await leader.leader.open_session([partner.agent_id])
    return await leader.leader.start(partner.agent_id, session_id=session.id, text=text)


def reply(result: dict[str, Any]) -> str:
    assert result["status"]["state"] == "awaiting-completion", result["status"]
    (product,) = result["products"]
    assert product["id"] == "reply"
    text: str = product["dataItems"][0]["text"]
    return text


def failure(result: dict[str, Any]) -> str:
    assert result["status"]["state"] == "failed", result["status"]
    text: str = result["status"]["dataItems"][0]["text"]
    return text


async def test_rpc_task_is_answered_by_the_model(
    fake_llm: FakeLLM, llm_partner: Agent, make_live_agent: MakeLiveAgent
) -> None:
    async with asyncio.timeout(TEST_SECONDS):
        leader = await make_live_agent("leader")
        session = await leader.leader.open_session([llm_partner.agent_id])
        lead, partner_id = leader.leader, llm_partner.agent_id
        result = await lead.start(partner_id, session_id=session.id, text="hello world")
        assert reply(result) == "HELLO WORLD"
        (seen,) = fake_llm.requests
        assert seen["path"] == "/v1/chat/completions"
        assert seen["authorization"] == f"Bearer {API_KEY}"
        assert seen["model"] == MODEL
        assert seen["messages"] == [
            {"role": "system", "content": SYSTEM_PROMPT},
            {"role": "user", "content": "hello world"},
        ]
        task_id = result["taskId"]
        again = await lead.continue_task(
            partner_id, session_id=session.id, task_id=task_id, text="shorter"
        )
        assert reply(again) == "SHORTER"
        assert fake_llm.requests[-1]["messages"][-1] == {"role": "user", "content": "shorter"}
        done = await lead.complete(partner_id, session_id=session.id, task_id=task_id)
        assert done["status"]["state"] == "completed"


async def test_empty_text_is_rejected_without_calling_the_model(
    fake_llm: FakeLLM, llm_partner: Agent, make_live_agent: MakeLiveAgent
) -> None:
    async with asyncio.timeout(TEST_SECONDS):
        leader = await make_live_agent("leader")
        result = await start(leader, llm_partner, "   ")
        assert result["status"]["state"] == "rejected"
        assert fake_llm.requests == []


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        ("error", "answered HTTP 500: the model fell over"),
        ("garbage", "something other than a chat completion"),
    ],
)
async def test_model_failure_fails_the_task_and_the_agent_serves_on(
    fake_llm: FakeLLM,
    llm_partner: Agent,
    make_live_agent: MakeLiveAgent,
    answer: str,
    expected: str,
) -> None:
    async with asyncio.timeout(TEST_SECONDS):
        leader = await make_live_agent("leader")
        fake_llm.answer = answer
        assert expected in failure(await start(leader, llm_partner, "first"))
        fake_llm.answer = "ok"
        assert reply(await start(leader, llm_partner, "second")) == "SECOND"


async def test_unreachable_model_fails_the_task_and_the_agent_serves_on(
    fake_llm: FakeLLM, llm_partner: Agent, make_live_agent: MakeLiveAgent
) -> None:
    async with asyncio.timeout(TEST_SECONDS):
        leader = await make_live_agent("leader")
        await fake_llm.server.stop()
        reason = failure(await start(leader, llm_partner, "anyone there?"))
        assert reason.startswith("the language model is unreachable (ConnectError")
        assert fake_llm.server.url not in reason
        await fake_llm.server.restart()
        assert reply(await start(leader, llm_partner, "back")) == "BACK"


async def test_rejected_key_is_masked_in_the_failure_and_the_logs(
    fake_llm: FakeLLM,
    llm_partner: Agent,
    make_live_agent: MakeLiveAgent,
    caplog: pytest.LogCaptureFixture,
) -> None:
    async with asyncio.timeout(TEST_SECONDS):
        leader = await make_live_agent("leader")
        fake_llm.answer = "unauthorized"
        with caplog.at_level("DEBUG"):
            reason = failure(await start(leader, llm_partner, "secret?"))
        assert (
            reason
            == "the language model endpoint answered HTTP 401: Incorrect API key provided: ***"
        )
        assert "HTTP 401" in caplog.text
        assert API_KEY not in caplog.text


def test_config_from_env_reads_the_variables(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AGENTHUB_LLM_BASE_URL", "http://127.0.0.1:11434/v1/")
    monkeypatch.setenv("AGENTHUB_LLM_MODEL", "llama3.2")
    monkeypatch.setenv("AGENTHUB_LLM_API_KEY", API_KEY)
    monkeypatch.setenv("AGENTHUB_LLM_TIMEOUT_SECONDS", "2.5")
    monkeypatch.delenv("AGENTHUB_LLM_SYSTEM_PROMPT", raising=False)
    config = LLMConfig.from_env()
    assert config.completions_url == "http://127.0.0.1:11434/v1/chat/completions"
    assert (config.model, config.api_key, config.timeout_seconds) == ("llama3.2", API_KEY, 2.5)
    assert config.system_prompt
    assert API_KEY not in repr(config)


VALID_ENV = {"AGENTHUB_LLM_BASE_URL": "http://127.0.0.1:11434/v1", "AGENTHUB_LLM_MODEL": "m"}


@pytest.mark.parametrize(
    ("environ", "message"),
    [
        ({}, "set AGENTHUB_LLM_BASE_URL and AGENTHUB_LLM_MODEL for"),
        ({"AGENTHUB_LLM_MODEL": "m"}, "set AGENTHUB_LLM_BASE_URL for"),
        ({**VALID_ENV, "AGENTHUB_LLM_MODEL": " "}, "set AGENTHUB_LLM_MODEL for"),
        ({**VALID_ENV, "AGENTHUB_LLM_BASE_URL": "127.0.0.1:11434"}, "must be an http(s) URL"),
        ({**VALID_ENV, "AGENTHUB_LLM_TIMEOUT_SECONDS": "soon"}, "seconds, not 'soon'"),
        ({**VALID_ENV, "AGENTHUB_LLM_TIMEOUT_SECONDS": "0"}, "must be a positive number"),
    ],
)
def test_config_from_env_errors_clearly(environ: dict[str, str], message: str) -> None:
    with pytest.raises(LLMConfigError) as raised:
        LLMConfig.from_env(environ)
    assert message in str(raised.value)
