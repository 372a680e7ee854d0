from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.group_create import GroupCreate
from ...models.group_view import GroupView
from ...models.problem import Problem
from typing import cast



def _get_kwargs(
    *,
    body: GroupCreate,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/groups",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> GroupView | Problem | None:
    if response.status_code == 201:
        response_201 = GroupView.from_dict(response.json())



        return response_201

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())



        return response_401

    if response.status_code == 403:
        response_403 = Problem.from_dict(response.json())



        return response_403

    if response.status_code == 404:
        response_404 = Problem.from_dict(response.json())



        return response_404

    if response.status_code == 409:
        response_409 = Problem.from_dict(response.json())



        return response_409

    if response.status_code == 413:
        response_413 = Problem.from_dict(response.json())



        return response_413

    if response.status_code == 422:
        response_422 = Problem.from_dict(response.json())



        return response_422

    if response.status_code == 431:
        response_431 = Problem.from_dict(response.json())



        return response_431

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[GroupView | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: GroupCreate,

) -> Response[GroupView | Problem]:
    """ Create Group

     Open a group in a session, owned by the caller: `joinPolicy` says how agents join
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

    Args:
        body (GroupCreate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[GroupView | Problem]
     """


    kwargs = _get_kwargs(
        body=body,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient,
    body: GroupCreate,

) -> GroupView | Problem | None:
    """ Create Group

     Open a group in a session, owned by the caller: `joinPolicy` says how agents join
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

    Args:
        body (GroupCreate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        GroupView | Problem
     """


    return sync_detailed(
        client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: GroupCreate,

) -> Response[GroupView | Problem]:
    """ Create Group

     Open a group in a session, owned by the caller: `joinPolicy` says how agents join
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

    Args:
        body (GroupCreate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[GroupView | Problem]
     """


    kwargs = _get_kwargs(
        body=body,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient,
    body: GroupCreate,

) -> GroupView | Problem | None:
    """ Create Group

     Open a group in a session, owned by the caller: `joinPolicy` says how agents join
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

    Args:
        body (GroupCreate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        GroupView | Problem
     """


    return (await asyncio_detailed(
        client=client,
body=body,

    )).parsed
