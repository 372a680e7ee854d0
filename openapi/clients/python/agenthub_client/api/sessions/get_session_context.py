from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.problem import Problem
from ...models.session_context import SessionContext
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    session_id: str,
    *,
    messages_after: None | str | Unset = UNSET,
    tasks_after: None | str | Unset = UNSET,
    limit: int | Unset = 50,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    json_messages_after: None | str | Unset
    if isinstance(messages_after, Unset):
        json_messages_after = UNSET
    else:
        json_messages_after = messages_after
    params["messagesAfter"] = json_messages_after

    json_tasks_after: None | str | Unset
    if isinstance(tasks_after, Unset):
        json_tasks_after = UNSET
    else:
        json_tasks_after = tasks_after
    params["tasksAfter"] = json_tasks_after

    params["limit"] = limit


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/sessions/{session_id}/context".format(session_id=quote(str(session_id), safe=""),),
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Problem | SessionContext | None:
    if response.status_code == 200:
        response_200 = SessionContext.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Problem | SessionContext]:
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
    messages_after: None | str | Unset = UNSET,
    tasks_after: None | str | Unset = UNSET,
    limit: int | Unset = 50,

) -> Response[Problem | SessionContext]:
    """ Get Session Context

     The session's context (GB/Z Table 5 `context`): a page of its point-to-point
    `messages` and a page of its `tasks` the caller leads or works on (those `GET /v1/tasks`
    lists it, point-to-point and in groups), each oldest first and at most `limit` long.
    Each page's `nextCursor` goes back here as `messagesAfter` or `tasksAfter`.

    **Who**: a participant of the session.

    **Errors**: `400` for a cursor this hub did not hand out; `404` for a session the
    caller takes no part in.

    Args:
        session_id (str):
        messages_after (None | str | Unset):
        tasks_after (None | str | Unset):
        limit (int | Unset):  Default: 50.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | SessionContext]
     """


    kwargs = _get_kwargs(
        session_id=session_id,
messages_after=messages_after,
tasks_after=tasks_after,
limit=limit,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    session_id: str,
    *,
    client: AuthenticatedClient,
    messages_after: None | str | Unset = UNSET,
    tasks_after: None | str | Unset = UNSET,
    limit: int | Unset = 50,

) -> Problem | SessionContext | None:
    """ Get Session Context

     The session's context (GB/Z Table 5 `context`): a page of its point-to-point
    `messages` and a page of its `tasks` the caller leads or works on (those `GET /v1/tasks`
    lists it, point-to-point and in groups), each oldest first and at most `limit` long.
    Each page's `nextCursor` goes back here as `messagesAfter` or `tasksAfter`.

    **Who**: a participant of the session.

    **Errors**: `400` for a cursor this hub did not hand out; `404` for a session the
    caller takes no part in.

    Args:
        session_id (str):
        messages_after (None | str | Unset):
        tasks_after (None | str | Unset):
        limit (int | Unset):  Default: 50.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | SessionContext
     """


    return sync_detailed(
        session_id=session_id,
client=client,
messages_after=messages_after,
tasks_after=tasks_after,
limit=limit,

    ).parsed

async def asyncio_detailed(
    session_id: str,
    *,
    client: AuthenticatedClient,
    messages_after: None | str | Unset = UNSET,
    tasks_after: None | str | Unset = UNSET,
    limit: int | Unset = 50,

) -> Response[Problem | SessionContext]:
    """ Get Session Context

     The session's context (GB/Z Table 5 `context`): a page of its point-to-point
    `messages` and a page of its `tasks` the caller leads or works on (those `GET /v1/tasks`
    lists it, point-to-point and in groups), each oldest first and at most `limit` long.
    Each page's `nextCursor` goes back here as `messagesAfter` or `tasksAfter`.

    **Who**: a participant of the session.

    **Errors**: `400` for a cursor this hub did not hand out; `404` for a session the
    caller takes no part in.

    Args:
        session_id (str):
        messages_after (None | str | Unset):
        tasks_after (None | str | Unset):
        limit (int | Unset):  Default: 50.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | SessionContext]
     """


    kwargs = _get_kwargs(
        session_id=session_id,
messages_after=messages_after,
tasks_after=tasks_after,
limit=limit,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    session_id: str,
    *,
    client: AuthenticatedClient,
    messages_after: None | str | Unset = UNSET,
    tasks_after: None | str | Unset = UNSET,
    limit: int | Unset = 50,

) -> Problem | SessionContext | None:
    """ Get Session Context

     The session's context (GB/Z Table 5 `context`): a page of its point-to-point
    `messages` and a page of its `tasks` the caller leads or works on (those `GET /v1/tasks`
    lists it, point-to-point and in groups), each oldest first and at most `limit` long.
    Each page's `nextCursor` goes back here as `messagesAfter` or `tasksAfter`.

    **Who**: a participant of the session.

    **Errors**: `400` for a cursor this hub did not hand out; `404` for a session the
    caller takes no part in.

    Args:
        session_id (str):
        messages_after (None | str | Unset):
        tasks_after (None | str | Unset):
        limit (int | Unset):  Default: 50.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | SessionContext
     """


    return (await asyncio_detailed(
        session_id=session_id,
client=client,
messages_after=messages_after,
tasks_after=tasks_after,
limit=limit,

    )).parsed
