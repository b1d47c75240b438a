"""Your-turn e-mail (issue 23): an account's address, its opt-out and its opt-out link's token; the mails sent.

Revision ID: 0006_turn_mail
Revises: 0005_ratings
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006_turn_mail"
down_revision = "0005_ratings"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add `accounts.email`, `accounts.turn_mail`, `accounts.mail_token`; create `turn_mails`."""
    with op.batch_alter_table("accounts") as batch:
        batch.add_column(sa.Column("email", sa.String(254), nullable=True))
        batch.add_column(sa.Column("turn_mail", sa.Boolean, nullable=False, server_default=sa.true()))
        batch.add_column(sa.Column("mail_token", sa.String(64), nullable=True))
    op.create_table(
        "turn_mails",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("since", sa.Integer, primary_key=True),
        sa.Column("time", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    """Drop them."""
    op.drop_table("turn_mails")
    with op.batch_alter_table("accounts") as batch:
        batch.drop_column("mail_token")
        batch.drop_column("turn_mail")
        batch.drop_column("email")
