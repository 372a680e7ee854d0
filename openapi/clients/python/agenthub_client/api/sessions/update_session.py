from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.problem import Problem
from ...models.session_update import SessionUpdate
from ...models.session_view import SessionView
from typing import cast



def _get_kwargs(
    session_id: str,
    *,
    body: SessionUpdate,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "patch",
        "url": "/v1/sessions/{session_id}".format(session_id=quote(str(session_id), safe=""),),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Problem | SessionView | None:
    if response.status_code == 200:
        response_200 = SessionView.from_dict(response.json())



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
    session_id: str,
    *,
    client: AuthenticatedClient,
    body: SessionUpdate,

) -> Response[Problem | SessionView]:
    """ Update Session

     Change a session: `title`, `goal`, `receivers` (the whole list), or close it with
    `{"state": "closed"}` (closed stays closed: nothing more is recorded in it). Closing
    releases the session: each task still open gets `releasedAt` (its `state` stays) and a
    `task.released` event goes to its partner's and leader's inboxes (and its group's
    stream); its groups move to `conclusion`.

    **Who**: the session's leader.

    **Errors**: `400` for a patch that changes nothing; `403` for another participant;
    `404` for a session the caller takes no part in; `409` for a change to a closed session;
    `422` for a bad receiver, or (`bridge-receivers`) any change of a bridge session's.

    Args:
        session_id (str):
        body (SessionUpdate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | SessionView]
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
    body: SessionUpdate,

) -> Problem | SessionView | None:
    """ Update Session

     Change a session: `title`, `goal`, `receivers` (the whole list), or close it with
    `{"state": "closed"}` (closed stays closed: nothing more is recorded in it). Closing
    releases the session: each task still open gets `releasedAt` (its `state` stays) and a
    `task.released` event goes to its partner's and leader's inboxes (and its group's
    stream); its groups move to `conclusion`.

    **Who**: the session's leader.

    **Errors**: `400` for a patch that changes nothing; `403` for another participant;
    `404` for a session the caller takes no part in; `409` for a change to a closed session;
    `422` for a bad receiver, or (`bridge-receivers`) any change of a bridge session's.

    Args:
        session_id (str):
        body (SessionUpdate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | SessionView
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
    body: SessionUpdate,

) -> Response[Problem | SessionView]:
    """ Update Session

     Change a session: `title`, `goal`, `receivers` (the whole list), or close it with
    `{"state": "closed"}` (closed stays closed: nothing more is recorded in it). Closing
    releases the session: each task still open gets `releasedAt` (its `state` stays) and a
    `task.released` event goes to its partner's and leader's inboxes (and its group's
    stream); its groups move to `conclusion`.

    **Who**: the session's leader.

    **Errors**: `400` for a patch that changes nothing; `403` for another participant;
    `404` for a session the caller takes no part in; `409` for a change to a closed session;
    `422` for a bad receiver, or (`bridge-receivers`) any change of a bridge session's.

    Args:
        session_id (str):
        body (SessionUpdate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | SessionView]
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
    body: SessionUpdate,

) -> Problem | SessionView | None:
    """ Update Session

     Change a session: `title`, `goal`, `receivers` (the whole list), or close it with
    `{"state": "closed"}` (closed stays closed: nothing more is recorded in it). Closing
    releases the session: each task still open gets `releasedAt` (its `state` stays) and a
    `task.released` event goes to its partner's and leader's inboxes (and its group's
    stream); its groups move to `conclusion`.

    **Who**: the session's leader.

    **Errors**: `400` for a patch that changes nothing; `403` for another participant;
    `404` for a session the caller takes no part in; `409` for a change to a closed session;
    `422` for a bad receiver, or (`bridge-receivers`) any change of a bridge session's.

    Args:
        session_id (str):
        body (SessionUpdate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | SessionView
     """


    return (await asyncio_detailed(
        session_id=session_id,
client=client,
body=body,

    )).parsed
