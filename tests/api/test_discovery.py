"""Ranked discovery: relevance of q to name, description and skills, on SQLite and PostgreSQL."""

from __future__ import annotations

from typing import Any

from agenthub import HubClient
from agenthub.protocol.agents import AgentUpdate
from tests.support.hub import MakeAgent


def skill(sid: str, name: str, description: str, *tags: str) -> dict[str, Any]:
    return {"id": sid, "name": name, "description": description, "tags": list(tags)}


async def names(caller: HubClient, q: str, **params: Any) -> list[str]:
    page = await caller.list_agents(q=q, **params)
    scores = [a.score for a in page.items]
    assert all(s is not None and s > 0 for s in scores)
    assert scores == sorted(scores, reverse=True)  # type: ignore[type-var]
    return [a.name for a in page.items]


async def test_best_match_first_with_stemming(make_agent: MakeAgent) -> None:
    await make_agent(
        "polyglot",
        description="Translates legal documents between French and German.",
        skills=[
            skill(
                "translate-doc",
                "Document translation",
                "translation of contracts",
                "translation",
                "legal",
            )
        ],
    )
    await make_agent("scribe", description="Writes documents; no translation work.")
    await make_agent("forecaster", description="Weather forecasts for farmers.")
    caller = await make_agent("caller")
    # "translating" and "contract" find "translates"/"translation" and "contracts"
    found = await names(caller, "translating a contract")
    assert found[0] == "polyglot"
    assert "forecaster" not in found
    assert await names(caller, "weather") == ["forecaster"]
    assert await names(caller, "knitting") == []


async def test_name_and_skills_outweigh_description(make_agent: MakeAgent) -> None:
    await make_agent("mentions", description="Sometimes does chemistry, among many other things.")
    await make_agent("chemistry", description="A lab assistant.")
    await make_agent(
        "lab",
        description="A lab assistant.",
        skills=[skill("chem", "Chemistry", "reactions", "chemistry")],
    )
    caller = await make_agent("caller")
    found = await names(caller, "chemistry")
    assert found[-1] == "mentions" and set(found) == {"mentions", "chemistry", "lab"}


async def test_rare_words_count_more_than_common_ones(make_agent: MakeAgent) -> None:
    for i in range(6):
        await make_agent(f"generic-{i}", description="A reliable assistant for any service.")
    await make_agent("cartographer", description="A reliable assistant for map projections.")
    caller = await make_agent("caller")
    found = await names(caller, "reliable map service")
    assert found[0] == "cartographer"


async def test_the_index_follows_patch_and_delete(make_agent: MakeAgent) -> None:
    agent = await make_agent("shifty", description="Paints portraits.")
    caller = await make_agent("caller")
    assert await names(caller, "portraits") == ["shifty"]
    await agent.update_self(AgentUpdate.model_validate({"description": "Repairs bicycles."}))
    assert await names(caller, "portraits") == []
    assert await names(caller, "bicycle") == ["shifty"]
    await agent.update_self(
        AgentUpdate.model_validate({"skills": [skill("tune", "Tuning", "gears", "gearbox")]})
    )
    assert await names(caller, "gearbox") == ["shifty"]
    await agent.update_self(AgentUpdate.model_validate({"name": "steady"}))
    assert await names(caller, "shifty") == []
    await agent.deregister()
    assert await names(caller, "bicycle") == []


async def test_the_caller_and_filters(make_agent: MakeAgent) -> None:
    poet = await make_agent(
        "poet",
        description="Writes poems.",
        skills=[skill("poem", "Poems", "verse", "text")],
        provider="muse",
    )
    await make_agent("bard", description="Writes poems too.")
    assert await names(poet, "poems") == ["bard"]
    assert set(await names(poet, "poems", includeSelf="true")) == {"poet", "bard"}
    caller = await make_agent("caller")
    assert await names(caller, "poems", skill="poem") == ["poet"]
    assert await names(caller, "poems", tag="text") == ["poet"]
    assert await names(caller, "poems", provider="muse") == ["poet"]
    # the poet has called the hub (its search above); the bard never has
    assert await names(caller, "poems", status="online") == ["poet"]
    assert await names(caller, "poems", status="offline") == ["bard"]


async def test_query_syntax_is_only_words(make_agent: MakeAgent) -> None:
    await make_agent("alpha", description="Solves scheduling problems.")
    await make_agent("beta", description="Solves packing problems.")
    caller = await make_agent("caller")
    plain = await names(caller, "scheduling problems")
    assert plain[0] == "alpha" and set(plain) == {"alpha", "beta"}
    hostile = [
        'scheduling" OR "problems',
        "scheduling AND problems",
        "scheduling NOT problems",
        "description:scheduling problems",
        "(scheduling) | problems & !x",
        "NEAR(scheduling problems)",
        "schedul* ^problems -beta",
        "scheduling' OR 1=1; DROP TABLE agents; --",
        "'''",
        '"',
        "\\",
        "%_%",
        "ünïcödé scheduling",
    ]
    for q in hostile:
        response = await caller.request("GET", "/v1/agents", params={"q": q})
        assert response.status_code == 200, (q, response.text)
        found = {a["name"] for a in response.json()["items"]}
        assert found <= {"alpha", "beta"}, q
    # the operators are plain words: no column filter, no NOT, no prefix search
    assert await names(caller, "description:scheduling problems") == plain
    assert set(await names(caller, "scheduling NOT problems")) == {"alpha", "beta"}
    assert await names(caller, "sched*") == []  # no prefix search
    assert await names(caller, "!!! ???") == []
    assert {a.name for a in (await caller.list_agents(q="  ")).items} == {"alpha", "beta"}
