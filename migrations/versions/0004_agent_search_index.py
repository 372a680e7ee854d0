"""agent search index: FTS5 (SQLite) or a weighted tsvector with GIN (PostgreSQL)

Revision ID: 0004
Revises: 0003
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision: str = '0004'
down_revision: str | None = '0003'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

FTS_COLUMNS = "name, description, skills_text"
SQLITE_INDEX = [
    "CREATE VIRTUAL TABLE agents_fts USING fts5(name, description, skills_text, "
    "content='agents', content_rowid='rowid', tokenize='porter unicode61 remove_diacritics 2')",
    "CREATE TRIGGER agents_fts_insert AFTER INSERT ON agents BEGIN "
    f"INSERT INTO agents_fts(rowid, {FTS_COLUMNS}) "
    "VALUES (new.rowid, new.name, new.description, new.skills_text); END",
    "CREATE TRIGGER agents_fts_delete AFTER DELETE ON agents BEGIN "
    f"INSERT INTO agents_fts(agents_fts, rowid, {FTS_COLUMNS}) "
    "VALUES ('delete', old.rowid, old.name, old.description, old.skills_text); END",
    "CREATE TRIGGER agents_fts_update AFTER UPDATE OF name, description, skills_text "
    "ON agents BEGIN "
    f"INSERT INTO agents_fts(agents_fts, rowid, {FTS_COLUMNS}) "
    "VALUES ('delete', old.rowid, old.name, old.description, old.skills_text); "
    f"INSERT INTO agents_fts(rowid, {FTS_COLUMNS}) "
    "VALUES (new.rowid, new.name, new.description, new.skills_text); END",
    "INSERT INTO agents_fts(agents_fts) VALUES ('rebuild')",
]
PG_INDEX = [
    "ALTER TABLE agents ADD COLUMN search_vector tsvector GENERATED ALWAYS AS ("
    "setweight(to_tsvector('english', coalesce(name, '')), 'A') || "
    "setweight(to_tsvector('english', coalesce(skills_text, '')), 'B') || "
    "setweight(to_tsvector('english', coalesce(description, '')), 'C')) STORED",
    "CREATE INDEX ix_agents_search_vector ON agents USING gin (search_vector)",
]


def _skills_text(skills: list[dict]) -> str:
    parts: list[str] = []
    for skill in skills or []:
        parts += [skill.get('id', ''), skill.get('name', ''), skill.get('description', '')]
        parts += list(skill.get('tags') or [])
    return " ".join(parts)


def upgrade() -> None:
    with op.batch_alter_table('agents', schema=None) as batch_op:
        batch_op.add_column(
            sa.Column(
                'skills_text',
                sqlmodel.sql.sqltypes.AutoString(length=20000),
                nullable=False,
                server_default='',
            )
        )
    bind = op.get_bind()
    agents = sa.table('agents', sa.column('id'), sa.column('skills', sa.JSON), sa.column('skills_text'))
    for agent_id, skills in bind.execute(sa.select(agents.c.id, agents.c.skills)).all():
        bind.execute(
            agents.update().where(agents.c.id == agent_id).values(skills_text=_skills_text(skills))
        )
    for statement in SQLITE_INDEX if bind.dialect.name == 'sqlite' else PG_INDEX:
        op.execute(statement)


def downgrade() -> None:
    bind = op.get_bind()
    if bind.dialect.name == 'sqlite':
        for name in ('insert', 'delete', 'update'):
            op.execute(f"DROP TRIGGER agents_fts_{name}")
        op.execute("DROP TABLE agents_fts")
    else:
        op.execute("DROP INDEX ix_agents_search_vector")
        op.execute("ALTER TABLE agents DROP COLUMN search_vector")
    with op.batch_alter_table('agents', schema=None) as batch_op:
        batch_op.drop_column('skills_text')
