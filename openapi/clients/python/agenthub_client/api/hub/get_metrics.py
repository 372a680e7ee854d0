from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.problem import Problem
from typing import cast



def _get_kwargs(
    
) -> dict[str, Any]:
    

    

    

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/metrics",
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Any | Problem | None:
    if response.status_code == 200:
        response_200 = cast(Any, None)
        return response_200

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())



        return response_401

    if response.status_code == 431:
        response_431 = Problem.from_dict(response.json())



        return response_431

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Any | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,

) -> Response[Any | Problem]:
    """ Get Metrics

     Prometheus text: requests and latencies by route, open streams, deliveries, messages
    recorded, stream catch-ups, tokens issued (this process only; scrape every replica).

    **Who**: anyone while `AGENTHUB_METRICS_TOKEN` is unset; with it, a bearer of that token
    (or the operator token). The shipped nginx keeps it off the load balancer either way:
    scrape the replicas.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Problem]
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

) -> Any | Problem | None:
    """ Get Metrics

     Prometheus text: requests and latencies by route, open streams, deliveries, messages
    recorded, stream catch-ups, tokens issued (this process only; scrape every replica).

    **Who**: anyone while `AGENTHUB_METRICS_TOKEN` is unset; with it, a bearer of that token
    (or the operator token). The shipped nginx keeps it off the load balancer either way:
    scrape the replicas.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Problem
     """


    return sync_detailed(
        client=client,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,

) -> Response[Any | Problem]:
    """ Get Metrics

     Prometheus text: requests and latencies by route, open streams, deliveries, messages
    recorded, stream catch-ups, tokens issued (this process only; scrape every replica).

    **Who**: anyone while `AGENTHUB_METRICS_TOKEN` is unset; with it, a bearer of that token
    (or the operator token). The shipped nginx keeps it off the load balancer either way:
    scrape the replicas.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Problem]
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

) -> Any | Problem | None:
    """ Get Metrics

     Prometheus text: requests and latencies by route, open streams, deliveries, messages
    recorded, stream catch-ups, tokens issued (this process only; scrape every replica).

    **Who**: anyone while `AGENTHUB_METRICS_TOKEN` is unset; with it, a bearer of that token
    (or the operator token). The shipped nginx keeps it off the load balancer either way:
    scrape the replicas.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Problem
     """


    return (await asyncio_detailed(
        client=client,

    )).parsed
