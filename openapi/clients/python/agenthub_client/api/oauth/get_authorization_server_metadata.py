from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.authorization_server_metadata import AuthorizationServerMetadata
from ...models.problem import Problem
from typing import cast



def _get_kwargs(
    
) -> dict[str, Any]:
    

    

    

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/.well-known/oauth-authorization-server",
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> AuthorizationServerMetadata | Problem | None:
    if response.status_code == 200:
        response_200 = AuthorizationServerMetadata.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[AuthorizationServerMetadata | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,

) -> Response[AuthorizationServerMetadata | Problem]:
    """ Get Authorization Server Metadata

     The hub as an OAuth 2.0 authorization server (RFC 8414): its `issuer` (its URL:
    `AGENTHUB_PUBLIC_URL`, never a request's `Host` header), the token endpoint, the JWKS
    of the keys that sign its tokens, and what the token endpoint takes.

    **Who**: anyone; no authentication.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AuthorizationServerMetadata | Problem]
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

) -> AuthorizationServerMetadata | Problem | None:
    """ Get Authorization Server Metadata

     The hub as an OAuth 2.0 authorization server (RFC 8414): its `issuer` (its URL:
    `AGENTHUB_PUBLIC_URL`, never a request's `Host` header), the token endpoint, the JWKS
    of the keys that sign its tokens, and what the token endpoint takes.

    **Who**: anyone; no authentication.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AuthorizationServerMetadata | Problem
     """


    return sync_detailed(
        client=client,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,

) -> Response[AuthorizationServerMetadata | Problem]:
    """ Get Authorization Server Metadata

     The hub as an OAuth 2.0 authorization server (RFC 8414): its `issuer` (its URL:
    `AGENTHUB_PUBLIC_URL`, never a request's `Host` header), the token endpoint, the JWKS
    of the keys that sign its tokens, and what the token endpoint takes.

    **Who**: anyone; no authentication.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AuthorizationServerMetadata | Problem]
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

) -> AuthorizationServerMetadata | Problem | None:
    """ Get Authorization Server Metadata

     The hub as an OAuth 2.0 authorization server (RFC 8414): its `issuer` (its URL:
    `AGENTHUB_PUBLIC_URL`, never a request's `Host` header), the token endpoint, the JWKS
    of the keys that sign its tokens, and what the token endpoint takes.

    **Who**: anyone; no authentication.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AuthorizationServerMetadata | Problem
     """


    return (await asyncio_detailed(
        client=client,

    )).parsed
