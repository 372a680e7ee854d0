from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.message import Message
from ...models.problem import Problem
from ...models.product_chunk import ProductChunk
from ...models.relayed_answer import RelayedAnswer
from ...models.task_command import TaskCommand
from ...models.task_result import TaskResult
from ...models.task_status_update import TaskStatusUpdate
from typing import cast



def _get_kwargs(
    session_id: str,
    *,
    body: RelayedAnswer,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/sessions/{session_id}/answers".format(session_id=quote(str(session_id), safe=""),),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Any | Message | ProductChunk | TaskCommand | TaskResult | TaskStatusUpdate | Problem | None:
    if response.status_code == 200:
        response_200 = cast(Any, None)
        return response_200

    if response.status_code == 201:
        def _parse_response_201(data: object) -> Message | ProductChunk | TaskCommand | TaskResult | TaskStatusUpdate:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                response_201_type_0 = Message.from_dict(data)



                return response_201_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                response_201_type_1 = TaskCommand.from_dict(data)



                return response_201_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                response_201_type_2 = TaskResult.from_dict(data)



                return response_201_type_2
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                response_201_type_3 = TaskStatusUpdate.from_dict(data)



                return response_201_type_3
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            response_201_type_4 = ProductChunk.from_dict(data)



            return response_201_type_4

        response_201 = _parse_response_201(response.json())

        return response_201

    if response.status_code == 202:
        response_202 = cast(Any, None)
        return response_202

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())



        return response_401

    if response.status_code == 404:
        response_404 = Problem.from_dict(response.json())



        return response_404

    if response.status_code == 409:
        response_409 = Problem.from_dict(response.json())



        return response_409

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Any | Message | ProductChunk | TaskCommand | TaskResult | TaskStatusUpdate | Problem]:
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
    body: RelayedAnswer,

) -> Response[Any | Message | ProductChunk | TaskCommand | TaskResult | TaskStatusUpdate | Problem]:
    """ Post Session Answer

     Record a partner's answer to one of the caller's calls, for a partner that does not
    record at the hub itself (an acps-sdk server): `answer` is the answer's HTTP body exactly
    as received (a JSON-RPC response whose `result` is a TaskResult), `signature` its
    `X-Agent-Signature` and `nonce` the call's nonce, when it had them.

    A signature that verifies with the partner's registered key (for this caller, over these
    bytes) makes the record the partner's own, stored under its id (`verified: true`).
    Without one the record is the caller's report of the partner's state
    (`verified: false`, its id prefixed `relayed:`, or the partner's own for an id too long
    to take the prefix). Either way it moves the task as the partner's report would; the
    stored body says who relayed it (`relayedBy`). Statuses as for `POST …/messages`:
    `201`, `202` when the move waits, `200` for an answer recorded before (another answer
    under an id the partner used is a record of its own).

    **Who**: the leader of the answer's task (a participant of the session), for a partner
    that takes part in it.

    **Errors**: `404` for a session the caller takes no part in; `409` as for messages
    (`session-closed`, `illegal-task-move`, …); `422` for an answer that is no TaskResult,
    is for another session, or a task the caller does not lead with that partner.

    Args:
        session_id (str):
        body (RelayedAnswer): A partner's answer to one of the caller's calls, for the hub's
            record of its task.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Message | ProductChunk | TaskCommand | TaskResult | TaskStatusUpdate | Problem]
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
    body: RelayedAnswer,

) -> Any | Message | ProductChunk | TaskCommand | TaskResult | TaskStatusUpdate | Problem | None:
    """ Post Session Answer

     Record a partner's answer to one of the caller's calls, for a partner that does not
    record at the hub itself (an acps-sdk server): `answer` is the answer's HTTP body exactly
    as received (a JSON-RPC response whose `result` is a TaskResult), `signature` its
    `X-Agent-Signature` and `nonce` the call's nonce, when it had them.

    A signature that verifies with the partner's registered key (for this caller, over these
    bytes) makes the record the partner's own, stored under its id (`verified: true`).
    Without one the record is the caller's report of the partner's state
    (`verified: false`, its id prefixed `relayed:`, or the partner's own for an id too long
    to take the prefix). Either way it moves the task as the partner's report would; the
    stored body says who relayed it (`relayedBy`). Statuses as for `POST …/messages`:
    `201`, `202` when the move waits, `200` for an answer recorded before (another answer
    under an id the partner used is a record of its own).

    **Who**: the leader of the answer's task (a participant of the session), for a partner
    that takes part in it.

    **Errors**: `404` for a session the caller takes no part in; `409` as for messages
    (`session-closed`, `illegal-task-move`, …); `422` for an answer that is no TaskResult,
    is for another session, or a task the caller does not lead with that partner.

    Args:
        session_id (str):
        body (RelayedAnswer): A partner's answer to one of the caller's calls, for the hub's
            record of its task.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Message | ProductChunk | TaskCommand | TaskResult | TaskStatusUpdate | Problem
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
    body: RelayedAnswer,

) -> Response[Any | Message | ProductChunk | TaskCommand | TaskResult | TaskStatusUpdate | Problem]:
    """ Post Session Answer

     Record a partner's answer to one of the caller's calls, for a partner that does not
    record at the hub itself (an acps-sdk server): `answer` is the answer's HTTP body exactly
    as received (a JSON-RPC response whose `result` is a TaskResult), `signature` its
    `X-Agent-Signature` and `nonce` the call's nonce, when it had them.

    A signature that verifies with the partner's registered key (for this caller, over these
    bytes) makes the record the partner's own, stored under its id (`verified: true`).
    Without one the record is the caller's report of the partner's state
    (`verified: false`, its id prefixed `relayed:`, or the partner's own for an id too long
    to take the prefix). Either way it moves the task as the partner's report would; the
    stored body says who relayed it (`relayedBy`). Statuses as for `POST …/messages`:
    `201`, `202` when the move waits, `200` for an answer recorded before (another answer
    under an id the partner used is a record of its own).

    **Who**: the leader of the answer's task (a participant of the session), for a partner
    that takes part in it.

    **Errors**: `404` for a session the caller takes no part in; `409` as for messages
    (`session-closed`, `illegal-task-move`, …); `422` for an answer that is no TaskResult,
    is for another session, or a task the caller does not lead with that partner.

    Args:
        session_id (str):
        body (RelayedAnswer): A partner's answer to one of the caller's calls, for the hub's
            record of its task.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Message | ProductChunk | TaskCommand | TaskResult | TaskStatusUpdate | Problem]
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
    body: RelayedAnswer,

) -> Any | Message | ProductChunk | TaskCommand | TaskResult | TaskStatusUpdate | Problem | None:
    """ Post Session Answer

     Record a partner's answer to one of the caller's calls, for a partner that does not
    record at the hub itself (an acps-sdk server): `answer` is the answer's HTTP body exactly
    as received (a JSON-RPC response whose `result` is a TaskResult), `signature` its
    `X-Agent-Signature` and `nonce` the call's nonce, when it had them.

    A signature that verifies with the partner's registered key (for this caller, over these
    bytes) makes the record the partner's own, stored under its id (`verified: true`).
    Without one the record is the caller's report of the partner's state
    (`verified: false`, its id prefixed `relayed:`, or the partner's own for an id too long
    to take the prefix). Either way it moves the task as the partner's report would; the
    stored body says who relayed it (`relayedBy`). Statuses as for `POST …/messages`:
    `201`, `202` when the move waits, `200` for an answer recorded before (another answer
    under an id the partner used is a record of its own).

    **Who**: the leader of the answer's task (a participant of the session), for a partner
    that takes part in it.

    **Errors**: `404` for a session the caller takes no part in; `409` as for messages
    (`session-closed`, `illegal-task-move`, …); `422` for an answer that is no TaskResult,
    is for another session, or a task the caller does not lead with that partner.

    Args:
        session_id (str):
        body (RelayedAnswer): A partner's answer to one of the caller's calls, for the hub's
            record of its task.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Message | ProductChunk | TaskCommand | TaskResult | TaskStatusUpdate | Problem
     """


    return (await asyncio_detailed(
        session_id=session_id,
client=client,
body=body,

    )).parsed
