"""Omertà (seed 000_8a0a6b1f7ace6aa3.txt): 1D100 skills, 1920s gangster gunfights, bullets dug out."""

from rules.omerta.system import Omerta

SYSTEM = Omerta()

__all__ = ["SYSTEM", "Omerta"]
