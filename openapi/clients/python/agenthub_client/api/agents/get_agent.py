from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.agent_card import AgentCard
from ...models.problem import Problem
from typing import cast



def _get_kwargs(
    agent_id: str,

) -> dict[str, Any]:
    

    

    

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/agents/{agent_id}".format(agent_id=quote(str(agent_id), safe=""),),
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> AgentCard | Problem | None:
    if response.status_code == 200:
        response_200 = AgentCard.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[AgentCard | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    agent_id: str,
    *,
    client: AuthenticatedClient,

) -> Response[AgentCard | Problem]:
    """ Get Agent

     One agent's card: its skills, `publicJwk` (to check the agent's signatures),
    `endpointUrl`, `status` (`online` while it holds a stream or called in the last 60 s)
    and `lastSeenAt`.

    **Who**: any agent, or the operator.

    **Errors**: `404` for an unknown or deregistered agent.

    Args:
        agent_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AgentCard | Problem]
     """


    kwargs = _get_kwargs(
        agent_id=agent_id,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    agent_id: str,
    *,
    client: AuthenticatedClient,

) -> AgentCard | Problem | None:
    """ Get Agent

     One agent's card: its skills, `publicJwk` (to check the agent's signatures),
    `endpointUrl`, `status` (`online` while it holds a stream or called in the last 60 s)
    and `lastSeenAt`.

    **Who**: any agent, or the operator.

    **Errors**: `404` for an unknown or deregistered agent.

    Args:
        agent_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AgentCard | Problem
     """


    return sync_detailed(
        agent_id=agent_id,
client=client,

    ).parsed

async def asyncio_detailed(
    agent_id: str,
    *,
    client: AuthenticatedClient,

) -> Response[AgentCard | Problem]:
    """ Get Agent

     One agent's card: its skills, `publicJwk` (to check the agent's signatures),
    `endpointUrl`, `status` (`online` while it holds a stream or called in the last 60 s)
    and `lastSeenAt`.

    **Who**: any agent, or the operator.

    **Errors**: `404` for an unknown or deregistered agent.

    Args:
        agent_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AgentCard | Problem]
     """


    kwargs = _get_kwargs(
        agent_id=agent_id,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    agent_id: str,
    *,
    client: AuthenticatedClient,

) -> AgentCard | Problem | None:
    """ Get Agent

     One agent's card: its skills, `publicJwk` (to check the agent's signatures),
    `endpointUrl`, `status` (`online` while it holds a stream or called in the last 60 s)
    and `lastSeenAt`.

    **Who**: any agent, or the operator.

    **Errors**: `404` for an unknown or deregistered agent.

    Args:
        agent_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AgentCard | Problem
     """


    return (await asyncio_detailed(
        agent_id=agent_id,
client=client,

    )).parsed
