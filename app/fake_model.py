"""A stand-in for a language model: an OpenAI-compatible chat endpoint (``POST
/v1/chat/completions``, ``GET /v1/models``) with no model behind it, whose answers follow from
the prompt. ``agenthub fake-model`` serves it, so that the LLM examples
(``examples/llm_partner.py``, ``examples/llm_leader.py``) run end to end with nothing to set
up; the tests serve it with replies of their own.

The default replies know the kit's two coordination prompts (``agenthub.llm``): a plan is two
sub-tasks of the goal (a draft, then a review of it); a choice of partner is the option whose
description shares the most words with the sub-task, and a choice of speaker each option in
turn. Anything else (a partner's task, a turn in a group) is answered with one sentence that
says it comes from a stand-in and what it was asked. The same prompt gets the same answer.
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Callable
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from agenthub.llm import CHOOSE_PROMPT, PLAN_PROMPT

DEFAULT_MODEL = "fake-model"
DEFAULT_PORT = 8100
QUOTED_CHARS = 160
Reply = Callable[[str, str], str]
"""(system prompt, the last user message) -> the assistant's text."""
Seen = Callable[[dict[str, str]], None]
"""Told each request it answers: ``{"system", "user"}``."""

_WORD = re.compile(r"[a-z0-9]+")
_OPTION = re.compile(r"^- ([^:\n]+?)(?:: (.*))?$", re.M)


def scripted_reply(system: str, user: str) -> str:
    """The stand-in's answer to ``user`` under ``system`` (see the module's docstring)."""
    if system == PLAN_PROMPT:
        goal = re.search(r"^Goal: (.*)$", user, re.M)
        topic = goal[1].strip() if goal else " ".join(user.split())[:QUOTED_CHARS]
        return json.dumps(
            [f"draft {topic}", f"review the draft of {topic} and say what is missing"]
        )
    if system == CHOOSE_PROMPT:
        options = _OPTION.findall(user.partition("\nOptions:\n")[2])
        if options:
            return _choose(user, [(name.strip(), about) for name, about in options])
    asked = " ".join(user.split())
    if len(asked) > QUOTED_CHARS:
        asked = asked[: QUOTED_CHARS - 1] + "…"
    return f"(a stand-in for a language model, asked: {asked})"


def _choose(question: str, options: list[tuple[str, str]]) -> str:
    turn = re.search(r"This is turn (\d+) of", question)
    if turn:  # a speaker: each option in turn
        return options[(int(turn[1]) - 1) % len(options)][0]
    asked = _words(question.partition("\nOptions:\n")[0])

    def shared(option: tuple[str, str]) -> int:
        return len(asked & _words(f"{option[0]} {option[1]}"))

    return max(options, key=shared)[0]  # the first of the best, on a tie


def _words(text: str) -> set[str]:
    return {word.removesuffix("s") for word in _WORD.findall(text.lower())}


def chat_app(
    reply: Reply = scripted_reply, *, model: str = DEFAULT_MODEL, seen: Seen | None = None
) -> Starlette:
    """The endpoint as an ASGI app, answering for ``model`` only (as a real one does)."""
    numbers = itertools.count(1)

    async def completions(request: Request) -> Response:
        try:
            body: Any = await request.json()
        except ValueError:
            return _error(400, "the body is not JSON")
        messages = body.get("messages") if isinstance(body, dict) else None
        if not isinstance(messages, list):
            return _error(400, "'messages' must be a list")
        if body.get("model") != model:
            return _error(
                404, f"the model {body.get('model')!r} does not exist (this serves {model!r})"
            )
        texts = [m for m in messages if isinstance(m, dict) and isinstance(m.get("content"), str)]
        system = next((m["content"] for m in texts if m.get("role") == "system"), "")
        users = [m["content"] for m in texts if m.get("role") == "user"]
        if not users:
            return _error(400, "no user message")
        if seen is not None:
            seen({"system": system, "user": users[-1]})
        content = reply(system, users[-1])
        return JSONResponse(
            {
                "id": f"chatcmpl-{next(numbers)}",
                "object": "chat.completion",
                "model": model,
                "choices": [
                    {
                        "index": 0,
                        "message": {"role": "assistant", "content": content},
                        "finish_reason": "stop",
                    }
                ],
            }
        )

    async def models(_: Request) -> Response:
        return JSONResponse(
            {"object": "list", "data": [{"id": model, "object": "model", "owned_by": "agenthub"}]}
        )

    return Starlette(
        routes=[
            Route("/v1/chat/completions", completions, methods=["POST"]),
            Route("/v1/models", models, methods=["GET"]),
        ]
    )


def _error(status: int, message: str) -> Response:
    return JSONResponse({"error": {"message": message}}, status_code=status)
