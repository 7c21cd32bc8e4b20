"""The address the wrong-token throttle counts (bridge.limits.client_address)."""

from __future__ import annotations

import pytest

from bridge.limits import MAX_FORWARDED_HOPS, client_address, normal_address

PROXY = frozenset({"10.0.0.2", "10.0.0.3"})


@pytest.mark.parametrize(
    ("peer", "forwarded", "expected"),
    [
        ("198.51.100.9", None, "198.51.100.9"),
        ("198.51.100.9", "203.0.113.7", "198.51.100.9"),  # not a proxy of ours: ignored
        ("10.0.0.2", None, "10.0.0.2"),
        ("10.0.0.2", "203.0.113.7", "203.0.113.7"),
        ("10.0.0.2", "1.2.3.4, 203.0.113.7", "203.0.113.7"),  # left entries can be forged
        ("10.0.0.2", "203.0.113.7, 10.0.0.3", "203.0.113.7"),  # two proxies of ours
        ("10.0.0.2", "10.0.0.3", "10.0.0.2"),  # only proxies: the peer
        ("10.0.0.2", " , ", "10.0.0.2"),
        ("10.0.0.2", "[2001:db8::1]", "2001:db8::1"),
        ("10.0.0.2", "2001:0db8:0:0::1", "2001:db8::1"),
        (None, "203.0.113.7", "unknown"),
    ],
)
def test_client_address(peer: str | None, forwarded: str | None, expected: str) -> None:
    assert client_address(peer, forwarded, PROXY) == expected


def test_a_long_forged_header_is_read_only_from_the_right() -> None:
    chain = ", ".join(["10.0.0.3"] * (MAX_FORWARDED_HOPS + 5) + [])
    assert client_address("10.0.0.2", "203.0.113.7, " + chain, PROXY) == "10.0.0.2"


def test_normal_address() -> None:
    assert normal_address(" ::FFFF:10.0.0.1 ") == "::ffff:a00:1"
    assert normal_address("not-an-ip") == "not-an-ip"


def test_a_request_takes_its_connections_token_then_its_worlds() -> None:
    from bridge.limits import Bucket, RateLimit, WorldGuard, WorldLimit

    guard = WorldGuard(WorldLimit(per_second=1.0, burst=2.0))
    one = Bucket(RateLimit(per_second=1.0, burst=1.0))
    other = Bucket(RateLimit(per_second=1.0, burst=5.0))
    assert guard.admit(one, "w") is None
    # The connection's bucket is empty: refused as rate_limited, the world's left alone.
    assert guard.admit(one, "w") == "rate_limited"
    assert guard.admit(other, "w") is None  # the world's second token
    assert guard.admit(other, "w") == "world_rate_limited"
    assert guard.admit(other, "x") is None  # another world: its own bucket
    off = WorldGuard(WorldLimit(per_second=0.0))
    unlimited = Bucket(RateLimit(per_second=0.0))
    assert all(off.admit(unlimited, "w") is None for _ in range(1000))


def test_a_bucket_refills_with_the_clock_it_is_given() -> None:
    from bridge.limits import Bucket, RateLimit

    bucket = Bucket(RateLimit(per_second=2.0, burst=2.0), stamp=100.0)
    assert bucket.take(100.0) and bucket.take(100.0)
    assert not bucket.take(100.0)
    assert not bucket.take(100.25)  # half a token
    assert bucket.take(100.5)  # one token back after half a second
    assert bucket.take(200.0) and bucket.take(200.0)  # never more than the burst
    assert not bucket.take(200.0)
