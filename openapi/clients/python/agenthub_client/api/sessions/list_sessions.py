from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.list_sessions_state_type_0 import ListSessionsStateType0
from ...models.problem import Problem
from ...models.session_page import SessionPage
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    *,
    state: ListSessionsStateType0 | None | Unset = UNSET,
    limit: int | Unset = 50,
    cursor: None | str | Unset = UNSET,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    json_state: None | str | Unset
    if isinstance(state, Unset):
        json_state = UNSET
    elif isinstance(state, ListSessionsStateType0):
        json_state = state.value
    else:
        json_state = state
    params["state"] = json_state

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
        "url": "/v1/sessions",
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Problem | SessionPage | None:
    if response.status_code == 200:
        response_200 = SessionPage.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Problem | SessionPage]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    state: ListSessionsStateType0 | None | Unset = UNSET,
    limit: int | Unset = 50,
    cursor: None | str | Unset = UNSET,

) -> Response[Problem | SessionPage]:
    """ List Sessions

     The sessions the caller takes part in (as leader or receiver), optionally only the
    `open` or the `closed` ones; the answer pages with `limit` and the previous page's
    `nextCursor`.

    **Who**: an agent.

    **Errors**: `400` for a cursor this hub did not hand out; `422` for a bad parameter.

    Args:
        state (ListSessionsStateType0 | None | Unset):
        limit (int | Unset):  Default: 50.
        cursor (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | SessionPage]
     """


    kwargs = _get_kwargs(
        state=state,
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
    state: ListSessionsStateType0 | None | Unset = UNSET,
    limit: int | Unset = 50,
    cursor: None | str | Unset = UNSET,

) -> Problem | SessionPage | None:
    """ List Sessions

     The sessions the caller takes part in (as leader or receiver), optionally only the
    `open` or the `closed` ones; the answer pages with `limit` and the previous page's
    `nextCursor`.

    **Who**: an agent.

    **Errors**: `400` for a cursor this hub did not hand out; `422` for a bad parameter.

    Args:
        state (ListSessionsStateType0 | None | Unset):
        limit (int | Unset):  Default: 50.
        cursor (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | SessionPage
     """


    return sync_detailed(
        client=client,
state=state,
limit=limit,
cursor=cursor,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    state: ListSessionsStateType0 | None | Unset = UNSET,
    limit: int | Unset = 50,
    cursor: None | str | Unset = UNSET,

) -> Response[Problem | SessionPage]:
    """ List Sessions

     The sessions the caller takes part in (as leader or receiver), optionally only the
    `open` or the `closed` ones; the answer pages with `limit` and the previous page's
    `nextCursor`.

    **Who**: an agent.

    **Errors**: `400` for a cursor this hub did not hand out; `422` for a bad parameter.

    Args:
        state (ListSessionsStateType0 | None | Unset):
        limit (int | Unset):  Default: 50.
        cursor (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | SessionPage]
     """


    kwargs = _get_kwargs(
        state=state,
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
    state: ListSessionsStateType0 | None | Unset = UNSET,
    limit: int | Unset = 50,
    cursor: None | str | Unset = UNSET,

) -> Problem | SessionPage | None:
    """ List Sessions

     The sessions the caller takes part in (as leader or receiver), optionally only the
    `open` or the `closed` ones; the answer pages with `limit` and the previous page's
    `nextCursor`.

    **Who**: an agent.

    **Errors**: `400` for a cursor this hub did not hand out; `422` for a bad parameter.

    Args:
        state (ListSessionsStateType0 | None | Unset):
        limit (int | Unset):  Default: 50.
        cursor (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | SessionPage
     """


    return (await asyncio_detailed(
        client=client,
state=state,
limit=limit,
cursor=cursor,

    )).parsed
