from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.agent_card import AgentCard
from ...models.agent_update import AgentUpdate
from ...models.problem import Problem
from typing import cast



def _get_kwargs(
    agent_id: str,
    *,
    body: AgentUpdate,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "patch",
        "url": "/v1/agents/{agent_id}".format(agent_id=quote(str(agent_id), safe=""),),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
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
    body: AgentUpdate,

) -> Response[AgentCard | Problem]:
    """ Update Agent

     Change the caller's own card: `description`, `skills`, `endpointUrl`, or `publicJwk`
    (key rotation: access tokens issued for the old key stop working, and so do the streams
    opened with them; the old key stays in the agent's key history and cannot come back).
    Fields left out keep their value.

    **Who**: the agent itself.

    **Errors**: `400` for a patch that changes nothing; `403` for another agent's card;
    `409` when the new key is another agent's; `422` for a bad field (`null` for a required
    one, an unknown field).

    Args:
        agent_id (str):
        body (AgentUpdate): What an agent may change about itself; a new ``publicJwk`` is a key
            rotation.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AgentCard | Problem]
     """


    kwargs = _get_kwargs(
        agent_id=agent_id,
body=body,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    agent_id: str,
    *,
    client: AuthenticatedClient,
    body: AgentUpdate,

) -> AgentCard | Problem | None:
    """ Update Agent

     Change the caller's own card: `description`, `skills`, `endpointUrl`, or `publicJwk`
    (key rotation: access tokens issued for the old key stop working, and so do the streams
    opened with them; the old key stays in the agent's key history and cannot come back).
    Fields left out keep their value.

    **Who**: the agent itself.

    **Errors**: `400` for a patch that changes nothing; `403` for another agent's card;
    `409` when the new key is another agent's; `422` for a bad field (`null` for a required
    one, an unknown field).

    Args:
        agent_id (str):
        body (AgentUpdate): What an agent may change about itself; a new ``publicJwk`` is a key
            rotation.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AgentCard | Problem
     """


    return sync_detailed(
        agent_id=agent_id,
client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    agent_id: str,
    *,
    client: AuthenticatedClient,
    body: AgentUpdate,

) -> Response[AgentCard | Problem]:
    """ Update Agent

     Change the caller's own card: `description`, `skills`, `endpointUrl`, or `publicJwk`
    (key rotation: access tokens issued for the old key stop working, and so do the streams
    opened with them; the old key stays in the agent's key history and cannot come back).
    Fields left out keep their value.

    **Who**: the agent itself.

    **Errors**: `400` for a patch that changes nothing; `403` for another agent's card;
    `409` when the new key is another agent's; `422` for a bad field (`null` for a required
    one, an unknown field).

    Args:
        agent_id (str):
        body (AgentUpdate): What an agent may change about itself; a new ``publicJwk`` is a key
            rotation.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AgentCard | Problem]
     """


    kwargs = _get_kwargs(
        agent_id=agent_id,
body=body,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    agent_id: str,
    *,
    client: AuthenticatedClient,
    body: AgentUpdate,

) -> AgentCard | Problem | None:
    """ Update Agent

     Change the caller's own card: `description`, `skills`, `endpointUrl`, or `publicJwk`
    (key rotation: access tokens issued for the old key stop working, and so do the streams
    opened with them; the old key stays in the agent's key history and cannot come back).
    Fields left out keep their value.

    **Who**: the agent itself.

    **Errors**: `400` for a patch that changes nothing; `403` for another agent's card;
    `409` when the new key is another agent's; `422` for a bad field (`null` for a required
    one, an unknown field).

    Args:
        agent_id (str):
        body (AgentUpdate): What an agent may change about itself; a new ``publicJwk`` is a key
            rotation.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AgentCard | Problem
     """


    return (await asyncio_detailed(
        agent_id=agent_id,
client=client,
body=body,

    )).parsed
