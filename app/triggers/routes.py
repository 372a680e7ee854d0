"""Group trigger routes (pause-and-trigger): fire once when tasks are final or at a deadline."""

from __future__ import annotations

from typing import Annotated

from fastapi import Body

from agenthub.protocol.groups import (
    TriggerCreate,
    TriggerList,
    TriggerView,
)
from app.api.params import GroupIdPath
from app.api.problems import problem_responses
from app.api.routing import hub_router
from app.deps import PrincipalDep, SessionDep
from app.triggers import service as trigger_service

router = hub_router(prefix="/v1/groups", tags=["groups"])

TRIGGER_ERRORS = problem_responses(400, 401, 403, 404, 409, 422)


@router.post("/{groupId}/triggers", status_code=201, responses=TRIGGER_ERRORS)
async def create_trigger(
    group_id: GroupIdPath,
    body: Annotated[
        TriggerCreate,
        Body(openapi_examples={"wait": {"value": {"taskIds": ["task-1"], "timeoutSeconds": 600}}}),
    ],
    principal: PrincipalDep,
    db: SessionDep,
) -> TriggerView:
    """Set a trigger (`201`): a `trigger.fired` event in the group's stream (and in the
    setter's inbox) once all of `taskIds` are in a final state, or when `timeoutSeconds`
    pass first; it fires exactly once. A group in `pause-and-trigger` moves back to
    `discussion` when a trigger fires.

    **Who**: the group's owner or an admin, or the operator.

    **Errors**: `403` for other members; `404` for a group the caller may not see; `409`
    when the group has concluded (`group-concluded`); `422` for a task not in the group's session.
    """
    return await trigger_service.create_trigger(
        db, group_id=group_id, principal=principal, body=body
    )


@router.get("/{groupId}/triggers", responses=problem_responses(401, 404, 422))
async def list_triggers(
    group_id: GroupIdPath, principal: PrincipalDep, db: SessionDep
) -> TriggerList:
    """The group's triggers: their tasks, deadline, and whether and how each fired.

    **Who**: whoever may see the group (see `get_group`).

    **Errors**: `404` for a group the caller may not see.
    """
    items = await trigger_service.list_triggers(db, group_id=group_id, principal=principal)
    return TriggerList(items=items)
