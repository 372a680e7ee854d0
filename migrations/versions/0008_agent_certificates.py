"""agent certificates issued by the hub's CA

Revision ID: 0008
Revises: 0007
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

import app.models.types

revision: str = '0008'
down_revision: str | None = '0007'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table('certificates',
    sa.Column('serial', sqlmodel.sql.sqltypes.AutoString(length=40), nullable=False),
    sa.Column('agent_id', sqlmodel.sql.sqltypes.AutoString(length=80), nullable=False),
    sa.Column('key_thumbprint', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
    sa.Column('not_before', app.models.types.UTCDateTime(timezone=True), nullable=False),
    sa.Column('not_after', app.models.types.UTCDateTime(timezone=True), nullable=False),
    sa.Column('revoked_at', app.models.types.UTCDateTime(timezone=True), nullable=True),
    sa.Column('revoked_reason', sqlmodel.sql.sqltypes.AutoString(length=40), nullable=True),
    sa.ForeignKeyConstraint(['agent_id'], ['agents.id'], name=op.f('fk_certificates_agent_id_agents')),
    sa.PrimaryKeyConstraint('serial', name=op.f('pk_certificates'))
    )
    with op.batch_alter_table('certificates', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_certificates_agent_id'), ['agent_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_certificates_not_after'), ['not_after'], unique=False)
        batch_op.create_index(batch_op.f('ix_certificates_revoked_at'), ['revoked_at'], unique=False)



def downgrade() -> None:
    with op.batch_alter_table('certificates', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_certificates_revoked_at'))
        batch_op.drop_index(batch_op.f('ix_certificates_not_after'))
        batch_op.drop_index(batch_op.f('ix_certificates_agent_id'))

    op.drop_table('certificates')
