"""The address a game was created from (a truncated SHA-256, shown to no one): creation limits and the lobby.

Revision ID: 0003_creator_address
Revises: 0002_table_clocks
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003_creator_address"
down_revision = "0002_table_clocks"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add `games.creator_address` (NULL for the games created before), indexed with the creation time."""
    op.add_column("games", sa.Column("creator_address", sa.String(32), nullable=True))
    op.create_index("ix_games_creator_address_created", "games", ["creator_address", "created"])


def downgrade() -> None:
    """Drop it."""
    op.drop_index("ix_games_creator_address_created", table_name="games")
    op.drop_column("games", "creator_address")
