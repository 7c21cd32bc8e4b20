"""One knob for the campaign: the short bounded run in ``make test``, the long one in
``make chaos`` (``VTT_CHAOS=1``). The same tests run either way; only their sizes change."""

from __future__ import annotations

import os

CHAOS = os.environ.get("VTT_CHAOS") == "1"


def pick(short: int, long: int) -> int:
    """``short`` in the normal run, ``long`` under ``make chaos``."""
    return long if CHAOS else short
