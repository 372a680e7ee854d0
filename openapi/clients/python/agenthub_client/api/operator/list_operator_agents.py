from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.list_operator_agents_protocol_type_0 import ListOperatorAgentsProtocolType0
from ...models.list_operator_agents_status_type_0 import ListOperatorAgentsStatusType0
from ...models.operator_agent_page import OperatorAgentPage
from ...models.problem import Problem
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    *,
    q: None | str | Unset = UNSET,
    status: ListOperatorAgentsStatusType0 | None | Unset = UNSET,
    protocol: ListOperatorAgentsProtocolType0 | None | Unset = UNSET,
    skill: None | str | Unset = UNSET,
    tag: None | str | Unset = UNSET,
    provider: None | str | Unset = UNSET,
    limit: int | Unset = 50,
    cursor: None | str | Unset = UNSET,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    json_q: None | str | Unset
    if isinstance(q, Unset):
        json_q = UNSET
    else:
        json_q = q
    params["q"] = json_q

    json_status: None | str | Unset
    if isinstance(status, Unset):
        json_status = UNSET
    elif isinstance(status, ListOperatorAgentsStatusType0):
        json_status = status.value
    else:
        json_status = status
    params["status"] = json_status

    json_protocol: None | str | Unset
    if isinstance(protocol, Unset):
        json_protocol = UNSET
    elif isinstance(protocol, ListOperatorAgentsProtocolType0):
        json_protocol = protocol.value
    else:
        json_protocol = protocol
    params["protocol"] = json_protocol

    json_skill: None | str | Unset
    if isinstance(skill, Unset):
        json_skill = UNSET
    else:
        json_skill = skill
    params["skill"] = json_skill

    json_tag: None | str | Unset
    if isinstance(tag, Unset):
        json_tag = UNSET
    else:
        json_tag = tag
    params["tag"] = json_tag

    json_provider: None | str | Unset
    if isinstance(provider, Unset):
        json_provider = UNSET
    else:
        json_provider = provider
    params["provider"] = json_provider

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
        "url": "/v1/operator/agents",
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> OperatorAgentPage | Problem | None:
    if response.status_code == 200:
        response_200 = OperatorAgentPage.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[OperatorAgentPage | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    q: None | str | Unset = UNSET,
    status: ListOperatorAgentsStatusType0 | None | Unset = UNSET,
    protocol: ListOperatorAgentsProtocolType0 | None | Unset = UNSET,
    skill: None | str | Unset = UNSET,
    tag: None | str | Unset = UNSET,
    provider: None | str | Unset = UNSET,
    limit: int | Unset = 50,
    cursor: None | str | Unset = UNSET,

) -> Response[OperatorAgentPage | Problem]:
    """ List Operator Agents

     Every registered agent, as `GET /v1/agents` finds them for the operator (with `q`:
    ranked by relevance, best first, each with its `score`; without: by id), each card with
    its newest `certificate` from the hub's CA: `state` `none` (it never asked for one),
    `valid`, `expired` or `revoked`, with its `serial`, `notAfter` and `revokedAt`.

    **Who**: the operator (`AGENTHUB_OPERATOR_TOKEN`); an agent's access token is `403`
    (`operator-only`).

    **Errors**: `400` for a cursor this hub did not hand out; `422` for a bad parameter.

    Args:
        q (None | str | Unset):
        status (ListOperatorAgentsStatusType0 | None | Unset):
        protocol (ListOperatorAgentsProtocolType0 | None | Unset):
        skill (None | str | Unset):
        tag (None | str | Unset):
        provider (None | str | Unset):
        limit (int | Unset):  Default: 50.
        cursor (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[OperatorAgentPage | Problem]
     """


    kwargs = _get_kwargs(
        q=q,
status=status,
protocol=protocol,
skill=skill,
tag=tag,
provider=provider,
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
    q: None | str | Unset = UNSET,
    status: ListOperatorAgentsStatusType0 | None | Unset = UNSET,
    protocol: ListOperatorAgentsProtocolType0 | None | Unset = UNSET,
    skill: None | str | Unset = UNSET,
    tag: None | str | Unset = UNSET,
    provider: None | str | Unset = UNSET,
    limit: int | Unset = 50,
    cursor: None | str | Unset = UNSET,

) -> OperatorAgentPage | Problem | None:
    """ List Operator Agents

     Every registered agent, as `GET /v1/agents` finds them for the operator (with `q`:
    ranked by relevance, best first, each with its `score`; without: by id), each card with
    its newest `certificate` from the hub's CA: `state` `none` (it never asked for one),
    `valid`, `expired` or `revoked`, with its `serial`, `notAfter` and `revokedAt`.

    **Who**: the operator (`AGENTHUB_OPERATOR_TOKEN`); an agent's access token is `403`
    (`operator-only`).

    **Errors**: `400` for a cursor this hub did not hand out; `422` for a bad parameter.

    Args:
        q (None | str | Unset):
        status (ListOperatorAgentsStatusType0 | None | Unset):
        protocol (ListOperatorAgentsProtocolType0 | None | Unset):
        skill (None | str | Unset):
        tag (None | str | Unset):
        provider (None | str | Unset):
        limit (int | Unset):  Default: 50.
        cursor (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        OperatorAgentPage | Problem
     """


    return sync_detailed(
        client=client,
q=q,
status=status,
protocol=protocol,
skill=skill,
tag=tag,
provider=provider,
limit=limit,
cursor=cursor,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    q: None | str | Unset = UNSET,
    status: ListOperatorAgentsStatusType0 | None | Unset = UNSET,
    protocol: ListOperatorAgentsProtocolType0 | None | Unset = UNSET,
    skill: None | str | Unset = UNSET,
    tag: None | str | Unset = UNSET,
    provider: None | str | Unset = UNSET,
    limit: int | Unset = 50,
    cursor: None | str | Unset = UNSET,

) -> Response[OperatorAgentPage | Problem]:
    """ List Operator Agents

     Every registered agent, as `GET /v1/agents` finds them for the operator (with `q`:
    ranked by relevance, best first, each with its `score`; without: by id), each card with
    its newest `certificate` from the hub's CA: `state` `none` (it never asked for one),
    `valid`, `expired` or `revoked`, with its `serial`, `notAfter` and `revokedAt`.

    **Who**: the operator (`AGENTHUB_OPERATOR_TOKEN`); an agent's access token is `403`
    (`operator-only`).

    **Errors**: `400` for a cursor this hub did not hand out; `422` for a bad parameter.

    Args:
        q (None | str | Unset):
        status (ListOperatorAgentsStatusType0 | None | Unset):
        protocol (ListOperatorAgentsProtocolType0 | None | Unset):
        skill (None | str | Unset):
        tag (None | str | Unset):
        provider (None | str | Unset):
        limit (int | Unset):  Default: 50.
        cursor (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[OperatorAgentPage | Problem]
     """


    kwargs = _get_kwargs(
        q=q,
status=status,
protocol=protocol,
skill=skill,
tag=tag,
provider=provider,
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
    q: None | str | Unset = UNSET,
    status: ListOperatorAgentsStatusType0 | None | Unset = UNSET,
    protocol: ListOperatorAgentsProtocolType0 | None | Unset = UNSET,
    skill: None | str | Unset = UNSET,
    tag: None | str | Unset = UNSET,
    provider: None | str | Unset = UNSET,
    limit: int | Unset = 50,
    cursor: None | str | Unset = UNSET,

) -> OperatorAgentPage | Problem | None:
    """ List Operator Agents

     Every registered agent, as `GET /v1/agents` finds them for the operator (with `q`:
    ranked by relevance, best first, each with its `score`; without: by id), each card with
    its newest `certificate` from the hub's CA: `state` `none` (it never asked for one),
    `valid`, `expired` or `revoked`, with its `serial`, `notAfter` and `revokedAt`.

    **Who**: the operator (`AGENTHUB_OPERATOR_TOKEN`); an agent's access token is `403`
    (`operator-only`).

    **Errors**: `400` for a cursor this hub did not hand out; `422` for a bad parameter.

    Args:
        q (None | str | Unset):
        status (ListOperatorAgentsStatusType0 | None | Unset):
        protocol (ListOperatorAgentsProtocolType0 | None | Unset):
        skill (None | str | Unset):
        tag (None | str | Unset):
        provider (None | str | Unset):
        limit (int | Unset):  Default: 50.
        cursor (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        OperatorAgentPage | Problem
     """


    return (await asyncio_detailed(
        client=client,
q=q,
status=status,
protocol=protocol,
skill=skill,
tag=tag,
provider=provider,
limit=limit,
cursor=cursor,

    )).parsed
