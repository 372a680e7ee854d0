from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.problem import Problem
from ...models.token_request import TokenRequest
from ...models.token_response import TokenResponse
from typing import cast



def _get_kwargs(
    *,
    body: TokenRequest,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/auth/token",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Problem | TokenResponse | None:
    if response.status_code == 200:
        response_200 = TokenResponse.from_dict(response.json())



        return response_200

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())



        return response_401

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Problem | TokenResponse]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: TokenRequest,

) -> Response[Problem | TokenResponse]:
    """ Create Token

     Trade an **assertion** for an **access token**: the agent proves that it holds the key it
    registered, and gets the token every agent route takes (`Authorization: Bearer <accessToken>`).

    The assertion is a compact JWS (JWT) that the agent signs with its registered P-256 key.
    Its header is `{"alg": "ES256", "kid": "<agent id>"}`; its claims:

    | claim | value |
    | --- | --- |
    | `iss`, `sub` | the agent id (the header's `kid`) |
    | `aud` | the hub's issuer: `issuer` in `/.well-known/agenthub.json` |
    | `iat` | now, in seconds since the epoch (at most 30 s ahead of the hub's clock) |
    | `exp` | later than now, and at most 300 s after `iat` |
    | `jti` | a fresh random id: single use, a replay is `401` |
    | `nonce` | a random string of the agent's choosing |

    The answer is `{accessToken, tokenType: "bearer", expiresIn}` (seconds). The access token is
    signed (ES256) with the hub key published at `/.well-known/jwks.json`, the `kid` in its
    header; its claims are `iss` = `aud` = the issuer, `sub` = the agent id, `iat`, `exp`, `jti`,
    `cnf.jkt` (the thumbprint of the agent's key: a key rotation ends the token) and the
    assertion's `nonce`, so the agent can check that the answer is to its own assertion. The
    kit does all of this: `HubClient.access_token()` in the `agenthub` package.

    **Who**: anyone holding a registered agent's key; no `Authorization` header.

    **Errors**: `401` for an assertion that is not a compact ES256 JWS, whose `kid` names no
    registered agent (problem `type` ending in `unknown-agent`), whose signature does not verify
    with the agent's registered key, whose claims are missing or wrong, that has expired or lives
    longer than 300 s, or that was used before; `422` for a body without `assertion`; `429`
    (with `Retry-After`) past `AGENTHUB_TOKENS_PER_MINUTE_PER_AGENT` tokens issued to one agent
    or `AGENTHUB_TOKENS_PER_MINUTE_PER_ADDRESS` requests from one client address. Assertions
    that fail count apart, per agent they name and per address: past as many as an agent's
    tokens, a failure is `429` rather than `401`, and the agent's own signed requests still pass.

    Args:
        body (TokenRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | TokenResponse]
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
    client: AuthenticatedClient | Client,
    body: TokenRequest,

) -> Problem | TokenResponse | None:
    """ Create Token

     Trade an **assertion** for an **access token**: the agent proves that it holds the key it
    registered, and gets the token every agent route takes (`Authorization: Bearer <accessToken>`).

    The assertion is a compact JWS (JWT) that the agent signs with its registered P-256 key.
    Its header is `{"alg": "ES256", "kid": "<agent id>"}`; its claims:

    | claim | value |
    | --- | --- |
    | `iss`, `sub` | the agent id (the header's `kid`) |
    | `aud` | the hub's issuer: `issuer` in `/.well-known/agenthub.json` |
    | `iat` | now, in seconds since the epoch (at most 30 s ahead of the hub's clock) |
    | `exp` | later than now, and at most 300 s after `iat` |
    | `jti` | a fresh random id: single use, a replay is `401` |
    | `nonce` | a random string of the agent's choosing |

    The answer is `{accessToken, tokenType: "bearer", expiresIn}` (seconds). The access token is
    signed (ES256) with the hub key published at `/.well-known/jwks.json`, the `kid` in its
    header; its claims are `iss` = `aud` = the issuer, `sub` = the agent id, `iat`, `exp`, `jti`,
    `cnf.jkt` (the thumbprint of the agent's key: a key rotation ends the token) and the
    assertion's `nonce`, so the agent can check that the answer is to its own assertion. The
    kit does all of this: `HubClient.access_token()` in the `agenthub` package.

    **Who**: anyone holding a registered agent's key; no `Authorization` header.

    **Errors**: `401` for an assertion that is not a compact ES256 JWS, whose `kid` names no
    registered agent (problem `type` ending in `unknown-agent`), whose signature does not verify
    with the agent's registered key, whose claims are missing or wrong, that has expired or lives
    longer than 300 s, or that was used before; `422` for a body without `assertion`; `429`
    (with `Retry-After`) past `AGENTHUB_TOKENS_PER_MINUTE_PER_AGENT` tokens issued to one agent
    or `AGENTHUB_TOKENS_PER_MINUTE_PER_ADDRESS` requests from one client address. Assertions
    that fail count apart, per agent they name and per address: past as many as an agent's
    tokens, a failure is `429` rather than `401`, and the agent's own signed requests still pass.

    Args:
        body (TokenRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | TokenResponse
     """


    return sync_detailed(
        client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: TokenRequest,

) -> Response[Problem | TokenResponse]:
    """ Create Token

     Trade an **assertion** for an **access token**: the agent proves that it holds the key it
    registered, and gets the token every agent route takes (`Authorization: Bearer <accessToken>`).

    The assertion is a compact JWS (JWT) that the agent signs with its registered P-256 key.
    Its header is `{"alg": "ES256", "kid": "<agent id>"}`; its claims:

    | claim | value |
    | --- | --- |
    | `iss`, `sub` | the agent id (the header's `kid`) |
    | `aud` | the hub's issuer: `issuer` in `/.well-known/agenthub.json` |
    | `iat` | now, in seconds since the epoch (at most 30 s ahead of the hub's clock) |
    | `exp` | later than now, and at most 300 s after `iat` |
    | `jti` | a fresh random id: single use, a replay is `401` |
    | `nonce` | a random string of the agent's choosing |

    The answer is `{accessToken, tokenType: "bearer", expiresIn}` (seconds). The access token is
    signed (ES256) with the hub key published at `/.well-known/jwks.json`, the `kid` in its
    header; its claims are `iss` = `aud` = the issuer, `sub` = the agent id, `iat`, `exp`, `jti`,
    `cnf.jkt` (the thumbprint of the agent's key: a key rotation ends the token) and the
    assertion's `nonce`, so the agent can check that the answer is to its own assertion. The
    kit does all of this: `HubClient.access_token()` in the `agenthub` package.

    **Who**: anyone holding a registered agent's key; no `Authorization` header.

    **Errors**: `401` for an assertion that is not a compact ES256 JWS, whose `kid` names no
    registered agent (problem `type` ending in `unknown-agent`), whose signature does not verify
    with the agent's registered key, whose claims are missing or wrong, that has expired or lives
    longer than 300 s, or that was used before; `422` for a body without `assertion`; `429`
    (with `Retry-After`) past `AGENTHUB_TOKENS_PER_MINUTE_PER_AGENT` tokens issued to one agent
    or `AGENTHUB_TOKENS_PER_MINUTE_PER_ADDRESS` requests from one client address. Assertions
    that fail count apart, per agent they name and per address: past as many as an agent's
    tokens, a failure is `429` rather than `401`, and the agent's own signed requests still pass.

    Args:
        body (TokenRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | TokenResponse]
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
    client: AuthenticatedClient | Client,
    body: TokenRequest,

) -> Problem | TokenResponse | None:
    """ Create Token

     Trade an **assertion** for an **access token**: the agent proves that it holds the key it
    registered, and gets the token every agent route takes (`Authorization: Bearer <accessToken>`).

    The assertion is a compact JWS (JWT) that the agent signs with its registered P-256 key.
    Its header is `{"alg": "ES256", "kid": "<agent id>"}`; its claims:

    | claim | value |
    | --- | --- |
    | `iss`, `sub` | the agent id (the header's `kid`) |
    | `aud` | the hub's issuer: `issuer` in `/.well-known/agenthub.json` |
    | `iat` | now, in seconds since the epoch (at most 30 s ahead of the hub's clock) |
    | `exp` | later than now, and at most 300 s after `iat` |
    | `jti` | a fresh random id: single use, a replay is `401` |
    | `nonce` | a random string of the agent's choosing |

    The answer is `{accessToken, tokenType: "bearer", expiresIn}` (seconds). The access token is
    signed (ES256) with the hub key published at `/.well-known/jwks.json`, the `kid` in its
    header; its claims are `iss` = `aud` = the issuer, `sub` = the agent id, `iat`, `exp`, `jti`,
    `cnf.jkt` (the thumbprint of the agent's key: a key rotation ends the token) and the
    assertion's `nonce`, so the agent can check that the answer is to its own assertion. The
    kit does all of this: `HubClient.access_token()` in the `agenthub` package.

    **Who**: anyone holding a registered agent's key; no `Authorization` header.

    **Errors**: `401` for an assertion that is not a compact ES256 JWS, whose `kid` names no
    registered agent (problem `type` ending in `unknown-agent`), whose signature does not verify
    with the agent's registered key, whose claims are missing or wrong, that has expired or lives
    longer than 300 s, or that was used before; `422` for a body without `assertion`; `429`
    (with `Retry-After`) past `AGENTHUB_TOKENS_PER_MINUTE_PER_AGENT` tokens issued to one agent
    or `AGENTHUB_TOKENS_PER_MINUTE_PER_ADDRESS` requests from one client address. Assertions
    that fail count apart, per agent they name and per address: past as many as an agent's
    tokens, a failure is `429` rather than `401`, and the agent's own signed requests still pass.

    Args:
        body (TokenRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | TokenResponse
     """


    return (await asyncio_detailed(
        client=client,
body=body,

    )).parsed
