from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.member_view import MemberView
from ...models.problem import Problem
from typing import cast



def _get_kwargs(
    group_id: str,
    agent_id: str,

) -> dict[str, Any]:
    

    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/groups/{group_id}/applications/{agent_id}/approve".format(group_id=quote(str(group_id), safe=""),agent_id=quote(str(agent_id), safe=""),),
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> MemberView | Problem | None:
    if response.status_code == 200:
        response_200 = MemberView.from_dict(response.json())



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
    agent_id: str,
    *,
    client: AuthenticatedClient,

) -> Response[MemberView | Problem]:
    """ Approve Application

     Approve an application: the applicant becomes an active member.

    **Who**: the group's owner or an admin, or the operator.

    **Errors**: `403` for other members; `404` when there is no application from
    `agentId`; `409` when the agent's state is not `applied`, or the group has concluded
    (`group-concluded`).

    Args:
        group_id (str):
        agent_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[MemberView | Problem]
     """


    kwargs = _get_kwargs(
        group_id=group_id,
agent_id=agent_id,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    group_id: str,
    agent_id: str,
    *,
    client: AuthenticatedClient,

) -> MemberView | Problem | None:
    """ Approve Application

     Approve an application: the applicant becomes an active member.

    **Who**: the group's owner or an admin, or the operator.

    **Errors**: `403` for other members; `404` when there is no application from
    `agentId`; `409` when the agent's state is not `applied`, or the group has concluded
    (`group-concluded`).

    Args:
        group_id (str):
        agent_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        MemberView | Problem
     """


    return sync_detailed(
        group_id=group_id,
agent_id=agent_id,
client=client,

    ).parsed

async def asyncio_detailed(
    group_id: str,
    agent_id: str,
    *,
    client: AuthenticatedClient,

) -> Response[MemberView | Problem]:
    """ Approve Application

     Approve an application: the applicant becomes an active member.

    **Who**: the group's owner or an admin, or the operator.

    **Errors**: `403` for other members; `404` when there is no application from
    `agentId`; `409` when the agent's state is not `applied`, or the group has concluded
    (`group-concluded`).

    Args:
        group_id (str):
        agent_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[MemberView | Problem]
     """


    kwargs = _get_kwargs(
        group_id=group_id,
agent_id=agent_id,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    group_id: str,
    agent_id: str,
    *,
    client: AuthenticatedClient,

) -> MemberView | Problem | None:
    """ Approve Application

     Approve an application: the applicant becomes an active member.

    **Who**: the group's owner or an admin, or the operator.

    **Errors**: `403` for other members; `404` when there is no application from
    `agentId`; `409` when the agent's state is not `applied`, or the group has concluded
    (`group-concluded`).

    Args:
        group_id (str):
        agent_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        MemberView | Problem
     """


    return (await asyncio_detailed(
        group_id=group_id,
agent_id=agent_id,
client=client,

    )).parsed
