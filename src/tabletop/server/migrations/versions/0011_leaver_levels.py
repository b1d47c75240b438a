"""Leavers (issue 23): the AI level a game's creator chose to play a leaver's seat (games made before it take the
server's `leaver_level`).

Revision ID: 0011_leaver_levels
Revises: 0010_passkeys
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011_leaver_levels"
down_revision = "0010_passkeys"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create `leaver_levels`."""
    op.create_table(
        "leaver_levels",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("level", sa.String(60), nullable=False),
    )


def downgrade() -> None:
    """Drop it."""
    op.drop_table("leaver_levels")
