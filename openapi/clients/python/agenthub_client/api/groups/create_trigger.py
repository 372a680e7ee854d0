from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.problem import Problem
from ...models.trigger_create import TriggerCreate
from ...models.trigger_view import TriggerView
from typing import cast



def _get_kwargs(
    group_id: str,
    *,
    body: TriggerCreate,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/groups/{group_id}/triggers".format(group_id=quote(str(group_id), safe=""),),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Problem | TriggerView | None:
    if response.status_code == 201:
        response_201 = TriggerView.from_dict(response.json())



        return response_201

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Problem | TriggerView]:
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
    body: TriggerCreate,

) -> Response[Problem | TriggerView]:
    """ Create Trigger

     Set a trigger (`201`): a `trigger.fired` event in the group's stream (and in the
    setter's inbox) once all of `taskIds` are in a final state, or when `timeoutSeconds`
    pass first; it fires exactly once. A group in `pause-and-trigger` moves back to
    `discussion` when a trigger fires.

    **Who**: the group's owner or an admin, or the operator.

    **Errors**: `403` for other members; `404` for a group the caller may not see; `409`
    when the group has concluded (`group-concluded`); `422` for a task not in the group's session.

    Args:
        group_id (str):
        body (TriggerCreate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | TriggerView]
     """


    kwargs = _get_kwargs(
        group_id=group_id,
body=body,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    group_id: str,
    *,
    client: AuthenticatedClient,
    body: TriggerCreate,

) -> Problem | TriggerView | None:
    """ Create Trigger

     Set a trigger (`201`): a `trigger.fired` event in the group's stream (and in the
    setter's inbox) once all of `taskIds` are in a final state, or when `timeoutSeconds`
    pass first; it fires exactly once. A group in `pause-and-trigger` moves back to
    `discussion` when a trigger fires.

    **Who**: the group's owner or an admin, or the operator.

    **Errors**: `403` for other members; `404` for a group the caller may not see; `409`
    when the group has concluded (`group-concluded`); `422` for a task not in the group's session.

    Args:
        group_id (str):
        body (TriggerCreate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | TriggerView
     """


    return sync_detailed(
        group_id=group_id,
client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    group_id: str,
    *,
    client: AuthenticatedClient,
    body: TriggerCreate,

) -> Response[Problem | TriggerView]:
    """ Create Trigger

     Set a trigger (`201`): a `trigger.fired` event in the group's stream (and in the
    setter's inbox) once all of `taskIds` are in a final state, or when `timeoutSeconds`
    pass first; it fires exactly once. A group in `pause-and-trigger` moves back to
    `discussion` when a trigger fires.

    **Who**: the group's owner or an admin, or the operator.

    **Errors**: `403` for other members; `404` for a group the caller may not see; `409`
    when the group has concluded (`group-concluded`); `422` for a task not in the group's session.

    Args:
        group_id (str):
        body (TriggerCreate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | TriggerView]
     """


    kwargs = _get_kwargs(
        group_id=group_id,
body=body,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    group_id: str,
    *,
    client: AuthenticatedClient,
    body: TriggerCreate,

) -> Problem | TriggerView | None:
    """ Create Trigger

     Set a trigger (`201`): a `trigger.fired` event in the group's stream (and in the
    setter's inbox) once all of `taskIds` are in a final state, or when `timeoutSeconds`
    pass first; it fires exactly once. A group in `pause-and-trigger` moves back to
    `discussion` when a trigger fires.

    **Who**: the group's owner or an admin, or the operator.

    **Errors**: `403` for other members; `404` for a group the caller may not see; `409`
    when the group has concluded (`group-concluded`); `422` for a task not in the group's session.

    Args:
        group_id (str):
        body (TriggerCreate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | TriggerView
     """


    return (await asyncio_detailed(
        group_id=group_id,
client=client,
body=body,

    )).parsed
