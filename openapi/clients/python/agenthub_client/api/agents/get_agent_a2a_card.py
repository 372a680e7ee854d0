from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.get_agent_a2a_card_a2a_agent_card import GetAgentA2ACardA2AAgentCard
from ...models.problem import Problem
from typing import cast



def _get_kwargs(
    agent_id: str,

) -> dict[str, Any]:
    

    

    

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/agents/{agent_id}/agent-card.json".format(agent_id=quote(str(agent_id), safe=""),),
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> GetAgentA2ACardA2AAgentCard | Problem | None:
    if response.status_code == 200:
        response_200 = GetAgentA2ACardA2AAgentCard.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[GetAgentA2ACardA2AAgentCard | Problem]:
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

) -> Response[GetAgentA2ACardA2AAgentCard | Problem]:
    """ Get Agent A2A Card

     The agent's A2A Agent Card, built from its registry card: its skills (with their
    input and output types as modes), provider, the JSON-RPC interface at its `a2a`
    binding's url (A2A 1.0 and 0.3 methods), streaming and push notifications, and the
    security schemes its callers use (`callToken`: an agenthub call token; `mtls`: a client
    certificate from the hub's CA; `oauth2`: a bearer token from this hub's OAuth token
    endpoint, client credentials; any one will do). The card is signed (A2A v1.0
    `signatures`: a JWS over its RFC 8785 canonical JSON) by the hub's key, its `kid` in
    `/.well-known/jwks.json`.

    **Who**: any agent, or the operator.

    **Errors**: `404` for an unknown or deregistered agent, or (`no-a2a-binding`) one that
    declares no `a2a` protocol binding.

    Args:
        agent_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[GetAgentA2ACardA2AAgentCard | Problem]
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

) -> GetAgentA2ACardA2AAgentCard | Problem | None:
    """ Get Agent A2A Card

     The agent's A2A Agent Card, built from its registry card: its skills (with their
    input and output types as modes), provider, the JSON-RPC interface at its `a2a`
    binding's url (A2A 1.0 and 0.3 methods), streaming and push notifications, and the
    security schemes its callers use (`callToken`: an agenthub call token; `mtls`: a client
    certificate from the hub's CA; `oauth2`: a bearer token from this hub's OAuth token
    endpoint, client credentials; any one will do). The card is signed (A2A v1.0
    `signatures`: a JWS over its RFC 8785 canonical JSON) by the hub's key, its `kid` in
    `/.well-known/jwks.json`.

    **Who**: any agent, or the operator.

    **Errors**: `404` for an unknown or deregistered agent, or (`no-a2a-binding`) one that
    declares no `a2a` protocol binding.

    Args:
        agent_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        GetAgentA2ACardA2AAgentCard | Problem
     """


    return sync_detailed(
        agent_id=agent_id,
client=client,

    ).parsed

async def asyncio_detailed(
    agent_id: str,
    *,
    client: AuthenticatedClient,

) -> Response[GetAgentA2ACardA2AAgentCard | Problem]:
    """ Get Agent A2A Card

     The agent's A2A Agent Card, built from its registry card: its skills (with their
    input and output types as modes), provider, the JSON-RPC interface at its `a2a`
    binding's url (A2A 1.0 and 0.3 methods), streaming and push notifications, and the
    security schemes its callers use (`callToken`: an agenthub call token; `mtls`: a client
    certificate from the hub's CA; `oauth2`: a bearer token from this hub's OAuth token
    endpoint, client credentials; any one will do). The card is signed (A2A v1.0
    `signatures`: a JWS over its RFC 8785 canonical JSON) by the hub's key, its `kid` in
    `/.well-known/jwks.json`.

    **Who**: any agent, or the operator.

    **Errors**: `404` for an unknown or deregistered agent, or (`no-a2a-binding`) one that
    declares no `a2a` protocol binding.

    Args:
        agent_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[GetAgentA2ACardA2AAgentCard | Problem]
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

) -> GetAgentA2ACardA2AAgentCard | Problem | None:
    """ Get Agent A2A Card

     The agent's A2A Agent Card, built from its registry card: its skills (with their
    input and output types as modes), provider, the JSON-RPC interface at its `a2a`
    binding's url (A2A 1.0 and 0.3 methods), streaming and push notifications, and the
    security schemes its callers use (`callToken`: an agenthub call token; `mtls`: a client
    certificate from the hub's CA; `oauth2`: a bearer token from this hub's OAuth token
    endpoint, client credentials; any one will do). The card is signed (A2A v1.0
    `signatures`: a JWS over its RFC 8785 canonical JSON) by the hub's key, its `kid` in
    `/.well-known/jwks.json`.

    **Who**: any agent, or the operator.

    **Errors**: `404` for an unknown or deregistered agent, or (`no-a2a-binding`) one that
    declares no `a2a` protocol binding.

    Args:
        agent_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        GetAgentA2ACardA2AAgentCard | Problem
     """


    return (await asyncio_detailed(
        agent_id=agent_id,
client=client,

    )).parsed
