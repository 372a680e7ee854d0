"""Group routes: form a team in a session, read it and its tree, change it."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import Body, Response, status

from agenthub.protocol.groups import (
    GroupCreate,
    GroupList,
    GroupUpdate,
    GroupView,
)
from app.api.params import GroupIdPath
from app.api.problems import problem_responses
from app.api.routing import hub_router
from app.deps import PrincipalDep, SessionDep
from app.groups import access as group_access
from app.groups import service

router = hub_router(prefix="/v1/groups", tags=["groups"])


GROUP_EXAMPLE = {
    "sessionId": "sess-1",
    "name": "market report",
    "goal": "write the Q3 market report",
    "joinPolicy": "invite",
    "inviteIds": ["1.2.156.3088.1.AGH.WRITER"],
}


@router.post(
    "",
    status_code=status.HTTP_201_CREATED,
    responses=problem_responses(400, 401, 403, 404, 409, 413, 422),
)
async def create_group(
    body: Annotated[GroupCreate, Body(openapi_examples={"invite": {"value": GROUP_EXAMPLE}})],
    principal: PrincipalDep,
    db: SessionDep,
    response: Response,
) -> GroupView:
    """Open a group in a session, owned by the caller: `joinPolicy` says how agents join
    (`invite`: by invitation; `apply`: a manager reviews applications; `open`: any agent
    joins at once), `inviteIds` are invited at once, `parentGroupId` makes it a sub-group.
    `speakingPolicy` (IoA's `next_speaker`): `free` (the default: a message's `nextSpeaker`
    is advice) or `turns` (only the named next speakers, and the owner, post until one of
    them has or `turnTimeoutSeconds` pass; then the floor opens to every member).
    Answers `201` with the group and a `Location` header.

    **Who**: a participant of the session (an active member of the parent group, for a
    sub-group); or the operator, who pre-configures a group for its `ownerId` with members
    already active (`memberIds`).

    **Errors**: `403` for `ownerId` or `memberIds` from an agent, or a sub-group of a group
    the caller is not an active member of; `404` for a session the caller takes no part in;
    `409` when the session is closed (`session-closed`); `422` for an unregistered agent, a
    parent group in another session, nesting too deep, or an operator group without
    `ownerId`, and `not-a-group-receiver` for an invitee or member that the session
    declares a receiver in `p2p` mode only.
    """
    view = await service.create_group(db, principal=principal, body=body)
    response.headers["Location"] = f"/v1/groups/{view.id}"
    return view


@router.get("/{groupId}", responses=problem_responses(401, 404, 422))
async def get_group(group_id: GroupIdPath, principal: PrincipalDep, db: SessionDep) -> GroupView:
    """One group: policy, owner, members, `conversationState` (the IoA conversation), its
    speaking policy and `floor` (under `turns`: who may speak, until when; `speakers` null:
    every member), its stream's `lastSeq`, and its `depth` in the tree of groups.

    **Who**: anyone with a membership record in it (invited, applied, active, or past), any
    agent for an `open` group, and the operator.

    **Errors**: `404` for an unknown group, or one the caller may not see.
    """
    group, _ = await group_access.visible_group(db, group_id, principal)
    return await group_access.group_view(db, group)


@router.patch("/{groupId}", responses=problem_responses(400, 401, 403, 404, 409, 413, 422))
async def update_group(
    group_id: GroupIdPath,
    body: Annotated[
        GroupUpdate,
        Body(openapi_examples={"pause": {"value": {"conversationState": "pause-and-trigger"}}}),
    ],
    principal: PrincipalDep,
    db: SessionDep,
) -> GroupView:
    """Change a group's `name`, `goal`, `joinPolicy`, `speakingPolicy` or
    `turnTimeoutSeconds`, or move its conversation (`conversationState`) as the IoA table
    allows: `discussion`, `sync-task-assignment`, `async-task-assignment`,
    `pause-and-trigger`, `conclusion` (final: the group takes no more posts or members).
    Each state takes only some posts (see the post route). A move is a `state` event in the
    group's stream. A new `speakingPolicy` opens the floor (a `floor` event if someone held
    it). `conclusion` releases every active member (state `released`, a `member` event
    each), then its `state` event, the group's last, ends every stream of the group.

    **Who**: the group's owner or an admin, or the operator.

    **Errors**: `403` for other members; `404` for a group the caller may not see; `409`
    for a move the table does not allow; `422` for `null` where a value is needed.
    """
    return await service.update_group(db, group_id=group_id, principal=principal, body=body)


@router.get("/{groupId}/subgroups", responses=problem_responses(401, 404, 422))
async def list_subgroups(
    group_id: GroupIdPath,
    principal: PrincipalDep,
    db: SessionDep,
    depth: Literal["1", "all"] = "1",
) -> GroupList:
    """The group's sub-groups: its children (`depth=1`), or all its descendants as a tree
    (`depth=all`).

    **Who**: whoever may see the group (see `get_group`).

    **Errors**: `404` for a group the caller may not see.
    """
    items = await service.subgroups(
        db, group_id=group_id, principal=principal, whole_tree=depth == "all"
    )
    return GroupList(items=items)
