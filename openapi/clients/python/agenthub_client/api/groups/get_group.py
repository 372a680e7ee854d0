from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.group_view import GroupView
from ...models.problem import Problem
from typing import cast



def _get_kwargs(
    group_id: str,

) -> dict[str, Any]:
    

    

    

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/groups/{group_id}".format(group_id=quote(str(group_id), safe=""),),
    }


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

    if response.status_code == 404:
        response_404 = Problem.from_dict(response.json())



        return response_404

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

) -> Response[GroupView | Problem]:
    """ Get Group

     One group: policy, owner, members, `conversationState` (the IoA conversation), its
    speaking policy and `floor` (under `turns`: who may speak, until when; `speakers` null:
    every member), its stream's `lastSeq`, and its `depth` in the tree of groups.

    **Who**: anyone with a membership record in it (invited, applied, active, or past), any
    agent for an `open` group, and the operator.

    **Errors**: `404` for an unknown group, or one the caller may not see.

    Args:
        group_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[GroupView | Problem]
     """


    kwargs = _get_kwargs(
        group_id=group_id,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    group_id: str,
    *,
    client: AuthenticatedClient,

) -> GroupView | Problem | None:
    """ Get Group

     One group: policy, owner, members, `conversationState` (the IoA conversation), its
    speaking policy and `floor` (under `turns`: who may speak, until when; `speakers` null:
    every member), its stream's `lastSeq`, and its `depth` in the tree of groups.

    **Who**: anyone with a membership record in it (invited, applied, active, or past), any
    agent for an `open` group, and the operator.

    **Errors**: `404` for an unknown group, or one the caller may not see.

    Args:
        group_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        GroupView | Problem
     """


    return sync_detailed(
        group_id=group_id,
client=client,

    ).parsed

async def asyncio_detailed(
    group_id: str,
    *,
    client: AuthenticatedClient,

) -> Response[GroupView | Problem]:
    """ Get Group

     One group: policy, owner, members, `conversationState` (the IoA conversation), its
    speaking policy and `floor` (under `turns`: who may speak, until when; `speakers` null:
    every member), its stream's `lastSeq`, and its `depth` in the tree of groups.

    **Who**: anyone with a membership record in it (invited, applied, active, or past), any
    agent for an `open` group, and the operator.

    **Errors**: `404` for an unknown group, or one the caller may not see.

    Args:
        group_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[GroupView | Problem]
     """


    kwargs = _get_kwargs(
        group_id=group_id,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    group_id: str,
    *,
    client: AuthenticatedClient,

) -> GroupView | Problem | None:
    """ Get Group

     One group: policy, owner, members, `conversationState` (the IoA conversation), its
    speaking policy and `floor` (under `turns`: who may speak, until when; `speakers` null:
    every member), its stream's `lastSeq`, and its `depth` in the tree of groups.

    **Who**: anyone with a membership record in it (invited, applied, active, or past), any
    agent for an `open` group, and the operator.

    **Errors**: `404` for an unknown group, or one the caller may not see.

    Args:
        group_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        GroupView | Problem
     """


    return (await asyncio_detailed(
        group_id=group_id,
client=client,

    )).parsed
