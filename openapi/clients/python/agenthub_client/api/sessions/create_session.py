from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.problem import Problem
from ...models.session_create import SessionCreate
from ...models.session_view import SessionView
from typing import cast



def _get_kwargs(
    *,
    body: SessionCreate,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/sessions",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Problem | SessionView | None:
    if response.status_code == 201:
        response_201 = SessionView.from_dict(response.json())



        return response_201

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())



        return response_401

    if response.status_code == 409:
        response_409 = Problem.from_dict(response.json())



        return response_409

    if response.status_code == 413:
        response_413 = Problem.from_dict(response.json())



        return response_413

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Problem | SessionView]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: SessionCreate,

) -> Response[Problem | SessionView]:
    """ Create Session

     Open a session: the caller is its leader (`sender`) and names its `receivers`, each
    reached point to point (`p2p`, with optional `params` such as the AIP method) or through
    a group (`group`), or both (hybrid: the same agent once in each mode, each with its own
    `params`). A receiver's mode binds it: one declared `group` only is no partner of the
    session's point-to-point tasks, one declared `p2p` only is not placed in its groups.
    The hub picks the `id` unless the body carries one. Answers `201` with the session and a
    `Location` header.

    A `bridge` session records a task the leader serves for a caller of another protocol
    (`protocol: "a2a"`, the caller's `contextId`, and `callerId` when the caller proved to be
    a registered agent): the caller records nothing, so the leader records both sides, its
    caller's commands as the task's leader and its own answers as its partner. Its only
    receiver is the leader itself, in mode `p2p`; its tasks name the leader as their partner.

    **Who**: an agent, which becomes the leader.

    **Errors**: `409` when the `id` is taken; `422` for an unregistered receiver, one
    repeated in the same mode, or the leader among the receivers (of a session that is no
    bridge), or (`bridge-receivers`) a bridge session with any receivers but the leader
    alone in mode `p2p`, or an unregistered `callerId`.

    Args:
        body (SessionCreate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | SessionView]
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
    body: SessionCreate,

) -> Problem | SessionView | None:
    """ Create Session

     Open a session: the caller is its leader (`sender`) and names its `receivers`, each
    reached point to point (`p2p`, with optional `params` such as the AIP method) or through
    a group (`group`), or both (hybrid: the same agent once in each mode, each with its own
    `params`). A receiver's mode binds it: one declared `group` only is no partner of the
    session's point-to-point tasks, one declared `p2p` only is not placed in its groups.
    The hub picks the `id` unless the body carries one. Answers `201` with the session and a
    `Location` header.

    A `bridge` session records a task the leader serves for a caller of another protocol
    (`protocol: "a2a"`, the caller's `contextId`, and `callerId` when the caller proved to be
    a registered agent): the caller records nothing, so the leader records both sides, its
    caller's commands as the task's leader and its own answers as its partner. Its only
    receiver is the leader itself, in mode `p2p`; its tasks name the leader as their partner.

    **Who**: an agent, which becomes the leader.

    **Errors**: `409` when the `id` is taken; `422` for an unregistered receiver, one
    repeated in the same mode, or the leader among the receivers (of a session that is no
    bridge), or (`bridge-receivers`) a bridge session with any receivers but the leader
    alone in mode `p2p`, or an unregistered `callerId`.

    Args:
        body (SessionCreate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | SessionView
     """


    return sync_detailed(
        client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: SessionCreate,

) -> Response[Problem | SessionView]:
    """ Create Session

     Open a session: the caller is its leader (`sender`) and names its `receivers`, each
    reached point to point (`p2p`, with optional `params` such as the AIP method) or through
    a group (`group`), or both (hybrid: the same agent once in each mode, each with its own
    `params`). A receiver's mode binds it: one declared `group` only is no partner of the
    session's point-to-point tasks, one declared `p2p` only is not placed in its groups.
    The hub picks the `id` unless the body carries one. Answers `201` with the session and a
    `Location` header.

    A `bridge` session records a task the leader serves for a caller of another protocol
    (`protocol: "a2a"`, the caller's `contextId`, and `callerId` when the caller proved to be
    a registered agent): the caller records nothing, so the leader records both sides, its
    caller's commands as the task's leader and its own answers as its partner. Its only
    receiver is the leader itself, in mode `p2p`; its tasks name the leader as their partner.

    **Who**: an agent, which becomes the leader.

    **Errors**: `409` when the `id` is taken; `422` for an unregistered receiver, one
    repeated in the same mode, or the leader among the receivers (of a session that is no
    bridge), or (`bridge-receivers`) a bridge session with any receivers but the leader
    alone in mode `p2p`, or an unregistered `callerId`.

    Args:
        body (SessionCreate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | SessionView]
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
    body: SessionCreate,

) -> Problem | SessionView | None:
    """ Create Session

     Open a session: the caller is its leader (`sender`) and names its `receivers`, each
    reached point to point (`p2p`, with optional `params` such as the AIP method) or through
    a group (`group`), or both (hybrid: the same agent once in each mode, each with its own
    `params`). A receiver's mode binds it: one declared `group` only is no partner of the
    session's point-to-point tasks, one declared `p2p` only is not placed in its groups.
    The hub picks the `id` unless the body carries one. Answers `201` with the session and a
    `Location` header.

    A `bridge` session records a task the leader serves for a caller of another protocol
    (`protocol: "a2a"`, the caller's `contextId`, and `callerId` when the caller proved to be
    a registered agent): the caller records nothing, so the leader records both sides, its
    caller's commands as the task's leader and its own answers as its partner. Its only
    receiver is the leader itself, in mode `p2p`; its tasks name the leader as their partner.

    **Who**: an agent, which becomes the leader.

    **Errors**: `409` when the `id` is taken; `422` for an unregistered receiver, one
    repeated in the same mode, or the leader among the receivers (of a session that is no
    bridge), or (`bridge-receivers`) a bridge session with any receivers but the leader
    alone in mode `p2p`, or an unregistered `callerId`.

    Args:
        body (SessionCreate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | SessionView
     """


    return (await asyncio_detailed(
        client=client,
body=body,

    )).parsed
