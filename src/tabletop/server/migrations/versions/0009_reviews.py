"""Post-game reviews (issue 24): one per finished game and seat, computed once by the hint workers and served from
here afterwards.

Revision ID: 0009_reviews
Revises: 0008_password_resets
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009_reviews"
down_revision = "0008_password_resets"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create `reviews`."""
    op.create_table(
        "reviews",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("review", sa.JSON, nullable=False),
        sa.Column("seconds", sa.Float, nullable=False),
        sa.Column("time", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    """Drop it."""
    op.drop_table("reviews")
