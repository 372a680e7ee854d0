"""Protocol bindings of agents (and their discovery labels), and bridge sessions

Revision ID: 0011
Revises: 0010
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0011'
down_revision: str | None = '0010'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # no batches: on SQLite a batch copies the table, which loses the agents' search triggers
    # and cannot drop sessions while other tables refer to it (ADD and DROP COLUMN will do)
    op.add_column('agents', sa.Column('protocols', sa.JSON(), nullable=False, server_default='[]'))
    op.add_column('sessions', sa.Column('bridge', sa.JSON(), nullable=True))

    # every agent registered so far declared nothing: its card shows AIP at its endpoint
    op.execute(
        "INSERT INTO agent_labels (agent_id, kind, value) "
        "SELECT id, 'protocol', 'aip' FROM agents "
        "WHERE endpoint_url IS NOT NULL AND deleted_at IS NULL"
    )


def downgrade() -> None:
    # the code before this revision knows no bridge: a bridge session's tasks stay, with the
    # bridge as their leader and partner; its label rows of kind protocol would match nothing
    op.execute("DELETE FROM agent_labels WHERE kind = 'protocol'")
    op.drop_column('sessions', 'bridge')  # no batches: see upgrade
    op.drop_column('agents', 'protocols')
