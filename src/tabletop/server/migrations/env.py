"""Alembic environment: run programmatically by `tabletop.server.storage.migrate` with an open connection."""

from __future__ import annotations

from alembic import context

from tabletop.server.models import Base

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=Base.metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
