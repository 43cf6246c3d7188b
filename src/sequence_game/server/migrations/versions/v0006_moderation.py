"""Moderation (issue 43, part 5): players' reports of another player of their room, the bans of
accounts, and the log of what each operator did (bans, unbans, renames, reports closed).

Revision ID: 0006
Revises: 0005
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "reports",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column(
            "reporter_id", sa.Integer, sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column(
            "reported_id", sa.Integer, sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("room_code", sa.String(16), nullable=False),
        sa.Column("game", sa.Integer, nullable=False),
        sa.Column("reason", sa.String(16), nullable=False),
        sa.Column("text", sa.String(500), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("state", sa.String(12), nullable=False),
        sa.Column("resolved_by", sa.String(64), nullable=True),
        sa.Column("resolved_at", sa.Float, nullable=True),
        sa.Column("note", sa.String(500), nullable=True),
    )
    op.create_index("ix_reports_state", "reports", ["state", "created_at"])
    op.create_index("ix_reports_reporter", "reports", ["reporter_id", "created_at"])
    op.create_index("ix_reports_reported", "reports", ["reported_id"])
    op.create_table(
        "bans",
        sa.Column(
            "account_id", sa.Integer, sa.ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True
        ),
        sa.Column("reason", sa.String(500), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("by", sa.String(64), nullable=False),
    )
    op.create_table(
        "moderation_log",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("actor", sa.String(64), nullable=False),
        sa.Column("action", sa.String(16), nullable=False),
        sa.Column("account_id", sa.Integer, nullable=True),  # no foreign key: the log outlives accounts
        sa.Column("account_name", sa.String(40), nullable=False),
        sa.Column("report_id", sa.Integer, nullable=True),
        sa.Column("detail", sa.String(500), nullable=False),
    )
    op.create_index("ix_moderation_log_account", "moderation_log", ["account_id", "at"])


def downgrade() -> None:
    op.drop_index("ix_moderation_log_account", "moderation_log")
    op.drop_index("ix_reports_reported", "reports")
    op.drop_index("ix_reports_reporter", "reports")
    op.drop_index("ix_reports_state", "reports")
    for table in ("moderation_log", "bans", "reports"):
        op.drop_table(table)
