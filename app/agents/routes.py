"""The agent registry: register, read, update, deregister, list."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import Body, Depends, Query, Request, Response, status

from agenthub.a2a.card import requested_version
from agenthub.protocol.agents import (
    AgentCard,
    AgentName,
    AgentPage,
    AgentRegistration,
    AgentUpdate,
    ProtocolName,
)
from app.agents import deregistration, service
from app.agents.discovery import AgentFilters
from app.agents.discovery import list_agents as find_agents
from app.api.params import AgentIdPath, Cursor, Limit
from app.api.problems import problem_responses
from app.api.routing import base_url, hub_router
from app.auth.current import may_register
from app.auth.errors import RegistrationTokenNeeded, RegistrationTokenRejected
from app.core.unit_of_work import commit
from app.deps import (
    CaDep,
    CurrentAgent,
    KeysDep,
    OperatorTokenDep,
    PresenceDep,
    PrincipalDep,
    RegistrationTokenDep,
    RerankerDep,
    SessionDep,
    SettingsDep,
)

STREAMS_END_SECONDS = 2.0
"""How long a deregistration waits for the agent's streams here to end before its 204 (one
stuck in a send to a reader that takes nothing writes no more, and ends at its timeout)."""

REGISTRATION_EXAMPLE = {
    "name": "polyglot",
    "description": "Translates legal documents between French and German.",
    "version": "1.0.0",
    "provider": "acme",
    "skills": [
        {
            "id": "translate-doc",
            "name": "Document translation",
            "description": "Contracts and manuals, French and German",
            "tags": ["translation", "legal"],
        }
    ],
    "endpointUrl": "https://polyglot.example/aip",
    "publicJwk": {
        "kty": "EC",
        "crv": "P-256",
        "x": "f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU",
        "y": "x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0",
    },
}

router = hub_router(prefix="/v1/agents", tags=["agents"])


async def require_registrar(
    token: RegistrationTokenDep,
    _: OperatorTokenDep,  # the same header: declares that the operator's token is taken too
    settings: SettingsDep,
) -> None:
    """Checked before the body is validated, so strangers learn nothing from 422s."""
    if may_register(settings, token):
        return
    if token is None:
        raise RegistrationTokenNeeded("Registration needs a registration or operator token.")
    raise RegistrationTokenRejected("This registration token is not accepted.")


@router.post(
    "",
    status_code=status.HTTP_201_CREATED,
    dependencies=[Depends(require_registrar)],
    responses=problem_responses(400, 401, 409, 413, 422),
    # ``{}``: no token at all is an alternative too, on a hub with open registration
    openapi_extra={"security": [{}]},
)
async def register_agent(
    body: Annotated[
        AgentRegistration, Body(openapi_examples={"translator": {"value": REGISTRATION_EXAMPLE}})
    ],
    session: SessionDep,
    response: Response,
    ca: CaDep,
) -> AgentCard:
    """Register an agent: its card (name, description, skills, an optional `endpointUrl` for
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
    """
    agent = await service.register_agent(session, body=body, trusted_cas=ca.trusted)
    response.headers["Location"] = f"/v1/agents/{agent.id}"
    return service.to_card(agent)


@router.get("", responses=problem_responses(400, 401, 422))
async def list_agents(
    principal: PrincipalDep,
    session: SessionDep,
    reranker: RerankerDep,
    q: Annotated[
        str | None,
        Query(
            max_length=500,
            description="a described need; ranked by relevance to name, description and skills "
            "(words only: search operators and quotes are plain text)",
        ),
    ] = None,
    skill: Annotated[str | None, Query(max_length=100)] = None,
    tag: Annotated[str | None, Query(max_length=100)] = None,
    status: Literal["online", "offline"] | None = None,
    provider: Annotated[str | None, Query(max_length=200)] = None,
    protocol: Annotated[
        ProtocolName | None,
        Query(
            description="only agents reached by this protocol (as their cards' `protocols` show)"
        ),
    ] = None,
    include_self: Annotated[bool, Query(alias="includeSelf")] = False,
    limit: Limit = 50,
    cursor: Cursor = None,
) -> AgentPage:
    """Discovery. With `q`, the agents best able to help with a described need, best first,
    each with a relevance `score` (to name, description and skills); without `q`, every
    agent, by id. `skill`, `tag`, `status`, `provider` and `protocol` filter (together: all
    of them); the answer pages with
    `limit` and the previous page's `nextCursor`.

    **Who**: an agent, which is left out of the answer unless `includeSelf=true`; or the
    operator, who sees every agent (it has no self: `includeSelf` changes nothing).

    **Errors**: `400` for a cursor this hub did not hand out; `422` for a bad parameter
    (`limit` outside 1 to 500, an unknown `status` or `protocol`).
    """
    me = principal.agent_id  # None for the operator
    filters = AgentFilters(
        q=q,
        skill=skill,
        tag=tag,
        status=status,
        provider=provider,
        protocol=protocol,
        include_self=include_self,
    )
    return await find_agents(
        session,
        caller_id=me,
        filters=filters,
        limit=limit,
        cursor=cursor,
        reranker=reranker,
    )


@router.get("/{agentId}", responses=problem_responses(401, 404))
async def get_agent(
    agent_id: AgentIdPath, principal: PrincipalDep, session: SessionDep
) -> AgentCard:
    """One agent's card: its skills, `publicJwk` (to check the agent's signatures),
    `endpointUrl`, `status` (`online` while it holds a stream or called in the last 60 s)
    and `lastSeenAt`.

    **Who**: any agent, or the operator.

    **Errors**: `404` for an unknown or deregistered agent.
    """
    return service.to_card(await service.get_agent(session, agent_id))


@router.get("/{agentId}/name", responses=problem_responses(401, 404))
async def get_agent_name(
    agent_id: AgentIdPath, principal: PrincipalDep, session: SessionDep
) -> AgentName:
    """The name of the agent an id names, also after it deregistered (then with
    `deregisteredAt`): the record keeps naming the agents that left, for a group's owner or
    a message's sender (the web console shows them so).

    **Who**: any agent, or the operator.

    **Errors**: `404` for an id no agent was ever registered with.
    """
    return await service.get_agent_name(session, agent_id)


@router.get(
    "/{agentId}/agent-card.json",
    responses={
        200: {
            "description": "the agent's A2A Agent Card (A2A v1.0 `AgentCard` JSON; to a "
            "client that names `A2A-Version: 0.3`, as a2a-sdk serves one, with the v0.3 "
            "fields merged in)",
            "content": {
                "application/json": {
                    "schema": {
                        "type": "object",
                        "additionalProperties": True,
                        "title": "A2aAgentCard",
                    }
                }
            },
        },
        **problem_responses(401, 404),
    },
)
async def get_agent_a2a_card(
    agent_id: AgentIdPath,
    principal: PrincipalDep,
    session: SessionDep,
    request: Request,
    settings: SettingsDep,
    keys: KeysDep,
) -> dict[str, Any]:
    """The agent's A2A Agent Card, built from its registry card: its skills (with their
    input and output types as modes), provider, the JSON-RPC interface at its `a2a`
    binding's url (A2A 1.0 and 0.3 methods), streaming and push notifications, and the
    security schemes its callers use (`callToken`: an agenthub call token; `mtls`: a client
    certificate from the hub's CA; `oauth2`: a bearer token from this hub's OAuth token
    endpoint, client credentials; any one will do). The card is signed (A2A v1.0
    `signatures`: a JWS over its RFC 8785 canonical JSON) by the hub's key, its `kid` in
    `/.well-known/jwks.json`.

    **Who**: any agent, or the operator.

    **Errors**: `404` for an unknown or deregistered agent, or (`no-a2a-binding`) one that
    declares no `a2a` protocol binding.
    """
    agent = await service.get_agent(session, agent_id)
    version = requested_version(request.headers, request.query_params)
    return service.a2a_card_json(agent, base_url(request, settings.public_url), keys, version)


@router.patch("/{agentId}", responses=problem_responses(400, 401, 403, 404, 409, 413, 422))
async def update_agent(
    agent_id: AgentIdPath,
    body: AgentUpdate,
    caller: CurrentAgent,
    session: SessionDep,
    presence: PresenceDep,
) -> AgentCard:
    """Change the caller's own card: `description`, `skills`, `endpointUrl`, or `publicJwk`
    (key rotation: access tokens issued for the old key stop working, and so do the streams
    opened with them; the old key stays in the agent's key history and cannot come back).
    Fields left out keep their value.

    **Who**: the agent itself.

    **Errors**: `400` for a patch that changes nothing; `403` for another agent's card;
    `409` when the new key is another agent's; `422` for a bad field (`null` for a required
    one, an unknown field).
    """
    agent = await service.get_agent(session, agent_id)
    agent = await service.update_agent(session, agent=agent, caller_id=caller.id, body=body)
    await commit(session)  # a stream ended now reconnects against the committed key
    presence.revoke(agent.id, keep_thumbprint=agent.key_thumbprint)  # other replicas: a sweep
    return service.to_card(agent)


@router.delete(
    "/{agentId}",
    status_code=status.HTTP_204_NO_CONTENT,
    responses=problem_responses(401, 403, 404),
)
async def delete_agent(
    agent_id: AgentIdPath, principal: PrincipalDep, session: SessionDep, presence: PresenceDep
) -> None:
    """Deregister an agent: it leaves the registry and discovery, its access tokens stop
    working (`401`), its open streams end, it is removed from its groups (a group it owned
    concludes), the sessions it led close and its places in others end. Answers `204`.

    **Who**: the agent itself, or the operator (a registration token is not enough).

    **Errors**: `403` for another agent's registration; `404` for an unknown or already
    deregistered agent.
    """
    await deregistration.deregister(
        session,
        agent_id=agent_id,
        caller_id=principal.agent_id,
        is_operator=principal.is_operator,
        end_streams=lambda: presence.revoke(agent_id),  # other replicas': at their next sweep
    )
    await commit(session)  # not holding the store's write lock while the streams end
    await presence.gone(agent_id, timeout=STREAMS_END_SECONDS)  # ended before the 204
