from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.agent_page import AgentPage
from ...models.list_agents_protocol_type_0 import ListAgentsProtocolType0
from ...models.list_agents_status_type_0 import ListAgentsStatusType0
from ...models.problem import Problem
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    *,
    q: None | str | Unset = UNSET,
    skill: None | str | Unset = UNSET,
    tag: None | str | Unset = UNSET,
    status: ListAgentsStatusType0 | None | Unset = UNSET,
    provider: None | str | Unset = UNSET,
    protocol: ListAgentsProtocolType0 | None | Unset = UNSET,
    include_self: bool | Unset = False,
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

    json_status: None | str | Unset
    if isinstance(status, Unset):
        json_status = UNSET
    elif isinstance(status, ListAgentsStatusType0):
        json_status = status.value
    else:
        json_status = status
    params["status"] = json_status

    json_provider: None | str | Unset
    if isinstance(provider, Unset):
        json_provider = UNSET
    else:
        json_provider = provider
    params["provider"] = json_provider

    json_protocol: None | str | Unset
    if isinstance(protocol, Unset):
        json_protocol = UNSET
    elif isinstance(protocol, ListAgentsProtocolType0):
        json_protocol = protocol.value
    else:
        json_protocol = protocol
    params["protocol"] = json_protocol

    params["includeSelf"] = include_self

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
        "url": "/v1/agents",
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> AgentPage | Problem | None:
    if response.status_code == 200:
        response_200 = AgentPage.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[AgentPage | Problem]:
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
    skill: None | str | Unset = UNSET,
    tag: None | str | Unset = UNSET,
    status: ListAgentsStatusType0 | None | Unset = UNSET,
    provider: None | str | Unset = UNSET,
    protocol: ListAgentsProtocolType0 | None | Unset = UNSET,
    include_self: bool | Unset = False,
    limit: int | Unset = 50,
    cursor: None | str | Unset = UNSET,

) -> Response[AgentPage | Problem]:
    """ List Agents

     Discovery. With `q`, the agents best able to help with a described need, best first,
    each with a relevance `score` (to name, description and skills); without `q`, every
    agent, by id. `skill`, `tag`, `status`, `provider` and `protocol` filter (together: all
    of them); the answer pages with
    `limit` and the previous page's `nextCursor`.

    **Who**: an agent, which is left out of the answer unless `includeSelf=true`; or the
    operator, who sees every agent (it has no self: `includeSelf` changes nothing).

    **Errors**: `400` for a cursor this hub did not hand out; `422` for a bad parameter
    (`limit` outside 1 to 500, an unknown `status` or `protocol`).

    Args:
        q (None | str | Unset): a described need; ranked by relevance to name, description and
            skills (words only: search operators and quotes are plain text)
        skill (None | str | Unset):
        tag (None | str | Unset):
        status (ListAgentsStatusType0 | None | Unset):
        provider (None | str | Unset):
        protocol (ListAgentsProtocolType0 | None | Unset): only agents reached by this protocol
            (as their cards' `protocols` show)
        include_self (bool | Unset):  Default: False.
        limit (int | Unset):  Default: 50.
        cursor (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AgentPage | Problem]
     """


    kwargs = _get_kwargs(
        q=q,
skill=skill,
tag=tag,
status=status,
provider=provider,
protocol=protocol,
include_self=include_self,
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
    skill: None | str | Unset = UNSET,
    tag: None | str | Unset = UNSET,
    status: ListAgentsStatusType0 | None | Unset = UNSET,
    provider: None | str | Unset = UNSET,
    protocol: ListAgentsProtocolType0 | None | Unset = UNSET,
    include_self: bool | Unset = False,
    limit: int | Unset = 50,
    cursor: None | str | Unset = UNSET,

) -> AgentPage | Problem | None:
    """ List Agents

     Discovery. With `q`, the agents best able to help with a described need, best first,
    each with a relevance `score` (to name, description and skills); without `q`, every
    agent, by id. `skill`, `tag`, `status`, `provider` and `protocol` filter (together: all
    of them); the answer pages with
    `limit` and the previous page's `nextCursor`.

    **Who**: an agent, which is left out of the answer unless `includeSelf=true`; or the
    operator, who sees every agent (it has no self: `includeSelf` changes nothing).

    **Errors**: `400` for a cursor this hub did not hand out; `422` for a bad parameter
    (`limit` outside 1 to 500, an unknown `status` or `protocol`).

    Args:
        q (None | str | Unset): a described need; ranked by relevance to name, description and
            skills (words only: search operators and quotes are plain text)
        skill (None | str | Unset):
        tag (None | str | Unset):
        status (ListAgentsStatusType0 | None | Unset):
        provider (None | str | Unset):
        protocol (ListAgentsProtocolType0 | None | Unset): only agents reached by this protocol
            (as their cards' `protocols` show)
        include_self (bool | Unset):  Default: False.
        limit (int | Unset):  Default: 50.
        cursor (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AgentPage | Problem
     """


    return sync_detailed(
        client=client,
q=q,
skill=skill,
tag=tag,
status=status,
provider=provider,
protocol=protocol,
include_self=include_self,
limit=limit,
cursor=cursor,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    q: None | str | Unset = UNSET,
    skill: None | str | Unset = UNSET,
    tag: None | str | Unset = UNSET,
    status: ListAgentsStatusType0 | None | Unset = UNSET,
    provider: None | str | Unset = UNSET,
    protocol: ListAgentsProtocolType0 | None | Unset = UNSET,
    include_self: bool | Unset = False,
    limit: int | Unset = 50,
    cursor: None | str | Unset = UNSET,

) -> Response[AgentPage | Problem]:
    """ List Agents

     Discovery. With `q`, the agents best able to help with a described need, best first,
    each with a relevance `score` (to name, description and skills); without `q`, every
    agent, by id. `skill`, `tag`, `status`, `provider` and `protocol` filter (together: all
    of them); the answer pages with
    `limit` and the previous page's `nextCursor`.

    **Who**: an agent, which is left out of the answer unless `includeSelf=true`; or the
    operator, who sees every agent (it has no self: `includeSelf` changes nothing).

    **Errors**: `400` for a cursor this hub did not hand out; `422` for a bad parameter
    (`limit` outside 1 to 500, an unknown `status` or `protocol`).

    Args:
        q (None | str | Unset): a described need; ranked by relevance to name, description and
            skills (words only: search operators and quotes are plain text)
        skill (None | str | Unset):
        tag (None | str | Unset):
        status (ListAgentsStatusType0 | None | Unset):
        provider (None | str | Unset):
        protocol (ListAgentsProtocolType0 | None | Unset): only agents reached by this protocol
            (as their cards' `protocols` show)
        include_self (bool | Unset):  Default: False.
        limit (int | Unset):  Default: 50.
        cursor (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AgentPage | Problem]
     """


    kwargs = _get_kwargs(
        q=q,
skill=skill,
tag=tag,
status=status,
provider=provider,
protocol=protocol,
include_self=include_self,
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
    skill: None | str | Unset = UNSET,
    tag: None | str | Unset = UNSET,
    status: ListAgentsStatusType0 | None | Unset = UNSET,
    provider: None | str | Unset = UNSET,
    protocol: ListAgentsProtocolType0 | None | Unset = UNSET,
    include_self: bool | Unset = False,
    limit: int | Unset = 50,
    cursor: None | str | Unset = UNSET,

) -> AgentPage | Problem | None:
    """ List Agents

     Discovery. With `q`, the agents best able to help with a described need, best first,
    each with a relevance `score` (to name, description and skills); without `q`, every
    agent, by id. `skill`, `tag`, `status`, `provider` and `protocol` filter (together: all
    of them); the answer pages with
    `limit` and the previous page's `nextCursor`.

    **Who**: an agent, which is left out of the answer unless `includeSelf=true`; or the
    operator, who sees every agent (it has no self: `includeSelf` changes nothing).

    **Errors**: `400` for a cursor this hub did not hand out; `422` for a bad parameter
    (`limit` outside 1 to 500, an unknown `status` or `protocol`).

    Args:
        q (None | str | Unset): a described need; ranked by relevance to name, description and
            skills (words only: search operators and quotes are plain text)
        skill (None | str | Unset):
        tag (None | str | Unset):
        status (ListAgentsStatusType0 | None | Unset):
        provider (None | str | Unset):
        protocol (ListAgentsProtocolType0 | None | Unset): only agents reached by this protocol
            (as their cards' `protocols` show)
        include_self (bool | Unset):  Default: False.
        limit (int | Unset):  Default: 50.
        cursor (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AgentPage | Problem
     """


    return (await asyncio_detailed(
        client=client,
q=q,
skill=skill,
tag=tag,
status=status,
provider=provider,
protocol=protocol,
include_self=include_self,
limit=limit,
cursor=cursor,

    )).parsed
