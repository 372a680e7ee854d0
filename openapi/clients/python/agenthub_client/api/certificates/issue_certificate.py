from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.certificate_request import CertificateRequest
from ...models.issued_certificate import IssuedCertificate
from ...models.problem import Problem
from typing import cast



def _get_kwargs(
    agent_id: str,
    *,
    body: CertificateRequest,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/agents/{agent_id}/certificates".format(agent_id=quote(str(agent_id), safe=""),),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> IssuedCertificate | Problem | None:
    if response.status_code == 201:
        response_201 = IssuedCertificate.from_dict(response.json())



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

    if response.status_code == 429:
        response_429 = Problem.from_dict(response.json())



        return response_429

    if response.status_code == 431:
        response_431 = Problem.from_dict(response.json())



        return response_431

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[IssuedCertificate | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    agent_id: str,
    *,
    client: AuthenticatedClient,
    body: CertificateRequest,

) -> Response[IssuedCertificate | Problem]:
    """ Issue Certificate

     A certificate for the caller's registered key, signed by the hub's CA: CN = the
    agent's id (its AIC), SAN URI `acps://{AIC}`, the DNS name `{aic}.aic.invalid` (the name
    a kit leader verifies in the handshake; any client may: see docs/guide/p2p.md), good for
    TLS servers and clients. The host of its `endpointUrl` goes in only when the hub can stand
    behind it: a public DNS name no other live agent's `endpointUrl` uses; a private or
    loopback name likewise only with `AGENTHUB_CERTIFY_PRIVATE_NAMES`, an IP address only with
    `AGENTHUB_CERTIFY_IP_ADDRESSES` (closed networks). It is valid for
    `AGENTHUB_CERTIFICATE_DAYS` days (the kit asks for a new one before then). The CSR (PEM
    PKCS#10) must be signed with the agent's registered key; the hub takes nothing else
    from it.

    **Who**: the agent itself.

    **Errors**: `403` for another agent; `422` with `bad-csr` for a CSR that does not parse
    or whose signature fails, `csr-key-mismatch` for one of another key,
    `endpoint-not-certifiable` when the agent's `endpointUrl` host is no plain DNS name or IP
    address (a wildcard, or a name under `.invalid`); `409` with `too-many-certificates` when
    the agent holds `AGENTHUB_MAX_LIVE_CERTIFICATES_PER_AGENT` unrevoked, unexpired ones
    already; `429` with `Retry-After` past `AGENTHUB_CERTIFICATES_PER_HOUR_PER_AGENT`.

    Args:
        agent_id (str):
        body (CertificateRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[IssuedCertificate | Problem]
     """


    kwargs = _get_kwargs(
        agent_id=agent_id,
body=body,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    agent_id: str,
    *,
    client: AuthenticatedClient,
    body: CertificateRequest,

) -> IssuedCertificate | Problem | None:
    """ Issue Certificate

     A certificate for the caller's registered key, signed by the hub's CA: CN = the
    agent's id (its AIC), SAN URI `acps://{AIC}`, the DNS name `{aic}.aic.invalid` (the name
    a kit leader verifies in the handshake; any client may: see docs/guide/p2p.md), good for
    TLS servers and clients. The host of its `endpointUrl` goes in only when the hub can stand
    behind it: a public DNS name no other live agent's `endpointUrl` uses; a private or
    loopback name likewise only with `AGENTHUB_CERTIFY_PRIVATE_NAMES`, an IP address only with
    `AGENTHUB_CERTIFY_IP_ADDRESSES` (closed networks). It is valid for
    `AGENTHUB_CERTIFICATE_DAYS` days (the kit asks for a new one before then). The CSR (PEM
    PKCS#10) must be signed with the agent's registered key; the hub takes nothing else
    from it.

    **Who**: the agent itself.

    **Errors**: `403` for another agent; `422` with `bad-csr` for a CSR that does not parse
    or whose signature fails, `csr-key-mismatch` for one of another key,
    `endpoint-not-certifiable` when the agent's `endpointUrl` host is no plain DNS name or IP
    address (a wildcard, or a name under `.invalid`); `409` with `too-many-certificates` when
    the agent holds `AGENTHUB_MAX_LIVE_CERTIFICATES_PER_AGENT` unrevoked, unexpired ones
    already; `429` with `Retry-After` past `AGENTHUB_CERTIFICATES_PER_HOUR_PER_AGENT`.

    Args:
        agent_id (str):
        body (CertificateRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        IssuedCertificate | Problem
     """


    return sync_detailed(
        agent_id=agent_id,
client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    agent_id: str,
    *,
    client: AuthenticatedClient,
    body: CertificateRequest,

) -> Response[IssuedCertificate | Problem]:
    """ Issue Certificate

     A certificate for the caller's registered key, signed by the hub's CA: CN = the
    agent's id (its AIC), SAN URI `acps://{AIC}`, the DNS name `{aic}.aic.invalid` (the name
    a kit leader verifies in the handshake; any client may: see docs/guide/p2p.md), good for
    TLS servers and clients. The host of its `endpointUrl` goes in only when the hub can stand
    behind it: a public DNS name no other live agent's `endpointUrl` uses; a private or
    loopback name likewise only with `AGENTHUB_CERTIFY_PRIVATE_NAMES`, an IP address only with
    `AGENTHUB_CERTIFY_IP_ADDRESSES` (closed networks). It is valid for
    `AGENTHUB_CERTIFICATE_DAYS` days (the kit asks for a new one before then). The CSR (PEM
    PKCS#10) must be signed with the agent's registered key; the hub takes nothing else
    from it.

    **Who**: the agent itself.

    **Errors**: `403` for another agent; `422` with `bad-csr` for a CSR that does not parse
    or whose signature fails, `csr-key-mismatch` for one of another key,
    `endpoint-not-certifiable` when the agent's `endpointUrl` host is no plain DNS name or IP
    address (a wildcard, or a name under `.invalid`); `409` with `too-many-certificates` when
    the agent holds `AGENTHUB_MAX_LIVE_CERTIFICATES_PER_AGENT` unrevoked, unexpired ones
    already; `429` with `Retry-After` past `AGENTHUB_CERTIFICATES_PER_HOUR_PER_AGENT`.

    Args:
        agent_id (str):
        body (CertificateRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[IssuedCertificate | Problem]
     """


    kwargs = _get_kwargs(
        agent_id=agent_id,
body=body,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    agent_id: str,
    *,
    client: AuthenticatedClient,
    body: CertificateRequest,

) -> IssuedCertificate | Problem | None:
    """ Issue Certificate

     A certificate for the caller's registered key, signed by the hub's CA: CN = the
    agent's id (its AIC), SAN URI `acps://{AIC}`, the DNS name `{aic}.aic.invalid` (the name
    a kit leader verifies in the handshake; any client may: see docs/guide/p2p.md), good for
    TLS servers and clients. The host of its `endpointUrl` goes in only when the hub can stand
    behind it: a public DNS name no other live agent's `endpointUrl` uses; a private or
    loopback name likewise only with `AGENTHUB_CERTIFY_PRIVATE_NAMES`, an IP address only with
    `AGENTHUB_CERTIFY_IP_ADDRESSES` (closed networks). It is valid for
    `AGENTHUB_CERTIFICATE_DAYS` days (the kit asks for a new one before then). The CSR (PEM
    PKCS#10) must be signed with the agent's registered key; the hub takes nothing else
    from it.

    **Who**: the agent itself.

    **Errors**: `403` for another agent; `422` with `bad-csr` for a CSR that does not parse
    or whose signature fails, `csr-key-mismatch` for one of another key,
    `endpoint-not-certifiable` when the agent's `endpointUrl` host is no plain DNS name or IP
    address (a wildcard, or a name under `.invalid`); `409` with `too-many-certificates` when
    the agent holds `AGENTHUB_MAX_LIVE_CERTIFICATES_PER_AGENT` unrevoked, unexpired ones
    already; `429` with `Retry-After` past `AGENTHUB_CERTIFICATES_PER_HOUR_PER_AGENT`.

    Args:
        agent_id (str):
        body (CertificateRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        IssuedCertificate | Problem
     """


    return (await asyncio_detailed(
        agent_id=agent_id,
client=client,
body=body,

    )).parsed
