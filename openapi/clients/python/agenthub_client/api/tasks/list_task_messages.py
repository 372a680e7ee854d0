from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.message_page import MessagePage
from ...models.problem import Problem
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    session_id: str,
    task_id: str,
    *,
    after: None | str | Unset = UNSET,
    limit: int | Unset = 50,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    json_after: None | str | Unset
    if isinstance(after, Unset):
        json_after = UNSET
    else:
        json_after = after
    params["after"] = json_after

    params["limit"] = limit


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/sessions/{session_id}/tasks/{task_id}/messages".format(session_id=quote(str(session_id), safe=""),task_id=quote(str(task_id), safe=""),),
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> MessagePage | Problem | None:
    if response.status_code == 200:
        response_200 = MessagePage.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[MessagePage | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    session_id: str,
    task_id: str,
    *,
    client: AuthenticatedClient,
    after: None | str | Unset = UNSET,
    limit: int | Unset = 50,

) -> Response[MessagePage | Problem]:
    """ List Task Messages

     The task's messages (GB/Z Table 4 `messages`), oldest first, as stored: its commands,
    reports and the plain messages that carry its `taskId`; pass the previous page's
    `nextCursor` as `after` for the next. A group's task lists its group's messages too
    (never another group's), to the group's active members.

    **Who**: whoever sees the task: its leader or partner, or another participant of its
    session; or the operator, who reads every task (its group's messages included).

    **Errors**: `400` for a cursor this hub did not hand out; `404` for an unknown task, or
    one in a session the caller takes no part in.

    Args:
        session_id (str):
        task_id (str):
        after (None | str | Unset):
        limit (int | Unset):  Default: 50.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[MessagePage | Problem]
     """


    kwargs = _get_kwargs(
        session_id=session_id,
task_id=task_id,
after=after,
limit=limit,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    session_id: str,
    task_id: str,
    *,
    client: AuthenticatedClient,
    after: None | str | Unset = UNSET,
    limit: int | Unset = 50,

) -> MessagePage | Problem | None:
    """ List Task Messages

     The task's messages (GB/Z Table 4 `messages`), oldest first, as stored: its commands,
    reports and the plain messages that carry its `taskId`; pass the previous page's
    `nextCursor` as `after` for the next. A group's task lists its group's messages too
    (never another group's), to the group's active members.

    **Who**: whoever sees the task: its leader or partner, or another participant of its
    session; or the operator, who reads every task (its group's messages included).

    **Errors**: `400` for a cursor this hub did not hand out; `404` for an unknown task, or
    one in a session the caller takes no part in.

    Args:
        session_id (str):
        task_id (str):
        after (None | str | Unset):
        limit (int | Unset):  Default: 50.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        MessagePage | Problem
     """


    return sync_detailed(
        session_id=session_id,
task_id=task_id,
client=client,
after=after,
limit=limit,

    ).parsed

async def asyncio_detailed(
    session_id: str,
    task_id: str,
    *,
    client: AuthenticatedClient,
    after: None | str | Unset = UNSET,
    limit: int | Unset = 50,

) -> Response[MessagePage | Problem]:
    """ List Task Messages

     The task's messages (GB/Z Table 4 `messages`), oldest first, as stored: its commands,
    reports and the plain messages that carry its `taskId`; pass the previous page's
    `nextCursor` as `after` for the next. A group's task lists its group's messages too
    (never another group's), to the group's active members.

    **Who**: whoever sees the task: its leader or partner, or another participant of its
    session; or the operator, who reads every task (its group's messages included).

    **Errors**: `400` for a cursor this hub did not hand out; `404` for an unknown task, or
    one in a session the caller takes no part in.

    Args:
        session_id (str):
        task_id (str):
        after (None | str | Unset):
        limit (int | Unset):  Default: 50.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[MessagePage | Problem]
     """


    kwargs = _get_kwargs(
        session_id=session_id,
task_id=task_id,
after=after,
limit=limit,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    session_id: str,
    task_id: str,
    *,
    client: AuthenticatedClient,
    after: None | str | Unset = UNSET,
    limit: int | Unset = 50,

) -> MessagePage | Problem | None:
    """ List Task Messages

     The task's messages (GB/Z Table 4 `messages`), oldest first, as stored: its commands,
    reports and the plain messages that carry its `taskId`; pass the previous page's
    `nextCursor` as `after` for the next. A group's task lists its group's messages too
    (never another group's), to the group's active members.

    **Who**: whoever sees the task: its leader or partner, or another participant of its
    session; or the operator, who reads every task (its group's messages included).

    **Errors**: `400` for a cursor this hub did not hand out; `404` for an unknown task, or
    one in a session the caller takes no part in.

    Args:
        session_id (str):
        task_id (str):
        after (None | str | Unset):
        limit (int | Unset):  Default: 50.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        MessagePage | Problem
     """


    return (await asyncio_detailed(
        session_id=session_id,
task_id=task_id,
client=client,
after=after,
limit=limit,

    )).parsed
