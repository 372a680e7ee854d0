"""The hub as the agents' OAuth 2.0 authorization server: its metadata (RFC 8414), the token
endpoint (client credentials), a client's standing for the agents it calls, and the
operator's applications."""

from __future__ import annotations

import base64
import binascii
from typing import Annotated
from urllib.parse import unquote_plus

from fastapi import Depends, Form, Request, Response

from agenthub.protocol.auth import JWKS_PATH
from agenthub.protocol.oauth import (
    CALL_SCOPE,
    METADATA_PATH,
    TOKEN_PATH,
    AuthorizationServerMetadata,
    ClientStanding,
    OAuthClientCreate,
    OAuthClientIssued,
    OAuthClientList,
    OAuthToken,
)
from app.api.params import ClientIdPath
from app.api.problems import problem_responses
from app.api.routing import base_url, hub_router
from app.deps import (
    AdmissionDep,
    CurrentAgent,
    KeysDep,
    MetricsDep,
    SessionDep,
    SettingsDep,
    require_operator,
)
from app.errors import Unauthenticated
from app.oauth import service
from app.oauth.errors import InvalidClient

router = hub_router(tags=["oauth"])
operator_router = hub_router(
    prefix="/v1/operator/oauth-clients",
    tags=["operator"],
    dependencies=[Depends(require_operator)],
)

TOKEN_DESCRIPTION = f"""
OAuth 2.0 client credentials (RFC 6749 4.4): a token for calling **one agent**, for A2A
clients that can send only a static `Authorization: Bearer` header. The form
(`application/x-www-form-urlencoded`):

| parameter | value |
| --- | --- |
| `grant_type` | `client_credentials` |
| `resource` | the agent to call (RFC 8707): its id, `acps://{{id}}`, or its endpoint URL |
| `scope` | `{CALL_SCOPE}` (the default) |

Anyone may register any endpoint URL, so a URL more than one registered agent gives names
none of them (`invalid_target`): name the agent by its id. A registered agent may also name
a group it may see by its A2A endpoint,
`{{hub}}/v1/groups/{{groupId}}/a2a` (the group as an A2A agent,
`docs/reference/a2a-group-extension.md`).

The client authenticates one way:

- a **registered agent**, with `private_key_jwt` (RFC 7523): `client_assertion_type` =
  `urn:ietf:params:oauth:client-assertion-type:jwt-bearer` and `client_assertion`, a JWT
  signed (ES256) with the agent's registered key, `iss` = `sub` = the agent id, `aud` the
  token endpoint's URL (or the issuer), `exp` at most an hour ahead, a single-use `jti`;
- an **application the operator registered** (`POST /v1/operator/oauth-clients`), with its
  id and secret: HTTP Basic (`client_secret_basic`) or `client_id` and `client_secret` in
  the form (`client_secret_post`).

The answer (RFC 6749 5.1) is `{{access_token, token_type: "Bearer", expires_in, scope}}`.
The token is a JWT (RFC 9068, header `typ` `at+jwt`) signed by the hub's key (its JWKS:
`jwks_uri` in `{METADATA_PATH}`): `iss` the issuer, `aud` the agent's id, `sub` =
`client_id` the client, `client_kind` `agent` or `application`, `scope`, `iat`, `exp`,
`jti`, and for an agent `cnf.jkt`, its key's thumbprint. A kit partner takes it beside call
tokens and client certificates, and refuses it once the client is deregistered, has
rotated its key, or (an application) was revoked.

**Who**: an agent or a registered application; no `Authorization: Bearer`.

**Errors**: problem documents that also carry RFC 6749's `error` and `error_description`:
400 `invalid_request`, `unsupported_grant_type`, `invalid_scope`, `invalid_target` (the
resource names no agent); 401 `invalid_client`; 429 past the token rates.
"""


def _basic_credentials(request: Request) -> tuple[str, str] | None:
    """RFC 6749 2.3.1: ``Basic base64(urlencode(id) ":" urlencode(secret))``."""
    header = request.headers.get("authorization")
    if header is None:
        return None
    scheme, _, value = header.partition(" ")
    if scheme.lower() != "basic":
        raise InvalidClient("The token endpoint takes HTTP Basic client credentials only.")
    try:
        decoded = base64.b64decode(value.strip(), validate=True).decode()
    except (binascii.Error, UnicodeDecodeError) as exc:
        raise InvalidClient("The HTTP Basic credentials are not base64 of id:secret.") from exc
    client_id, colon, secret = decoded.partition(":")
    if not colon or not client_id:
        raise InvalidClient("The HTTP Basic credentials are not base64 of id:secret.")
    return unquote_plus(client_id), unquote_plus(secret)


