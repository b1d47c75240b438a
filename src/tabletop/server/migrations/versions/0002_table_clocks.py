"""Table messages (chat and notices) and move clocks.

Revision ID: 0002_table_clocks
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002_table_clocks"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create `messages` (one row per chat line or table notice, indexed per game) and `clocks`."""
    op.create_table(
        "messages",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), nullable=False),
        sa.Column("idx", sa.Integer, nullable=False),
        sa.Column("kind", sa.String(10), nullable=False),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("time", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("game_id", "idx", name="uq_messages_game_idx"),
    )
    op.create_table(
        "clocks",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("move_seconds", sa.Integer, nullable=False),
        sa.Column("seq", sa.Integer, nullable=True),
        sa.Column("deadline", sa.DateTime(timezone=True), nullable=True),
    )


def downgrade() -> None:
    """Drop both tables."""
    op.drop_table("clocks")
    op.drop_table("messages")
