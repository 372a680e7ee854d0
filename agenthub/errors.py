"""The kit's exception tree: every error the kit raises for its user to catch is a
``KitError``. Where a class lives elsewhere, its module is named::

    KitError
    ├── NotRegisteredError               the agent has no id yet
    ├── StateFileError (ValueError)      a state file the kit did not write
    ├── SignatureError (ValueError)      a compact JWS that is malformed or does not verify
    │   └── SignatureMismatch            ... well-formed, but not by the key it was checked with
    ├── HubIdentityError                 the hub could not prove who it is
    ├── HubRequestError                  the hub answered with a problem (``.code``)
    ├── CallTokenError                   a call to this agent, refused (answered 401)
    │   ├── CallTokenMissing             ... carrying no call token (and no certificate)
    │   └── CallTokenUnverified          ... whose token the caller's key does not verify
    ├── PeerCertificateError             agenthub.peers: a peer's certificate, refused
    ├── AnswerSignatureError             a partner's answer, unsigned or tampered with
    ├── CardSignatureError               an A2A card the hub did not sign (or, required, unsigned)
    ├── CallFailed                       a call this agent made, failed (``.status``, ``.code``)
    │   ├── AnswerMismatchError          ... answered for another call or by another agent
    │   └── A2ACallFailed                ... an A2A agent's error (``.error``, ``.result``)
    ├── TaskMoveError                    a move the AIP state table forbids
    │   └── ProductsTooLarge             ... products past the start's maxProductsBytes
    ├── RpcFault                         agenthub.runtime: what a partner answers as a
    │   │                                JSON-RPC error (``.code``, ``.data``)
    │   └── EventsExpired                agenthub.task_events: a re-stream from events gone
    ├── A2aBindingMissing (ValueError)   a card with no A2A binding and no ``url``
    ├── UnsafeCallbackError              a notification URL at a link-local address
    ├── WatchedTaskMissing               agenthub.triggers: a watched task is gone
    ├── FanOutFailed                     agenthub.patterns: every partner of a fan-out failed
    ├── AllDeclined                      agenthub.patterns: every partner declined
    ├── LLMConfigError                   agenthub.llm: an LLM leader set up wrongly
    └── LLMCallError                     agenthub.llm: the model's API failed

Decide by type, not by message: the messages are for people.
"""

from __future__ import annotations

from typing import Any


class KitError(Exception):
    """Base of every error the kit raises."""


class NotRegisteredError(KitError):
    """The agent has no id yet: register it first."""


class StateFileError(KitError, ValueError):
    """The state file is not one this kit wrote (or it was damaged)."""


class SignatureError(KitError, ValueError):
    """The token is malformed or its signature does not verify."""


class SignatureMismatch(SignatureError):
    """A well-formed token whose signature the key it was checked with does not verify."""


class HubIdentityError(KitError):
    """The hub could not prove who it is (bad signature, wrong key, nonce mismatch...)."""


def problem_code(problem: Any) -> str:
    """A problem document's stable code: its ``type``'s last segment ("" when it has none)."""
    kind = problem.get("type", "") if isinstance(problem, dict) else ""
    return str(kind).rsplit("/", 1)[-1]


class HubRequestError(KitError):
    """The hub answered with an error (a problem+json document). Its text is the hub's
    ``detail``, one line for a person ("This registration token is not accepted."); the
    status is ``.status``, the code to branch on ``.code``."""

    def __init__(self, status: int, problem: dict[str, Any]) -> None:
        self.status = status
        self.problem = problem
        detail = str(problem.get("detail") or "").strip()
        title = str(problem.get("title") or "").strip()
        super().__init__(detail or f"the hub answered {status} {title}".rstrip())

    @property
    def code(self) -> str:
        """The problem's code (``not-your-turn``, ``unknown-agent``...): what to branch on."""
        return problem_code(self.problem)


class CallTokenError(KitError):
    """A call token is missing, malformed, forged, expired, replayed or misdirected."""


class CallTokenMissing(CallTokenError):
    """The call carries no call token (and no client certificate that would do instead)."""


class CallTokenUnverified(CallTokenError):
    """The caller's registered key does not verify the call token's signature (the caller
    may have rotated its key since its card was read)."""


class AnswerSignatureError(KitError):
    """A partner's answer is unsigned, forged or tampered with."""


class CardSignatureError(KitError):
    """An A2A Agent Card whose signatures no key of the hub verifies, or, where the leader
    requires one (``Leader.require_signed_cards``), a card with none."""


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


class TaskMoveError(KitError):
    """The handler asked for a move the AIP state table forbids."""


class ProductsTooLarge(TaskMoveError):
    """The task's products would pass the start's ``maxProductsBytes``: it failed instead."""


class A2aBindingMissing(KitError, ValueError):
    """The card declares no A2A binding and no ``url`` was given."""


class UnsafeCallbackError(KitError):
    """A notification URL points at a link-local or metadata address."""
