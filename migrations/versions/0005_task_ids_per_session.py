"""task ids per session: a task is known by (id, session_id)

Task ids are the leaders' choice; with a global key a stranger learned whether an id was
taken (409 against 201) and could take it first. The trigger index carries the session too.

Revision ID: 0005
Revises: 0004
"""

import warnings
from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision: str = '0005'
down_revision: str | None = '0004'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

BACKFILL = (
    "UPDATE group_trigger_tasks SET session_id = ("
    "SELECT g.session_id FROM group_triggers t JOIN groups g ON g.id = t.group_id "
    "WHERE t.id = group_trigger_tasks.trigger_id)"
)


def _primary_key(table: str, columns: list[str]) -> None:
    if op.get_bind().dialect.name == "sqlite":
        # the copy gets the new key; SQLAlchemy warns that it replaces the reflected one
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", "Table '_alembic_tmp_", sa.exc.SAWarning)
            with op.batch_alter_table(table, recreate="always") as batch_op:
                batch_op.create_primary_key(f"pk_{table}", columns)
    else:
        op.drop_constraint(f"pk_{table}", table, type_="primary")
        op.create_primary_key(f"pk_{table}", table, columns)


def upgrade() -> None:
    _primary_key("tasks", ["id", "session_id"])
    with op.batch_alter_table('group_trigger_tasks', schema=None) as batch_op:
        batch_op.add_column(
            sa.Column('session_id', sqlmodel.sql.sqltypes.AutoString(length=200), nullable=True)
        )
    op.execute(BACKFILL)
    with op.batch_alter_table('group_trigger_tasks', schema=None) as batch_op:
        batch_op.alter_column('session_id', existing_type=sa.String(length=200), nullable=False)
        batch_op.drop_index('ix_group_trigger_tasks_task')
        batch_op.create_index('ix_group_trigger_tasks_task', ['task_id', 'session_id'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('group_trigger_tasks', schema=None) as batch_op:
        batch_op.drop_index('ix_group_trigger_tasks_task')
        batch_op.create_index('ix_group_trigger_tasks_task', ['task_id'], unique=False)
        batch_op.drop_column('session_id')
    _primary_key("tasks", ["id"])
