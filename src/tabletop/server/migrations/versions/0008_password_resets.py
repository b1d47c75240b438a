"""Password resets by e-mail (issue 23): one-time links, stored as their SHA-256, with an expiry.

Revision ID: 0008_password_resets
Revises: 0007_left_seats
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008_password_resets"
down_revision = "0007_left_seats"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create `password_resets`."""
    op.create_table(
        "password_resets",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.String(32), sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("expires", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    """Drop it."""
    op.drop_table("password_resets")
