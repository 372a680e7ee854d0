from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.group_a2a_body import GroupA2ABody
from ...models.problem import Problem
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    group_id: str,
    *,
    body: GroupA2ABody,
    last_event_id: None | str | Unset = UNSET,
    a2a_extensions: None | str | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(last_event_id, Unset):
        headers["Last-Event-ID"] = last_event_id

    if not isinstance(a2a_extensions, Unset):
        headers["A2A-Extensions"] = a2a_extensions



    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/groups/{group_id}/a2a".format(group_id=quote(str(group_id), safe=""),),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Any | Problem | None:
    if response.status_code == 200:
        response_200 = response.json()
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

    if response.status_code == 503:
        response_503 = Problem.from_dict(response.json())



        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Any | Problem]:
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
    body: GroupA2ABody,
    last_event_id: None | str | Unset = UNSET,
    a2a_extensions: None | str | Unset = UNSET,

) -> Response[Any | Problem]:
    """ Group A2A

     The group's A2A endpoint (JSON-RPC 2.0, A2A v1.0 method names; the group extension,
    `docs/reference/a2a-group-extension.md`). The group's conversation is one A2A task: its
    id is the group's id, its `contextId` the group's session.

    - `SendMessage`: the message is the caller's group post (its `messageId` the post's id:
      the same message again is the same post, another message under it is refused,
      `message-id-reused`); the answer is the group's task, its
      `status.message` the post with its `seq`.
    - `SendStreamingMessage`: the same post, then the conversation from there as a stream.
    - `SubscribeToTask` (`id`: the group's id): the group's task, then every later event of
      the group as a status update (a post is its `status.message`, with its sender in the
      extension's `source`), each SSE frame's `id` its seq. The `Last-Event-ID` header (a
      service parameter) resumes after that seq: every later event, once, from the store
      when the live path has moved on.
    - `GetTask` (`id`: the group's id): the group's task, its history the last `historyLength`
      posts that fit `AGENTHUB_MAX_PAGE_BYTES` (500 at most); `id` a task started in it: that.
    - `ListTasks`: the group's task, then the tasks started in it (100 at most, and as fit).
    - `ListGroupMessages` (the extension's; `after`: a seq, `limit`: 1 to 500): the posts
      after `after` (about `AGENTHUB_MAX_PAGE_BYTES` at most), and `nextCursor`, the next one.
    - `CancelTask`: `TaskNotCancelable` (the owner concludes a group).

    A member never receives its own posts. An `open` group admits whoever calls (it joins).
    Refusals are JSON-RPC errors whose `data` is a `google.rpc.ErrorInfo` with the hub's
    problem code (`not-your-turn`, `not-a-member`, …) in `metadata.code`; an `id` string over
    256 characters (echoed in every answer and event) is `InvalidRequest`, with a null `id`.

    **Who**: an agent taking part in the group, with the hub's access token or a token of
    the hub's OAuth endpoint whose `resource` was this endpoint's URL.

    **Errors** (HTTP, not JSON-RPC): `400` (`not-json-rpc`) for a body that is no JSON-RPC
    2.0 request; `401` without a good token; `429` (with `Retry-After`)
    for an agent posting faster than `AGENTHUB_POSTS_PER_SECOND_PER_AGENT`, or for a stream
    past its open streams; `503` when the replica admits no more streams or the store is
    busy (with `Retry-After`).

    Args:
        group_id (str):
        last_event_id (None | str | Unset):
        a2a_extensions (None | str | Unset):
        body (GroupA2ABody): A JSON-RPC 2.0 request (A2A v1.0 method names)

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Problem]
     """


    kwargs = _get_kwargs(
        group_id=group_id,
body=body,
last_event_id=last_event_id,
a2a_extensions=a2a_extensions,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    group_id: str,
    *,
    client: AuthenticatedClient,
    body: GroupA2ABody,
    last_event_id: None | str | Unset = UNSET,
    a2a_extensions: None | str | Unset = UNSET,

) -> Any | Problem | None:
    """ Group A2A

     The group's A2A endpoint (JSON-RPC 2.0, A2A v1.0 method names; the group extension,
    `docs/reference/a2a-group-extension.md`). The group's conversation is one A2A task: its
    id is the group's id, its `contextId` the group's session.

    - `SendMessage`: the message is the caller's group post (its `messageId` the post's id:
      the same message again is the same post, another message under it is refused,
      `message-id-reused`); the answer is the group's task, its
      `status.message` the post with its `seq`.
    - `SendStreamingMessage`: the same post, then the conversation from there as a stream.
    - `SubscribeToTask` (`id`: the group's id): the group's task, then every later event of
      the group as a status update (a post is its `status.message`, with its sender in the
      extension's `source`), each SSE frame's `id` its seq. The `Last-Event-ID` header (a
      service parameter) resumes after that seq: every later event, once, from the store
      when the live path has moved on.
    - `GetTask` (`id`: the group's id): the group's task, its history the last `historyLength`
      posts that fit `AGENTHUB_MAX_PAGE_BYTES` (500 at most); `id` a task started in it: that.
    - `ListTasks`: the group's task, then the tasks started in it (100 at most, and as fit).
    - `ListGroupMessages` (the extension's; `after`: a seq, `limit`: 1 to 500): the posts
      after `after` (about `AGENTHUB_MAX_PAGE_BYTES` at most), and `nextCursor`, the next one.
    - `CancelTask`: `TaskNotCancelable` (the owner concludes a group).

    A member never receives its own posts. An `open` group admits whoever calls (it joins).
    Refusals are JSON-RPC errors whose `data` is a `google.rpc.ErrorInfo` with the hub's
    problem code (`not-your-turn`, `not-a-member`, …) in `metadata.code`; an `id` string over
    256 characters (echoed in every answer and event) is `InvalidRequest`, with a null `id`.

    **Who**: an agent taking part in the group, with the hub's access token or a token of
    the hub's OAuth endpoint whose `resource` was this endpoint's URL.

    **Errors** (HTTP, not JSON-RPC): `400` (`not-json-rpc`) for a body that is no JSON-RPC
    2.0 request; `401` without a good token; `429` (with `Retry-After`)
    for an agent posting faster than `AGENTHUB_POSTS_PER_SECOND_PER_AGENT`, or for a stream
    past its open streams; `503` when the replica admits no more streams or the store is
    busy (with `Retry-After`).

    Args:
        group_id (str):
        last_event_id (None | str | Unset):
        a2a_extensions (None | str | Unset):
        body (GroupA2ABody): A JSON-RPC 2.0 request (A2A v1.0 method names)

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Problem
     """


    return sync_detailed(
        group_id=group_id,
client=client,
body=body,
last_event_id=last_event_id,
a2a_extensions=a2a_extensions,

    ).parsed

