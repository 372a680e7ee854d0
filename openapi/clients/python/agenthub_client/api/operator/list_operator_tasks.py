from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.operator_task_page import OperatorTaskPage
from ...models.problem import Problem
from ...models.task_state import TaskState
from ...types import UNSET, Unset
from typing import cast
from typing import Literal, cast



def _get_kwargs(
    *,
    session_id: None | str | Unset = UNSET,
    group_id: None | str | Unset = UNSET,
    state: Literal['submitted'] | None | TaskState | Unset = UNSET,
    agent_id: None | str | Unset = UNSET,
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

    json_agent_id: None | str | Unset
    if isinstance(agent_id, Unset):
        json_agent_id = UNSET
    else:
        json_agent_id = agent_id
    params["agentId"] = json_agent_id

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
        "url": "/v1/operator/tasks",
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> OperatorTaskPage | Problem | None:
    if response.status_code == 200:
        response_200 = OperatorTaskPage.from_dict(response.json())



        return response_200

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())



        return response_401

    if response.status_code == 403:
        response_403 = Problem.from_dict(response.json())



        return response_403

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[OperatorTaskPage | Problem]:
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
    agent_id: None | str | Unset = UNSET,
    limit: int | Unset = 50,
    cursor: None | str | Unset = UNSET,

) -> Response[OperatorTaskPage | Problem]:
    """ List Operator Tasks

     Every task, newest first, as `GET /v1/tasks/{taskId}` shows it; filtered by
    `sessionId`, `groupId`, the current `state` and `agentId` (its leader or partner).

    **Who**: the operator (`AGENTHUB_OPERATOR_TOKEN`); an agent's access token is `403`
    (`operator-only`).

    **Errors**: `400` for a cursor this hub did not hand out; `422` for a bad parameter.

    Args:
        session_id (None | str | Unset):
        group_id (None | str | Unset):
        state (Literal['submitted'] | None | TaskState | Unset):
        agent_id (None | str | Unset):
        limit (int | Unset):  Default: 50.
        cursor (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[OperatorTaskPage | Problem]
     """


    kwargs = _get_kwargs(
        session_id=session_id,
group_id=group_id,
state=state,
agent_id=agent_id,
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
    agent_id: None | str | Unset = UNSET,
    limit: int | Unset = 50,
    cursor: None | str | Unset = UNSET,

) -> OperatorTaskPage | Problem | None:
    """ List Operator Tasks

     Every task, newest first, as `GET /v1/tasks/{taskId}` shows it; filtered by
    `sessionId`, `groupId`, the current `state` and `agentId` (its leader or partner).

    **Who**: the operator (`AGENTHUB_OPERATOR_TOKEN`); an agent's access token is `403`
    (`operator-only`).

    **Errors**: `400` for a cursor this hub did not hand out; `422` for a bad parameter.

    Args:
        session_id (None | str | Unset):
        group_id (None | str | Unset):
        state (Literal['submitted'] | None | TaskState | Unset):
        agent_id (None | str | Unset):
        limit (int | Unset):  Default: 50.
        cursor (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        OperatorTaskPage | Problem
     """


    return sync_detailed(
        client=client,
session_id=session_id,
group_id=group_id,
state=state,
agent_id=agent_id,
limit=limit,
cursor=cursor,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    session_id: None | str | Unset = UNSET,
    group_id: None | str | Unset = UNSET,
    state: Literal['submitted'] | None | TaskState | Unset = UNSET,
    agent_id: None | str | Unset = UNSET,
    limit: int | Unset = 50,
    cursor: None | str | Unset = UNSET,

) -> Response[OperatorTaskPage | Problem]:
    """ List Operator Tasks

     Every task, newest first, as `GET /v1/tasks/{taskId}` shows it; filtered by
    `sessionId`, `groupId`, the current `state` and `agentId` (its leader or partner).

    **Who**: the operator (`AGENTHUB_OPERATOR_TOKEN`); an agent's access token is `403`
    (`operator-only`).

    **Errors**: `400` for a cursor this hub did not hand out; `422` for a bad parameter.

    Args:
        session_id (None | str | Unset):
        group_id (None | str | Unset):
        state (Literal['submitted'] | None | TaskState | Unset):
        agent_id (None | str | Unset):
        limit (int | Unset):  Default: 50.
        cursor (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[OperatorTaskPage | Problem]
     """


    kwargs = _get_kwargs(
        session_id=session_id,
group_id=group_id,
state=state,
agent_id=agent_id,
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
    agent_id: None | str | Unset = UNSET,
    limit: int | Unset = 50,
    cursor: None | str | Unset = UNSET,

) -> OperatorTaskPage | Problem | None:
    """ List Operator Tasks

     Every task, newest first, as `GET /v1/tasks/{taskId}` shows it; filtered by
    `sessionId`, `groupId`, the current `state` and `agentId` (its leader or partner).

    **Who**: the operator (`AGENTHUB_OPERATOR_TOKEN`); an agent's access token is `403`
    (`operator-only`).

    **Errors**: `400` for a cursor this hub did not hand out; `422` for a bad parameter.

    Args:
        session_id (None | str | Unset):
        group_id (None | str | Unset):
        state (Literal['submitted'] | None | TaskState | Unset):
        agent_id (None | str | Unset):
        limit (int | Unset):  Default: 50.
        cursor (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        OperatorTaskPage | Problem
     """


    return (await asyncio_detailed(
        client=client,
session_id=session_id,
group_id=group_id,
state=state,
agent_id=agent_id,
limit=limit,
cursor=cursor,

    )).parsed
