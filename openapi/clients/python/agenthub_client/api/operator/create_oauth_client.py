from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.o_auth_client_create import OAuthClientCreate
from ...models.o_auth_client_issued import OAuthClientIssued
from ...models.problem import Problem
from typing import cast



def _get_kwargs(
    *,
    body: OAuthClientCreate,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/operator/oauth-clients",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> OAuthClientIssued | Problem | None:
    if response.status_code == 201:
        response_201 = OAuthClientIssued.from_dict(response.json())



        return response_201

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())



        return response_401

    if response.status_code == 403:
        response_403 = Problem.from_dict(response.json())



        return response_403

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[OAuthClientIssued | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: OAuthClientCreate,

) -> Response[OAuthClientIssued | Problem]:
    """ Create Oauth Client

     Register an application that is not an agent as an OAuth client: the answer holds
    its `clientSecret`, shown this once (the hub keeps only its hash).

    **Who**: the operator.

    Args:
        body (OAuthClientCreate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[OAuthClientIssued | Problem]
     """


    kwargs = _get_kwargs(
        body=body,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient,
    body: OAuthClientCreate,

) -> OAuthClientIssued | Problem | None:
    """ Create Oauth Client

     Register an application that is not an agent as an OAuth client: the answer holds
    its `clientSecret`, shown this once (the hub keeps only its hash).

    **Who**: the operator.

    Args:
        body (OAuthClientCreate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        OAuthClientIssued | Problem
     """


    return sync_detailed(
        client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: OAuthClientCreate,

) -> Response[OAuthClientIssued | Problem]:
    """ Create Oauth Client

     Register an application that is not an agent as an OAuth client: the answer holds
    its `clientSecret`, shown this once (the hub keeps only its hash).

    **Who**: the operator.

    Args:
        body (OAuthClientCreate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[OAuthClientIssued | Problem]
     """


    kwargs = _get_kwargs(
        body=body,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient,
    body: OAuthClientCreate,

) -> OAuthClientIssued | Problem | None:
    """ Create Oauth Client

     Register an application that is not an agent as an OAuth client: the answer holds
    its `clientSecret`, shown this once (the hub keeps only its hash).

    **Who**: the operator.

    Args:
        body (OAuthClientCreate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        OAuthClientIssued | Problem
     """


    return (await asyncio_detailed(
        client=client,
body=body,

    )).parsed