async def asyncio_detailed(
    group_id: str,
    *,
    client: AuthenticatedClient,
    body: GroupA2ABody,
    last_event_id: None | str | Unset = UNSET,
    a2a_extensions: None | str | Unset = UNSET,

) -> Response[Any | Problem]:
    """ Group A2A

     The group's A2A endpoint (JSON-RPC 2.0, A2A v1.0 method names; the group extension,
    `docs/reference/a2a-group-extension.md`). The group's conversation is one A2A task: its
    id is the group's id, its `contextId` the group's session.

    - `SendMessage`: the message is the caller's group post (its `messageId` the post's id:
      the same message again is the same post, another message under it is refused,
      `message-id-reused`); the answer is the group's task, its
      `status.message` the post with its `seq`.
    - `SendStreamingMessage`: the same post, then the conversation from there as a stream.
    - `SubscribeToTask` (`id`: the group's id): the group's task, then every later event of
      the group as a status update (a post is its `status.message`, with its sender in the
      extension's `source`), each SSE frame's `id` its seq. The `Last-Event-ID` header (a
      service parameter) resumes after that seq: every later event, once, from the store
      when the live path has moved on.
    - `GetTask` (`id`: the group's id): the group's task, its history the last `historyLength`
      posts that fit `AGENTHUB_MAX_PAGE_BYTES` (500 at most); `id` a task started in it: that.
    - `ListTasks`: the group's task, then the tasks started in it (100 at most, and as fit).
    - `ListGroupMessages` (the extension's; `after`: a seq, `limit`: 1 to 500): the posts
      after `after` (about `AGENTHUB_MAX_PAGE_BYTES` at most), and `nextCursor`, the next one.
    - `CancelTask`: `TaskNotCancelable` (the owner concludes a group).

    A member never receives its own posts. An `open` group admits whoever calls (it joins).
    Refusals are JSON-RPC errors whose `data` is a `google.rpc.ErrorInfo` with the hub's
    problem code (`not-your-turn`, `not-a-member`, …) in `metadata.code`; an `id` string over
    256 characters (echoed in every answer and event) is `InvalidRequest`, with a null `id`.

    **Who**: an agent taking part in the group, with the hub's access token or a token of
    the hub's OAuth endpoint whose `resource` was this endpoint's URL.

    **Errors** (HTTP, not JSON-RPC): `400` (`not-json-rpc`) for a body that is no JSON-RPC
    2.0 request; `401` without a good token; `429` (with `Retry-After`)
    for an agent posting faster than `AGENTHUB_POSTS_PER_SECOND_PER_AGENT`, or for a stream
    past its open streams; `503` when the replica admits no more streams or the store is
    busy (with `Retry-After`).

    Args:
        group_id (str):
        last_event_id (None | str | Unset):
        a2a_extensions (None | str | Unset):
        body (GroupA2ABody): A JSON-RPC 2.0 request (A2A v1.0 method names)

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Problem]
     """


    kwargs = _get_kwargs(
        group_id=group_id,
body=body,
last_event_id=last_event_id,
a2a_extensions=a2a_extensions,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    group_id: str,
    *,
    client: AuthenticatedClient,
    body: GroupA2ABody,
    last_event_id: None | str | Unset = UNSET,
    a2a_extensions: None | str | Unset = UNSET,

) -> Any | Problem | None:
    """ Group A2A

     The group's A2A endpoint (JSON-RPC 2.0, A2A v1.0 method names; the group extension,
    `docs/reference/a2a-group-extension.md`). The group's conversation is one A2A task: its
    id is the group's id, its `contextId` the group's session.

    - `SendMessage`: the message is the caller's group post (its `messageId` the post's id:
      the same message again is the same post, another message under it is refused,
      `message-id-reused`); the answer is the group's task, its
      `status.message` the post with its `seq`.
    - `SendStreamingMessage`: the same post, then the conversation from there as a stream.
    - `SubscribeToTask` (`id`: the group's id): the group's task, then every later event of
      the group as a status update (a post is its `status.message`, with its sender in the
      extension's `source`), each SSE frame's `id` its seq. The `Last-Event-ID` header (a
      service parameter) resumes after that seq: every later event, once, from the store
      when the live path has moved on.
    - `GetTask` (`id`: the group's id): the group's task, its history the last `historyLength`
      posts that fit `AGENTHUB_MAX_PAGE_BYTES` (500 at most); `id` a task started in it: that.
    - `ListTasks`: the group's task, then the tasks started in it (100 at most, and as fit).
    - `ListGroupMessages` (the extension's; `after`: a seq, `limit`: 1 to 500): the posts
      after `after` (about `AGENTHUB_MAX_PAGE_BYTES` at most), and `nextCursor`, the next one.
    - `CancelTask`: `TaskNotCancelable` (the owner concludes a group).

    A member never receives its own posts. An `open` group admits whoever calls (it joins).
    Refusals are JSON-RPC errors whose `data` is a `google.rpc.ErrorInfo` with the hub's
    problem code (`not-your-turn`, `not-a-member`, …) in `metadata.code`; an `id` string over
    256 characters (echoed in every answer and event) is `InvalidRequest`, with a null `id`.

    **Who**: an agent taking part in the group, with the hub's access token or a token of
    the hub's OAuth endpoint whose `resource` was this endpoint's URL.

    **Errors** (HTTP, not JSON-RPC): `400` (`not-json-rpc`) for a body that is no JSON-RPC
    2.0 request; `401` without a good token; `429` (with `Retry-After`)
    for an agent posting faster than `AGENTHUB_POSTS_PER_SECOND_PER_AGENT`, or for a stream
    past its open streams; `503` when the replica admits no more streams or the store is
    busy (with `Retry-After`).

    Args:
        group_id (str):
        last_event_id (None | str | Unset):
        a2a_extensions (None | str | Unset):
        body (GroupA2ABody): A JSON-RPC 2.0 request (A2A v1.0 method names)

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Problem
     """


    return (await asyncio_detailed(
        group_id=group_id,
client=client,
body=body,
last_event_id=last_event_id,
a2a_extensions=a2a_extensions,

    )).parsed
