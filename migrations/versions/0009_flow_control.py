"""groups: speaking policy and the floor (IoA next_speaker)

Revision ID: 0009
Revises: 0008
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

import app.models.types

revision: str = '0009'
down_revision: str | None = '0008'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('groups', schema=None) as batch_op:
        batch_op.add_column(sa.Column('speaking_policy', sqlmodel.sql.sqltypes.AutoString(length=10), nullable=False, server_default='free'))
        batch_op.add_column(sa.Column('turn_timeout_seconds', sa.Float(), nullable=False, server_default='60'))
        batch_op.add_column(sa.Column('floor', sa.JSON(), nullable=True))
        batch_op.add_column(sa.Column('floor_deadline', app.models.types.UTCDateTime(timezone=True), nullable=True))
        batch_op.create_index(batch_op.f('ix_groups_floor_deadline'), ['floor_deadline'], unique=False)


def downgrade() -> None:
    # the code before this revision knows no released member: one a conclusion released has left
    op.execute("UPDATE group_members SET state = 'left' WHERE state = 'released'")
    with op.batch_alter_table('groups', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_groups_floor_deadline'))
        batch_op.drop_column('floor_deadline')
        batch_op.drop_column('floor')
        batch_op.drop_column('turn_timeout_seconds')
        batch_op.drop_column('speaking_policy')
