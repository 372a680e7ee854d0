"""The agent search index: engine-specific objects that live beside the tables.

SQLite has an FTS5 table ``agents_fts`` (porter stemming) kept current by triggers on
``agents``; PostgreSQL has a generated, weighted ``tsvector`` column ``search_vector`` with a
GIN index. Both are made by migration 0004 and are invisible to the SQLModel tables, so the
migration-vs-models comparison leaves them out (``include_object``).
"""

from __future__ import annotations

from typing import Any

FTS_TABLE = "agents_fts"
PG_VECTOR_COLUMN = "search_vector"
PG_VECTOR_INDEX = "ix_agents_search_vector"


def is_search_index(name: str | None) -> bool:
    return bool(name) and (
        str(name).startswith(FTS_TABLE) or name in (PG_VECTOR_COLUMN, PG_VECTOR_INDEX)
    )


def include_object(
    obj: Any, name: str | None, type_: str, reflected: bool, compare_to: Any
) -> bool:
    """Alembic's filter: the search index is not part of the models."""
    return not (reflected and compare_to is None and is_search_index(name))
