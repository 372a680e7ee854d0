"""Tasks as the hub projects them from task messages, their messages, and a session's
context (its messages and tasks)."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import Query

from agenthub.protocol.sessions import (
    MessagePage,
    SessionContext,
    TaskPage,
    TaskView,
    TaskViewState,
)
from app.api.params import Cursor, Limit, SessionIdPath, TaskIdPath
from app.api.problems import problem_responses
from app.api.routing import hub_router
from app.deps import CurrentAgent, PrincipalDep, SessionDep, SettingsDep
from app.tasks import queries as service

router = hub_router()


@router.get("/v1/tasks", tags=["tasks"], responses=problem_responses(400, 401, 422))
async def list_tasks(
    caller: CurrentAgent,
    db: SessionDep,
    session_id: Annotated[str | None, Query(alias="sessionId", max_length=200)] = None,
    group_id: Annotated[str | None, Query(alias="groupId", max_length=200)] = None,
    state: TaskViewState | None = None,
    role: Literal["leader", "partner"] | None = None,
    limit: Limit = 50,
    cursor: Cursor = None,
    *,
    settings: SettingsDep,
) -> TaskPage:
    """The tasks the caller leads or is the partner of (`role` picks one side), oldest
    first, filtered by `sessionId`, `groupId` and the current `state`; the answer pages with
    `limit` and the previous page's `nextCursor`. A task exists from its `start` command:
    its `state` is `submitted` and its `status` empty until the partner's first answer
    (`accepted` or `rejected`), then its `state` is the AIP state of its `status`.

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
        max_bytes=settings.max_page_bytes,
    )


@router.get("/v1/tasks/{taskId}", tags=["tasks"], responses=problem_responses(401, 404, 409, 422))
async def get_task(
    task_id: TaskIdPath,
    principal: PrincipalDep,
    db: SessionDep,
    session_id: Annotated[str | None, Query(alias="sessionId", max_length=200)] = None,
) -> TaskView:
    """One task as the hub projects it from the task messages: leader, partner, `state`
    (`submitted` until the partner's first answer, then the AIP state), current `status`,
    `statusHistory`, `products`, `dependencies`, and its parent task.

    Task ids are the leaders' choice and unique within a session only: `sessionId` says
    which session's task is meant, and may be left out while the caller sees one task of
    that id.

    **Who**: the task's leader or partner, or another participant of its session; or the
    operator, who reads every task.

    **Errors**: `404` for an unknown task, or one in a session the caller takes no part in;
    `409` (`ambiguous-task-id`) when the caller sees tasks of that id in more than one
    session and gave no `sessionId`.
    """
    return await service.get_task(
        db, task_id=task_id, agent_id=principal.agent_id, session_id=session_id
    )


@router.get(
    "/v1/sessions/{sessionId}/tasks/{taskId}/messages",
    tags=["tasks"],
    responses=problem_responses(400, 401, 404, 422),
)
async def list_task_messages(
    session_id: SessionIdPath,
    task_id: TaskIdPath,
    principal: PrincipalDep,
    db: SessionDep,
    settings: SettingsDep,
    after: Cursor = None,
    limit: Limit = 50,
) -> MessagePage:
    """The task's messages (GB/Z Table 4 `messages`), oldest first, as stored: its commands,
    reports and the plain messages that carry its `taskId`; pass the previous page's
    `nextCursor` as `after` for the next. A group's task lists its group's messages too
    (never another group's), to the group's active members.

    **Who**: whoever sees the task: its leader or partner, or another participant of its
    session; or the operator, who reads every task (its group's messages included).

    **Errors**: `400` for a cursor this hub did not hand out; `404` for an unknown task, or
    one in a session the caller takes no part in.
    """
    return await service.list_task_messages(
        db,
        principal=principal,
        session_id=session_id,
        task_id=task_id,
        after=after,
        limit=limit,
        max_bytes=settings.max_page_bytes,
    )


@router.get(
    "/v1/sessions/{sessionId}/context",
    tags=["sessions"],
    responses=problem_responses(400, 401, 404, 422),
)
async def get_session_context(
    session_id: SessionIdPath,
    caller: CurrentAgent,
    db: SessionDep,
    settings: SettingsDep,
    messages_after: Annotated[str | None, Query(alias="messagesAfter", max_length=1000)] = None,
    tasks_after: Annotated[str | None, Query(alias="tasksAfter", max_length=1000)] = None,
    limit: Limit = 50,
) -> SessionContext:
    """The session's context (GB/Z Table 5 `context`): a page of its point-to-point
    `messages` and a page of its `tasks` the caller leads or works on (those `GET /v1/tasks`
    lists it, point-to-point and in groups), each oldest first and at most `limit` long.
    Each page's `nextCursor` goes back here as `messagesAfter` or `tasksAfter`.

    **Who**: a participant of the session.

    **Errors**: `400` for a cursor this hub did not hand out; `404` for a session the
    caller takes no part in.
    """
    return await service.session_context(
        db,
        caller=caller,
        session_id=session_id,
        messages_after=messages_after,
        tasks_after=tasks_after,
        limit=limit,
        max_bytes=settings.max_page_bytes,
    )
