"""Silencio rule tests, named after the rule of the Silencio rulebook each checks."""
