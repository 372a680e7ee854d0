"""A certificate keeps the DNS name of the endpoint it names, if any, so that the hub can
revoke it when another agent claims that name

Revision ID: 0016
Revises: 0015
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision: str = '0016'
down_revision: str | None = '0015'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('certificates', schema=None) as batch_op:
        batch_op.add_column(
            sa.Column('dns_name', sqlmodel.sql.sqltypes.AutoString(length=253), nullable=True)
        )
        batch_op.create_index(batch_op.f('ix_certificates_dns_name'), ['dns_name'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('certificates', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_certificates_dns_name'))
        batch_op.drop_column('dns_name')
