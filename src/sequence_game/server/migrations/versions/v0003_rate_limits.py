"""Rate limits every worker shares: one token bucket a limit and client address (issue 42).

Each worker kept its own buckets in memory, so N workers let a client create N times the rooms.

Revision ID: 0003
Revises: 0002
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "rate_limits",
        sa.Column("bucket", sa.String(16), primary_key=True),
        sa.Column("client", sa.String(64), primary_key=True),
        sa.Column("tokens", sa.Float, nullable=False),
        sa.Column("stamp", sa.Float, nullable=False),
        sa.Column("admitted", sa.Boolean, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("rate_limits")
