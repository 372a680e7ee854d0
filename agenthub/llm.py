"""A partner answered by a language model behind any OpenAI-compatible endpoint.

Anything that serves ``POST {base_url}/chat/completions`` fits: OpenAI, Ollama, vLLM,
llama.cpp, LM Studio. Each start or continue sends the system prompt and that command's text
only, so the handler keeps no per-task state and one agent serves many tasks at once.

A model that cannot answer fails the task, with a message safe to show the leader (no URL, no
API key); it never takes the agent down.

The same model can lead (``examples/llm_leader.py``): :meth:`ChatModel.plan` splits a goal
into sub-tasks and :meth:`ChatModel.choose` picks one of a few names (a partner, the next
speaker), each answer parsed strictly (:class:`LLMCallError` when it is not one). And it can
take part in groups (``agenthub.llm_groups``).
"""

from __future__ import annotations

import json
import logging
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import httpx

from agenthub.errors import KitError
from agenthub.partner import TaskContext, TaskHandler
from agenthub.protocol.data import MAX_TEXT_CHARS

logger = logging.getLogger(__name__)

ENV_PREFIX = "AGENTHUB_LLM_"
DEFAULT_SYSTEM_PROMPT = "You are a helpful assistant. Answer the request you are given."
DEFAULT_TIMEOUT_SECONDS = 60.0
PRODUCT_ID = "reply"
ERROR_DETAIL_CHARS = 300
MAX_PLAN_STEPS = 5
QUOTE_CHARS = 120
FENCE = re.compile(r"^```\w*\s*|\s*```$")
PLAN_PROMPT = (
    "You plan work for a team of agents. Split the user's goal into short, self-contained "
    "sub-tasks, one sentence each. Answer with a JSON array of strings only, no other text."
)
CHOOSE_PROMPT = (
    "You coordinate a team of agents. Answer with exactly one of the option names listed, "
    "and nothing else."
)


class LLMConfigError(KitError):
    """The language model settings are missing or invalid."""


class LLMCallError(KitError):
    """The language model did not answer; the message is safe to show the leader."""


@dataclass(frozen=True)
class LLMConfig:
    """Where the model is and how to ask it; the API key is kept out of ``repr``."""

    base_url: str
    model: str
    api_key: str | None = field(default=None, repr=False)
    system_prompt: str = DEFAULT_SYSTEM_PROMPT
    timeout_seconds: float = DEFAULT_TIMEOUT_SECONDS

    def __post_init__(self) -> None:
        if not self.base_url.startswith(("http://", "https://")):
            raise LLMConfigError(f"{ENV_PREFIX}BASE_URL must be an http(s) URL")
        if not self.model:
            raise LLMConfigError(f"{ENV_PREFIX}MODEL must name a model")
        if not self.timeout_seconds > 0:
            raise LLMConfigError(f"{ENV_PREFIX}TIMEOUT_SECONDS must be a positive number")

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> LLMConfig:
        """Read ``AGENTHUB_LLM_*`` (BASE_URL and MODEL required); empty counts as unset."""
        env = os.environ if environ is None else environ

        def get(name: str) -> str | None:
            return env.get(ENV_PREFIX + name, "").strip() or None

        base_url, model = get("BASE_URL"), get("MODEL")
        if base_url is None or model is None:
            missing = [n for n in ("BASE_URL", "MODEL") if get(n) is None]
            raise LLMConfigError(
                f"set {' and '.join(ENV_PREFIX + n for n in missing)} for the language model "
                "(e.g. AGENTHUB_LLM_BASE_URL=http://127.0.0.1:11434/v1 AGENTHUB_LLM_MODEL=llama3.2)"
            )
        timeout = get("TIMEOUT_SECONDS")
        try:
            timeout_seconds = float(timeout) if timeout else DEFAULT_TIMEOUT_SECONDS
        except ValueError:
            raise LLMConfigError(
                f"{ENV_PREFIX}TIMEOUT_SECONDS must be a number of seconds, not {timeout!r}"
            ) from None
        return cls(
            base_url=base_url,
            model=model,
            api_key=get("API_KEY"),
            system_prompt=get("SYSTEM_PROMPT") or DEFAULT_SYSTEM_PROMPT,
            timeout_seconds=timeout_seconds,
        )

    @property
    def completions_url(self) -> str:
        return f"{self.base_url.rstrip('/')}/chat/completions"


