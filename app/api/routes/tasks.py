"""Tasks as the hub projects them from task messages."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import Query

from agenthub.protocol.messages import TaskState
from agenthub.protocol.sessions import TaskPage, TaskView
from app.api.params import Cursor, Limit, TaskIdPath
from app.api.problems import problem_responses
from app.api.routing import hub_router
from app.deps import CurrentAgent, SessionDep
from app.services import task_queries as service

router = hub_router(prefix="/v1/tasks", tags=["tasks"])


@router.get("", responses=problem_responses(400, 401, 422))
async def list_tasks(
    caller: CurrentAgent,
    db: SessionDep,
    session_id: Annotated[str | None, Query(alias="sessionId", max_length=200)] = None,
    group_id: Annotated[str | None, Query(alias="groupId", max_length=200)] = None,
    state: TaskState | None = None,
    role: Literal["leader", "partner"] | None = None,
    limit: Limit = 50,
    cursor: Cursor = None,
) -> TaskPage:
    """The tasks the caller leads or is the partner of (`role` picks one side), oldest
    first, filtered by `sessionId`, `groupId` and the current `state`; the answer pages with
    `limit` and the previous page's `nextCursor`. A task exists from its `start` command;
    its `status` is empty until the partner's first answer (`accepted` or `rejected`).

    **Who**: an agent.

    **Errors**: `400` for a cursor this hub did not hand out; `422` for a bad parameter.
    """
    return await service.list_tasks(
        db,
        agent_id=caller.id,
        session_id=session_id,
        group_id=group_id,
        state=state,
        role=role,
        limit=limit,
        cursor=cursor,
    )


@router.get("/{taskId}", responses=problem_responses(401, 404, 409, 422))
async def get_task(
    task_id: TaskIdPath,
    caller: CurrentAgent,
    db: SessionDep,
    session_id: Annotated[str | None, Query(alias="sessionId", max_length=200)] = None,
) -> TaskView:
    """One task as the hub projects it from the task messages: leader, partner, current
    `status`, `statusHistory`, `products`, `dependencies`, and its parent task.

    Task ids are the leaders' choice and unique within a session only: `sessionId` says
    which session's task is meant, and may be left out while the caller sees one task of
    that id.

    **Who**: the task's leader or partner, or another participant of its session.

    **Errors**: `404` for an unknown task, or one in a session the caller takes no part in;
    `409` (`ambiguous-task-id`) when the caller sees tasks of that id in more than one
    session and gave no `sessionId`.
    """
    return await service.get_task(db, task_id=task_id, agent_id=caller.id, session_id=session_id)
