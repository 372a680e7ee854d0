"""A task's messages found by session and task: ix_messages_session_task_pk

SQLite has no statistics: for ``session_id = ? AND task_id = ? ORDER BY pk`` it chose
ix_messages_session_pk, which also gives the order, and read every message of the session to
refold one task (bench.soak: a group post's p99 grew with the point-to-point session beside
it). (session_id, task_id, pk) answers all three.

Revision ID: 0012
Revises: 0011
"""

from collections.abc import Sequence

from alembic import op

revision: str = '0012'
down_revision: str | None = '0011'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_index(
        'ix_messages_session_task_pk', 'messages', ['session_id', 'task_id', 'pk'], unique=False
    )
    op.drop_index('ix_messages_task_pk', table_name='messages')


def downgrade() -> None:
    op.create_index('ix_messages_task_pk', 'messages', ['task_id', 'pk'], unique=False)
    op.drop_index('ix_messages_session_task_pk', table_name='messages')
