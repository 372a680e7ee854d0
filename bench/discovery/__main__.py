"""``python -m bench.discovery``: seed N synthetic agents, time top-10 queries, score them.

For each store (SQLite always; PostgreSQL with ``--postgres``) it reports p50/p99 of a top-10
``q`` query through the hub's discovery service, and precision@5 on the labelled queries,
beside the LIKE-filter baseline measured in the same run on the same data.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from sqlalchemy import insert
from sqlmodel.ext.asyncio.session import AsyncSession

from agenthub.protocol.agents import Skill
from app.agents.discovery import AgentFilters, list_agents
from app.agents.models import Agent
from app.agents.service import agent_search_text, agent_skills_text
from app.core.unit_of_work import make_session_factory
from app.db import make_engine
from app.models.types import utcnow
from app.schema import migrate
from app.stopping import run_until_signalled
from bench.discovery.baseline import like_search
from bench.discovery.corpus import QUERIES, SyntheticAgent, make_agents
from bench.harness import create_pg_database, drop_pg_database, publish_report

BATCH = 2_000
JWK = {"kty": "EC", "crv": "P-256", "x": "bench", "y": "bench"}


async def seed(url: str, agents: list[SyntheticAgent]) -> float:
    engine = make_engine(url)
    started = time.perf_counter()
    now = utcnow()
    async with engine.begin() as conn:
        for start in range(0, len(agents), BATCH):
            rows = []
            for a in agents[start : start + BATCH]:
                skills = [Skill.model_validate(s) for s in a.skills]
                rows.append(
                    {
                        "id": a.id,
                        "name": a.name,
                        "description": a.description,
                        "skills": a.skills,
                        "public_jwk": JWK,
                        "key_thumbprint": a.id[-20:],
                        "search_text": agent_search_text(a.name, a.description, skills),
                        "skills_text": agent_skills_text(skills),
                        "inbox_seq": 0,
                        "created_at": now,
                        "updated_at": now,
                    }
                )
            await conn.execute(insert(Agent), rows)
    await engine.dispose()
    return time.perf_counter() - started


def percentile(samples: list[float], p: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


async def measure(url: str, category: dict[str, str], rounds: int) -> dict[str, Any]:
    engine = make_engine(url)
    factory = make_session_factory(engine)
    results: dict[str, Any] = {}

    async def ranked(session: AsyncSession, q: str) -> list[str]:
        page = await list_agents(
            session, caller_id="bench", filters=AgentFilters(q=q), limit=10, cursor=None
        )
        return [a.id for a in page.items]

    async def like(session: AsyncSession, q: str) -> list[str]:
        return [agent_id for agent_id, _ in await like_search(session, q, 10)]

    for name, search in (("ranked", ranked), ("like", like)):
        times: list[float] = []
        precision: list[float] = []
        async with factory() as session:
            for q, _ in QUERIES:  # warm up: page cache, word counts (cached 60 s)
                await search(session, q)
            for round_ in range(rounds):
                for q, want in QUERIES:
                    started = time.perf_counter()
                    ids = await search(session, q)
                    times.append((time.perf_counter() - started) * 1000)
                    session.expunge_all()
                    if round_ == 0:
                        top = ids[:5]
                        precision.append(sum(category.get(i) == want for i in top) / 5)
        results[name] = {
            "p50_ms": round(statistics.median(times), 2),
            "p99_ms": round(percentile(times, 99), 2),
            "precision_at_5": round(statistics.mean(precision), 3),
            "samples": len(times),
        }
    await engine.dispose()
    r, b = results["ranked"], results["like"]
    results["ratios"] = {
        "p50_like_over_ranked": round(b["p50_ms"] / r["p50_ms"], 2),
        "precision_ranked_minus_like": round(r["precision_at_5"] - b["precision_at_5"], 3),
    }
    return results


async def run(count: int, rounds: int, postgres: str | None) -> dict[str, Any]:
    agents = make_agents(count)
    category = {a.id: a.category for a in agents}
    report: dict[str, Any] = {
        "agents": count,
        "queries": len(QUERIES),
        "rounds": rounds,
        "machine": f"{platform.machine()}, {os.cpu_count()} CPUs, "
        f"Python {platform.python_version()}",
    }
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite+aiosqlite:///{Path(tmp) / 'bench.db'}"
        await asyncio.to_thread(migrate, url)
        report["sqlite"] = {"seed_seconds": round(await seed(url, agents), 1)}
        report["sqlite"].update(await measure(url, category, rounds))
    if postgres:
        name, url = await create_pg_database(postgres)
        try:
            await asyncio.to_thread(migrate, url)
            pg_url = url
            report["postgres"] = {"seed_seconds": round(await seed(pg_url, agents), 1)}
            report["postgres"].update(await measure(pg_url, category, rounds))
        finally:
            await drop_pg_database(postgres, name)
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.discovery", description=__doc__)
    parser.add_argument("--agents", type=int, default=100_000)
    parser.add_argument("--rounds", type=int, default=5, help="passes over the query set")
    parser.add_argument("--quick", action="store_true", help="10,000 agents, 2 rounds")
    parser.add_argument(
        "--postgres",
        help="an admin URL (postgresql+asyncpg://postgres@127.0.0.1:5432/test); "
        "a fresh database is made and dropped",
    )
    parser.add_argument("--json", type=Path, help="also write the report here")
    args = parser.parse_args(argv)
    count, rounds = (10_000, 2) if args.quick else (args.agents, args.rounds)
    report = run_until_signalled(run(count, rounds, args.postgres))
    return publish_report(report, args.json)


if __name__ == "__main__":
    sys.exit(main())
