"""Per-connection rate limits: a token bucket, so one client's flood is refused with a clear
error (``rate_limited``) instead of slowing down everyone at the table."""

from __future__ import annotations

import time
from dataclasses import dataclass, field


@dataclass(frozen=True)
class RateLimit:
    """``per_second`` 0 switches the limit off (benchmarks)."""

    per_second: float = 50.0
    burst: float = 100.0


DEFAULT_RATE = RateLimit()


@dataclass
class Bucket:
    limit: RateLimit
    tokens: float = -1.0
    stamp: float = field(default_factory=time.monotonic)

    def take(self) -> bool:
        if self.limit.per_second <= 0:
            return True
        now = time.monotonic()
        if self.tokens < 0:
            self.tokens = self.limit.burst
        self.tokens = min(
            self.limit.burst, self.tokens + (now - self.stamp) * self.limit.per_second
        )
        self.stamp = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False
