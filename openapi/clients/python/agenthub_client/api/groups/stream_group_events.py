from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.problem import Problem
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    group_id: str,
    *,
    after: int | None | Unset = UNSET,
    last_event_id: None | str | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(last_event_id, Unset):
        headers["Last-Event-ID"] = last_event_id



    

    params: dict[str, Any] = {}

    json_after: int | None | Unset
    if isinstance(after, Unset):
        json_after = UNSET
    else:
        json_after = after
    params["after"] = json_after


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/groups/{group_id}/events".format(group_id=quote(str(group_id), safe=""),),
        "params": params,
    }


    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Problem | str | None:
    if response.status_code == 200:
        response_200 = response.text
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

    if response.status_code == 422:
        response_422 = Problem.from_dict(response.json())



        return response_422

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Problem | str]:
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
    after: int | None | Unset = UNSET,
    last_event_id: None | str | Unset = UNSET,

) -> Response[Problem | str]:
    """ Stream Group Events

     The group's events, as server-sent events, after a seq: `message` (another member's
    post), `member` (a membership change), `state` (a conversation move) and `trigger.fired`.
    Frames are `id: <seq>`, `event: <kind>`, `data: <json>`, with `: keep-alive` comments in
    between. The stream resumes after `Last-Event-ID` (or `?after=`; the header wins), else
    starts at the beginning. A member never receives its own messages; the stream ends after
    the `member` event that ends the caller's membership.

    Generated clients leave this operation out: use the kit (`HubClient.groups.events(...)`
    in the `agenthub` package), which resumes by itself, or any SSE client.

    **Who**: an active member.

    **Errors**, before the stream opens: `400` for a `Last-Event-ID` that is not a seq;
    `403` for a viewer who is not an active member; `404` for a group the caller may not see.

    Args:
        group_id (str):
        after (int | None | Unset):
        last_event_id (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | str]
     """


    kwargs = _get_kwargs(
        group_id=group_id,
after=after,
last_event_id=last_event_id,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    group_id: str,
    *,
    client: AuthenticatedClient,
    after: int | None | Unset = UNSET,
    last_event_id: None | str | Unset = UNSET,

) -> Problem | str | None:
    """ Stream Group Events

     The group's events, as server-sent events, after a seq: `message` (another member's
    post), `member` (a membership change), `state` (a conversation move) and `trigger.fired`.
    Frames are `id: <seq>`, `event: <kind>`, `data: <json>`, with `: keep-alive` comments in
    between. The stream resumes after `Last-Event-ID` (or `?after=`; the header wins), else
    starts at the beginning. A member never receives its own messages; the stream ends after
    the `member` event that ends the caller's membership.

    Generated clients leave this operation out: use the kit (`HubClient.groups.events(...)`
    in the `agenthub` package), which resumes by itself, or any SSE client.

    **Who**: an active member.

    **Errors**, before the stream opens: `400` for a `Last-Event-ID` that is not a seq;
    `403` for a viewer who is not an active member; `404` for a group the caller may not see.

    Args:
        group_id (str):
        after (int | None | Unset):
        last_event_id (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | str
     """


    return sync_detailed(
        group_id=group_id,
client=client,
after=after,
last_event_id=last_event_id,

    ).parsed

async def asyncio_detailed(
    group_id: str,
    *,
    client: AuthenticatedClient,
    after: int | None | Unset = UNSET,
    last_event_id: None | str | Unset = UNSET,

) -> Response[Problem | str]:
    """ Stream Group Events

     The group's events, as server-sent events, after a seq: `message` (another member's
    post), `member` (a membership change), `state` (a conversation move) and `trigger.fired`.
    Frames are `id: <seq>`, `event: <kind>`, `data: <json>`, with `: keep-alive` comments in
    between. The stream resumes after `Last-Event-ID` (or `?after=`; the header wins), else
    starts at the beginning. A member never receives its own messages; the stream ends after
    the `member` event that ends the caller's membership.

    Generated clients leave this operation out: use the kit (`HubClient.groups.events(...)`
    in the `agenthub` package), which resumes by itself, or any SSE client.

    **Who**: an active member.

    **Errors**, before the stream opens: `400` for a `Last-Event-ID` that is not a seq;
    `403` for a viewer who is not an active member; `404` for a group the caller may not see.

    Args:
        group_id (str):
        after (int | None | Unset):
        last_event_id (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | str]
     """


    kwargs = _get_kwargs(
        group_id=group_id,
after=after,
last_event_id=last_event_id,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    group_id: str,
    *,
    client: AuthenticatedClient,
    after: int | None | Unset = UNSET,
    last_event_id: None | str | Unset = UNSET,

) -> Problem | str | None:
    """ Stream Group Events

     The group's events, as server-sent events, after a seq: `message` (another member's
    post), `member` (a membership change), `state` (a conversation move) and `trigger.fired`.
    Frames are `id: <seq>`, `event: <kind>`, `data: <json>`, with `: keep-alive` comments in
    between. The stream resumes after `Last-Event-ID` (or `?after=`; the header wins), else
    starts at the beginning. A member never receives its own messages; the stream ends after
    the `member` event that ends the caller's membership.

    Generated clients leave this operation out: use the kit (`HubClient.groups.events(...)`
    in the `agenthub` package), which resumes by itself, or any SSE client.

    **Who**: an active member.

    **Errors**, before the stream opens: `400` for a `Last-Event-ID` that is not a seq;
    `403` for a viewer who is not an active member; `404` for a group the caller may not see.

    Args:
        group_id (str):
        after (int | None | Unset):
        last_event_id (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | str
     """


    return (await asyncio_detailed(
        group_id=group_id,
client=client,
after=after,
last_event_id=last_event_id,

    )).parsed
