"""Silencio rule tests, named after the rulebook rule each checks (rulebook: /work/shared/rules/silencio.txt)."""
