from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.batch_result import BatchResult
from ...models.problem import Problem
from ...models.sessions_batch import SessionsBatch
from typing import cast



def _get_kwargs(
    *,
    body: SessionsBatch,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/sessions/messages:batch",
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
    *,
    client: AuthenticatedClient,
    body: SessionsBatch,

) -> Response[BatchResult | Problem]:
    """ Post Sessions Messages Batch

     Record up to 100 point-to-point messages of any of the caller's sessions in one
    request (an agent's recorder, whose sessions' records queue up together), each in the
    session its `sessionId` names, as `POST /v1/sessions/{sessionId}/messages:batch` records
    its items and answers with their outcomes (an item that names no session is its `422`
    `misaddressed-message`).

    `bridges` names bridge sessions the caller leads (see `POST /v1/sessions`), by id: each
    is opened first, in the same transaction as the items, unless a session with that id is
    there already (kept as it is). A bridge opens a session for every context its callers
    begin, this way, with its first records. A bridge refused (its `callerId` no registered
    agent, `unregistered-agent`, or no application the operator registered,
    `unknown-bridge-caller`) opens nothing, and is the `422` of each item of its session.

    **Who**: an agent, as every item's `senderId`: each session's participant, or the
    leader of a bridge it opens.

    **Errors** of the whole request: `404` when the caller takes part in none of the
    items' sessions; `422` for a body that is no batch (no items, more than 100, an item of
    no message type, a bridge that does not fit); `429` as for a session's batch.

    Args:
        body (SessionsBatch): Messages of any of the caller's sessions to record in one request,
            each in the
            session its ``sessionId`` names (``POST /v1/sessions/messages:batch``).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[BatchResult | Problem]
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
    body: SessionsBatch,

) -> BatchResult | Problem | None:
    """ Post Sessions Messages Batch

     Record up to 100 point-to-point messages of any of the caller's sessions in one
    request (an agent's recorder, whose sessions' records queue up together), each in the
    session its `sessionId` names, as `POST /v1/sessions/{sessionId}/messages:batch` records
    its items and answers with their outcomes (an item that names no session is its `422`
    `misaddressed-message`).

    `bridges` names bridge sessions the caller leads (see `POST /v1/sessions`), by id: each
    is opened first, in the same transaction as the items, unless a session with that id is
    there already (kept as it is). A bridge opens a session for every context its callers
    begin, this way, with its first records. A bridge refused (its `callerId` no registered
    agent, `unregistered-agent`, or no application the operator registered,
    `unknown-bridge-caller`) opens nothing, and is the `422` of each item of its session.

    **Who**: an agent, as every item's `senderId`: each session's participant, or the
    leader of a bridge it opens.

    **Errors** of the whole request: `404` when the caller takes part in none of the
    items' sessions; `422` for a body that is no batch (no items, more than 100, an item of
    no message type, a bridge that does not fit); `429` as for a session's batch.

    Args:
        body (SessionsBatch): Messages of any of the caller's sessions to record in one request,
            each in the
            session its ``sessionId`` names (``POST /v1/sessions/messages:batch``).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        BatchResult | Problem
     """


    return sync_detailed(
        client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: SessionsBatch,

) -> Response[BatchResult | Problem]:
    """ Post Sessions Messages Batch

     Record up to 100 point-to-point messages of any of the caller's sessions in one
    request (an agent's recorder, whose sessions' records queue up together), each in the
    session its `sessionId` names, as `POST /v1/sessions/{sessionId}/messages:batch` records
    its items and answers with their outcomes (an item that names no session is its `422`
    `misaddressed-message`).

    `bridges` names bridge sessions the caller leads (see `POST /v1/sessions`), by id: each
    is opened first, in the same transaction as the items, unless a session with that id is
    there already (kept as it is). A bridge opens a session for every context its callers
    begin, this way, with its first records. A bridge refused (its `callerId` no registered
    agent, `unregistered-agent`, or no application the operator registered,
    `unknown-bridge-caller`) opens nothing, and is the `422` of each item of its session.

    **Who**: an agent, as every item's `senderId`: each session's participant, or the
    leader of a bridge it opens.

    **Errors** of the whole request: `404` when the caller takes part in none of the
    items' sessions; `422` for a body that is no batch (no items, more than 100, an item of
    no message type, a bridge that does not fit); `429` as for a session's batch.

    Args:
        body (SessionsBatch): Messages of any of the caller's sessions to record in one request,
            each in the
            session its ``sessionId`` names (``POST /v1/sessions/messages:batch``).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[BatchResult | Problem]
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
    body: SessionsBatch,

) -> BatchResult | Problem | None:
    """ Post Sessions Messages Batch

     Record up to 100 point-to-point messages of any of the caller's sessions in one
    request (an agent's recorder, whose sessions' records queue up together), each in the
    session its `sessionId` names, as `POST /v1/sessions/{sessionId}/messages:batch` records
    its items and answers with their outcomes (an item that names no session is its `422`
    `misaddressed-message`).

    `bridges` names bridge sessions the caller leads (see `POST /v1/sessions`), by id: each
    is opened first, in the same transaction as the items, unless a session with that id is
    there already (kept as it is). A bridge opens a session for every context its callers
    begin, this way, with its first records. A bridge refused (its `callerId` no registered
    agent, `unregistered-agent`, or no application the operator registered,
    `unknown-bridge-caller`) opens nothing, and is the `422` of each item of its session.

    **Who**: an agent, as every item's `senderId`: each session's participant, or the
    leader of a bridge it opens.

    **Errors** of the whole request: `404` when the caller takes part in none of the
    items' sessions; `422` for a body that is no batch (no items, more than 100, an item of
    no message type, a bridge that does not fit); `429` as for a session's batch.

    Args:
        body (SessionsBatch): Messages of any of the caller's sessions to record in one request,
            each in the
            session its ``sessionId`` names (``POST /v1/sessions/messages:batch``).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        BatchResult | Problem
     """


    return (await asyncio_detailed(
        client=client,
body=body,

    )).parsed
