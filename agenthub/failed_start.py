"""A start whose call failed, recorded as how it ended.

The leader records a ``start`` before it calls. When the call ends with no task at the
partner as far as the leader can tell (the partner answered with an error, the leader
refused its answer, or the call was never made), the hub would otherwise keep a task no
peer holds, ``submitted`` until its session closes. So the leader records the call's end
for the partner, as it records the answers of a partner that signs nothing: a ``failed``
TaskResult saying why, relayed unsigned (the hub marks it ``verified: false``, the leader's
word). A call that may have reached the partner (it timed out, the connection broke after
the request was sent, or the partner's server failed with a 5xx and no JSON-RPC answer)
records nothing: the partner may hold the task, and say so.
"""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

import httpx
import orjson

from agenthub.errors import AnswerMismatchError, AnswerSignatureError, CallFailed, KitError
from agenthub.peers import PeerCertificateError
from agenthub.protocol.messages import TaskCommand, TaskCommandType, TaskState

FAILED_CALLS = (KitError, httpx.ConnectError, httpx.ConnectTimeout)
"""What a failed call raises; ``not_taken`` says which of them leave no task at the partner."""
REFUSED_ANSWERS = (AnswerMismatchError, AnswerSignatureError, PeerCertificateError)


def not_taken(error: BaseException) -> bool:
    """Whether the partner holds no task of a ``start`` that failed with ``error``: it
    answered with a JSON-RPC error or an HTTP 4xx, the leader refused its answer, or the
    call was never made; not a 5xx without a JSON-RPC answer (its server may have failed
    after taking the task)."""
    if isinstance(error, CallFailed) and not isinstance(error, REFUSED_ANSWERS):
        return error.code is not None or error.status is None or error.status < 500
    return isinstance(error, FAILED_CALLS)


def why(error: BaseException) -> str:
    """The reason the record gives, in one line."""
    said = str(error).splitlines()[0] if str(error) else type(error).__name__
    if isinstance(error, REFUSED_ANSWERS):
        return f"The leader refused the partner's answer: {said}"
    if isinstance(error, CallFailed | httpx.HTTPError):
        return f"The start call failed: {said}"
    return f"The start call was not made: {said}"


def ended_start(command: TaskCommand) -> bool:
    """Whether ``command`` is a start whose failed call the hub should hear of."""
    return (
        command.command == TaskCommandType.START
        and command.session_id is not None
        and command.task_id is not None
    )


def failed_answer(command: TaskCommand, partner_id: str, error: BaseException) -> bytes:
    """The JSON-RPC answer the leader relays for the failed start: its task ``failed``,
    saying why."""
    now = datetime.now(UTC).isoformat()
    result = {
        "type": "task-result",
        "id": f"failed-start-{uuid.uuid4().hex}",
        "sentAt": now,
        "senderRole": "partner",
        "senderId": partner_id,
        "sessionId": command.session_id,
        "taskId": command.task_id,
        "status": {
            "state": TaskState.FAILED.value,
            "stateChangedAt": now,
            "dataItems": [{"type": "text", "text": why(error)[:4000]}],
        },
    }
    return orjson.dumps({"jsonrpc": "2.0", "id": result["id"], "result": result})
