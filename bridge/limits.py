"""Limits that turn abuse into clear errors instead of a slowdown for everyone.

- per connection: a token bucket of requests (``rate_limited``);
- per world: open connections (``world_full``) and requests of all its connections
  together (``world_rate_limited``);
- per client address: wrong tokens (``auth_throttled``).
"""

from __future__ import annotations

import ipaddress
import time
from collections import Counter, OrderedDict
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class RateLimit:
    """``per_second`` 0 switches the limit off (benchmarks)."""

    per_second: float = 50.0
    burst: float = 100.0


DEFAULT_RATE = RateLimit()
_monotonic = time.monotonic


class Bucket:
    """A token bucket: ``limit.burst`` tokens at first, ``limit.per_second`` more a second
    up to the burst. The limit's two numbers are copied in (read once a request each)."""

    __slots__ = ("burst", "limit", "rate", "stamp", "tokens")

    def __init__(self, limit: RateLimit, tokens: float = -1.0, stamp: float | None = None) -> None:
        self.limit = limit
        self.rate = limit.per_second
        self.burst = limit.burst
        self.tokens = limit.burst if tokens < 0 else tokens  # full to begin with
        self.stamp = time.monotonic() if stamp is None else stamp

    def __repr__(self) -> str:
        return f"Bucket({self.limit!r}, tokens={self.tokens!r}, stamp={self.stamp!r})"

    def take(self, now: float | None = None) -> bool:
        """One request's token, if there is one; ``now`` is the monotonic clock's reading
        (read here when not given)."""
        rate = self.rate
        if rate <= 0:
            return True
        if now is None:
            now = time.monotonic()
        tokens = self.tokens + (now - self.stamp) * rate
        if tokens > self.burst:
            tokens = self.burst
        self.stamp = now
        if tokens >= 1.0:
            self.tokens = tokens - 1.0
            return True
        self.tokens = tokens
        return False


@dataclass(frozen=True)
class AuthLimit:
    """Wrong tokens per client address: ``burst`` at once, then one more every
    ``1 / per_second`` seconds. While throttled, every attempt from that address is refused
    (``auth_throttled``) without looking the token up, a right one too: a guesser learns
    nothing. ``per_second`` 0 switches it off."""

    burst: float = 10.0
    per_second: float = 0.2
    max_addresses: int = 100_000


DEFAULT_AUTH = AuthLimit()


class AuthThrottle:
    """Failure buckets per address, the least recently seen dropped past ``max_addresses``."""

    def __init__(
        self, limit: AuthLimit = DEFAULT_AUTH, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.limit = limit
        self.clock = clock
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()

    def _level(self, address: str, now: float) -> float:
        tokens, stamp = self._buckets.get(address, (self.limit.burst, now))
        return min(self.limit.burst, tokens + (now - stamp) * self.limit.per_second)

    def wait(self, address: str) -> float:
        """Seconds before ``address`` may try again (0: now)."""
        if self.limit.per_second <= 0 or address not in self._buckets:
            return 0.0
        level = self._level(address, self.clock())
        return 0.0 if level >= 1.0 else (1.0 - level) / self.limit.per_second

    def failed(self, address: str) -> None:
        if self.limit.per_second <= 0:
            return
        now = self.clock()
        level = max(0.0, self._level(address, now) - 1.0)
        self._buckets[address] = (level, now)
        self._buckets.move_to_end(address)
        while len(self._buckets) > self.limit.max_addresses:
            self._buckets.popitem(last=False)


@dataclass(frozen=True)
class WorldLimit:
    """Per world: at most ``max_connections`` open connections (``world_full``) and
    ``per_second`` requests in bursts of ``burst`` from all its connections together
    (``world_rate_limited``), so one busy table cannot slow every other table down.
    0 switches either off."""

    max_connections: int = 200
    per_second: float = 200.0
    burst: float = 400.0


DEFAULT_WORLD = WorldLimit()


class WorldGuard:
    """Connection counts and request buckets per world."""

    def __init__(self, limit: WorldLimit = DEFAULT_WORLD) -> None:
        self.limit = limit
        self.connections: Counter[str] = Counter()
        self._buckets: dict[str, Bucket] = {}

    def full(self, world_id: str) -> bool:
        return 0 < self.limit.max_connections <= self.connections[world_id]

    def joined(self, world_id: str) -> None:
        self.connections[world_id] += 1

    def left(self, world_id: str) -> None:
        self.connections[world_id] -= 1
        if self.connections[world_id] <= 0:
            del self.connections[world_id]
            self._buckets.pop(world_id, None)

    def take(self, world_id: str, now: float | None = None) -> bool:
        bucket = self._buckets.get(world_id)
        if bucket is None:
            bucket = Bucket(RateLimit(self.limit.per_second, self.limit.burst))
            self._buckets[world_id] = bucket
        return bucket.take(now)

    def admit(self, connection: Bucket, world_id: str) -> str | None:
        """A request of a connection to ``world_id``: None when both its connection's
        bucket and its world's have a token (each taken), else the error code: the
        connection's limit first (a refused request takes nothing from its world's).
        Both buckets are taken on one clock reading."""
        world = self._buckets.get(world_id)
        if world is None:
            world = self._buckets[world_id] = Bucket(
                RateLimit(self.limit.per_second, self.limit.burst)
            )
        now = _monotonic()
        if not connection.take(now):
            return "rate_limited"
        if not world.take(now):
            return "world_rate_limited"
        return None


def normal_address(text: str) -> str:
    """``text`` as the canonical form of its IP address (``::ffff:10.0.0.1`` stays as
    given), or unchanged when it is no IP address."""
    try:
        return ipaddress.ip_address(text.strip().strip("[]")).compressed
    except ValueError:
        return text.strip()


def client_address(peer: str | None, forwarded_for: str | None, trusted: frozenset[str]) -> str:
    """The address the wrong-token throttle counts a connection under.

    The socket's peer, unless the peer is one of the operator's trusted proxies
    (``serve --trusted-proxy``): then the right-most ``X-Forwarded-For`` entry that is
    not itself a trusted proxy. Each proxy appends the address it saw, so anything to
    the left of that entry may have been written by the client and is never used.
    """
    address = normal_address(peer) if peer else "unknown"
    if address not in trusted or not forwarded_for:
        return address
    for hop in reversed(forwarded_for.split(",")[-MAX_FORWARDED_HOPS:]):
        hop = normal_address(hop)
        if hop and hop not in trusted:
            return hop
    return address


MAX_FORWARDED_HOPS = 16
"""X-Forwarded-For entries read at most (from the right): more proxies than this in
front of the bridge is a misconfiguration, and a forged header cannot make us walk far."""
