from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.get_group_agent_card_response_get_group_agent_card import GetGroupAgentCardResponseGetGroupAgentCard
from ...models.problem import Problem
from typing import cast



def _get_kwargs(
    group_id: str,

) -> dict[str, Any]:
    

    

    

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/groups/{group_id}/agent-card.json".format(group_id=quote(str(group_id), safe=""),),
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> GetGroupAgentCardResponseGetGroupAgentCard | Problem | None:
    if response.status_code == 200:
        response_200 = GetGroupAgentCardResponseGetGroupAgentCard.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[GetGroupAgentCardResponseGetGroupAgentCard | Problem]:
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

) -> Response[GetGroupAgentCardResponseGetGroupAgentCard | Problem]:
    """ Get Group Agent Card

     The group as an A2A agent: an A2A v1.0 Agent Card naming the group, its goal and its
    active members (as skills), its JSON-RPC endpoint (`/v1/groups/{groupId}/a2a`), the
    hub's OAuth 2.0 client-credentials scheme (`resource`: that endpoint's URL), and the
    group extension (`https://agenthub.dev/a2a/ext/group/v1`, with `groupId`, `sessionId`,
    `joinPolicy`, `speakingPolicy`, `conversationState`). Signed by the hub's key as the
    agents' cards are.

    **Who**: an agent that may see the group (its members; any agent for an `open` group),
    with the hub's access token or a token of the hub's OAuth endpoint for this group.

    **Errors**: `401` without a good token; `404` for a group the caller may not see.

    Args:
        group_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[GetGroupAgentCardResponseGetGroupAgentCard | Problem]
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

) -> GetGroupAgentCardResponseGetGroupAgentCard | Problem | None:
    """ Get Group Agent Card

     The group as an A2A agent: an A2A v1.0 Agent Card naming the group, its goal and its
    active members (as skills), its JSON-RPC endpoint (`/v1/groups/{groupId}/a2a`), the
    hub's OAuth 2.0 client-credentials scheme (`resource`: that endpoint's URL), and the
    group extension (`https://agenthub.dev/a2a/ext/group/v1`, with `groupId`, `sessionId`,
    `joinPolicy`, `speakingPolicy`, `conversationState`). Signed by the hub's key as the
    agents' cards are.

    **Who**: an agent that may see the group (its members; any agent for an `open` group),
    with the hub's access token or a token of the hub's OAuth endpoint for this group.

    **Errors**: `401` without a good token; `404` for a group the caller may not see.

    Args:
        group_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        GetGroupAgentCardResponseGetGroupAgentCard | Problem
     """


    return sync_detailed(
        group_id=group_id,
client=client,

    ).parsed

async def asyncio_detailed(
    group_id: str,
    *,
    client: AuthenticatedClient,

) -> Response[GetGroupAgentCardResponseGetGroupAgentCard | Problem]:
    """ Get Group Agent Card

     The group as an A2A agent: an A2A v1.0 Agent Card naming the group, its goal and its
    active members (as skills), its JSON-RPC endpoint (`/v1/groups/{groupId}/a2a`), the
    hub's OAuth 2.0 client-credentials scheme (`resource`: that endpoint's URL), and the
    group extension (`https://agenthub.dev/a2a/ext/group/v1`, with `groupId`, `sessionId`,
    `joinPolicy`, `speakingPolicy`, `conversationState`). Signed by the hub's key as the
    agents' cards are.

    **Who**: an agent that may see the group (its members; any agent for an `open` group),
    with the hub's access token or a token of the hub's OAuth endpoint for this group.

    **Errors**: `401` without a good token; `404` for a group the caller may not see.

    Args:
        group_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[GetGroupAgentCardResponseGetGroupAgentCard | Problem]
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

) -> GetGroupAgentCardResponseGetGroupAgentCard | Problem | None:
    """ Get Group Agent Card

     The group as an A2A agent: an A2A v1.0 Agent Card naming the group, its goal and its
    active members (as skills), its JSON-RPC endpoint (`/v1/groups/{groupId}/a2a`), the
    hub's OAuth 2.0 client-credentials scheme (`resource`: that endpoint's URL), and the
    group extension (`https://agenthub.dev/a2a/ext/group/v1`, with `groupId`, `sessionId`,
    `joinPolicy`, `speakingPolicy`, `conversationState`). Signed by the hub's key as the
    agents' cards are.

    **Who**: an agent that may see the group (its members; any agent for an `open` group),
    with the hub's access token or a token of the hub's OAuth endpoint for this group.

    **Errors**: `401` without a good token; `404` for a group the caller may not see.

    Args:
        group_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        GetGroupAgentCardResponseGetGroupAgentCard | Problem
     """


    return (await asyncio_detailed(
        group_id=group_id,
client=client,

    )).parsed
