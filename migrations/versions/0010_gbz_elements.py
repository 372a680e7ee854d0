"""GB/Z elements: a hybrid receiver's group-mode params, and tasks released by their session's close

Revision ID: 0010
Revises: 0009
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

import app.models.types

revision: str = '0010'
down_revision: str | None = '0009'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('session_participants', schema=None) as batch_op:
        batch_op.add_column(sa.Column('group_params', sa.JSON(), nullable=True))

    with op.batch_alter_table('tasks', schema=None) as batch_op:
        batch_op.add_column(sa.Column('released_at', app.models.types.UTCDateTime(timezone=True), nullable=True))


def downgrade() -> None:
    # values the code before this revision cannot read: a receiver in both modes is kept in
    # its p2p one; a trigger a conclusion cancelled reads as one that timed out
    op.execute("UPDATE session_participants SET mode = 'p2p' WHERE mode = 'hybrid'")
    op.execute("UPDATE group_triggers SET outcome = 'timeout' WHERE outcome = 'cancelled'")
    with op.batch_alter_table('tasks', schema=None) as batch_op:
        batch_op.drop_column('released_at')

    with op.batch_alter_table('session_participants', schema=None) as batch_op:
        batch_op.drop_column('group_params')
