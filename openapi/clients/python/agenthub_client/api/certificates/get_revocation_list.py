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
        "url": "/.well-known/agenthub-crl.pem",
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Any | Problem | None:
    if response.status_code == 304:
        response_304 = cast(Any, None)
        return response_304

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
    """ Get Revocation List

     The CA's signed list of revoked certificates that have not expired yet, PEM (X.509
    CRL). A certificate is revoked when its agent revokes it, rotates its key or is
    deregistered; the list names it from the moment the revocation is answered. Fetch it
    again at its `nextUpdate` (`AGENTHUB_REVOCATION_LIST_SECONDS`); the answer carries an
    `ETag` and a `Last-Modified` (its `thisUpdate`), and a conditional GET with either is
    answered `304` while the list is the same.

    **Who**: anyone; no authentication.

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
    """ Get Revocation List

     The CA's signed list of revoked certificates that have not expired yet, PEM (X.509
    CRL). A certificate is revoked when its agent revokes it, rotates its key or is
    deregistered; the list names it from the moment the revocation is answered. Fetch it
    again at its `nextUpdate` (`AGENTHUB_REVOCATION_LIST_SECONDS`); the answer carries an
    `ETag` and a `Last-Modified` (its `thisUpdate`), and a conditional GET with either is
    answered `304` while the list is the same.

    **Who**: anyone; no authentication.

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
    """ Get Revocation List

     The CA's signed list of revoked certificates that have not expired yet, PEM (X.509
    CRL). A certificate is revoked when its agent revokes it, rotates its key or is
    deregistered; the list names it from the moment the revocation is answered. Fetch it
    again at its `nextUpdate` (`AGENTHUB_REVOCATION_LIST_SECONDS`); the answer carries an
    `ETag` and a `Last-Modified` (its `thisUpdate`), and a conditional GET with either is
    answered `304` while the list is the same.

    **Who**: anyone; no authentication.

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
    """ Get Revocation List

     The CA's signed list of revoked certificates that have not expired yet, PEM (X.509
    CRL). A certificate is revoked when its agent revokes it, rotates its key or is
    deregistered; the list names it from the moment the revocation is answered. Fetch it
    again at its `nextUpdate` (`AGENTHUB_REVOCATION_LIST_SECONDS`); the answer carries an
    `ETag` and a `Last-Modified` (its `thisUpdate`), and a conditional GET with either is
    answered `304` while the list is the same.

    **Who**: anyone; no authentication.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Problem
     """


    return (await asyncio_detailed(
        client=client,

    )).parsed
