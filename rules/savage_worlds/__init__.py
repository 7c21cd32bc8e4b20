"""Savage Worlds with this table's house rules and the XCOM variant (seed 004_bafd3d4b8a0f1c8d.txt)."""

from rules.savage_worlds.system import SavageWorlds

SYSTEM = SavageWorlds()

__all__ = ["SYSTEM", "SavageWorlds"]
