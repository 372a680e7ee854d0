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
    group_id: str,
    *,
    body: Message | ProductChunk | TaskCommand | TaskResult | TaskStatusUpdate,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/groups/{group_id}/messages".format(group_id=quote(str(group_id), safe=""),),
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
    group_id: str,
    *,
    client: AuthenticatedClient,
    body: Message | ProductChunk | TaskCommand | TaskResult | TaskStatusUpdate,

) -> Response[Message | ProductChunk | TaskCommand | TaskResult | TaskStatusUpdate | Problem]:
    """ Post Group Message

     Post a message to the group (`201`, with its `seq` in the group's stream): a plain
    `message`, or a task message (`task-command`, `task-result`, …) that moves its task as
    in a session (`202` when its move waits for one that allows it). Every other active
    member receives it on the group's event stream; the
    sender does not. Idempotent: the same message again (the same `id` from the same sender,
    with the same content) is `200` with the message stored the first time; another message
    under an `id` its sender used in this group is a post of its own. A mention lets a muted
    member post once more.

    The conversation state says what the group takes (IoA flow control): `discussion` and
    `async-task-assignment` every post; `sync-task-assignment` task commands from the owner
    and admins only, and plain messages only from them and the partners of the group's open
    tasks (who report as ever); `pause-and-trigger` only task commands (owner, admins) and
    reports on the tasks a pending trigger waits for; `conclusion` nothing.

    `nextSpeaker` (IoA's `next_speaker`, at most 20 active members) names who should speak
    next. Under the `turns` speaking policy only they and the owner may post until one of
    them has (naming no one, that opens the floor; naming others, passes it) or the group's
    `turnTimeoutSeconds` pass (the hub opens the floor by itself); a task report passes
    whoever holds the floor but names no one then. Each change is a `floor` event.

    **Who**: an active member, as the message's `senderId`.

    **Errors**: `403` when `senderId` is not the caller, the caller is not an active member,
    or it is muted and not mentioned since its last post; `404` for a group the caller may
    not see; `409` (`group-concluded`, `session-closed`, `message-id-reused`,
    `not-allowed-in-state` for a post its conversation state does not take, `not-your-turn`
    when another member holds the floor, or for a task message the codes of the session
    route: `task-exists`, `wrong-task-role`, `illegal-task-move`, `task-busy`); `422` for a
    message that does not fit (another `groupId` or `sessionId`, a `nextSpeaker` who is no
    active member); `413` for a post over `AGENTHUB_MAX_POST_BYTES` (256 KiB by default);
    `429` (with `Retry-After`) for an agent posting faster than
    `AGENTHUB_POSTS_PER_SECOND_PER_AGENT`.

    Args:
        group_id (str):
        body (Message | ProductChunk | TaskCommand | TaskResult | TaskStatusUpdate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Message | ProductChunk | TaskCommand | TaskResult | TaskStatusUpdate | Problem]
     """


    kwargs = _get_kwargs(
        group_id=group_id,
body=body,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    group_id: str,
    *,
    client: AuthenticatedClient,
    body: Message | ProductChunk | TaskCommand | TaskResult | TaskStatusUpdate,

) -> Message | ProductChunk | TaskCommand | TaskResult | TaskStatusUpdate | Problem | None:
    """ Post Group Message

     Post a message to the group (`201`, with its `seq` in the group's stream): a plain
    `message`, or a task message (`task-command`, `task-result`, …) that moves its task as
    in a session (`202` when its move waits for one that allows it). Every other active
    member receives it on the group's event stream; the
    sender does not. Idempotent: the same message again (the same `id` from the same sender,
    with the same content) is `200` with the message stored the first time; another message
    under an `id` its sender used in this group is a post of its own. A mention lets a muted
    member post once more.

    The conversation state says what the group takes (IoA flow control): `discussion` and
    `async-task-assignment` every post; `sync-task-assignment` task commands from the owner
    and admins only, and plain messages only from them and the partners of the group's open
    tasks (who report as ever); `pause-and-trigger` only task commands (owner, admins) and
    reports on the tasks a pending trigger waits for; `conclusion` nothing.

    `nextSpeaker` (IoA's `next_speaker`, at most 20 active members) names who should speak
    next. Under the `turns` speaking policy only they and the owner may post until one of
    them has (naming no one, that opens the floor; naming others, passes it) or the group's
    `turnTimeoutSeconds` pass (the hub opens the floor by itself); a task report passes
    whoever holds the floor but names no one then. Each change is a `floor` event.

    **Who**: an active member, as the message's `senderId`.

    **Errors**: `403` when `senderId` is not the caller, the caller is not an active member,
    or it is muted and not mentioned since its last post; `404` for a group the caller may
    not see; `409` (`group-concluded`, `session-closed`, `message-id-reused`,
    `not-allowed-in-state` for a post its conversation state does not take, `not-your-turn`
    when another member holds the floor, or for a task message the codes of the session
    route: `task-exists`, `wrong-task-role`, `illegal-task-move`, `task-busy`); `422` for a
    message that does not fit (another `groupId` or `sessionId`, a `nextSpeaker` who is no
    active member); `413` for a post over `AGENTHUB_MAX_POST_BYTES` (256 KiB by default);
    `429` (with `Retry-After`) for an agent posting faster than
    `AGENTHUB_POSTS_PER_SECOND_PER_AGENT`.

    Args:
        group_id (str):
        body (Message | ProductChunk | TaskCommand | TaskResult | TaskStatusUpdate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Message | ProductChunk | TaskCommand | TaskResult | TaskStatusUpdate | Problem
     """


    return sync_detailed(
        group_id=group_id,
client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    group_id: str,
    *,
    client: AuthenticatedClient,
    body: Message | ProductChunk | TaskCommand | TaskResult | TaskStatusUpdate,

) -> Response[Message | ProductChunk | TaskCommand | TaskResult | TaskStatusUpdate | Problem]:
    """ Post Group Message

     Post a message to the group (`201`, with its `seq` in the group's stream): a plain
    `message`, or a task message (`task-command`, `task-result`, …) that moves its task as
    in a session (`202` when its move waits for one that allows it). Every other active
    member receives it on the group's event stream; the
    sender does not. Idempotent: the same message again (the same `id` from the same sender,
    with the same content) is `200` with the message stored the first time; another message
    under an `id` its sender used in this group is a post of its own. A mention lets a muted
    member post once more.

    The conversation state says what the group takes (IoA flow control): `discussion` and
    `async-task-assignment` every post; `sync-task-assignment` task commands from the owner
    and admins only, and plain messages only from them and the partners of the group's open
    tasks (who report as ever); `pause-and-trigger` only task commands (owner, admins) and
    reports on the tasks a pending trigger waits for; `conclusion` nothing.

    `nextSpeaker` (IoA's `next_speaker`, at most 20 active members) names who should speak
    next. Under the `turns` speaking policy only they and the owner may post until one of
    them has (naming no one, that opens the floor; naming others, passes it) or the group's
    `turnTimeoutSeconds` pass (the hub opens the floor by itself); a task report passes
    whoever holds the floor but names no one then. Each change is a `floor` event.

    **Who**: an active member, as the message's `senderId`.

    **Errors**: `403` when `senderId` is not the caller, the caller is not an active member,
    or it is muted and not mentioned since its last post; `404` for a group the caller may
    not see; `409` (`group-concluded`, `session-closed`, `message-id-reused`,
    `not-allowed-in-state` for a post its conversation state does not take, `not-your-turn`
    when another member holds the floor, or for a task message the codes of the session
    route: `task-exists`, `wrong-task-role`, `illegal-task-move`, `task-busy`); `422` for a
    message that does not fit (another `groupId` or `sessionId`, a `nextSpeaker` who is no
    active member); `413` for a post over `AGENTHUB_MAX_POST_BYTES` (256 KiB by default);
    `429` (with `Retry-After`) for an agent posting faster than
    `AGENTHUB_POSTS_PER_SECOND_PER_AGENT`.

    Args:
        group_id (str):
        body (Message | ProductChunk | TaskCommand | TaskResult | TaskStatusUpdate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Message | ProductChunk | TaskCommand | TaskResult | TaskStatusUpdate | Problem]
     """


    kwargs = _get_kwargs(
        group_id=group_id,
body=body,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    group_id: str,
    *,
    client: AuthenticatedClient,
    body: Message | ProductChunk | TaskCommand | TaskResult | TaskStatusUpdate,

) -> Message | ProductChunk | TaskCommand | TaskResult | TaskStatusUpdate | Problem | None:
    """ Post Group Message

     Post a message to the group (`201`, with its `seq` in the group's stream): a plain
    `message`, or a task message (`task-command`, `task-result`, …) that moves its task as
    in a session (`202` when its move waits for one that allows it). Every other active
    member receives it on the group's event stream; the
    sender does not. Idempotent: the same message again (the same `id` from the same sender,
    with the same content) is `200` with the message stored the first time; another message
    under an `id` its sender used in this group is a post of its own. A mention lets a muted
    member post once more.

    The conversation state says what the group takes (IoA flow control): `discussion` and
    `async-task-assignment` every post; `sync-task-assignment` task commands from the owner
    and admins only, and plain messages only from them and the partners of the group's open
    tasks (who report as ever); `pause-and-trigger` only task commands (owner, admins) and
    reports on the tasks a pending trigger waits for; `conclusion` nothing.

    `nextSpeaker` (IoA's `next_speaker`, at most 20 active members) names who should speak
    next. Under the `turns` speaking policy only they and the owner may post until one of
    them has (naming no one, that opens the floor; naming others, passes it) or the group's
    `turnTimeoutSeconds` pass (the hub opens the floor by itself); a task report passes
    whoever holds the floor but names no one then. Each change is a `floor` event.

    **Who**: an active member, as the message's `senderId`.

    **Errors**: `403` when `senderId` is not the caller, the caller is not an active member,
    or it is muted and not mentioned since its last post; `404` for a group the caller may
    not see; `409` (`group-concluded`, `session-closed`, `message-id-reused`,
    `not-allowed-in-state` for a post its conversation state does not take, `not-your-turn`
    when another member holds the floor, or for a task message the codes of the session
    route: `task-exists`, `wrong-task-role`, `illegal-task-move`, `task-busy`); `422` for a
    message that does not fit (another `groupId` or `sessionId`, a `nextSpeaker` who is no
    active member); `413` for a post over `AGENTHUB_MAX_POST_BYTES` (256 KiB by default);
    `429` (with `Retry-After`) for an agent posting faster than
    `AGENTHUB_POSTS_PER_SECOND_PER_AGENT`.

    Args:
        group_id (str):
        body (Message | ProductChunk | TaskCommand | TaskResult | TaskStatusUpdate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Message | ProductChunk | TaskCommand | TaskResult | TaskStatusUpdate | Problem
     """


    return (await asyncio_detailed(
        group_id=group_id,
client=client,
body=body,

    )).parsed
