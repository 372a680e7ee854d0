"""Message indexes hold only the rows they are for: fewer pages a COMMIT writes

ix_messages_group_seq holds group messages only (group_id IS NOT NULL) and
ix_messages_session_task_pk task messages only (task_id IS NOT NULL); every query of either
names its column with ``=`` or ``IN``, which implies the condition, on SQLite and
PostgreSQL. ix_messages_task_waiting goes: a task's waiting messages are found among its
messages by ix_messages_session_task_pk. A group post is now in 4 b-trees (was 6), a task
record in 4 (was 6), a point-to-point message of no task in 3.

Revision ID: 0013
Revises: 0012
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0013'
down_revision: str | None = '0012'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_GROUP = sa.text('group_id IS NOT NULL')
_TASK = sa.text('task_id IS NOT NULL')


def upgrade() -> None:
    op.drop_index('ix_messages_task_waiting', table_name='messages')
    op.drop_index('ix_messages_group_seq', table_name='messages')
    op.create_index(
        'ix_messages_group_seq',
        'messages',
        ['group_id', 'seq'],
        unique=False,
        sqlite_where=_GROUP,
        postgresql_where=_GROUP,
    )
    op.drop_index('ix_messages_session_task_pk', table_name='messages')
    op.create_index(
        'ix_messages_session_task_pk',
        'messages',
        ['session_id', 'task_id', 'pk'],
        unique=False,
        sqlite_where=_TASK,
        postgresql_where=_TASK,
    )


def downgrade() -> None:
    op.drop_index('ix_messages_session_task_pk', table_name='messages')
    op.create_index(
        'ix_messages_session_task_pk', 'messages', ['session_id', 'task_id', 'pk'], unique=False
    )
    op.drop_index('ix_messages_group_seq', table_name='messages')
    op.create_index('ix_messages_group_seq', 'messages', ['group_id', 'seq'], unique=False)
    op.create_index('ix_messages_task_waiting', 'messages', ['task_id', 'waiting'], unique=False)
