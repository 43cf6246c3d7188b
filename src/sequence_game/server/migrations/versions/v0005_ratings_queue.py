"""Ratings and finding a game (issue 43, parts 2 and 3): one OpenSkill rating per account and
format, one history row per account and rated game (the game's key makes rating idempotent), the
"Play now" queue, and a player's choice to hide their history.

Revision ID: 0005
Revises: 0004
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "ratings",
        sa.Column(
            "account_id", sa.Integer, sa.ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True
        ),
        sa.Column("format", sa.String(8), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("updated_at", sa.Float, nullable=False),
    )
    op.create_index("ix_ratings_format_mu", "ratings", ["format", "mu"])
    op.create_table(
        "rated_games",
        sa.Column("room_id", sa.Integer, sa.ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("game", sa.Integer, primary_key=True),
        sa.Column("format", sa.String(8), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_table(
        "rating_history",
        sa.Column("room_id", sa.Integer, sa.ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("game", sa.Integer, primary_key=True),
        sa.Column(
            "account_id", sa.Integer, sa.ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True
        ),
        sa.Column("format", sa.String(8), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("result", sa.String(8), nullable=False),
        sa.Column("abandoned", sa.Boolean, nullable=False),
        sa.Column("mu_before", sa.Float, nullable=False),
        sa.Column("sigma_before", sa.Float, nullable=False),
        sa.Column("mu_after", sa.Float, nullable=False),
        sa.Column("sigma_after", sa.Float, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("ix_rating_history_account", "rating_history", ["account_id", "at"])
    op.create_table(
        "queue_entries",
        sa.Column(
            "account_id", sa.Integer, sa.ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True
        ),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("format", sa.String(8), nullable=False),
        sa.Column("time_control", sa.String(8), nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("joined_at", sa.Float, nullable=False),
        sa.Column("bots_after", sa.Float, nullable=True),
        sa.Column("state", sa.String(8), nullable=False),
        sa.Column("match_id", sa.String(32), nullable=True),
        sa.Column("claimed_at", sa.Float, nullable=True),
        sa.Column("room_code", sa.String(16), nullable=True),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("token", sa.String(64), nullable=True),
        sa.Column("paired_at", sa.Float, nullable=True),
    )
    op.create_index("ix_queue_entries_state", "queue_entries", ["state", "format", "time_control"])
    op.create_table(
        "player_settings",
        sa.Column(
            "account_id", sa.Integer, sa.ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True
        ),
        sa.Column("hide_history", sa.Boolean, nullable=False),
    )


def downgrade() -> None:
    op.drop_index("ix_queue_entries_state", "queue_entries")
    op.drop_index("ix_rating_history_account", "rating_history")
    op.drop_index("ix_ratings_format_mu", "ratings")
    for table in ("player_settings", "queue_entries", "rating_history", "rated_games", "ratings"):
        op.drop_table(table)