class ChatModel:
    """One model behind an OpenAI-compatible endpoint: a chat call, and the leader's two
    questions with strictly parsed answers.

    One ``httpx.AsyncClient`` serves every call; pass ``http`` to share yours (then it is
    yours to close), otherwise call :meth:`aclose` when done.
    """

    def __init__(self, config: LLMConfig, *, http: httpx.AsyncClient | None = None) -> None:
        self.config = config
        self._owns_http = http is None
        self.http = http or httpx.AsyncClient(timeout=config.timeout_seconds)

    async def chat(self, text: str, *, system: str | None = None) -> str:
        """The model's reply to ``text`` (``system``: instead of the configured system
        prompt); raises :class:`LLMCallError` if there is none."""
        config = self.config
        body = {
            "model": config.model,
            "messages": [
                {"role": "system", "content": system or config.system_prompt},
                {"role": "user", "content": text},
            ],
        }
        headers = {"Authorization": f"Bearer {config.api_key}"} if config.api_key else {}
        try:
            response = await self.http.post(config.completions_url, json=body, headers=headers)
        except httpx.TimeoutException:
            raise LLMCallError(
                f"the language model did not answer within {config.timeout_seconds:g} s"
            ) from None
        except httpx.HTTPError as exc:
            cause = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
            raise LLMCallError(f"the language model is unreachable ({cause})") from None
        if not response.is_success:
            raise LLMCallError(
                f"the language model endpoint answered HTTP {response.status_code}"
                + self._detail(response)
            )
        return self._reply(response)

    async def plan(self, goal: str, *, most: int = MAX_PLAN_STEPS) -> list[str]:
        """``goal`` split into 1 to ``most`` sub-tasks, each one line of text.

        The model must answer a JSON array of strings (a Markdown code fence around it is
        taken off); anything else is an :class:`LLMCallError` quoting the answer's start.
        """
        prompt = f"Goal: {goal}\nSplit it into at most {most} sub-tasks."
        answer = await self.chat(prompt, system=PLAN_PROMPT)
        steps = _json_list(answer)
        if steps is None or not 1 <= len(steps) <= most:
            raise LLMCallError(
                f"the language model's plan is not a JSON list of 1 to {most} sub-tasks: "
                f"{_quote(answer)}"
            )
        return steps

    async def choose(self, question: str, options: Mapping[str, str]) -> str:
        """One of ``options``' names (the values describe them), as the model picks it for
        ``question``.

        The answer must be one name, taken case-insensitively and without quotes or a final
        full stop; an answer naming exactly one option in a sentence is taken too. Anything
        else is an :class:`LLMCallError` quoting the answer's start.
        """
        if not options:
            raise ValueError("choose needs at least one option")
        listed = "\n".join(
            f"- {name}: {about}" if about else f"- {name}" for name, about in options.items()
        )
        answer = await self.chat(f"{question}\n\nOptions:\n{listed}", system=CHOOSE_PROMPT)
        picked = _pick(answer, list(options))
        if picked is None:
            raise LLMCallError(
                f"the language model answered {_quote(answer)}, not one of: {', '.join(options)}"
            )
        return picked

    @staticmethod
    def _reply(response: httpx.Response) -> str:
        try:
            content = response.json()["choices"][0]["message"]["content"]
        except (ValueError, LookupError, TypeError):
            raise LLMCallError(
                "the language model endpoint answered something other than a chat completion"
            ) from None
        if not isinstance(content, str) or not content.strip():
            raise LLMCallError("the language model gave no text reply")
        if len(content) > MAX_TEXT_CHARS:
            raise LLMCallError(f"the language model's reply is over {MAX_TEXT_CHARS} characters")
        return content

    def _detail(self, response: httpx.Response) -> str:
        """The endpoint's own error message (OpenAI or Ollama shape), masked and cut short."""
        try:
            body: Any = response.json()
        except ValueError:
            return ""
        error = body.get("error") if isinstance(body, dict) else None
        detail = error.get("message") if isinstance(error, dict) else error
        if not isinstance(detail, str) or not detail.strip():
            return ""
        return ": " + self.redact(detail)[:ERROR_DETAIL_CHARS]

    def redact(self, text: str) -> str:
        """Endpoints quote a rejected key back; it must not reach the leader or the logs."""
        key = self.config.api_key
        return text.replace(key, "***") if key else text

    async def aclose(self) -> None:
        if self._owns_http:
            await self.http.aclose()


def _json_list(answer: str) -> list[str] | None:
    """The JSON array of non-empty strings ``answer`` is (inside a code fence, maybe)."""
    text = FENCE.sub("", answer.strip()).strip()
    try:
        value = json.loads(text)
    except ValueError:
        return None
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
        return None
    return [" ".join(v.split()) for v in value]


def _pick(answer: str, names: list[str]) -> str | None:
    said = answer.strip().strip("\"'`*").rstrip(".").strip().casefold()
    for name in names:
        if said == name.casefold():
            return name
    named = [n for n in names if re.search(rf"(?<!\w){re.escape(n.casefold())}(?!\w)", said)]
    return named[0] if len(named) == 1 else None


def _quote(answer: str) -> str:
    flat = " ".join(answer.split())
    return repr(flat if len(flat) <= QUOTE_CHARS else flat[:QUOTE_CHARS] + "…")


class ChatCompletionsHandler(TaskHandler):
    """Answers each task's text with one chat completion, delivered as the text product.

    Its :class:`ChatModel` serves every task; pass ``http`` to share your client (then it is
    yours to close), otherwise call :meth:`aclose` when the agent stops.
    """

    def __init__(self, config: LLMConfig, *, http: httpx.AsyncClient | None = None) -> None:
        self.model = ChatModel(config, http=http)
        self.config = config
        self.http = self.model.http

    async def on_start(self, task: TaskContext) -> None:
        if not task.text.strip():
            await task.reject("send me some text to answer")
            return
        await task.working("asking the language model")
        await self._answer(task)

    async def on_continue(self, task: TaskContext) -> None:
        if not task.text.strip():
            await task.await_completion(message="no new text: the previous reply stands")
            return
        await self._answer(task, message="answered again")

    async def _answer(self, task: TaskContext, *, message: str | None = None) -> None:
        try:
            reply = await self.chat(task.text)
        except LLMCallError as exc:
            reason = self.model.redact(str(exc))
            logger.warning("task %s: %s (%s)", task.task_id, reason, self.config.completions_url)
            await task.fail(reason)
            return
        product = {"id": PRODUCT_ID, "dataItems": [{"type": "text", "text": reply}]}
        await task.await_completion([product], message=message)

    async def chat(self, text: str) -> str:
        """The model's reply to ``text``; raises :class:`LLMCallError` if there is none."""
        return await self.model.chat(text)

    async def aclose(self) -> None:
        await self.model.aclose()