@router.get(METADATA_PATH)
async def get_authorization_server_metadata(
    request: Request, settings: SettingsDep
) -> AuthorizationServerMetadata:
    """The hub as an OAuth 2.0 authorization server (RFC 8414): its `issuer` (its URL:
    `AGENTHUB_PUBLIC_URL`, never a request's `Host` header), the token endpoint, the JWKS
    of the keys that sign its tokens, and what the token endpoint takes.

    **Who**: anyone; no authentication.
    """
    base = base_url(request, settings.public_url)
    return AuthorizationServerMetadata(
        issuer=base,
        token_endpoint=f"{base}{TOKEN_PATH}",
        jwks_uri=f"{base}{JWKS_PATH}",
        grant_types_supported=["client_credentials"],
        token_endpoint_auth_methods_supported=[
            "private_key_jwt",
            "client_secret_basic",
            "client_secret_post",
        ],
        token_endpoint_auth_signing_alg_values_supported=["ES256"],
        scopes_supported=[CALL_SCOPE],
        response_types_supported=[],
    )


@router.post(
    TOKEN_PATH,
    responses=problem_responses(400, 401, 413, 429),
    description=TOKEN_DESCRIPTION,
)
async def create_oauth_token(
    form: Annotated[service.TokenForm, Form()],
    request: Request,
    response: Response,
    session: SessionDep,
    settings: SettingsDep,
    keys: KeysDep,
    admission: AdmissionDep,
    metrics: MetricsDep,
) -> OAuthToken:
    address = request.client.host if request.client else None
    admission.token_request(address)
    basic = _basic_credentials(request)
    claimed = service.claimed_client(form, basic)
    base = base_url(request, settings.public_url)
    try:
        token = await service.issue_token(
            session,
            form,
            basic=basic,
            keys=keys,
            issuer=base,
            audiences={f"{base}{TOKEN_PATH}", base, settings.issuer},
            lifetime_seconds=settings.access_token_seconds,
        )
    except Unauthenticated:
        admission.token_failed(claimed, address)
        raise
    # the client's own share only now: naming it with a wrong secret spends none of it
    admission.token_granted(str(claimed))
    response.headers["Cache-Control"] = "no-store"  # RFC 6749 5.1
    metrics.tokens_issued.inc()
    return token


@router.get("/v1/oauth/clients/{clientId}", responses=problem_responses(401, 404, 422))
async def get_client_standing(
    client_id: ClientIdPath, session: SessionDep, _: CurrentAgent
) -> ClientStanding:
    """Whether a token's client may still call: an agent still registered, or an
    application not revoked. A kit partner asks before it takes an OAuth token.

    **Who**: any registered agent.
    """
    return await service.client_standing(session, client_id)


@operator_router.post("", status_code=201, responses=problem_responses(401, 403, 422))
async def create_oauth_client(body: OAuthClientCreate, session: SessionDep) -> OAuthClientIssued:
    """Register an application that is not an agent as an OAuth client: the answer holds
    its `clientSecret`, shown this once (the hub keeps only its hash).

    **Who**: the operator.
    """
    return await service.create_client(session, body.name)


@operator_router.get("", responses=problem_responses(401, 403))
async def list_oauth_clients(session: SessionDep) -> OAuthClientList:
    """The registered applications, revoked ones too (with `revokedAt`); never a secret.

    **Who**: the operator.
    """
    return await service.list_clients(session)


@operator_router.delete(
    "/{clientId}", status_code=204, responses=problem_responses(401, 403, 404, 422)
)
async def revoke_oauth_client(client_id: ClientIdPath, session: SessionDep) -> Response:
    """Revoke an application: the token endpoint refuses it at once, and kit partners
    refuse its tokens when they next ask for its standing. Revoking twice is harmless.

    **Who**: the operator.
    """
    await service.revoke_client(session, client_id)
    return Response(status_code=204)
