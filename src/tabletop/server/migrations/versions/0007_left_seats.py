"""Leavers (issue 23): the seats whose player left a game (an AI took over), with the mode to go back to.

Revision ID: 0007_left_seats
Revises: 0006_turn_mail
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007_left_seats"
down_revision = "0006_turn_mail"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create `left_seats`."""
    op.create_table(
        "left_seats",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("mode", sa.String(10), nullable=False),
        sa.Column("time", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    """Drop it."""
    op.drop_table("left_seats")
