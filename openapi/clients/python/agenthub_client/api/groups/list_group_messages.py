from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.group_message_page import GroupMessagePage
from ...models.problem import Problem
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    group_id: str,
    *,
    after: int | Unset = 0,
    limit: int | Unset = 50,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    params["after"] = after

    params["limit"] = limit


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/groups/{group_id}/messages".format(group_id=quote(str(group_id), safe=""),),
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> GroupMessagePage | Problem | None:
    if response.status_code == 200:
        response_200 = GroupMessagePage.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[GroupMessagePage | Problem]:
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
    after: int | Unset = 0,
    limit: int | Unset = 50,

) -> Response[GroupMessagePage | Problem]:
    """ List Group Messages

     The group's messages by `seq`, after the seq given in `after` (0: from the start);
    the answer's `nextCursor` is the `after` of the next page.

    **Who**: an active member (or one the group's conclusion released); or the operator,
    who reads every group (and posts to none).

    **Errors**: `403` for a viewer who is not an active member; `404` for a group the caller
    may not see.

    Args:
        group_id (str):
        after (int | Unset): the last seq already seen Default: 0.
        limit (int | Unset):  Default: 50.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[GroupMessagePage | Problem]
     """


    kwargs = _get_kwargs(
        group_id=group_id,
after=after,
limit=limit,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    group_id: str,
    *,
    client: AuthenticatedClient,
    after: int | Unset = 0,
    limit: int | Unset = 50,

) -> GroupMessagePage | Problem | None:
    """ List Group Messages

     The group's messages by `seq`, after the seq given in `after` (0: from the start);
    the answer's `nextCursor` is the `after` of the next page.

    **Who**: an active member (or one the group's conclusion released); or the operator,
    who reads every group (and posts to none).

    **Errors**: `403` for a viewer who is not an active member; `404` for a group the caller
    may not see.

    Args:
        group_id (str):
        after (int | Unset): the last seq already seen Default: 0.
        limit (int | Unset):  Default: 50.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        GroupMessagePage | Problem
     """


    return sync_detailed(
        group_id=group_id,
client=client,
after=after,
limit=limit,

    ).parsed

async def asyncio_detailed(
    group_id: str,
    *,
    client: AuthenticatedClient,
    after: int | Unset = 0,
    limit: int | Unset = 50,

) -> Response[GroupMessagePage | Problem]:
    """ List Group Messages

     The group's messages by `seq`, after the seq given in `after` (0: from the start);
    the answer's `nextCursor` is the `after` of the next page.

    **Who**: an active member (or one the group's conclusion released); or the operator,
    who reads every group (and posts to none).

    **Errors**: `403` for a viewer who is not an active member; `404` for a group the caller
    may not see.

    Args:
        group_id (str):
        after (int | Unset): the last seq already seen Default: 0.
        limit (int | Unset):  Default: 50.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[GroupMessagePage | Problem]
     """


    kwargs = _get_kwargs(
        group_id=group_id,
after=after,
limit=limit,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    group_id: str,
    *,
    client: AuthenticatedClient,
    after: int | Unset = 0,
    limit: int | Unset = 50,

) -> GroupMessagePage | Problem | None:
    """ List Group Messages

     The group's messages by `seq`, after the seq given in `after` (0: from the start);
    the answer's `nextCursor` is the `after` of the next page.

    **Who**: an active member (or one the group's conclusion released); or the operator,
    who reads every group (and posts to none).

    **Errors**: `403` for a viewer who is not an active member; `404` for a group the caller
    may not see.

    Args:
        group_id (str):
        after (int | Unset): the last seq already seen Default: 0.
        limit (int | Unset):  Default: 50.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        GroupMessagePage | Problem
     """


    return (await asyncio_detailed(
        group_id=group_id,
client=client,
after=after,
limit=limit,

    )).parsed
