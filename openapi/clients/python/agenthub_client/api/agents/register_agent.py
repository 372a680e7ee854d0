from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.agent_card import AgentCard
from ...models.agent_registration import AgentRegistration
from ...models.problem import Problem
from typing import cast



def _get_kwargs(
    *,
    body: AgentRegistration,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/agents",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> AgentCard | Problem | None:
    if response.status_code == 201:
        response_201 = AgentCard.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[AgentCard | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: AgentRegistration,

) -> Response[AgentCard | Problem]:
    """ Register Agent

     Register an agent: its card (name, description, skills, an optional `endpointUrl` for
    point-to-point calls) and the P-256 public key (`publicJwk`, no private part) it signs
    its assertions with. The hub gives it an id (an AIC) and answers `201` with the card and
    a `Location` header.

    **Who**: a holder of the registration token or the operator token; anyone, with no
    token, when the hub runs with open registration (`AGENTHUB_OPEN_REGISTRATION=true`).

    **Errors**: `401` without an accepted token, checked before the body (strangers learn
    nothing from validation errors); `409` when another agent is registered with the same
    key, or (`aic-taken`) when the certificate's AIC is or was registered; `422` for a bad
    card or key (a private `d`, a point off the curve, duplicate skill ids, unknown fields),
    or (`certificate-not-trusted`) a certificate no trusted CA vouches for as a TLS client's,
    that names no AIC (SAN URI `acps://{AIC}`) or certifies another key.

    An agent that already holds an AIC and a certificate for it from a CA the hub trusts
    (`AGENTHUB_TRUSTED_CA_FILE`, e.g. the ACPs CA) sends it as `certificate` and is
    registered under that AIC.

    Args:
        body (AgentRegistration):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AgentCard | Problem]
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
    body: AgentRegistration,

) -> AgentCard | Problem | None:
    """ Register Agent

     Register an agent: its card (name, description, skills, an optional `endpointUrl` for
    point-to-point calls) and the P-256 public key (`publicJwk`, no private part) it signs
    its assertions with. The hub gives it an id (an AIC) and answers `201` with the card and
    a `Location` header.

    **Who**: a holder of the registration token or the operator token; anyone, with no
    token, when the hub runs with open registration (`AGENTHUB_OPEN_REGISTRATION=true`).

    **Errors**: `401` without an accepted token, checked before the body (strangers learn
    nothing from validation errors); `409` when another agent is registered with the same
    key, or (`aic-taken`) when the certificate's AIC is or was registered; `422` for a bad
    card or key (a private `d`, a point off the curve, duplicate skill ids, unknown fields),
    or (`certificate-not-trusted`) a certificate no trusted CA vouches for as a TLS client's,
    that names no AIC (SAN URI `acps://{AIC}`) or certifies another key.

    An agent that already holds an AIC and a certificate for it from a CA the hub trusts
    (`AGENTHUB_TRUSTED_CA_FILE`, e.g. the ACPs CA) sends it as `certificate` and is
    registered under that AIC.

    Args:
        body (AgentRegistration):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AgentCard | Problem
     """


    return sync_detailed(
        client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: AgentRegistration,

) -> Response[AgentCard | Problem]:
    """ Register Agent

     Register an agent: its card (name, description, skills, an optional `endpointUrl` for
    point-to-point calls) and the P-256 public key (`publicJwk`, no private part) it signs
    its assertions with. The hub gives it an id (an AIC) and answers `201` with the card and
    a `Location` header.

    **Who**: a holder of the registration token or the operator token; anyone, with no
    token, when the hub runs with open registration (`AGENTHUB_OPEN_REGISTRATION=true`).

    **Errors**: `401` without an accepted token, checked before the body (strangers learn
    nothing from validation errors); `409` when another agent is registered with the same
    key, or (`aic-taken`) when the certificate's AIC is or was registered; `422` for a bad
    card or key (a private `d`, a point off the curve, duplicate skill ids, unknown fields),
    or (`certificate-not-trusted`) a certificate no trusted CA vouches for as a TLS client's,
    that names no AIC (SAN URI `acps://{AIC}`) or certifies another key.

    An agent that already holds an AIC and a certificate for it from a CA the hub trusts
    (`AGENTHUB_TRUSTED_CA_FILE`, e.g. the ACPs CA) sends it as `certificate` and is
    registered under that AIC.

    Args:
        body (AgentRegistration):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AgentCard | Problem]
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
    body: AgentRegistration,

) -> AgentCard | Problem | None:
    """ Register Agent

     Register an agent: its card (name, description, skills, an optional `endpointUrl` for
    point-to-point calls) and the P-256 public key (`publicJwk`, no private part) it signs
    its assertions with. The hub gives it an id (an AIC) and answers `201` with the card and
    a `Location` header.

    **Who**: a holder of the registration token or the operator token; anyone, with no
    token, when the hub runs with open registration (`AGENTHUB_OPEN_REGISTRATION=true`).

    **Errors**: `401` without an accepted token, checked before the body (strangers learn
    nothing from validation errors); `409` when another agent is registered with the same
    key, or (`aic-taken`) when the certificate's AIC is or was registered; `422` for a bad
    card or key (a private `d`, a point off the curve, duplicate skill ids, unknown fields),
    or (`certificate-not-trusted`) a certificate no trusted CA vouches for as a TLS client's,
    that names no AIC (SAN URI `acps://{AIC}`) or certifies another key.

    An agent that already holds an AIC and a certificate for it from a CA the hub trusts
    (`AGENTHUB_TRUSTED_CA_FILE`, e.g. the ACPs CA) sends it as `certificate` and is
    registered under that AIC.

    Args:
        body (AgentRegistration):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AgentCard | Problem
     """


    return (await asyncio_detailed(
        client=client,
body=body,

    )).parsed
