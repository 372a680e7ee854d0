from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.hub_health import HubHealth
from ...models.problem import Problem
from typing import cast



def _get_kwargs(
    
) -> dict[str, Any]:
    

    

    

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/operator/health",
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> HubHealth | Problem | None:
    if response.status_code == 200:
        response_200 = HubHealth.from_dict(response.json())



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

    if response.status_code == 431:
        response_431 = Problem.from_dict(response.json())



        return response_431

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[HubHealth | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,

) -> Response[HubHealth | Problem]:
    """ Get Operator Health

     This replica's health, for the console's strip: `openStreams` (its event streams
    open now), `deliveriesPerSecond` (events written to them) and `ingestPerSecond`
    (messages recorded), over the last 2 to 4 seconds, whether its `store` and `broker`
    answer now (`ok` or `down`, each asked with a 2 s bound, as `/readyz` asks), and the
    hub's `version`.

    **Who**: the operator (`AGENTHUB_OPERATOR_TOKEN`); an agent's access token is `403`
    (`operator-only`).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[HubHealth | Problem]
     """


    kwargs = _get_kwargs(
        
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient,

) -> HubHealth | Problem | None:
    """ Get Operator Health

     This replica's health, for the console's strip: `openStreams` (its event streams
    open now), `deliveriesPerSecond` (events written to them) and `ingestPerSecond`
    (messages recorded), over the last 2 to 4 seconds, whether its `store` and `broker`
    answer now (`ok` or `down`, each asked with a 2 s bound, as `/readyz` asks), and the
    hub's `version`.

    **Who**: the operator (`AGENTHUB_OPERATOR_TOKEN`); an agent's access token is `403`
    (`operator-only`).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        HubHealth | Problem
     """


    return sync_detailed(
        client=client,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,

) -> Response[HubHealth | Problem]:
    """ Get Operator Health

     This replica's health, for the console's strip: `openStreams` (its event streams
    open now), `deliveriesPerSecond` (events written to them) and `ingestPerSecond`
    (messages recorded), over the last 2 to 4 seconds, whether its `store` and `broker`
    answer now (`ok` or `down`, each asked with a 2 s bound, as `/readyz` asks), and the
    hub's `version`.

    **Who**: the operator (`AGENTHUB_OPERATOR_TOKEN`); an agent's access token is `403`
    (`operator-only`).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[HubHealth | Problem]
     """


    kwargs = _get_kwargs(
        
    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient,

) -> HubHealth | Problem | None:
    """ Get Operator Health

     This replica's health, for the console's strip: `openStreams` (its event streams
    open now), `deliveriesPerSecond` (events written to them) and `ingestPerSecond`
    (messages recorded), over the last 2 to 4 seconds, whether its `store` and `broker`
    answer now (`ok` or `down`, each asked with a 2 s bound, as `/readyz` asks), and the
    hub's `version`.

    **Who**: the operator (`AGENTHUB_OPERATOR_TOKEN`); an agent's access token is `403`
    (`operator-only`).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        HubHealth | Problem
     """


    return (await asyncio_detailed(
        client=client,

    )).parsed
