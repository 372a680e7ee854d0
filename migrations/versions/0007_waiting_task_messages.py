"""task messages that wait for a move are marked, so a task folds in only those again

Revision ID: 0007
Revises: 0006
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0007'
down_revision: str | None = '0006'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # rows stored before are unmarked: a task whose count of waiting rows disagrees with its
    # ``pending`` is folded again from all its messages, which marks them (services/tasks)
    with op.batch_alter_table('messages', schema=None) as batch_op:
        batch_op.add_column(
            sa.Column('waiting', sa.Boolean(), nullable=False, server_default=sa.false())
        )
        batch_op.create_index('ix_messages_task_waiting', ['task_id', 'waiting'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('messages', schema=None) as batch_op:
        batch_op.drop_index('ix_messages_task_waiting')
        batch_op.drop_column('waiting')
