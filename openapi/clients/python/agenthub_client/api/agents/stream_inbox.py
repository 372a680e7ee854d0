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
        "url": "/v1/agents/me/events",
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
    *,
    client: AuthenticatedClient,
    after: int | None | Unset = UNSET,
    last_event_id: None | str | Unset = UNSET,

) -> Response[Problem | str]:
    """ Stream Inbox

     The caller's inbox, as server-sent events: what is addressed to it. `member`: an
    invitation, or any change of its own membership; `application`: an application to a
    group it manages; `task`: a task command for it as partner; `trigger.fired`: a trigger it
    set has fired. Frames are `id: <seq>` (the inbox's own numbering), `event: <kind>`,
    `data: <json>`, with `: keep-alive` comments in between. The stream resumes after
    `Last-Event-ID` (or `?after=`; the header wins), else starts at the beginning.

    Generated clients leave this operation out: use the kit (`HubClient.inbox()` in the
    `agenthub` package), which resumes by itself, or any SSE client.

    **Who**: an agent, for its own inbox.

    **Errors**, before the stream opens: `400` for a `Last-Event-ID` that is not a seq.

    Args:
        after (int | None | Unset):
        last_event_id (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | str]
     """


    kwargs = _get_kwargs(
        after=after,
last_event_id=last_event_id,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient,
    after: int | None | Unset = UNSET,
    last_event_id: None | str | Unset = UNSET,

) -> Problem | str | None:
    """ Stream Inbox

     The caller's inbox, as server-sent events: what is addressed to it. `member`: an
    invitation, or any change of its own membership; `application`: an application to a
    group it manages; `task`: a task command for it as partner; `trigger.fired`: a trigger it
    set has fired. Frames are `id: <seq>` (the inbox's own numbering), `event: <kind>`,
    `data: <json>`, with `: keep-alive` comments in between. The stream resumes after
    `Last-Event-ID` (or `?after=`; the header wins), else starts at the beginning.

    Generated clients leave this operation out: use the kit (`HubClient.inbox()` in the
    `agenthub` package), which resumes by itself, or any SSE client.

    **Who**: an agent, for its own inbox.

    **Errors**, before the stream opens: `400` for a `Last-Event-ID` that is not a seq.

    Args:
        after (int | None | Unset):
        last_event_id (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | str
     """


    return sync_detailed(
        client=client,
after=after,
last_event_id=last_event_id,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    after: int | None | Unset = UNSET,
    last_event_id: None | str | Unset = UNSET,

) -> Response[Problem | str]:
    """ Stream Inbox

     The caller's inbox, as server-sent events: what is addressed to it. `member`: an
    invitation, or any change of its own membership; `application`: an application to a
    group it manages; `task`: a task command for it as partner; `trigger.fired`: a trigger it
    set has fired. Frames are `id: <seq>` (the inbox's own numbering), `event: <kind>`,
    `data: <json>`, with `: keep-alive` comments in between. The stream resumes after
    `Last-Event-ID` (or `?after=`; the header wins), else starts at the beginning.

    Generated clients leave this operation out: use the kit (`HubClient.inbox()` in the
    `agenthub` package), which resumes by itself, or any SSE client.

    **Who**: an agent, for its own inbox.

    **Errors**, before the stream opens: `400` for a `Last-Event-ID` that is not a seq.

    Args:
        after (int | None | Unset):
        last_event_id (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | str]
     """


    kwargs = _get_kwargs(
        after=after,
last_event_id=last_event_id,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient,
    after: int | None | Unset = UNSET,
    last_event_id: None | str | Unset = UNSET,

) -> Problem | str | None:
    """ Stream Inbox

     The caller's inbox, as server-sent events: what is addressed to it. `member`: an
    invitation, or any change of its own membership; `application`: an application to a
    group it manages; `task`: a task command for it as partner; `trigger.fired`: a trigger it
    set has fired. Frames are `id: <seq>` (the inbox's own numbering), `event: <kind>`,
    `data: <json>`, with `: keep-alive` comments in between. The stream resumes after
    `Last-Event-ID` (or `?after=`; the header wins), else starts at the beginning.

    Generated clients leave this operation out: use the kit (`HubClient.inbox()` in the
    `agenthub` package), which resumes by itself, or any SSE client.

    **Who**: an agent, for its own inbox.

    **Errors**, before the stream opens: `400` for a `Last-Event-ID` that is not a seq.

    Args:
        after (int | None | Unset):
        last_event_id (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | str
     """


    return (await asyncio_detailed(
        client=client,
after=after,
last_event_id=last_event_id,

    )).parsed
