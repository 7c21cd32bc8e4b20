"""1o3d10 (seed 003_8d923c0264e4ee0a.txt)."""

from rules.o3d10.system import O3d10

SYSTEM = O3d10()

__all__ = ["SYSTEM", "O3d10"]
