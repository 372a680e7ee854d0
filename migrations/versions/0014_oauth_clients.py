"""The hub as an OAuth 2.0 authorization server: the operator's applications, and agents
found by their endpoint URL (a token request's ``resource``)

Revision ID: 0014
Revises: 0013
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

import app.models.types

revision: str = '0014'
down_revision: str | None = '0013'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table('oauth_clients',
    sa.Column('id', sqlmodel.sql.sqltypes.AutoString(length=80), nullable=False),
    sa.Column('name', sqlmodel.sql.sqltypes.AutoString(length=200), nullable=False),
    sa.Column('secret_sha256', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
    sa.Column('created_at', app.models.types.UTCDateTime(timezone=True), nullable=False),
    sa.Column('revoked_at', app.models.types.UTCDateTime(timezone=True), nullable=True),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_oauth_clients'))
    )
    with op.batch_alter_table('agents', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_agents_endpoint_url'), ['endpoint_url'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('agents', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_agents_endpoint_url'))
    op.drop_table('oauth_clients')
