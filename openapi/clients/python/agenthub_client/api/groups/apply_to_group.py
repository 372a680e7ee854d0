from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.application_create import ApplicationCreate
from ...models.member_view import MemberView
from ...models.problem import Problem
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    group_id: str,
    *,
    body: ApplicationCreate | None | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/groups/{group_id}/applications".format(group_id=quote(str(group_id), safe=""),),
    }

    
    if isinstance(body, ApplicationCreate):
        _kwargs["json"] = body.to_dict()
    else:
        _kwargs["json"] = body

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> MemberView | Problem | None:
    if response.status_code == 201:
        response_201 = MemberView.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[MemberView | Problem]:
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
    body: ApplicationCreate | None | Unset = UNSET,

) -> Response[MemberView | Problem]:
    """ Apply To Group

     Apply to an `apply` group, with an optional `note` (`201`, state `applied`): its
    managers find an `application` event in their inboxes and approve or reject. In an
    `open` group, and for an agent already invited, the caller joins at once (`active`).

    **Who**: the applying agent; the operator configures groups and is refused (`403`).

    **Errors**: `403` for an `invite` group the caller is invited to no more, or an `open`
    group it was removed from; `404` for an unknown group (and an `invite` group the caller
    has no record in); `409` when it is a member or has applied already, or the group has
    concluded (`group-concluded`); `422` (`not-a-group-receiver`) for joining a group of a
    session that declares the caller a receiver in `p2p` mode only.

    Args:
        group_id (str):
        body (ApplicationCreate | None | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[MemberView | Problem]
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
    body: ApplicationCreate | None | Unset = UNSET,

) -> MemberView | Problem | None:
    """ Apply To Group

     Apply to an `apply` group, with an optional `note` (`201`, state `applied`): its
    managers find an `application` event in their inboxes and approve or reject. In an
    `open` group, and for an agent already invited, the caller joins at once (`active`).

    **Who**: the applying agent; the operator configures groups and is refused (`403`).

    **Errors**: `403` for an `invite` group the caller is invited to no more, or an `open`
    group it was removed from; `404` for an unknown group (and an `invite` group the caller
    has no record in); `409` when it is a member or has applied already, or the group has
    concluded (`group-concluded`); `422` (`not-a-group-receiver`) for joining a group of a
    session that declares the caller a receiver in `p2p` mode only.

    Args:
        group_id (str):
        body (ApplicationCreate | None | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        MemberView | Problem
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
    body: ApplicationCreate | None | Unset = UNSET,

) -> Response[MemberView | Problem]:
    """ Apply To Group

     Apply to an `apply` group, with an optional `note` (`201`, state `applied`): its
    managers find an `application` event in their inboxes and approve or reject. In an
    `open` group, and for an agent already invited, the caller joins at once (`active`).

    **Who**: the applying agent; the operator configures groups and is refused (`403`).

    **Errors**: `403` for an `invite` group the caller is invited to no more, or an `open`
    group it was removed from; `404` for an unknown group (and an `invite` group the caller
    has no record in); `409` when it is a member or has applied already, or the group has
    concluded (`group-concluded`); `422` (`not-a-group-receiver`) for joining a group of a
    session that declares the caller a receiver in `p2p` mode only.

    Args:
        group_id (str):
        body (ApplicationCreate | None | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[MemberView | Problem]
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
    body: ApplicationCreate | None | Unset = UNSET,

) -> MemberView | Problem | None:
    """ Apply To Group

     Apply to an `apply` group, with an optional `note` (`201`, state `applied`): its
    managers find an `application` event in their inboxes and approve or reject. In an
    `open` group, and for an agent already invited, the caller joins at once (`active`).

    **Who**: the applying agent; the operator configures groups and is refused (`403`).

    **Errors**: `403` for an `invite` group the caller is invited to no more, or an `open`
    group it was removed from; `404` for an unknown group (and an `invite` group the caller
    has no record in); `409` when it is a member or has applied already, or the group has
    concluded (`group-concluded`); `422` (`not-a-group-receiver`) for joining a group of a
    session that declares the caller a receiver in `p2p` mode only.

    Args:
        group_id (str):
        body (ApplicationCreate | None | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        MemberView | Problem
     """


    return (await asyncio_detailed(
        group_id=group_id,
client=client,
body=body,

    )).parsed
