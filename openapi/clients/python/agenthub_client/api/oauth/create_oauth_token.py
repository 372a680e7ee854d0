from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.o_auth_token import OAuthToken
from ...models.problem import Problem
from ...models.token_form import TokenForm
from typing import cast



def _get_kwargs(
    *,
    body: TokenForm,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/oauth/token",
    }

    _kwargs["data"] = body.to_dict()
    headers["Content-Type"] = "application/x-www-form-urlencoded"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> OAuthToken | Problem | None:
    if response.status_code == 200:
        response_200 = OAuthToken.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[OAuthToken | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: TokenForm,

) -> Response[OAuthToken | Problem]:
    """ Create Oauth Token

     OAuth 2.0 client credentials (RFC 6749 4.4): a token for calling **one agent**, for A2A
    clients that can send only a static `Authorization: Bearer` header. The form
    (`application/x-www-form-urlencoded`):

    | parameter | value |
    | --- | --- |
    | `grant_type` | `client_credentials` |
    | `resource` | the agent to call (RFC 8707): its id, `acps://{id}`, or its endpoint URL |
    | `scope` | `call` (the default) |

    Anyone may register any endpoint URL, so a URL more than one registered agent gives names
    none of them (`invalid_target`): name the agent by its id. A registered agent may also name
    a group it may see by its A2A endpoint,
    `{hub}/v1/groups/{groupId}/a2a` (the group as an A2A agent,
    `docs/reference/a2a-group-extension.md`).

    The client authenticates one way:

    - a **registered agent**, with `private_key_jwt` (RFC 7523): `client_assertion_type` =
      `urn:ietf:params:oauth:client-assertion-type:jwt-bearer` and `client_assertion`, a JWT
      signed (ES256) with the agent's registered key, `iss` = `sub` = the agent id, `aud` the
      token endpoint's URL (or the issuer), `exp` at most an hour ahead, a single-use `jti`;
    - an **application the operator registered** (`POST /v1/operator/oauth-clients`), with its
      id and secret: HTTP Basic (`client_secret_basic`) or `client_id` and `client_secret` in
      the form (`client_secret_post`).

    The answer (RFC 6749 5.1) is `{access_token, token_type: "Bearer", expires_in, scope}`.
    The token is a JWT (RFC 9068, header `typ` `at+jwt`) signed by the hub's key (its JWKS:
    `jwks_uri` in `/.well-known/oauth-authorization-server`): `iss` the issuer, `aud` the agent's id,
    `sub` =
    `client_id` the client, `client_kind` `agent` or `application`, `scope`, `iat`, `exp`,
    `jti`, and for an agent `cnf.jkt`, its key's thumbprint. A kit partner takes it beside call
    tokens and client certificates, and refuses it once the client is deregistered, has
    rotated its key, or (an application) was revoked.

    **Who**: an agent or a registered application; no `Authorization: Bearer`.

    **Errors**: problem documents that also carry RFC 6749's `error` and `error_description`:
    400 `invalid_request`, `unsupported_grant_type`, `invalid_scope`, `invalid_target` (the
    resource names no agent); 401 `invalid_client`; 429 past the token rates.

    Args:
        body (TokenForm): The token request's form (RFC 6749 4.4.2, 2.3.1; RFC 7523 2.2; RFC 8707
            2), each
            parameter optional here, so that a missing one is OAuth's own ``invalid_request``, not a
            validation error.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[OAuthToken | Problem]
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
    body: TokenForm,

) -> OAuthToken | Problem | None:
    """ Create Oauth Token

     OAuth 2.0 client credentials (RFC 6749 4.4): a token for calling **one agent**, for A2A
    clients that can send only a static `Authorization: Bearer` header. The form
    (`application/x-www-form-urlencoded`):

    | parameter | value |
    | --- | --- |
    | `grant_type` | `client_credentials` |
    | `resource` | the agent to call (RFC 8707): its id, `acps://{id}`, or its endpoint URL |
    | `scope` | `call` (the default) |

    Anyone may register any endpoint URL, so a URL more than one registered agent gives names
    none of them (`invalid_target`): name the agent by its id. A registered agent may also name
    a group it may see by its A2A endpoint,
    `{hub}/v1/groups/{groupId}/a2a` (the group as an A2A agent,
    `docs/reference/a2a-group-extension.md`).

    The client authenticates one way:

    - a **registered agent**, with `private_key_jwt` (RFC 7523): `client_assertion_type` =
      `urn:ietf:params:oauth:client-assertion-type:jwt-bearer` and `client_assertion`, a JWT
      signed (ES256) with the agent's registered key, `iss` = `sub` = the agent id, `aud` the
      token endpoint's URL (or the issuer), `exp` at most an hour ahead, a single-use `jti`;
    - an **application the operator registered** (`POST /v1/operator/oauth-clients`), with its
      id and secret: HTTP Basic (`client_secret_basic`) or `client_id` and `client_secret` in
      the form (`client_secret_post`).

    The answer (RFC 6749 5.1) is `{access_token, token_type: "Bearer", expires_in, scope}`.
    The token is a JWT (RFC 9068, header `typ` `at+jwt`) signed by the hub's key (its JWKS:
    `jwks_uri` in `/.well-known/oauth-authorization-server`): `iss` the issuer, `aud` the agent's id,
    `sub` =
    `client_id` the client, `client_kind` `agent` or `application`, `scope`, `iat`, `exp`,
    `jti`, and for an agent `cnf.jkt`, its key's thumbprint. A kit partner takes it beside call
    tokens and client certificates, and refuses it once the client is deregistered, has
    rotated its key, or (an application) was revoked.

    **Who**: an agent or a registered application; no `Authorization: Bearer`.

    **Errors**: problem documents that also carry RFC 6749's `error` and `error_description`:
    400 `invalid_request`, `unsupported_grant_type`, `invalid_scope`, `invalid_target` (the
    resource names no agent); 401 `invalid_client`; 429 past the token rates.

    Args:
        body (TokenForm): The token request's form (RFC 6749 4.4.2, 2.3.1; RFC 7523 2.2; RFC 8707
            2), each
            parameter optional here, so that a missing one is OAuth's own ``invalid_request``, not a
            validation error.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        OAuthToken | Problem
     """


    return sync_detailed(
        client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: TokenForm,

) -> Response[OAuthToken | Problem]:
    """ Create Oauth Token

     OAuth 2.0 client credentials (RFC 6749 4.4): a token for calling **one agent**, for A2A
    clients that can send only a static `Authorization: Bearer` header. The form
    (`application/x-www-form-urlencoded`):

    | parameter | value |
    | --- | --- |
    | `grant_type` | `client_credentials` |
    | `resource` | the agent to call (RFC 8707): its id, `acps://{id}`, or its endpoint URL |
    | `scope` | `call` (the default) |

    Anyone may register any endpoint URL, so a URL more than one registered agent gives names
    none of them (`invalid_target`): name the agent by its id. A registered agent may also name
    a group it may see by its A2A endpoint,
    `{hub}/v1/groups/{groupId}/a2a` (the group as an A2A agent,
    `docs/reference/a2a-group-extension.md`).

    The client authenticates one way:

    - a **registered agent**, with `private_key_jwt` (RFC 7523): `client_assertion_type` =
      `urn:ietf:params:oauth:client-assertion-type:jwt-bearer` and `client_assertion`, a JWT
      signed (ES256) with the agent's registered key, `iss` = `sub` = the agent id, `aud` the
      token endpoint's URL (or the issuer), `exp` at most an hour ahead, a single-use `jti`;
    - an **application the operator registered** (`POST /v1/operator/oauth-clients`), with its
      id and secret: HTTP Basic (`client_secret_basic`) or `client_id` and `client_secret` in
      the form (`client_secret_post`).

    The answer (RFC 6749 5.1) is `{access_token, token_type: "Bearer", expires_in, scope}`.
    The token is a JWT (RFC 9068, header `typ` `at+jwt`) signed by the hub's key (its JWKS:
    `jwks_uri` in `/.well-known/oauth-authorization-server`): `iss` the issuer, `aud` the agent's id,
    `sub` =
    `client_id` the client, `client_kind` `agent` or `application`, `scope`, `iat`, `exp`,
    `jti`, and for an agent `cnf.jkt`, its key's thumbprint. A kit partner takes it beside call
    tokens and client certificates, and refuses it once the client is deregistered, has
    rotated its key, or (an application) was revoked.

    **Who**: an agent or a registered application; no `Authorization: Bearer`.

    **Errors**: problem documents that also carry RFC 6749's `error` and `error_description`:
    400 `invalid_request`, `unsupported_grant_type`, `invalid_scope`, `invalid_target` (the
    resource names no agent); 401 `invalid_client`; 429 past the token rates.

    Args:
        body (TokenForm): The token request's form (RFC 6749 4.4.2, 2.3.1; RFC 7523 2.2; RFC 8707
            2), each
            parameter optional here, so that a missing one is OAuth's own ``invalid_request``, not a
            validation error.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[OAuthToken | Problem]
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
    body: TokenForm,

) -> OAuthToken | Problem | None:
    """ Create Oauth Token

     OAuth 2.0 client credentials (RFC 6749 4.4): a token for calling **one agent**, for A2A
    clients that can send only a static `Authorization: Bearer` header. The form
    (`application/x-www-form-urlencoded`):

    | parameter | value |
    | --- | --- |
    | `grant_type` | `client_credentials` |
    | `resource` | the agent to call (RFC 8707): its id, `acps://{id}`, or its endpoint URL |
    | `scope` | `call` (the default) |

    Anyone may register any endpoint URL, so a URL more than one registered agent gives names
    none of them (`invalid_target`): name the agent by its id. A registered agent may also name
    a group it may see by its A2A endpoint,
    `{hub}/v1/groups/{groupId}/a2a` (the group as an A2A agent,
    `docs/reference/a2a-group-extension.md`).

    The client authenticates one way:

    - a **registered agent**, with `private_key_jwt` (RFC 7523): `client_assertion_type` =
      `urn:ietf:params:oauth:client-assertion-type:jwt-bearer` and `client_assertion`, a JWT
      signed (ES256) with the agent's registered key, `iss` = `sub` = the agent id, `aud` the
      token endpoint's URL (or the issuer), `exp` at most an hour ahead, a single-use `jti`;
    - an **application the operator registered** (`POST /v1/operator/oauth-clients`), with its
      id and secret: HTTP Basic (`client_secret_basic`) or `client_id` and `client_secret` in
      the form (`client_secret_post`).

    The answer (RFC 6749 5.1) is `{access_token, token_type: "Bearer", expires_in, scope}`.
    The token is a JWT (RFC 9068, header `typ` `at+jwt`) signed by the hub's key (its JWKS:
    `jwks_uri` in `/.well-known/oauth-authorization-server`): `iss` the issuer, `aud` the agent's id,
    `sub` =
    `client_id` the client, `client_kind` `agent` or `application`, `scope`, `iat`, `exp`,
    `jti`, and for an agent `cnf.jkt`, its key's thumbprint. A kit partner takes it beside call
    tokens and client certificates, and refuses it once the client is deregistered, has
    rotated its key, or (an application) was revoked.

    **Who**: an agent or a registered application; no `Authorization: Bearer`.

    **Errors**: problem documents that also carry RFC 6749's `error` and `error_description`:
    400 `invalid_request`, `unsupported_grant_type`, `invalid_scope`, `invalid_target` (the
    resource names no agent); 401 `invalid_client`; 429 past the token rates.

    Args:
        body (TokenForm): The token request's form (RFC 6749 4.4.2, 2.3.1; RFC 7523 2.2; RFC 8707
            2), each
            parameter optional here, so that a missing one is OAuth's own ``invalid_request``, not a
            validation error.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        OAuthToken | Problem
     """


    return (await asyncio_detailed(
        client=client,
body=body,

    )).parsed
