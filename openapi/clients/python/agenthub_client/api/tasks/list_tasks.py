from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.list_tasks_role_type_0 import ListTasksRoleType0
from ...models.problem import Problem
from ...models.task_page import TaskPage
from ...models.task_state import TaskState
from ...types import UNSET, Unset
from typing import cast
from typing import Literal, cast



def _get_kwargs(
    *,
    session_id: None | str | Unset = UNSET,
    group_id: None | str | Unset = UNSET,
    state: Literal['submitted'] | None | TaskState | Unset = UNSET,
    role: ListTasksRoleType0 | None | Unset = UNSET,
    limit: int | Unset = 50,
    cursor: None | str | Unset = UNSET,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    json_session_id: None | str | Unset
    if isinstance(session_id, Unset):
        json_session_id = UNSET
    else:
        json_session_id = session_id
    params["sessionId"] = json_session_id

    json_group_id: None | str | Unset
    if isinstance(group_id, Unset):
        json_group_id = UNSET
    else:
        json_group_id = group_id
    params["groupId"] = json_group_id

    json_state: Literal['submitted'] | None | str | Unset
    if isinstance(state, Unset):
        json_state = UNSET
    elif isinstance(state, TaskState):
        json_state = state.value
    else:
        json_state = state
    params["state"] = json_state

    json_role: None | str | Unset
    if isinstance(role, Unset):
        json_role = UNSET
    elif isinstance(role, ListTasksRoleType0):
        json_role = role.value
    else:
        json_role = role
    params["role"] = json_role

    params["limit"] = limit

    json_cursor: None | str | Unset
    if isinstance(cursor, Unset):
        json_cursor = UNSET
    else:
        json_cursor = cursor
    params["cursor"] = json_cursor


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/tasks",
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Problem | TaskPage | None:
    if response.status_code == 200:
        response_200 = TaskPage.from_dict(response.json())



        return response_200

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())



        return response_401

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Problem | TaskPage]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    session_id: None | str | Unset = UNSET,
    group_id: None | str | Unset = UNSET,
    state: Literal['submitted'] | None | TaskState | Unset = UNSET,
    role: ListTasksRoleType0 | None | Unset = UNSET,
    limit: int | Unset = 50,
    cursor: None | str | Unset = UNSET,

) -> Response[Problem | TaskPage]:
    """ List Tasks

     The tasks the caller leads or is the partner of (`role` picks one side), oldest
    first, filtered by `sessionId`, `groupId` and the current `state`; the answer pages with
    `limit` and the previous page's `nextCursor`. A task exists from its `start` command:
    its `state` is `submitted` and its `status` empty until the partner's first answer
    (`accepted` or `rejected`), then its `state` is the AIP state of its `status`.

    **Who**: an agent.

    **Errors**: `400` for a cursor this hub did not hand out; `422` for a bad parameter.

    Args:
        session_id (None | str | Unset):
        group_id (None | str | Unset):
        state (Literal['submitted'] | None | TaskState | Unset):
        role (ListTasksRoleType0 | None | Unset):
        limit (int | Unset):  Default: 50.
        cursor (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | TaskPage]
     """


    kwargs = _get_kwargs(
        session_id=session_id,
group_id=group_id,
state=state,
role=role,
limit=limit,
cursor=cursor,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient,
    session_id: None | str | Unset = UNSET,
    group_id: None | str | Unset = UNSET,
    state: Literal['submitted'] | None | TaskState | Unset = UNSET,
    role: ListTasksRoleType0 | None | Unset = UNSET,
    limit: int | Unset = 50,
    cursor: None | str | Unset = UNSET,

) -> Problem | TaskPage | None:
    """ List Tasks

     The tasks the caller leads or is the partner of (`role` picks one side), oldest
    first, filtered by `sessionId`, `groupId` and the current `state`; the answer pages with
    `limit` and the previous page's `nextCursor`. A task exists from its `start` command:
    its `state` is `submitted` and its `status` empty until the partner's first answer
    (`accepted` or `rejected`), then its `state` is the AIP state of its `status`.

    **Who**: an agent.

    **Errors**: `400` for a cursor this hub did not hand out; `422` for a bad parameter.

    Args:
        session_id (None | str | Unset):
        group_id (None | str | Unset):
        state (Literal['submitted'] | None | TaskState | Unset):
        role (ListTasksRoleType0 | None | Unset):
        limit (int | Unset):  Default: 50.
        cursor (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | TaskPage
     """


    return sync_detailed(
        client=client,
session_id=session_id,
group_id=group_id,
state=state,
role=role,
limit=limit,
cursor=cursor,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    session_id: None | str | Unset = UNSET,
    group_id: None | str | Unset = UNSET,
    state: Literal['submitted'] | None | TaskState | Unset = UNSET,
    role: ListTasksRoleType0 | None | Unset = UNSET,
    limit: int | Unset = 50,
    cursor: None | str | Unset = UNSET,

) -> Response[Problem | TaskPage]:
    """ List Tasks

     The tasks the caller leads or is the partner of (`role` picks one side), oldest
    first, filtered by `sessionId`, `groupId` and the current `state`; the answer pages with
    `limit` and the previous page's `nextCursor`. A task exists from its `start` command:
    its `state` is `submitted` and its `status` empty until the partner's first answer
    (`accepted` or `rejected`), then its `state` is the AIP state of its `status`.

    **Who**: an agent.

    **Errors**: `400` for a cursor this hub did not hand out; `422` for a bad parameter.

    Args:
        session_id (None | str | Unset):
        group_id (None | str | Unset):
        state (Literal['submitted'] | None | TaskState | Unset):
        role (ListTasksRoleType0 | None | Unset):
        limit (int | Unset):  Default: 50.
        cursor (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | TaskPage]
     """


    kwargs = _get_kwargs(
        session_id=session_id,
group_id=group_id,
state=state,
role=role,
limit=limit,
cursor=cursor,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient,
    session_id: None | str | Unset = UNSET,
    group_id: None | str | Unset = UNSET,
    state: Literal['submitted'] | None | TaskState | Unset = UNSET,
    role: ListTasksRoleType0 | None | Unset = UNSET,
    limit: int | Unset = 50,
    cursor: None | str | Unset = UNSET,

) -> Problem | TaskPage | None:
    """ List Tasks

     The tasks the caller leads or is the partner of (`role` picks one side), oldest
    first, filtered by `sessionId`, `groupId` and the current `state`; the answer pages with
    `limit` and the previous page's `nextCursor`. A task exists from its `start` command:
    its `state` is `submitted` and its `status` empty until the partner's first answer
    (`accepted` or `rejected`), then its `state` is the AIP state of its `status`.

    **Who**: an agent.

    **Errors**: `400` for a cursor this hub did not hand out; `422` for a bad parameter.

    Args:
        session_id (None | str | Unset):
        group_id (None | str | Unset):
        state (Literal['submitted'] | None | TaskState | Unset):
        role (ListTasksRoleType0 | None | Unset):
        limit (int | Unset):  Default: 50.
        cursor (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | TaskPage
     """


    return (await asyncio_detailed(
        client=client,
session_id=session_id,
group_id=group_id,
state=state,
role=role,
limit=limit,
cursor=cursor,

    )).parsed
