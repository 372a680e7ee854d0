from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.batch_result import BatchResult
from ...models.message_batch import MessageBatch
from ...models.problem import Problem
from typing import cast



def _get_kwargs(
    session_id: str,
    *,
    body: MessageBatch,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/sessions/{session_id}/messages:batch".format(session_id=quote(str(session_id), safe=""),),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> BatchResult | Problem | None:
    if response.status_code == 200:
        response_200 = BatchResult.from_dict(response.json())



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

    if response.status_code == 413:
        response_413 = Problem.from_dict(response.json())



        return response_413

    if response.status_code == 422:
        response_422 = Problem.from_dict(response.json())



        return response_422

    if response.status_code == 429:
        response_429 = Problem.from_dict(response.json())



        return response_429

    if response.status_code == 431:
        response_431 = Problem.from_dict(response.json())



        return response_431

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[BatchResult | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    session_id: str,
    *,
    client: AuthenticatedClient,
    body: MessageBatch,

) -> Response[BatchResult | Problem]:
    """ Post Session Messages Batch

     Record up to 100 point-to-point messages of the session in one request (a recorder
    catching up), in order: each item is recorded as `POST …/messages` would record it, on
    its own, and `items` says what became of each, in the same order: its `status` (`201`,
    `202`, `200` for a message stored before, or the 4xx that call would answer) with the
    stored `message`, or the `problem`. Idempotent per item on (`senderId`, `id`, content),
    so a batch sent again changes nothing.

    **Who**: a participant of the session, as every item's `senderId`.

    **Errors** of the whole request: `404` for a session the caller takes no part in; `422`
    for a body that is no batch (no items, more than 100, an item of no message type);
    `429` (with `Retry-After`) when its items take the caller past
    `AGENTHUB_POSTS_PER_SECOND_PER_AGENT`. An item's own refusal is in its outcome.

    Args:
        session_id (str):
        body (MessageBatch): Messages to record in one request, each on its own (``POST
            …/messages:batch``).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[BatchResult | Problem]
     """


    kwargs = _get_kwargs(
        session_id=session_id,
body=body,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    session_id: str,
    *,
    client: AuthenticatedClient,
    body: MessageBatch,

) -> BatchResult | Problem | None:
    """ Post Session Messages Batch

     Record up to 100 point-to-point messages of the session in one request (a recorder
    catching up), in order: each item is recorded as `POST …/messages` would record it, on
    its own, and `items` says what became of each, in the same order: its `status` (`201`,
    `202`, `200` for a message stored before, or the 4xx that call would answer) with the
    stored `message`, or the `problem`. Idempotent per item on (`senderId`, `id`, content),
    so a batch sent again changes nothing.

    **Who**: a participant of the session, as every item's `senderId`.

    **Errors** of the whole request: `404` for a session the caller takes no part in; `422`
    for a body that is no batch (no items, more than 100, an item of no message type);
    `429` (with `Retry-After`) when its items take the caller past
    `AGENTHUB_POSTS_PER_SECOND_PER_AGENT`. An item's own refusal is in its outcome.

    Args:
        session_id (str):
        body (MessageBatch): Messages to record in one request, each on its own (``POST
            …/messages:batch``).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        BatchResult | Problem
     """


    return sync_detailed(
        session_id=session_id,
client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    session_id: str,
    *,
    client: AuthenticatedClient,
    body: MessageBatch,

) -> Response[BatchResult | Problem]:
    """ Post Session Messages Batch

     Record up to 100 point-to-point messages of the session in one request (a recorder
    catching up), in order: each item is recorded as `POST …/messages` would record it, on
    its own, and `items` says what became of each, in the same order: its `status` (`201`,
    `202`, `200` for a message stored before, or the 4xx that call would answer) with the
    stored `message`, or the `problem`. Idempotent per item on (`senderId`, `id`, content),
    so a batch sent again changes nothing.

    **Who**: a participant of the session, as every item's `senderId`.

    **Errors** of the whole request: `404` for a session the caller takes no part in; `422`
    for a body that is no batch (no items, more than 100, an item of no message type);
    `429` (with `Retry-After`) when its items take the caller past
    `AGENTHUB_POSTS_PER_SECOND_PER_AGENT`. An item's own refusal is in its outcome.

    Args:
        session_id (str):
        body (MessageBatch): Messages to record in one request, each on its own (``POST
            …/messages:batch``).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[BatchResult | Problem]
     """


    kwargs = _get_kwargs(
        session_id=session_id,
body=body,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    session_id: str,
    *,
    client: AuthenticatedClient,
    body: MessageBatch,

) -> BatchResult | Problem | None:
    """ Post Session Messages Batch

     Record up to 100 point-to-point messages of the session in one request (a recorder
    catching up), in order: each item is recorded as `POST …/messages` would record it, on
    its own, and `items` says what became of each, in the same order: its `status` (`201`,
    `202`, `200` for a message stored before, or the 4xx that call would answer) with the
    stored `message`, or the `problem`. Idempotent per item on (`senderId`, `id`, content),
    so a batch sent again changes nothing.

    **Who**: a participant of the session, as every item's `senderId`.

    **Errors** of the whole request: `404` for a session the caller takes no part in; `422`
    for a body that is no batch (no items, more than 100, an item of no message type);
    `429` (with `Retry-After`) when its items take the caller past
    `AGENTHUB_POSTS_PER_SECOND_PER_AGENT`. An item's own refusal is in its outcome.

    Args:
        session_id (str):
        body (MessageBatch): Messages to record in one request, each on its own (``POST
            …/messages:batch``).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        BatchResult | Problem
     """


    return (await asyncio_detailed(
        session_id=session_id,
client=client,
body=body,

    )).parsed
