"""Cunchillos' combat system (seed 002_8baaf1d4570df142.txt)."""

from rules.cunchillos.system import Cunchillos

SYSTEM = Cunchillos()

__all__ = ["SYSTEM", "Cunchillos"]
