from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.problem import Problem
from ...models.readyz_response_readyz import ReadyzResponseReadyz
from typing import cast



def _get_kwargs(
    
) -> dict[str, Any]:
    

    

    

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/readyz",
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Problem | ReadyzResponseReadyz | None:
    if response.status_code == 200:
        response_200 = ReadyzResponseReadyz.from_dict(response.json())



        return response_200

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())



        return response_400

    if response.status_code == 431:
        response_431 = Problem.from_dict(response.json())



        return response_431

    if response.status_code == 503:
        response_503 = Problem.from_dict(response.json())



        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Problem | ReadyzResponseReadyz]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,

) -> Response[Problem | ReadyzResponseReadyz]:
    """ Readyz

     Readiness: `200` when the SQL store answers with its schema at the migrations' head,
    so the hub can serve. The body's `broker` is `ok`, or `degraded` while the broker (Redis)
    does not answer within 2 s: a replica still takes posts then (they are recorded in SQL,
    and its streams catch up from there), so a broker outage takes no replica out.

    **Who**: anyone; no authentication.

    **Errors**: `503`, problem `type` ending in `schema-not-migrated` until `agenthub migrate`
    has run, `store-unavailable` while the store does not answer.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | ReadyzResponseReadyz]
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

) -> Problem | ReadyzResponseReadyz | None:
    """ Readyz

     Readiness: `200` when the SQL store answers with its schema at the migrations' head,
    so the hub can serve. The body's `broker` is `ok`, or `degraded` while the broker (Redis)
    does not answer within 2 s: a replica still takes posts then (they are recorded in SQL,
    and its streams catch up from there), so a broker outage takes no replica out.

    **Who**: anyone; no authentication.

    **Errors**: `503`, problem `type` ending in `schema-not-migrated` until `agenthub migrate`
    has run, `store-unavailable` while the store does not answer.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | ReadyzResponseReadyz
     """


    return sync_detailed(
        client=client,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,

) -> Response[Problem | ReadyzResponseReadyz]:
    """ Readyz

     Readiness: `200` when the SQL store answers with its schema at the migrations' head,
    so the hub can serve. The body's `broker` is `ok`, or `degraded` while the broker (Redis)
    does not answer within 2 s: a replica still takes posts then (they are recorded in SQL,
    and its streams catch up from there), so a broker outage takes no replica out.

    **Who**: anyone; no authentication.

    **Errors**: `503`, problem `type` ending in `schema-not-migrated` until `agenthub migrate`
    has run, `store-unavailable` while the store does not answer.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | ReadyzResponseReadyz]
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

) -> Problem | ReadyzResponseReadyz | None:
    """ Readyz

     Readiness: `200` when the SQL store answers with its schema at the migrations' head,
    so the hub can serve. The body's `broker` is `ok`, or `degraded` while the broker (Redis)
    does not answer within 2 s: a replica still takes posts then (they are recorded in SQL,
    and its streams catch up from there), so a broker outage takes no replica out.

    **Who**: anyone; no authentication.

    **Errors**: `503`, problem `type` ending in `schema-not-migrated` until `agenthub migrate`
    has run, `store-unavailable` while the store does not answer.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | ReadyzResponseReadyz
     """


    return (await asyncio_detailed(
        client=client,

    )).parsed
