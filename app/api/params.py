"""The path and query parameters that routes share, each defined once."""

from __future__ import annotations

from typing import Annotated

from fastapi import Path, Query

MAX_PAGE = 500
ID_CHARS = 200

AgentIdPath = Annotated[str, Path(alias="agentId", max_length=ID_CHARS)]
ClientIdPath = Annotated[str, Path(alias="clientId", max_length=ID_CHARS)]
GroupIdPath = Annotated[str, Path(alias="groupId", max_length=ID_CHARS)]
SessionIdPath = Annotated[str, Path(alias="sessionId", max_length=ID_CHARS)]
TaskIdPath = Annotated[str, Path(alias="taskId", max_length=ID_CHARS)]
Limit = Annotated[int, Query(ge=1, le=MAX_PAGE)]
Cursor = Annotated[str | None, Query(max_length=1000)]
After = Annotated[int, Query(ge=0, le=2**62, description="the last seq already seen")]
