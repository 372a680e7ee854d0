from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.problem import Problem
from ...models.task_view import TaskView
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    task_id: str,
    *,
    session_id: None | str | Unset = UNSET,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    json_session_id: None | str | Unset
    if isinstance(session_id, Unset):
        json_session_id = UNSET
    else:
        json_session_id = session_id
    params["sessionId"] = json_session_id


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/tasks/{task_id}".format(task_id=quote(str(task_id), safe=""),),
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Problem | TaskView | None:
    if response.status_code == 200:
        response_200 = TaskView.from_dict(response.json())



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

    if response.status_code == 409:
        response_409 = Problem.from_dict(response.json())



        return response_409

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Problem | TaskView]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    task_id: str,
    *,
    client: AuthenticatedClient,
    session_id: None | str | Unset = UNSET,

) -> Response[Problem | TaskView]:
    """ Get Task

     One task as the hub projects it from the task messages: leader, partner, `state`
    (`submitted` until the partner's first answer, then the AIP state), current `status`,
    `statusHistory`, `products`, `dependencies`, and its parent task.

    Task ids are the leaders' choice and unique within a session only: `sessionId` says
    which session's task is meant, and may be left out while the caller sees one task of
    that id.

    **Who**: the task's leader or partner, or another participant of its session; or the
    operator, who reads every task.

    **Errors**: `404` for an unknown task, or one in a session the caller takes no part in;
    `409` (`ambiguous-task-id`) when the caller sees tasks of that id in more than one
    session and gave no `sessionId`.

    Args:
        task_id (str):
        session_id (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | TaskView]
     """


    kwargs = _get_kwargs(
        task_id=task_id,
session_id=session_id,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    task_id: str,
    *,
    client: AuthenticatedClient,
    session_id: None | str | Unset = UNSET,

) -> Problem | TaskView | None:
    """ Get Task

     One task as the hub projects it from the task messages: leader, partner, `state`
    (`submitted` until the partner's first answer, then the AIP state), current `status`,
    `statusHistory`, `products`, `dependencies`, and its parent task.

    Task ids are the leaders' choice and unique within a session only: `sessionId` says
    which session's task is meant, and may be left out while the caller sees one task of
    that id.

    **Who**: the task's leader or partner, or another participant of its session; or the
    operator, who reads every task.

    **Errors**: `404` for an unknown task, or one in a session the caller takes no part in;
    `409` (`ambiguous-task-id`) when the caller sees tasks of that id in more than one
    session and gave no `sessionId`.

    Args:
        task_id (str):
        session_id (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | TaskView
     """


    return sync_detailed(
        task_id=task_id,
client=client,
session_id=session_id,

    ).parsed

async def asyncio_detailed(
    task_id: str,
    *,
    client: AuthenticatedClient,
    session_id: None | str | Unset = UNSET,

) -> Response[Problem | TaskView]:
    """ Get Task

     One task as the hub projects it from the task messages: leader, partner, `state`
    (`submitted` until the partner's first answer, then the AIP state), current `status`,
    `statusHistory`, `products`, `dependencies`, and its parent task.

    Task ids are the leaders' choice and unique within a session only: `sessionId` says
    which session's task is meant, and may be left out while the caller sees one task of
    that id.

    **Who**: the task's leader or partner, or another participant of its session; or the
    operator, who reads every task.

    **Errors**: `404` for an unknown task, or one in a session the caller takes no part in;
    `409` (`ambiguous-task-id`) when the caller sees tasks of that id in more than one
    session and gave no `sessionId`.

    Args:
        task_id (str):
        session_id (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | TaskView]
     """


    kwargs = _get_kwargs(
        task_id=task_id,
session_id=session_id,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    task_id: str,
    *,
    client: AuthenticatedClient,
    session_id: None | str | Unset = UNSET,

) -> Problem | TaskView | None:
    """ Get Task

     One task as the hub projects it from the task messages: leader, partner, `state`
    (`submitted` until the partner's first answer, then the AIP state), current `status`,
    `statusHistory`, `products`, `dependencies`, and its parent task.

    Task ids are the leaders' choice and unique within a session only: `sessionId` says
    which session's task is meant, and may be left out while the caller sees one task of
    that id.

    **Who**: the task's leader or partner, or another participant of its session; or the
    operator, who reads every task.

    **Errors**: `404` for an unknown task, or one in a session the caller takes no part in;
    `409` (`ambiguous-task-id`) when the caller sees tasks of that id in more than one
    session and gave no `sessionId`.

    Args:
        task_id (str):
        session_id (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | TaskView
     """


    return (await asyncio_detailed(
        task_id=task_id,
client=client,
session_id=session_id,

    )).parsed
