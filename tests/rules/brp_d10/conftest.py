"""Makes the shared helpers of the brp_d10 tests importable (pytest runs with importlib)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
