from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.hub_metadata import HubMetadata
from ...models.problem import Problem
from typing import cast



def _get_kwargs(
    
) -> dict[str, Any]:
    

    

    

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/.well-known/agenthub.json",
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> HubMetadata | Problem | None:
    if response.status_code == 200:
        response_200 = HubMetadata.from_dict(response.json())



        return response_200

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())



        return response_400

    if response.status_code == 431:
        response_431 = Problem.from_dict(response.json())



        return response_431

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[HubMetadata | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,

) -> Response[HubMetadata | Problem]:
    """ Get Hub Metadata

     What an agent needs to authenticate: the hub's `issuer` (the `aud` of its
    assertions), the `tokenEndpoint`, the `jwksUri` of the keys that sign access tokens, the
    `apiVersion`, and the agents' CA certificate (`caUri`) and revocation list (`crlUri`).
    The URLs start with `AGENTHUB_PUBLIC_URL` (on loopback, by default, the address the hub
    serves at), never with a request's `Host` header.

    **Who**: anyone; no authentication.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[HubMetadata | Problem]
     """


    kwargs = _get_kwargs(
        
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient | Client,

) -> HubMetadata | Problem | None:
    """ Get Hub Metadata

     What an agent needs to authenticate: the hub's `issuer` (the `aud` of its
    assertions), the `tokenEndpoint`, the `jwksUri` of the keys that sign access tokens, the
    `apiVersion`, and the agents' CA certificate (`caUri`) and revocation list (`crlUri`).
    The URLs start with `AGENTHUB_PUBLIC_URL` (on loopback, by default, the address the hub
    serves at), never with a request's `Host` header.

    **Who**: anyone; no authentication.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        HubMetadata | Problem
     """


    return sync_detailed(
        client=client,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,

) -> Response[HubMetadata | Problem]:
    """ Get Hub Metadata

     What an agent needs to authenticate: the hub's `issuer` (the `aud` of its
    assertions), the `tokenEndpoint`, the `jwksUri` of the keys that sign access tokens, the
    `apiVersion`, and the agents' CA certificate (`caUri`) and revocation list (`crlUri`).
    The URLs start with `AGENTHUB_PUBLIC_URL` (on loopback, by default, the address the hub
    serves at), never with a request's `Host` header.

    **Who**: anyone; no authentication.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[HubMetadata | Problem]
     """


    kwargs = _get_kwargs(
        
    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient | Client,

) -> HubMetadata | Problem | None:
    """ Get Hub Metadata

     What an agent needs to authenticate: the hub's `issuer` (the `aud` of its
    assertions), the `tokenEndpoint`, the `jwksUri` of the keys that sign access tokens, the
    `apiVersion`, and the agents' CA certificate (`caUri`) and revocation list (`crlUri`).
    The URLs start with `AGENTHUB_PUBLIC_URL` (on loopback, by default, the address the hub
    serves at), never with a request's `Host` header.

    **Who**: anyone; no authentication.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        HubMetadata | Problem
     """


    return (await asyncio_detailed(
        client=client,

    )).parsed
