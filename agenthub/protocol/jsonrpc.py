"""JSON-RPC 2.0 envelopes of AIP direct mode, and AIP's error codes."""

from __future__ import annotations

from enum import IntEnum
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from agenthub.protocol.base import CompactWireModel, Identifier


class RpcErrorCode(IntEnum):
    PARSE_ERROR = -32700
    INVALID_REQUEST = -32600
    METHOD_NOT_FOUND = -32601
    INVALID_PARAMS = -32602
    INTERNAL_ERROR = -32603
    TASK_NOT_FOUND = -32001
    TASK_NOT_CANCELABLE = -32002
    NOTIFICATION_NOT_SUPPORTED = -32003
    UNSUPPORTED_OPERATION = -32004
    CONTENT_TYPE_NOT_SUPPORTED = -32005
    INVALID_AGENT_RESPONSE = -32006
    GROUP_NOT_SUPPORTED = -32007
    AUTHENTICATION_REQUIRED = -32008
    AUTHORIZATION_FAILED = -32009
    ACCESS_TOKEN_INVALID = -32010


MAX_ID_CHARS = 256
"""The longest JSON-RPC ``id`` string an endpoint takes: it is echoed in every answer and
every event of a stream (a 900 KB id was 46 MB to one stream of 50 posts)."""


def oversized_id(request_id: Any) -> bool:
    return isinstance(request_id, str) and len(request_id) > MAX_ID_CHARS


class RpcRequest(BaseModel):
    model_config = ConfigDict(extra="ignore")

    jsonrpc: Literal["2.0"]
    method: str = Field(max_length=100)
    id: Annotated[str, Field(max_length=MAX_ID_CHARS)] | int | None = None
    params: dict[str, Any] | None = None


class RpcError(BaseModel):
    code: int
    message: str
    data: Any | None = None


class NotificationConfig(CompactWireModel):
    """Where the partner pushes a task's results (A.3), and the token it shows there."""

    id: Identifier | None = None
    task_id: Identifier
    url: str = Field(max_length=2000)
    token: str | None = Field(default=None, max_length=1000)


class NotificationQuery(CompactWireModel):
    task_id: Identifier
    notification_config_id: Identifier | None = None


def rpc_result(request_id: str | int | None, result: Any) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": request_id, "result": result}


def rpc_error(
    request_id: str | int | None, code: RpcErrorCode, message: str, data: Any = None
) -> dict[str, Any]:
    error: dict[str, Any] = {"code": int(code), "message": message}
    if data is not None:
        error["data"] = data
    return {"jsonrpc": "2.0", "id": request_id, "error": error}
