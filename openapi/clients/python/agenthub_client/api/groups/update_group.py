from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.group_update import GroupUpdate
from ...models.group_view import GroupView
from ...models.problem import Problem
from typing import cast



def _get_kwargs(
    group_id: str,
    *,
    body: GroupUpdate,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "patch",
        "url": "/v1/groups/{group_id}".format(group_id=quote(str(group_id), safe=""),),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> GroupView | Problem | None:
    if response.status_code == 200:
        response_200 = GroupView.from_dict(response.json())



        return response_200

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
    group_id: str,
    *,
    client: AuthenticatedClient,
    body: GroupUpdate,

) -> Response[GroupView | Problem]:
    """ Update Group

     Change a group's `name`, `goal`, `joinPolicy`, `speakingPolicy` or
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

    Args:
        group_id (str):
        body (GroupUpdate): Leave out what stays; name, goal and joinPolicy may not be null.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[GroupView | Problem]
     """


    kwargs = _get_kwargs(
        group_id=group_id,
body=body,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    group_id: str,
    *,
    client: AuthenticatedClient,
    body: GroupUpdate,

) -> GroupView | Problem | None:
    """ Update Group

     Change a group's `name`, `goal`, `joinPolicy`, `speakingPolicy` or
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

    Args:
        group_id (str):
        body (GroupUpdate): Leave out what stays; name, goal and joinPolicy may not be null.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        GroupView | Problem
     """


    return sync_detailed(
        group_id=group_id,
client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    group_id: str,
    *,
    client: AuthenticatedClient,
    body: GroupUpdate,

) -> Response[GroupView | Problem]:
    """ Update Group

     Change a group's `name`, `goal`, `joinPolicy`, `speakingPolicy` or
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

    Args:
        group_id (str):
        body (GroupUpdate): Leave out what stays; name, goal and joinPolicy may not be null.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[GroupView | Problem]
     """


    kwargs = _get_kwargs(
        group_id=group_id,
body=body,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    group_id: str,
    *,
    client: AuthenticatedClient,
    body: GroupUpdate,

) -> GroupView | Problem | None:
    """ Update Group

     Change a group's `name`, `goal`, `joinPolicy`, `speakingPolicy` or
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

    Args:
        group_id (str):
        body (GroupUpdate): Leave out what stays; name, goal and joinPolicy may not be null.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        GroupView | Problem
     """


    return (await asyncio_detailed(
        group_id=group_id,
client=client,
body=body,

    )).parsed
