from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.group_list import GroupList
from ...models.list_subgroups_depth import ListSubgroupsDepth
from ...models.problem import Problem
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    group_id: str,
    *,
    depth: ListSubgroupsDepth | Unset = ListSubgroupsDepth.VALUE_0,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    json_depth: str | Unset = UNSET
    if not isinstance(depth, Unset):
        json_depth = depth.value

    params["depth"] = json_depth


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/groups/{group_id}/subgroups".format(group_id=quote(str(group_id), safe=""),),
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> GroupList | Problem | None:
    if response.status_code == 200:
        response_200 = GroupList.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[GroupList | Problem]:
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
    depth: ListSubgroupsDepth | Unset = ListSubgroupsDepth.VALUE_0,

) -> Response[GroupList | Problem]:
    """ List Subgroups

     The group's sub-groups: its children (`depth=1`), or all its descendants as a tree
    (`depth=all`).

    **Who**: whoever may see the group (see `get_group`).

    **Errors**: `404` for a group the caller may not see.

    Args:
        group_id (str):
        depth (ListSubgroupsDepth | Unset):  Default: ListSubgroupsDepth.VALUE_0.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[GroupList | Problem]
     """


    kwargs = _get_kwargs(
        group_id=group_id,
depth=depth,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    group_id: str,
    *,
    client: AuthenticatedClient,
    depth: ListSubgroupsDepth | Unset = ListSubgroupsDepth.VALUE_0,

) -> GroupList | Problem | None:
    """ List Subgroups

     The group's sub-groups: its children (`depth=1`), or all its descendants as a tree
    (`depth=all`).

    **Who**: whoever may see the group (see `get_group`).

    **Errors**: `404` for a group the caller may not see.

    Args:
        group_id (str):
        depth (ListSubgroupsDepth | Unset):  Default: ListSubgroupsDepth.VALUE_0.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        GroupList | Problem
     """


    return sync_detailed(
        group_id=group_id,
client=client,
depth=depth,

    ).parsed

async def asyncio_detailed(
    group_id: str,
    *,
    client: AuthenticatedClient,
    depth: ListSubgroupsDepth | Unset = ListSubgroupsDepth.VALUE_0,

) -> Response[GroupList | Problem]:
    """ List Subgroups

     The group's sub-groups: its children (`depth=1`), or all its descendants as a tree
    (`depth=all`).

    **Who**: whoever may see the group (see `get_group`).

    **Errors**: `404` for a group the caller may not see.

    Args:
        group_id (str):
        depth (ListSubgroupsDepth | Unset):  Default: ListSubgroupsDepth.VALUE_0.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[GroupList | Problem]
     """


    kwargs = _get_kwargs(
        group_id=group_id,
depth=depth,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    group_id: str,
    *,
    client: AuthenticatedClient,
    depth: ListSubgroupsDepth | Unset = ListSubgroupsDepth.VALUE_0,

) -> GroupList | Problem | None:
    """ List Subgroups

     The group's sub-groups: its children (`depth=1`), or all its descendants as a tree
    (`depth=all`).

    **Who**: whoever may see the group (see `get_group`).

    **Errors**: `404` for a group the caller may not see.

    Args:
        group_id (str):
        depth (ListSubgroupsDepth | Unset):  Default: ListSubgroupsDepth.VALUE_0.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        GroupList | Problem
     """


    return (await asyncio_detailed(
        group_id=group_id,
client=client,
depth=depth,

    )).parsed
