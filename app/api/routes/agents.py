"""The agent registry: register, read, update, deregister, list."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Body, Depends, Path, Query, Request, Response, status

from agenthub.protocol.agents import AgentCard, AgentPage, AgentRegistration, AgentUpdate
from app.auth.current import bearer_token, may_register
from app.deps import CurrentAgent, PrincipalDep, SessionDep, SettingsDep
from app.errors import Unauthenticated, problem_responses
from app.services import agents as service
from app.services.discovery import AgentFilters
from app.services.discovery import list_agents as find_agents

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

router = APIRouter(prefix="/v1/agents", tags=["agents"])

MAX_PAGE = 500
AgentIdPath = Annotated[str, Path(alias="agentId", max_length=200)]


async def require_registrar(request: Request, settings: SettingsDep) -> None:
    """Checked before the body is validated, so strangers learn nothing from 422s."""
    if not may_register(settings, bearer_token(request)):
        raise Unauthenticated("Registration needs a registration or operator token.")


@router.post(
    "",
    status_code=status.HTTP_201_CREATED,
    dependencies=[Depends(require_registrar)],
    responses=problem_responses(400, 401, 409, 413, 422),
)
async def register_agent(
    body: Annotated[
        AgentRegistration, Body(openapi_examples={"translator": {"value": REGISTRATION_EXAMPLE}})
    ],
    session: SessionDep,
    response: Response,
) -> AgentCard:
    agent = await service.register_agent(session, body=body)
    response.headers["Location"] = f"/v1/agents/{agent.id}"
    return service.to_card(agent)


@router.get("", responses=problem_responses(400, 401, 422))
async def list_agents(
    request: Request,
    caller: CurrentAgent,
    session: SessionDep,
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
    include_self: Annotated[bool, Query(alias="includeSelf")] = False,
    limit: Annotated[int, Query(ge=1, le=MAX_PAGE)] = 50,
    cursor: Annotated[str | None, Query(max_length=1000)] = None,
) -> AgentPage:
    """Discovery: the agents best able to help with ``q``, best first, each with a ``score``;
    without ``q``, all agents by id. The caller is left out unless ``includeSelf``."""
    filters = AgentFilters(
        q=q, skill=skill, tag=tag, status=status, provider=provider, include_self=include_self
    )
    return await find_agents(
        session,
        caller_id=caller.id,
        filters=filters,
        limit=limit,
        cursor=cursor,
        reranker=request.app.state.reranker,
    )


@router.get("/{agentId}", responses=problem_responses(401, 404))
async def get_agent(agent_id: AgentIdPath, caller: CurrentAgent, session: SessionDep) -> AgentCard:
    return service.to_card(await service.get_agent(session, agent_id))


@router.patch("/{agentId}", responses=problem_responses(400, 401, 403, 404, 409, 413, 422))
async def update_agent(
    agent_id: AgentIdPath, body: AgentUpdate, caller: CurrentAgent, session: SessionDep
) -> AgentCard:
    agent = await service.get_agent(session, agent_id)
    agent = await service.update_agent(session, agent=agent, caller_id=caller.id, body=body)
    return service.to_card(agent)


@router.delete(
    "/{agentId}",
    status_code=status.HTTP_204_NO_CONTENT,
    responses=problem_responses(401, 403, 404),
)
async def delete_agent(agent_id: AgentIdPath, principal: PrincipalDep, session: SessionDep) -> None:
    await service.delete_agent(
        session, agent_id=agent_id, caller_id=principal.agent_id, is_operator=principal.is_operator
    )
