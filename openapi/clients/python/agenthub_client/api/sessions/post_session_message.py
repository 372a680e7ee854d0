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
from ...models.task_command import TaskCommand
from ...models.task_result import TaskResult
from ...models.task_status_update import TaskStatusUpdate
from typing import cast



def _get_kwargs(
    session_id: str,
    *,
    body: Message | ProductChunk | TaskCommand | TaskResult | TaskStatusUpdate,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/sessions/{session_id}/messages".format(session_id=quote(str(session_id), safe=""),),
    }

    
    if isinstance(body, Message):
        _kwargs["json"] = body.to_dict()
    elif isinstance(body, TaskCommand):
        _kwargs["json"] = body.to_dict()
    elif isinstance(body, TaskResult):
        _kwargs["json"] = body.to_dict()
    elif isinstance(body, TaskStatusUpdate):
        _kwargs["json"] = body.to_dict()
    else:
        _kwargs["json"] = body.to_dict()


    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Message | ProductChunk | TaskCommand | TaskResult | TaskStatusUpdate | Problem | None:
    if response.status_code == 200:
        def _parse_response_200(data: object) -> Message | ProductChunk | TaskCommand | TaskResult | TaskStatusUpdate:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                response_200_type_0 = Message.from_dict(data)



                return response_200_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                response_200_type_1 = TaskCommand.from_dict(data)



                return response_200_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                response_200_type_2 = TaskResult.from_dict(data)



                return response_200_type_2
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                response_200_type_3 = TaskStatusUpdate.from_dict(data)



                return response_200_type_3
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            response_200_type_4 = ProductChunk.from_dict(data)



            return response_200_type_4

        response_200 = _parse_response_200(response.json())

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
        def _parse_response_202(data: object) -> Message | ProductChunk | TaskCommand | TaskResult | TaskStatusUpdate:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                response_202_type_0 = Message.from_dict(data)



                return response_202_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                response_202_type_1 = TaskCommand.from_dict(data)



                return response_202_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                response_202_type_2 = TaskResult.from_dict(data)



                return response_202_type_2
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                response_202_type_3 = TaskStatusUpdate.from_dict(data)



                return response_202_type_3
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            response_202_type_4 = ProductChunk.from_dict(data)



            return response_202_type_4

        response_202 = _parse_response_202(response.json())

        return response_202

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())



        return response_401

    if response.status_code == 403:
        response_403 = Problem.from_dict(response.json())



        return response_403

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Message | ProductChunk | TaskCommand | TaskResult | TaskStatusUpdate | Problem]:
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
    body: Message | ProductChunk | TaskCommand | TaskResult | TaskStatusUpdate,

) -> Response[Message | ProductChunk | TaskCommand | TaskResult | TaskStatusUpdate | Problem]:
    """ Post Session Message

     Record a point-to-point message of the session (any AIP `type`: `message`,
    `task-command`, `task-result`, `task-status-update`, …), as the sender exchanged it with
    its partner: `201` with the stored message. Idempotent: the same message again (the
    same `id` from the same sender, with the same content) is `200` with the message stored
    the first time; another message under an `id` its sender used in this session is a
    record of its own (acps-sdk answers every command of a task under one `id`).

    A task message moves its task as the AIP state table allows. The task's messages are
    folded in the order they were sent (`sentAt`), whatever order they arrive in, so the
    leader's and the partner's records (or a leader's alone) give the same task: a `start`
    command creates the task, naming its partner in `partnerId` (or mentioning exactly one
    agent); so does the partner's first report of a task not seen yet (led by the session's
    leader). A move the task's state does not allow yet is stored and answered `202`: it
    goes in once a move that allows it arrives. Recording a move the task already made (the
    other side's record of it) is a `201` that changes nothing.

    **Who**: a participant of the session, as the message's `senderId`.

    **Errors**: `403` when `senderId` is not the caller; `404` for a session the caller
    takes no part in; `409` with the problem's `type` ending in `session-closed`,
    `message-id-reused` (this sender used the id elsewhere), `task-exists` (another leader's
    or partner's task has that id here), `wrong-task-role` (only the task's leader commands
    it, only its partner reports), `illegal-task-move` (a move no state the task can still
    reach allows: it has ended, or gone past it) or `task-busy` (it kept moving under this
    message: send it again); `422` for a message that does not fit (another `sessionId`, a
    `groupId`, a start without a partner, a bad data item), `not-a-p2p-receiver` for a
    task with a receiver declared in group mode only; `429` (with `Retry-After`) for an agent
    posting faster than `AGENTHUB_POSTS_PER_SECOND_PER_AGENT`. A refused message is not
    stored.

    Args:
        session_id (str):
        body (Message | ProductChunk | TaskCommand | TaskResult | TaskStatusUpdate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Message | ProductChunk | TaskCommand | TaskResult | TaskStatusUpdate | Problem]
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
    body: Message | ProductChunk | TaskCommand | TaskResult | TaskStatusUpdate,

) -> Message | ProductChunk | TaskCommand | TaskResult | TaskStatusUpdate | Problem | None:
    """ Post Session Message

     Record a point-to-point message of the session (any AIP `type`: `message`,
    `task-command`, `task-result`, `task-status-update`, …), as the sender exchanged it with
    its partner: `201` with the stored message. Idempotent: the same message again (the
    same `id` from the same sender, with the same content) is `200` with the message stored
    the first time; another message under an `id` its sender used in this session is a
    record of its own (acps-sdk answers every command of a task under one `id`).

    A task message moves its task as the AIP state table allows. The task's messages are
    folded in the order they were sent (`sentAt`), whatever order they arrive in, so the
    leader's and the partner's records (or a leader's alone) give the same task: a `start`
    command creates the task, naming its partner in `partnerId` (or mentioning exactly one
    agent); so does the partner's first report of a task not seen yet (led by the session's
    leader). A move the task's state does not allow yet is stored and answered `202`: it
    goes in once a move that allows it arrives. Recording a move the task already made (the
    other side's record of it) is a `201` that changes nothing.

    **Who**: a participant of the session, as the message's `senderId`.

    **Errors**: `403` when `senderId` is not the caller; `404` for a session the caller
    takes no part in; `409` with the problem's `type` ending in `session-closed`,
    `message-id-reused` (this sender used the id elsewhere), `task-exists` (another leader's
    or partner's task has that id here), `wrong-task-role` (only the task's leader commands
    it, only its partner reports), `illegal-task-move` (a move no state the task can still
    reach allows: it has ended, or gone past it) or `task-busy` (it kept moving under this
    message: send it again); `422` for a message that does not fit (another `sessionId`, a
    `groupId`, a start without a partner, a bad data item), `not-a-p2p-receiver` for a
    task with a receiver declared in group mode only; `429` (with `Retry-After`) for an agent
    posting faster than `AGENTHUB_POSTS_PER_SECOND_PER_AGENT`. A refused message is not
    stored.

    Args:
        session_id (str):
        body (Message | ProductChunk | TaskCommand | TaskResult | TaskStatusUpdate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Message | ProductChunk | TaskCommand | TaskResult | TaskStatusUpdate | Problem
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
    body: Message | ProductChunk | TaskCommand | TaskResult | TaskStatusUpdate,

) -> Response[Message | ProductChunk | TaskCommand | TaskResult | TaskStatusUpdate | Problem]:
    """ Post Session Message

     Record a point-to-point message of the session (any AIP `type`: `message`,
    `task-command`, `task-result`, `task-status-update`, …), as the sender exchanged it with
    its partner: `201` with the stored message. Idempotent: the same message again (the
    same `id` from the same sender, with the same content) is `200` with the message stored
    the first time; another message under an `id` its sender used in this session is a
    record of its own (acps-sdk answers every command of a task under one `id`).

    A task message moves its task as the AIP state table allows. The task's messages are
    folded in the order they were sent (`sentAt`), whatever order they arrive in, so the
    leader's and the partner's records (or a leader's alone) give the same task: a `start`
    command creates the task, naming its partner in `partnerId` (or mentioning exactly one
    agent); so does the partner's first report of a task not seen yet (led by the session's
    leader). A move the task's state does not allow yet is stored and answered `202`: it
    goes in once a move that allows it arrives. Recording a move the task already made (the
    other side's record of it) is a `201` that changes nothing.

    **Who**: a participant of the session, as the message's `senderId`.

    **Errors**: `403` when `senderId` is not the caller; `404` for a session the caller
    takes no part in; `409` with the problem's `type` ending in `session-closed`,
    `message-id-reused` (this sender used the id elsewhere), `task-exists` (another leader's
    or partner's task has that id here), `wrong-task-role` (only the task's leader commands
    it, only its partner reports), `illegal-task-move` (a move no state the task can still
    reach allows: it has ended, or gone past it) or `task-busy` (it kept moving under this
    message: send it again); `422` for a message that does not fit (another `sessionId`, a
    `groupId`, a start without a partner, a bad data item), `not-a-p2p-receiver` for a
    task with a receiver declared in group mode only; `429` (with `Retry-After`) for an agent
    posting faster than `AGENTHUB_POSTS_PER_SECOND_PER_AGENT`. A refused message is not
    stored.

    Args:
        session_id (str):
        body (Message | ProductChunk | TaskCommand | TaskResult | TaskStatusUpdate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Message | ProductChunk | TaskCommand | TaskResult | TaskStatusUpdate | Problem]
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
    body: Message | ProductChunk | TaskCommand | TaskResult | TaskStatusUpdate,

) -> Message | ProductChunk | TaskCommand | TaskResult | TaskStatusUpdate | Problem | None:
    """ Post Session Message

     Record a point-to-point message of the session (any AIP `type`: `message`,
    `task-command`, `task-result`, `task-status-update`, …), as the sender exchanged it with
    its partner: `201` with the stored message. Idempotent: the same message again (the
    same `id` from the same sender, with the same content) is `200` with the message stored
    the first time; another message under an `id` its sender used in this session is a
    record of its own (acps-sdk answers every command of a task under one `id`).

    A task message moves its task as the AIP state table allows. The task's messages are
    folded in the order they were sent (`sentAt`), whatever order they arrive in, so the
    leader's and the partner's records (or a leader's alone) give the same task: a `start`
    command creates the task, naming its partner in `partnerId` (or mentioning exactly one
    agent); so does the partner's first report of a task not seen yet (led by the session's
    leader). A move the task's state does not allow yet is stored and answered `202`: it
    goes in once a move that allows it arrives. Recording a move the task already made (the
    other side's record of it) is a `201` that changes nothing.

    **Who**: a participant of the session, as the message's `senderId`.

    **Errors**: `403` when `senderId` is not the caller; `404` for a session the caller
    takes no part in; `409` with the problem's `type` ending in `session-closed`,
    `message-id-reused` (this sender used the id elsewhere), `task-exists` (another leader's
    or partner's task has that id here), `wrong-task-role` (only the task's leader commands
    it, only its partner reports), `illegal-task-move` (a move no state the task can still
    reach allows: it has ended, or gone past it) or `task-busy` (it kept moving under this
    message: send it again); `422` for a message that does not fit (another `sessionId`, a
    `groupId`, a start without a partner, a bad data item), `not-a-p2p-receiver` for a
    task with a receiver declared in group mode only; `429` (with `Retry-After`) for an agent
    posting faster than `AGENTHUB_POSTS_PER_SECOND_PER_AGENT`. A refused message is not
    stored.

    Args:
        session_id (str):
        body (Message | ProductChunk | TaskCommand | TaskResult | TaskStatusUpdate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Message | ProductChunk | TaskCommand | TaskResult | TaskStatusUpdate | Problem
     """


    return (await asyncio_detailed(
        session_id=session_id,
client=client,
body=body,

    )).parsed
