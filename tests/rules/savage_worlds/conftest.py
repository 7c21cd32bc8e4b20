"""Makes the shared helpers of the Savage Worlds tests importable (pytest runs with importlib)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
