"""brp_d10: the realistic d10 hit-location system (seed 001_375c3d4f1c0cc1cc.txt)."""

from rules.brp_d10.system import BrpD10

SYSTEM = BrpD10()

__all__ = ["SYSTEM", "BrpD10"]
