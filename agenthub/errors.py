"""The kit's exception tree."""

from __future__ import annotations

from typing import Any


class KitError(Exception):
    """Base of every error the kit raises."""


class HubIdentityError(KitError):
    """The hub could not prove who it is (bad signature, wrong key, nonce mismatch...)."""


def problem_code(problem: Any) -> str:
    """A problem document's stable code: its ``type``'s last segment ("" when it has none)."""
    kind = problem.get("type", "") if isinstance(problem, dict) else ""
    return str(kind).rsplit("/", 1)[-1]


class HubRequestError(KitError):
    """The hub answered with an error (a problem+json document)."""

    def __init__(self, status: int, problem: dict[str, Any]) -> None:
        self.status = status
        self.problem = problem
        super().__init__(f"{status} {problem.get('title', '')}: {problem.get('detail', '')}")

    @property
    def code(self) -> str:
        """The problem's code (``not-your-turn``, ``unknown-agent``...): what to branch on."""
        return problem_code(self.problem)


class NotRegisteredError(KitError):
    """The agent has no id yet: register it first."""


class CallTokenError(KitError):
    """A call token is missing, malformed, forged, expired, replayed or misdirected."""


class AnswerSignatureError(KitError):
    """A partner's answer is unsigned, forged or tampered with."""


class CallFailed(KitError):
    """A point-to-point call failed: refused (401/403), an HTTP error, or a JSON-RPC error."""

    def __init__(
        self, message: str, *, status: int | None = None, code: int | None = None, data: Any = None
    ) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.data = data


class AnswerMismatchError(CallFailed):
    """An answer that is not the one to this call: its JSON-RPC ``id`` is another
    request's, or its ``senderId`` is not the partner called (AIP 6.0)."""


class A2ACallFailed(CallFailed):
    """An A2A agent answered a call with an A2A error: a2a-sdk's exception is ``error``, its
    JSON-RPC code ``code``, its data ``data``; ``result`` is the AIP TaskResult of where the
    agent says the task is, when the leader asked it (a ``cancel`` the agent refused as not
    cancelable: the task it has ended), else None."""

    def __init__(
        self,
        message: str,
        *,
        error: Exception,
        code: int | None = None,
        data: Any = None,
        result: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(message, code=code, data=data)
        self.error = error
        self.result = result


class UnsafeCallbackError(KitError):
    """A notification URL points at a link-local or metadata address."""
