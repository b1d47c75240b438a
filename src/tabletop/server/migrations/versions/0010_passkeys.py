"""Passkeys (issue 23): WebAuthn credentials of accounts, a second way to sign in.

Revision ID: 0010_passkeys
Revises: 0009_reviews
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010_passkeys"
down_revision = "0009_reviews"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create `passkeys`."""
    op.create_table(
        "passkeys",
        sa.Column("credential_id", sa.String(1400), primary_key=True),
        sa.Column("account_id", sa.String(32), sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("public_key", sa.LargeBinary, nullable=False),
        sa.Column("sign_count", sa.Integer, nullable=False),
        sa.Column("name", sa.String(60), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_passkeys_account_id", "passkeys", ["account_id"])


def downgrade() -> None:
    """Drop it."""
    op.drop_index("ix_passkeys_account_id", "passkeys")
    op.drop_table("passkeys")
